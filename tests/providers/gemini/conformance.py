"""What the conformance laws need to know about gemini: its :data:`ENTRY`, collected by
``tests/conformance/providers.py``.

The SDK oracles are google-genai's pydantic types with unknown fields forbidden
(``_providers/gemini/gemini_support.py``). google-genai has no stream accumulator, so each
recorded stream pairs with :func:`wire_accumulation`: the chunks folded into one
``GenerateContentResponse`` on the wire, as Google describes a stream (text of one part
concatenated chunk after chunk, calls whole, Vertex's partial arguments assembled, the
last usage and finish reason), written here independently of the codec.
"""

from __future__ import annotations

import copy
from dataclasses import replace

import chatcodec
from chatcodec.testing._laws.built_in import gemini
from chatcodec.testing._laws.built_in.gemini import (
    streamed_form,
)
from chatcodec.testing._laws.entry import ProviderEntry, StreamPair
from chatcodec.testing._laws.fixtures import JsonObject
from conformance.recordings import recordings_of
from providers.gemini.conformance_streams import CASES
from providers.gemini.gemini_support import assert_valid_request, assert_valid_response, assert_valid_stream
from providers.gemini.gemini_support import for_sdk as strip_newer_fields
from providers.gemini.strategies import gemini_responses

check_request = assert_valid_request
check_response = assert_valid_response


def check_stream(events: list[JsonObject]) -> None:
    assert_valid_stream(events)


def for_sdk(_name: str, body: JsonObject) -> JsonObject:
    return strip_newer_fields(body)


FINISH_REASONS: dict[str, chatcodec.UnifiedFinishReason] = {
    "STOP": "stop",
    "MAX_TOKENS": "length",
    "SAFETY": "content_filter",
    "RECITATION": "content_filter",
    "BLOCKLIST": "content_filter",
    "PROHIBITED_CONTENT": "content_filter",
    "SPII": "content_filter",
    "IMAGE_SAFETY": "content_filter",
    "IMAGE_PROHIBITED_CONTENT": "content_filter",
    "IMAGE_RECITATION": "content_filter",
    "MODEL_ARMOR": "content_filter",
    "MALFORMED_FUNCTION_CALL": "error",
    "UNEXPECTED_TOOL_CALL": "error",
    "TOO_MANY_TOOL_CALLS": "error",
    "MISSING_THOUGHT_SIGNATURE": "error",
    "MALFORMED_RESPONSE": "error",
    "LANGUAGE": "other",
    "OTHER": "other",
    "IMAGE_OTHER": "other",
    "NO_IMAGE": "other",
    "FINISH_REASON_UNSPECIFIED": "other",
}


def with_finish_reason(payload: JsonObject, raw: str) -> JsonObject:
    body = copy.deepcopy(payload)
    body["candidates"][0]["finishReason"] = raw
    return body


# --- streamed == non-streamed: the chunks folded on the wire ------------------------------------


def wire_accumulation(events: list[JsonObject]) -> JsonObject:
    """One ``GenerateContentResponse`` for a stream of one candidate."""
    body: JsonObject = {}
    candidate: JsonObject = {}
    parts: list[JsonObject] = []
    usage: JsonObject = {}
    partial: JsonObject | None = None
    for chunk in events:
        for key, value in chunk.items():
            if key not in ("candidates", "usageMetadata"):
                body.setdefault(key, value)
        usage.update(chunk.get("usageMetadata") or {})
        for item in chunk.get("candidates") or []:
            candidate.update({key: value for key, value in item.items() if key != "content"})
            for position, part in enumerate((item.get("content") or {}).get("parts") or []):
                partial = _fold(parts, part, position == 0, partial)
    candidate["content"] = {"parts": parts, "role": "model"}
    body["candidates"] = [candidate]
    if usage:
        body["usageMetadata"] = usage
    return body


def _fold(parts: list[JsonObject], part: JsonObject, first: bool, partial: JsonObject | None) -> JsonObject | None:
    call = part.get("functionCall")
    if partial is not None and call is not None and "name" not in call:
        for piece in call.get("partialArgs") or []:
            key = piece["jsonPath"].removeprefix("$.")
            value = piece.get("stringValue", piece.get("numberValue"))
            previous = partial["functionCall"]["args"].get(key)
            partial["functionCall"]["args"][key] = previous + value if isinstance(previous, str) else value
        return None if not call else partial
    if call is not None and call.get("willContinue"):
        opened = {**copy.deepcopy(part), "functionCall": {"name": call["name"], "args": {}}}
        parts.append(opened)
        return opened
    last = parts[-1] if parts else None
    if first and last is not None and "text" in part and "text" in last and _same_kind(last, part):
        last["text"] += part["text"]
        if "thoughtSignature" in part:
            last["thoughtSignature"] = part["thoughtSignature"]
        return partial
    parts.append(copy.deepcopy(part))
    return partial


def _same_kind(last: JsonObject, part: JsonObject) -> bool:
    if set(part) - {"text", "thought", "thoughtSignature"} or set(last) - {"text", "thought", "thoughtSignature"}:
        return False
    return bool(last.get("thought")) == bool(part.get("thought")) and not (
        "thoughtSignature" in last and "thoughtSignature" in part
    )


def stream_pairs(provider: ProviderEntry) -> list[StreamPair]:
    return [
        StreamPair(name, lambda name=name: wire_accumulation(provider.stream_events(name)), streamed_form)
        for name in provider.recorded["stream"]
    ]


# --- what passes through Gemini unreported ------------------------------------------------------


# --- the single-hop loss law -------------------------------------------------------------------


# --- the entry -----------------------------------------------------------------------------------


def deep_kept_value(events: list[JsonObject], value: object) -> tuple[list[JsonObject], int]:
    """A chunk keeps its unknown top-level fields: ``value`` goes into the first one."""
    return [{**events[0], "x_extension": value}, *events[1:]], 0


ENTRY = replace(
    gemini.entry(),
    fixtures=recordings_of("gemini"),
    check_request=check_request,
    check_response=check_response,
    check_stream=check_stream,
    recordings={"request": 9, "response": 7, "stream": 6},
    finish_reasons=FINISH_REASONS,
    with_finish_reason=with_finish_reason,
    finish_reason_fixture="text_stop.json",
    pair_streams=stream_pairs,
    stream_pair_count=6,
    streams=CASES,
    shaped_responses=gemini_responses,
    deep_kept_value=deep_kept_value,
    for_sdk=for_sdk,
)
"""The codec's own facts (``chatcodec.testing._laws.built_in.gemini``) and those of the recordings and SDK."""
