"""One model call's conversation <-> its span's message attributes.

Read, a span's conversation is its system instructions (one system message), its input
messages, and its output messages after them (the answer as the last assistant turn, marked
so it is written back as output): what a fine-tuning row or a replay needs of the call. Written,
the first message, when a system or developer message, is the system instructions (apart, as
the conventions prefer; a system message read inline stays inline), the rest the input; this is
also what chatcodec's gateway puts on its spans (:mod:`chatcodec.serve._telemetry`), so the
gateway and the format write one thing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._frameworks.otel_genai.markers import INPUT, KIT, OUTPUT, SYSTEM
from chatcodec._frameworks.otel_genai.messages import (
    decode_messages,
    encode_message,
    encode_messages,
    report_list,
    role_content,
)
from chatcodec._frameworks.otel_genai.parts import encode_part, finish
from chatcodec._frameworks.otel_genai.wire import attribute, checked, checked_messages, checked_parts
from chatcodec.codec_kit import compact_json
from chatcodec.contract import EncodeContext, Steps

FINISH_WORDS = {"tool_calls": "tool_call", "refusal": "content_filter"}
"""Canonical unified finish reasons whose conventional word differs (the conventions'
``FinishReason``: stop, length, content_filter, tool_call, error); the rest pass as they are."""


def read_conversation(attributes: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """A span's messages as canonical message dicts, and the attributes given as JSON text."""
    texts: list[str] = []
    messages: list[dict[str, Any]] = []
    instructions, text = attribute(attributes, SYSTEM)
    if instructions is not None:
        texts += [SYSTEM] * text
        parts = checked(checked_parts, instructions, SYSTEM, text)
        system = {"role": "system", "content": role_content(parts, "system")}
        messages.append(finish(system, {}, (), no_parts=not parts or None))
    for key, markers in ((INPUT, {}), (OUTPUT, {"output": True})):
        listed, text = attribute(attributes, key)
        if listed is not None:
            texts += [key] * text
            read = decode_messages(checked(checked_messages, listed, key, text), **markers)
            if key == INPUT and instructions is None and read and read[0]["role"] in ("system", "developer"):
                read[0].setdefault("provider_metadata", {}).setdefault(KIT.name, {})["_inline"] = True
            messages += read
    return messages, texts


def write_conversation(messages: Sequence[Mapping[str, Any]], context: EncodeContext) -> dict[str, Any]:
    """Canonical messages as the span's message attributes (their structured values)."""
    attributes: dict[str, Any] = {}
    start = 0
    if (
        messages
        and messages[0]["role"] in ("system", "developer")
        and not KIT.marker(messages[0].get("provider_metadata"), "_inline")
    ):
        attributes[SYSTEM] = system_instructions(messages[0], context, ("messages", 0))
        start = 1
    end = len(messages)
    while end > start and KIT.marker(messages[end - 1].get("provider_metadata"), "_output"):
        end -= 1
    attributes[INPUT] = encode_messages(messages[start:end], context, ("messages", start))
    if end < len(messages):
        attributes[OUTPUT] = encode_messages(messages[end:], context, ("messages", end))
    return attributes


def system_instructions(message: Mapping[str, Any], context: EncodeContext, at: Steps) -> list[dict[str, Any]]:
    """A system or developer message as ``gen_ai.system_instructions``' parts: the message's
    own fields (a name, a cache marker, data kept from another span's message) have no place."""
    losses = context.losses
    metadata = message.get("provider_metadata")
    KIT.report_unplaced(losses, metadata, at, "the GenAI system instructions are parts only")
    why = "the GenAI system instructions are parts only"
    if message.get("name") is not None:
        losses.add((*at, "name"), "name", why)
    if message.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache_control", why, "setting")
    content = message.get("content", "")
    if isinstance(content, str):
        return [] if KIT.marker(metadata, "_no_parts") and not content else [{"type": "text", "content": content}]
    report_list(content, context, at)
    written = (encode_part(part, context, (*at, "content", index)) for index, part in enumerate(content))
    return [part for part in written if part is not None]


def as_text(attributes: dict[str, Any], keys: Sequence[str]) -> dict[str, Any]:
    """``attributes`` with the message attributes ``keys`` written as JSON text, as span
    attributes hold them."""
    return {key: compact_json(value) if key in keys else value for key, value in attributes.items()}


def finish_word(unified: object) -> str | None:
    """A canonical unified finish reason in the conventions' vocabulary."""
    return FINISH_WORDS.get(unified, unified) if isinstance(unified, str) else None


def output_message(message: Mapping[str, Any], word: str | None, context: EncodeContext, at: Steps) -> dict[str, Any]:
    """One answer (an assistant message) as an output message with its finish reason."""
    answer = encode_message(message, context, at)
    answer["finish_reason"] = word or ""
    return answer
