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

from chatcodec._frameworks.pydantic_ai.request_parts import RequestWriter, decode_request_message
from chatcodec._frameworks.pydantic_ai.response_parts import (
    decode_response_message,
    encode_response_message,
    write_part,
)
from chatcodec.contract import DecodeContext, EncodeContext, Steps


def decode_messages(wire: Sequence[Mapping[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """A stored history's messages as canonical message dicts."""
    del context  # nothing shared but the instructions, followed here
    messages: list[dict[str, Any]] = []
    instructions: str | None = None
    follows = False
    for entry in wire:
        if entry["kind"] == "response":
            messages.append(decode_response_message(entry))
            follows = False
            continue
        messages.extend(decode_request_message(entry, instructions, follows))
        follows = True
        if isinstance(entry.get("instructions"), str):
            instructions = entry["instructions"]
    return messages


def encode_messages(messages: Sequence[Mapping[str, Any]], start: int, context: EncodeContext) -> list[dict[str, Any]]:
    """``messages[start:]`` as a stored history (``ModelRequest`` and ``ModelResponse`` dicts)."""
    history: list[dict[str, Any]] = []
    requests = RequestWriter(context)
    for index, message in enumerate(messages[start:], start):
        at = ("messages", index)
        if message["role"] != "assistant":
            requests.write(message, at, history)
            continue
        requests.close()
        response = encode_response_message(message, context, at)
        for part in response["parts"]:
            if part.get("part_kind") == "tool-call" and isinstance(part.get("tool_call_id"), str):
                requests.names[part["tool_call_id"]] = part["tool_name"]
        history.append(response)
    return history


def encode_part(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The part role: one canonical part as a response part (None, with a loss, for one it has none for)."""
    return write_part(part, None, context, at)
