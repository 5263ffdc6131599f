"""A2A messages <-> canonical messages.

A ``ROLE_USER`` message is a user message, a ``ROLE_AGENT`` one an assistant message, their
parts read by :mod:`.parts`; the message's other fields ride in its bag. Written, a system
or developer message, a tool's results and a participant's name are losses (an A2A message
is a user's or an agent's parts, nothing else).

Every A2A message has a ``messageId``, made by whoever writes the message. A message written
here from one that has none gets the id of its place, :func:`default_id` (``message-3`` for
the third), and a message read with the id of its place keeps none: so a conversation read
and written again is the same, and one written and read again gains no id. A message read
without an id (the specification's examples of a status message) is marked ``_no_id`` and
written without one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._frameworks.a2a.markers import AGENT, ARTIFACT, DISPLAY, KIT, NO_ID, STATUS, USER
from chatcodec._frameworks.a2a.parts import decode_part, encode_part
from chatcodec.codec_kit import leftovers, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext, Steps

TAG = "a2aTag"
"""The field of a written message that says where it stands (:data:`HISTORY`, :data:`STATUS`
or :data:`ARTIFACT`), which canonical message it was and the artifact's fields it kept: read
by the request's writer, which places it (a task's history, status or artifacts) and takes it
off. It never leaves the format."""
HISTORY = "history"

ORDER = ("messageId", "contextId", "taskId", "role", "parts", "metadata", "extensions", "referenceTaskIds")
"""A message's fields in ``a2a.proto``'s order (what ProtoJSON writers write)."""


def default_id(index: int) -> str:
    """The ``messageId`` of the message at ``index`` (from 0) of a list, written for one that has none."""
    return f"message-{index + 1}"


def decode_messages(wire: list[Any], context: DecodeContext) -> list[dict[str, Any]]:
    """Checked A2A messages as canonical message dicts."""
    del context
    return [decode_message(message, default_id(index)) for index, message in enumerate(wire)]


def decode_message(message: Mapping[str, Any], default: str) -> dict[str, Any]:
    """One checked message; its ``messageId`` kept unless it is ``default``."""
    agent = message["role"] == AGENT
    parts = [decode_part(part, agent) for part in message["parts"]]
    bag = leftovers(message, ("role", "parts"))
    if "messageId" not in message:
        bag[NO_ID] = True
    elif bag.get("messageId") == default:
        del bag["messageId"]
    return KIT.attach({"role": "assistant" if agent else "user", "content": parts}, bag)


def with_id(message: dict[str, Any], index: int) -> dict[str, Any]:
    """``message`` with a ``messageId`` (:func:`default_id` when it has none; none when it is
    ``None``, a message read without one), fields in order."""
    if message.setdefault("messageId", default_id(index)) is None:
        del message["messageId"]
    return {key: message[key] for key in (*ORDER, *message) if key in message}


def encode_messages(messages: Sequence[Mapping[str, Any]], start: int, context: EncodeContext) -> list[dict[str, Any]]:
    """``messages[start:]`` as A2A messages, each tagged (:data:`TAG`) with its place and index."""
    written: list[dict[str, Any]] = []
    for index in range(start, len(messages)):
        message = messages[index]
        wire = encode_message(message, context, ("messages", index))
        if wire is None:
            continue
        own = KIT.own(message.get("provider_metadata"))
        place = ARTIFACT if ARTIFACT in own else STATUS if own.get(STATUS) else HISTORY
        wire[TAG] = (place, index, own.get(ARTIFACT))
        written.append(wire)
    return written


def encode_message(message: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """One canonical message as an A2A message without a ``messageId`` of its place (None
    for one A2A has no role for: a loss)."""
    role = message["role"]
    losses = context.losses
    if role not in ("user", "assistant"):
        what = "tool results" if role == "tool" else f"{role} message"
        losses.add(at, what, f"{DISPLAY} messages are a user's or an agent's parts")
        return None
    bag = KIT.claim(losses, message.get("provider_metadata"), at)
    wire = wire_fields(bag)
    wire.pop(ARTIFACT, None)  # the artifact's fields: placed by the request's writer
    if bag.get(NO_ID) and "messageId" not in wire:
        wire["messageId"] = None  # read without one: :func:`with_id` writes none
    if message.get("name") is not None:
        losses.add((*at, "name"), "participant name", f"{DISPLAY} messages name no participant")
    if message.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache marker", f"{DISPLAY} has no cache markers", "metadata")
    content = message["content"]
    parts: list[dict[str, Any]] = []
    if isinstance(content, str):
        parts.append({"text": content})
    else:
        for number, part in enumerate(content):
            written = encode_part(part, context, (*at, "content", number))
            if written is not None:
                parts.append(written)
    wire["role"] = AGENT if role == "assistant" else USER
    wire["parts"] = parts
    return wire
