"""OpenAI Responses -> OpenAI Chat, direct: an agent written on the Responses API (the
OpenAI Agents SDK, Codex-style clients) sent to a Chat Completions server through a gateway.

The canonical path reads each item into canonical data (a run of assistant items one
turn, a run of call outputs one tool message) and the OpenAI Chat writer walks that list
again. Here the closed front's validated copy of the items (the reader's own front,
:data:`~chatcodec._providers.openai_responses.wire.ITEMS`) is written as Chat messages in
one pass, for the shapes an agent's history is made of: system, developer and user
messages, user text and images, assistant text, function calls and their outputs of text.
Every rule is the canonical side's own function, called with the canonical part and the
canonical place: the image reading and writing (the Responses reader's ``decode_parts``,
the Chat writer's ``encode_part``: the base64 check), a call's wire form
(:func:`~chatcodec._providers.openai_chat.tool_calls.plain_call_wire`, for a name OpenAI
takes as it is). The top level (model, tools, settings, target rules, servers) is the
canonical reader's and writer's, run on the body without its items; the Chat writer
takes the messages written here in their place (:class:`DirectReading`).

A body of any other shape (``instructions``, reasoning items, typed message items, calls
answered out of place) is handed back before anything is written (:func:`admitted`), and
a rule that answers outside the admitted shapes on the way (an image Chat cannot carry, a
tool name it rewrites) hands the conversion back too: the canonical path converts it
whole, and says what it refuses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chatcodec._conversion import read_request_data, trace_source, write_request_data
from chatcodec._direct.canonical_messages import CanonicalMessages
from chatcodec._providers.contract.context import Reading
from chatcodec._providers.openai_chat.parts import encode_part
from chatcodec._providers.openai_chat.tool_calls import TAKEN, TAKES, plain_call_wire
from chatcodec._providers.openai_responses.messages import decode_messages
from chatcodec._providers.openai_responses.parts import USER_KINDS, decode_parts
from chatcodec._providers.openai_responses.wire import ITEMS

if TYPE_CHECKING:
    from chatcodec._codec_protocols import Codec
    from chatcodec._losses import LossRecorder
    from chatcodec.contract import EncodeContext

SOURCE, TARGET = "openai-responses", "openai-chat"

_ROLES = frozenset({"system", "developer", "user", "assistant"})
"""The roles of a bare message item admitted (``{"role": ..., "content": ...}``, no ``type``)."""


class UnadmittedError(Exception):
    """A rule answered outside the shapes this path writes: the canonical path converts the body."""


class DirectReading(Reading):
    """The conversion's record for the OpenAI Chat writer, carrying the messages this path
    writes (the writer takes its ``messages`` from :attr:`direct_messages`)."""

    __slots__ = ("_items",)

    def __init__(self, items: list[dict[str, Any]]) -> None:
        super().__init__()
        self._items = items

    def direct_messages(self, context: EncodeContext) -> list[dict[str, Any]]:
        """The body's ``messages``, in the writer's place for them (:func:`write_messages`)."""
        return write_messages(self._items, context)


def convert(payload: dict[str, Any], recorder: LossRecorder, writer: Codec) -> dict[str, Any] | None:
    """``payload`` written for OpenAI Chat, its losses in ``recorder``; None when it is not
    of the shapes admitted (``recorder`` is then the caller's to drop)."""
    items: Any = payload.get("input")
    starts = admitted(items) if items.__class__ is list and "instructions" not in payload else None
    validated = None if starts is None else ITEMS.front(items)
    if validated is None or starts is None:
        return None
    noted = DirectReading(validated)
    try:
        canonical = read_request_data({**payload, "input": []}, SOURCE, noted=noted)
        read = CanonicalMessages(validated, starts, SOURCE, decode_messages)
        trace_source(recorder, payload, SOURCE, canonical, messages=read)
        return write_request_data(canonical, TARGET, recorder, noted=noted, writer=writer)
    except Exception:  # whatever a rule raised (or UnadmittedError): the canonical path raises it, in its own words
        return None


def admitted(items: list[Any]) -> list[int] | None:
    """Where each canonical message of ``items`` starts (an assistant's text and the calls
    after it are one, a run of call outputs one), when they hold only the shapes
    :func:`write_messages` writes and nothing the shared history rules act on (the
    reader's ``plain_history``): bare message items of a string (a user's may hold text
    and image parts), an assistant's text starting its turn, plain function calls, each
    run of them followed by outputs of text. None for any other.

    Asked of the body as given, before the closed front validates it: a body handed back
    costs this walk, not a validation the canonical path then does again. It looks at keys,
    types and roles only; the front checks every value after it."""
    if not items:
        return None
    starts: list[int] = []
    previous = ""  # what the last item was: "text" (an assistant's), "call", "output", or "" (another message)
    for position, item in enumerate(items):
        kind = item.get("type") if item.__class__ is dict else False
        if kind == "function_call":
            if len(item) != 4 or "arguments" not in item or "name" not in item or "call_id" not in item:
                return None
            if previous not in ("text", "call"):
                starts.append(position)
            previous = "call"
            continue
        if kind == "function_call_output":
            if len(item) != 3 or type(item.get("output")) is not str or "call_id" not in item:
                return None
            if previous != "output":
                starts.append(position)
            previous = "output"
            continue
        if previous == "call" or kind is not None or len(item) != 2:  # calls answered first; no typed message
            return None
        role = item.get("role")
        content = item.get("content")
        if role not in _ROLES or (type(content) is not str and (role != "user" or not _user_parts(content))):
            return None
        starts.append(position)
        previous = "text" if role == "assistant" else ""
    return starts


def _user_parts(content: Any) -> bool:
    """A list of text and image parts (the front checks their values)."""
    if content.__class__ is not list or not content:
        return False
    for part in content:
        kind = part.get("type") if part.__class__ is dict else None
        if (kind != "input_text" or len(part) != 2) and kind != "input_image":
            return False
    return True


def write_messages(items: list[dict[str, Any]], context: EncodeContext) -> list[dict[str, Any]]:
    """The body's ``messages`` for admitted ``items`` (:func:`admitted`), each loss at the
    place the canonical writer names (the canonical message's index: an assistant's text
    and calls are one, a run of outputs one)."""
    messages: list[dict[str, Any]] = []
    append = messages.append
    turn: dict[str, Any] | None = None  # the open assistant message, which the calls after it join
    index = -1  # the canonical index of the message being written
    outputs = False  # whether the last item was a call output (a run of them is one canonical message)
    for item in items:
        kind = item.get("type")
        if kind == "function_call_output":
            if not outputs:
                index += 1
                outputs = True
                turn = None
            append({"role": "tool", "tool_call_id": item["call_id"], "content": item["output"]})
            continue
        outputs = False
        if kind == "function_call":
            if turn is None:
                index += 1
                turn = {"role": "assistant", "content": None, "tool_calls": []}
                append(turn)
            calls: list[dict[str, Any]] | None = turn.get("tool_calls")
            if calls is None:
                calls = turn["tool_calls"] = []
            append_call(calls, item)
            continue
        index += 1
        role, content = item["role"], item["content"]
        if role == "assistant":
            turn = {"role": "assistant", "content": content}
            append(turn)
            continue
        turn = None
        if type(content) is str:
            append({"role": role, "content": content})
        else:
            append({"role": role, "content": _user_parts_written(content, index, context)})
    return messages


def append_call(calls: list[dict[str, Any]], item: dict[str, Any]) -> None:
    """A plain function call item as the Chat writer writes its plain call: a name OpenAI
    takes as it is (another one is rewritten, with a loss: the canonical path's)."""
    name = item["name"]
    if name not in TAKEN and not TAKES(name):
        raise UnadmittedError
    part = {"type": "tool_use", "id": item["call_id"], "name": name, "arguments": item["arguments"]}
    calls.append(plain_call_wire(part, name))


def _user_parts_written(content: list[Any], index: int, context: EncodeContext) -> list[dict[str, Any]]:
    """A user message's parts, read by the Responses reader's ``decode_parts`` and written
    by the Chat writer's ``encode_part``, each at its canonical place."""
    written: list[dict[str, Any]] = []
    for position, part in enumerate(decode_parts(content, USER_KINDS)):
        if "provider_metadata" in part:  # a part of the Responses wire kept in a bag: the canonical path's
            raise UnadmittedError
        encoded = encode_part(part, context, ("messages", index, "content", position))
        if encoded is None:  # dropped (a loss): the canonical path's, which may drop the message
            raise UnadmittedError
        written.append(encoded)
    return written
