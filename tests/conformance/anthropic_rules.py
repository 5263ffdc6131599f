"""What the conformance laws need to know about anthropic (entry in ``providers.py``).

The SDK oracles are the provider's own test helpers (``anthropic_support``): the request
TypedDict walk, the SDK's ``Message`` model and its ``RawMessageStreamEvent`` union.
Every recorded stream pairs with the message the anthropic SDK's own accumulator builds
from it: the non-streamed body the API would have returned.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from anthropic.lib.streaming._messages import accumulate_event

import chatcodec
from conformance.fixtures import JsonObject
from conformance.normal_forms import with_compact_arguments
from providers.anthropic.anthropic_support import (
    PREDATES_SDK,
    assert_valid_request,
    assert_valid_response,
    assert_valid_stream,
    with_web_fetch_count,
    without_null_markers,
)

if TYPE_CHECKING:
    from conformance.providers import Provider, StreamPair

check_request = assert_valid_request
check_response = assert_valid_response


def check_stream(events: list[JsonObject]) -> None:
    assert_valid_stream(events)


DEFAULT_MAX_TOKENS = 4096
"""Anthropic requires ``max_tokens``; the encoder writes this when a request has none."""

FINISH_REASONS: dict[str, chatcodec.UnifiedFinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool_calls",
    "pause_turn": "pause",
    "refusal": "refusal",
    "a_reason_added_in_2027": "other",  # spelled as Anthropic spells them: kept as sent
}


def with_finish_reason(payload: JsonObject, raw: str) -> JsonObject:
    return copy.deepcopy(payload) | {"stop_reason": raw}


def for_sdk(name: str, body: JsonObject) -> JsonObject:
    """Recordings older than the SDK's required ``web_fetch_requests`` count get it."""
    return with_web_fetch_count(body) if name in PREDATES_SDK else body


def compact_arguments(response: chatcodec.ChatResponse) -> object:
    """A stream passes argument text through; a non-streamed body carries the parsed
    ``input`` object, which decodes to compact JSON."""
    return with_compact_arguments(response)


def sdk_accumulation(events: list[JsonObject]) -> JsonObject:
    """The ``Message`` the anthropic SDK's stream accumulator builds from ``events``."""
    snapshot = None
    buffers: dict[int, bytes] = {}
    for event in events:
        if event["type"] not in ("ping", "error"):
            snapshot = accumulate_event(event=event, current_snapshot=snapshot, json_bufs=buffers)
    assert snapshot is not None
    message: dict[str, Any] = snapshot.to_dict(mode="json")
    return message


def sdk_comparable(response: chatcodec.ChatResponse) -> object:
    """Against the SDK's accumulation: argument spelling (text versus parsed object) and
    the ``stop_details`` null/absent spelling (the SDK sets the attribute to null even
    when the stream never sent it) are the two documented differences."""
    return without_null_markers(with_compact_arguments(response))


def stream_pairs(provider: Provider) -> list[StreamPair]:
    from conformance.providers import StreamPair

    return [
        StreamPair(name, lambda name=name: sdk_accumulation(provider.stream_events(name)), sdk_comparable)
        for name in provider.recorded["stream"]
    ]
