"""OpenAI Chat -> OpenAI Responses, direct: an agent's Chat Completions history sent to a
model OpenAI serves only through the Responses API (or a gateway that speaks it).

The canonical path reads each message into canonical data and the Responses writer walks
that list again. Here the closed front's validated copy of the messages (what
:func:`~.openai_chat_source.admit` takes) is written as ``input`` items in one pass, for
the shapes an agent's history is made of. Every rule is the canonical side's own
function, called with the canonical part and the canonical place: an assistant turn is
read by the reader's own :func:`~chatcodec._providers.openai_chat.plain_turn.read_plain_turn`
and written by the writer's own
:func:`~chatcodec._providers.openai_responses.items.request_turn` (reasoning that Responses
cannot replay reported, a call's name rule, a long ``call_id`` noted for the target rule);
a tool result is :func:`~chatcodec._providers.openai_responses.messages.plain_output`;
user parts are the reader's ``decode_parts`` and the writer's ``encode_parts`` (the
base64 check, the image detail). The top level (model, tools, settings, target rules) is
the canonical reader's and writer's, run on the body without its messages; the Responses
writer takes the items written here as its ``input`` (:class:`DirectReading`).

A body of any other shape is handed back before anything is written, and a turn the
reader would read otherwise on the way hands the conversion back too: the canonical path
converts it whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from chatcodec._direct.openai_chat_source import UnadmittedError, admit, write_directly
from chatcodec._providers.contract.context import Reading
from chatcodec._providers.openai_chat.parts import decode_parts
from chatcodec._providers.openai_chat.plain_turn import read_plain_turn
from chatcodec._providers.openai_responses.items import request_turn
from chatcodec._providers.openai_responses.messages import encode_parts, plain_output

if TYPE_CHECKING:
    from chatcodec._codec_protocols import Codec
    from chatcodec._losses import LossRecorder
    from chatcodec._providers.contract.context import EncodeContext

TARGET = "openai-responses"


class DirectReading(Reading):
    """The conversion's record for the Responses writer, carrying the items this path writes
    (the writer takes its ``input`` from :attr:`direct_items`)."""

    __slots__ = ("_messages",)

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        super().__init__()
        self._messages = messages

    def direct_items(self, context: EncodeContext) -> list[dict[str, Any]]:
        """The body's ``input``, in the writer's place for it (:func:`write_items`)."""
        return write_items(self._messages, context, self)


def convert(payload: dict[str, Any], recorder: LossRecorder, writer: Codec) -> dict[str, Any] | None:
    """``payload`` written for OpenAI Responses, its losses in ``recorder``; None when it is
    not of the shapes admitted (``recorder`` is then the caller's to drop)."""
    admission = admit(payload)
    if admission is None:
        return None
    return write_directly(payload, recorder, TARGET, writer, noted=DirectReading(admission[0]), admission=admission)


def write_items(messages: list[dict[str, Any]], context: EncodeContext, noted: Reading) -> list[dict[str, Any]]:
    """The ``input`` items for admitted ``messages`` (:func:`~.openai_chat_source.admitted`),
    each loss at the place the canonical writer names (the canonical message's index: a run
    of tool messages is one). ``noted``: the conversion's reading, where the reader notes an
    SDK dump's nulls (which this writer passes over)."""
    losses, holds = context.losses, context.holds
    items: list[dict[str, Any]] = []
    index = -1  # the canonical index of the message being written
    results = False  # whether the last message was a tool result (a run of them is one message)
    for message in messages:
        role = message["role"]
        content = message["content"]
        if role == "tool":
            if not results:
                index += 1
                results = True
            items.append(plain_output(message["tool_call_id"], content, holds))
            continue
        results = False
        index += 1
        if type(content) is str and (role != "assistant" or len(message) == 2):  # a role and its text
            items.append({"role": role, "content": content})
        elif role == "assistant":
            turn = read_plain_turn(message, closed=True, noted=noted)
            if turn is None or not turn["content"]:  # read otherwise: the canonical path's
                raise UnadmittedError
            items += request_turn(turn["content"], losses, ("messages", index), holds)
        else:
            parts = cast("list[dict[str, Any]]", decode_parts(content))  # a list gives a list
            items.append({"role": role, "content": encode_parts(parts, context, ("messages", index))})
    return items
