"""What the conformance laws need to know about anthropic: its :data:`ENTRY`, collected by
``tests/conformance/providers.py``.

The SDK oracles are the provider's own test helpers (``anthropic_support``): the request
TypedDict walk, the SDK's ``Message`` model and its ``RawMessageStreamEvent`` union.
Every recorded stream pairs with the message the anthropic SDK's own accumulator builds
from it: the non-streamed body the API would have returned.
"""

from __future__ import annotations

import copy
from typing import Any

from anthropic.lib.streaming._messages import accumulate_event

import chatcodec
from chatcodec.testing._laws.built_in import anthropic
from chatcodec.testing._laws.entry import ProviderEntry, StreamPair
from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.normal_forms import with_compact_arguments
from conformance.recordings import recordings_of
from providers.anthropic.anthropic_support import (
    PREDATES_SDK,
    assert_valid_request,
    assert_valid_response,
    assert_valid_stream,
    with_web_fetch_count,
    without_null_markers,
)
from providers.anthropic.conformance_streams import CASES
from providers.anthropic.test_properties import anthropic_responses

check_request = assert_valid_request
check_response = assert_valid_response


def check_stream(events: list[JsonObject]) -> None:
    assert_valid_stream(events)


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


def stream_pairs(provider: ProviderEntry) -> list[StreamPair]:
    return [
        StreamPair(name, lambda name=name: sdk_accumulation(provider.stream_events(name)), sdk_comparable)
        for name in provider.recorded["stream"]
    ]


# --- the entry -----------------------------------------------------------------------------------


def deep_kept_value(events: list[JsonObject], value: object) -> tuple[list[JsonObject], int]:
    """``message_start`` keeps its message's unknown fields: ``value`` goes into the first."""
    first = {**events[0], "message": {**events[0]["message"], "x_extension": value}}
    return [first, *events[1:]], 0


ENTRY = anthropic.entry(
    fixtures=recordings_of("anthropic"),
    check_request=check_request,
    check_response=check_response,
    check_stream=check_stream,
    recordings={"request": 14, "response": 10, "stream": 6},
    finish_reasons=FINISH_REASONS,
    with_finish_reason=with_finish_reason,
    finish_reason_fixture="parallel_tool_use.json",
    pair_streams=stream_pairs,
    stream_pair_count=6,
    streams=CASES,
    shaped_responses=anthropic_responses,
    deep_kept_value=deep_kept_value,
    for_sdk=for_sdk,
)
"""The codec's own facts (``chatcodec.testing._laws.built_in.anthropic``) and those of the recordings and SDK."""
