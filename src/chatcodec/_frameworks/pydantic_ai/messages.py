"""A pydantic-ai history (``ModelMessagesTypeAdapter``'s list) <-> canonical messages.

A ``ModelRequest`` is the system, user and tool messages its parts stand for
(:mod:`.request_parts`); a ``ModelResponse`` is one assistant message (:mod:`.response_parts`).
Written back, consecutive non-assistant messages form one request, except where a message
marks the start of a request of its own, so a history read and written again is the same
history; messages from another format group as pydantic-ai groups them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._frameworks.pydantic_ai.markers import KIT, PROVIDER
from chatcodec._frameworks.pydantic_ai.request_parts import (
    RequestWriter,
    decode_request_message,
    keep_empty,
    left_out,
    no_parts,
)
from chatcodec._frameworks.pydantic_ai.response_parts import (
    decode_response_message,
    encode_response_message,
    write_part,
)
from chatcodec.codec_kit import as_dict, as_list
from chatcodec.contract import DecodeContext, EncodeContext, Steps


def decode_messages(wire: Sequence[Mapping[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """A stored history's messages as canonical message dicts."""
    del context  # nothing shared but the instructions, followed here
    messages: list[dict[str, Any]] = []
    instructions: str | None = None
    follows = False
    empty: list[dict[str, Any]] = []  # requests without parts, kept on the next message
    for entry in wire:
        if entry["kind"] == "response":
            read = [decode_response_message(entry)]
            follows = False
        else:
            read, envelope = decode_request_message(entry, instructions, follows)
            follows = True
            if isinstance(entry.get("instructions"), str):
                instructions = entry["instructions"]
            if not read:
                empty.append(envelope)
                continue
        if empty:
            keep_empty(read[0], empty, "before")
            empty = []
        messages.extend(read)
    if empty and messages:
        keep_empty(messages[-1], empty, "after")
    elif empty:
        messages.append(no_parts(empty))
    return messages


_BEFORE = ("empty_requests_before", "_empty_requests_before")
_AFTER = ("empty_requests_after", "_empty_requests_after", "_no_parts")


def encode_messages(messages: Sequence[Mapping[str, Any]], start: int, context: EncodeContext) -> list[dict[str, Any]]:
    """``messages[start:]`` as a stored history (``ModelRequest`` and ``ModelResponse`` dicts)."""
    history: list[dict[str, Any]] = []
    requests = RequestWriter(context)
    for index, kept in enumerate(messages[start:], start):
        at = ("messages", index)
        message, before = _taken(kept, _BEFORE)
        message, after = _taken(message, _AFTER)
        for envelope in before:
            requests.empty(envelope, history)
        if message["role"] != "assistant" and not KIT.marker(kept.get("provider_metadata"), "_no_parts"):
            requests.write(message, at, history)
        elif message["role"] == "assistant":
            response = encode_response_message(message, context, at)
            if left_out(message, response["parts"], context, at):
                continue
            requests.close()
            for part in response["parts"]:
                if part.get("part_kind") == "tool-call" and isinstance(part.get("tool_call_id"), str):
                    requests.names[part["tool_call_id"]] = part["tool_name"]
            history.append(response)
        for envelope in after:
            requests.empty(envelope, history)
    return history


def _taken(message: Mapping[str, Any], keys: tuple[str, ...]) -> tuple[Mapping[str, Any], list[dict[str, Any]]]:
    """``message`` without the kept requests under ``keys`` in its bag, and those requests."""
    own = KIT.own(message.get("provider_metadata"))
    found = [as_dict(envelope) or {} for key in keys for envelope in as_list(own.get(key)) or ()]
    if not any(key in own for key in keys):
        return message, []
    rest = {key: value for key, value in own.items() if key not in keys}
    bags = as_dict(message.get("provider_metadata")) or {}
    metadata = {name: bag for name, bag in bags.items() if name != PROVIDER}
    if rest:
        metadata[PROVIDER] = rest
    trimmed = {key: value for key, value in message.items() if key != "provider_metadata"}
    if metadata:
        trimmed["provider_metadata"] = metadata
    return trimmed, found


def encode_part(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The part role: one canonical part as a response part (None, with a loss, for one it has none for)."""
    return write_part(part, None, context, at)
