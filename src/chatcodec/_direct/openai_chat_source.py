"""The OpenAI Chat side of its direct paths (:mod:`chatcodec._direct`): which bodies they
take, the closed front's verdict on their messages, the conversion around a pair's one pass
(the top level read and written by the canonical reader and writer themselves, the losses
traced to the input), and the canonical messages read only when a loss names one
(:class:`~chatcodec._direct.canonical_messages.CanonicalMessages`, with this reader's own
``decode_messages``).

Every pair from OpenAI Chat admits the same shapes (what its reader reads as plain: a
leading system prompt, user text and images, assistant text, reasoning and function calls,
tool results of text, an SDK dump's ``null`` fields), so the walk that decides it has one
home here; each pair's module holds only its own pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._conversion import read_request_data, trace_source, write_request_data
from chatcodec._direct.canonical_messages import CanonicalMessages
from chatcodec._providers.openai_chat.common_shapes import COMMON_MESSAGES
from chatcodec._providers.openai_chat.messages import decode_messages
from chatcodec._providers.openai_chat.null_spelling import SPELLED_NULLS

if TYPE_CHECKING:
    from chatcodec._codec_protocols import Codec
    from chatcodec._losses import LossRecorder
    from chatcodec._providers.contract.context import Reading

SOURCE = "openai-chat"

_ASSISTANT_KEYS = frozenset({"role", "content", "reasoning_content", "tool_calls"}) | SPELLED_NULLS
"""An assistant turn the reader reads as a plain turn (``plain_turn.read_plain_turn``): its
fields, and the SDK dump's ``null`` ones (the closed front takes those as ``null`` only)."""


class UnadmittedError(Exception):
    """A rule answered outside the shapes this path writes: the canonical path converts the body."""


def admit(payload: dict[str, Any]) -> tuple[list[dict[str, Any]], list[int]] | None:
    """The closed front's validated copy of ``payload``'s messages and where each canonical
    message starts in it (:func:`admitted`), or None for a body of any other shape."""
    messages: Any = payload.get("messages")
    starts = admitted(messages) if messages.__class__ is list else None
    validated = None if starts is None else COMMON_MESSAGES.validate({"messages": messages})
    return None if validated is None or starts is None else (validated["messages"], starts)


def write_directly(
    payload: dict[str, Any],
    recorder: LossRecorder,
    target: str,
    writer: Codec,
    *,
    noted: Reading,
    admission: tuple[list[dict[str, Any]], list[int]],
) -> dict[str, Any] | None:
    """``payload`` written for ``target`` by its ``writer`` with the turns its direct path wrote (``noted``, the
    pair's reading, carries them), its losses in ``recorder``: the top level read and
    written by the canonical reader and writer, on the body without its messages; None
    when anything on the way refused or raised (the canonical path converts it then)."""
    validated, starts = admission
    try:
        canonical = read_request_data({**payload, "messages": []}, SOURCE, noted=noted)
        messages = CanonicalMessages(validated, starts, SOURCE, decode_messages)
        trace_source(recorder, payload, SOURCE, canonical, messages=messages, starts=starts)
        return write_request_data(canonical, target, recorder, noted=noted, writer=writer)
    except Exception:  # whatever a rule raised (or UnadmittedError): the canonical path raises it, in its own words
        return None


def admitted(messages: list[Any]) -> list[int] | None:
    """Where each canonical message of ``messages`` starts (a run of tool messages is one),
    when they hold only the shapes a pair's pass writes and nothing the shared history
    rules act on (the reader's ``plain_history``): a leading system prompt of text, then
    user, assistant and tool messages, each call's turn followed by results, no blank text,
    the last message not an assistant's (a prefill is trimmed). None for any other.

    Asked of the body as given, before the closed front validates it: a body handed back
    costs this walk, not a validation the canonical path then does again. It looks at keys,
    roles and texts only; the front checks every value after it."""
    if not messages or messages[-1].__class__ is not dict or messages[-1].get("role") == "assistant":
        return None
    starts: list[int] = []
    start = starts.append
    called = results = False
    for position, message in enumerate(messages):
        role = message.get("role") if message.__class__ is dict else None
        if role == "tool":  # most messages of an agent's history: :func:`_bare` inline
            size = len(message)
            if type(message.get("content")) is not str or (size != 3 and (size != 4 or "name" not in message)):
                return None
            if not results:
                start(position)
                results = True
            called = False
            continue
        if called:
            return None
        results = False
        start(position)
        if role == "assistant":
            if not _plain_turn(message):
                return None
            called = "tool_calls" in message
        elif role == "user":
            if not _bare(message, 2) or not _user_content(message.get("content")):
                return None
        elif role != "system" or position != 0 or type(message.get("content")) is not str or not _bare(message, 2):
            return None
    return starts


def _bare(message: Mapping[str, Any], fields: int) -> bool:
    """A message of its ``fields`` only, or with an SDK dump's ``"name": null`` beside them
    (the closed front takes ``name`` as ``null`` only)."""
    return len(message) == fields or (len(message) == fields + 1 and "name" in message)


def _blank(text: str) -> bool:
    return not text or text.isspace()


def _plain_turn(message: Mapping[str, Any]) -> bool:
    if "content" not in message or not message.keys() <= _ASSISTANT_KEYS:
        return False
    content = message["content"]
    if content is not None and (type(content) is not str or _blank(content)):
        return False
    if "tool_calls" in message:
        return True
    if "reasoning_content" in message:
        return content is not None
    return len(message) == 2 and content is not None  # a bare content string (with nulls: read otherwise)


def _user_content(content: Any) -> bool:
    """Text, or a list of text and image parts (the front checks the images), none blank."""
    if type(content) is str:
        return not _blank(content)
    if content.__class__ is not list or not content:
        return False
    for part in content:
        kind = part.get("type") if part.__class__ is dict else None
        if kind == "text":
            text = part.get("text")
            if len(part) != 2 or type(text) is not str or _blank(text):
                return False
        elif kind != "image_url":
            return False
    return True
