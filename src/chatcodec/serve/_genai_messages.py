"""Canonical messages in the OpenTelemetry GenAI conventions' message format.

The conventions put a call's messages on its span as JSON (``gen_ai.input.messages``,
``gen_ai.output.messages``, ``gen_ai.system_instructions``), each message
``{"role", "parts": [...]}`` with parts typed ``text`` (``content``), ``tool_call``
(``id``, ``name``, ``arguments``), ``tool_call_response`` (``id``, ``response``),
``reasoning`` (``content``), ``uri``/``blob`` for media, and an output message's
``finish_reason`` (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/ and
its ``gen-ai-input-messages.json``/``gen-ai-output-messages.json`` schemas). Canonical
data maps onto it part by part; a part with no conventional type keeps its canonical
``type`` alone (the conventions' generic part), never its content.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from chatcodec._narrow import as_dict, as_list

FINISH_REASONS = {"tool_calls": "tool_call", "refusal": "content_filter"}
"""Canonical unified finish reasons whose conventional name differs (the rest are equal
or have none: ``pause`` and ``other`` pass as they are)."""


def system_instructions(messages: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The parts of the system and developer messages."""
    return [part for message in messages if message.get("role") in ("system", "developer") for part in parts(message)]


def input_messages(messages: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The conversation without its system messages, in the conventions' format."""
    return [
        {"role": message.get("role"), "parts": parts(message)}
        for message in messages
        if message.get("role") not in ("system", "developer")
    ]


def output_message(message: Mapping[str, Any], finish_reason: str | None) -> dict[str, Any]:
    """One answer (an assistant message) with its finish reason."""
    return {"role": "assistant", "parts": parts(message), "finish_reason": finish_reason or ""}


def finish_reason(unified: object) -> str | None:
    """A canonical unified finish reason in the conventions' vocabulary."""
    return FINISH_REASONS.get(unified, unified) if isinstance(unified, str) else None


def parts(message: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A message's content as conventional parts (a string is one text part)."""
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "content": content}]
    return [part_for(part) for part in (as_list(content) or []) if as_dict(part) is not None]


def part_for(part: Mapping[str, Any]) -> dict[str, Any]:
    """One canonical part as a conventional part."""
    kind = part.get("type")
    if kind == "text":
        return {"type": "text", "content": part.get("text", "")}
    if kind == "thinking":
        return {"type": "reasoning", "content": part.get("text", "")}
    if kind == "tool_use":
        return {"type": "tool_call", "id": part.get("id"), "name": part.get("name"), "arguments": _arguments(part)}
    if kind == "tool_result":
        return {"type": "tool_call_response", "id": part.get("tool_use_id"), "response": part.get("content")}
    if kind in ("image", "audio", "video", "document"):
        return _media(str(kind), as_dict(part.get("source")) or {})
    return {"type": str(kind)}


def _arguments(part: Mapping[str, Any]) -> object:
    arguments = part.get("arguments")
    if not isinstance(arguments, str):
        return arguments
    try:
        parsed: object = json.loads(arguments)
    except ValueError:
        return arguments
    return parsed


def _media(kind: str, source: Mapping[str, Any]) -> dict[str, Any]:
    modality = {"document": "file"}.get(kind, kind)
    if source.get("type") == "url":
        return {"type": "uri", "modality": modality, "uri": source.get("url")}
    if source.get("type") == "base64":
        return {
            "type": "blob",
            "modality": modality,
            "mime_type": source.get("media_type"),
            "content": source.get("data"),
        }
    return {"type": "file", "modality": modality, "file_id": source.get("file_id")}
