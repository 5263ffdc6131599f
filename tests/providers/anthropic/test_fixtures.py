"""Anthropic behaviour on its recorded fixtures beyond the conformance laws.

The laws every provider shares (exact round trips, SDK oracles, accumulation equal to
the anthropic SDK's own) are in ``tests/conformance``. Here: the refused orphan request
and the error body, SSE rendering, and two wire-level checks stronger than the shared
laws: the accumulated stream *encodes* to the SDK's message, and each response replayed
as SSE encodes back to the recorded body.
"""

from __future__ import annotations

from typing import Any

import pytest
from anthropic.lib.streaming._messages import accumulate_event

import chatcodec
from chatcodec.streams._replay import events_from_response
from providers.anthropic.anthropic_support import (
    ERROR_FIXTURES,
    PREDATES_SDK,
    RESPONSE_FIXTURES,
    STREAM_FIXTURES,
    assert_valid_response,
    assert_valid_stream,
    encode_events,
    encode_request,
    encode_response,
    load_json,
    load_stream_text,
    normalized_arguments,
    stream_events,
    with_web_fetch_count,
)


def test_the_orphan_request_decodes() -> None:
    """Decoding is not the API: the request the API refused (a result with no call, in a
    second user turn) decodes, and the second turn stays a separate turn."""
    payload = load_json("request", "orphan_tool_result_invalid.json")
    request = chatcodec.decode_request("anthropic", payload)
    assert [message.role for message in request.messages] == ["user", "tool"]
    assert request.messages[1].provider_metadata is None
    assert encode_request(request)[0]["messages"] == payload["messages"]


@pytest.mark.parametrize("name", ERROR_FIXTURES)
def test_error_body_raises_the_providers_error(name: str) -> None:
    payload = load_json("response", name)
    with pytest.raises(chatcodec.ProviderAPIError) as caught:
        chatcodec.decode_response("anthropic", payload)
    assert caught.value.error_type == payload["error"]["type"]
    assert caught.value.body == payload
    assert "tool_use_id" in str(caught.value)


@pytest.mark.parametrize("name", STREAM_FIXTURES)
def test_stream_events_survive_sse_rendering(name: str) -> None:
    """Encoded events rendered as Anthropic SSE decode to the same events (the encoding
    itself is a conformance law)."""
    events = list(chatcodec.decode_stream("anthropic", load_stream_text(name)))
    wire, _ = encode_events(events)
    sse = "".join(chatcodec.to_sse("anthropic", wire))
    assert list(chatcodec.decode_stream("anthropic", sse)) == events


def _sdk_message(events: list[dict[str, Any]]) -> dict[str, Any]:
    snapshot = None
    buffers: dict[int, bytes] = {}
    for event in events:
        if event["type"] not in ("ping", "error"):
            snapshot = accumulate_event(event=event, current_snapshot=snapshot, json_bufs=buffers)
    assert snapshot is not None
    message: dict[str, Any] = snapshot.to_dict(mode="json")
    return message


@pytest.mark.parametrize("name", STREAM_FIXTURES)
def test_accumulated_stream_encodes_as_the_non_streamed_message(name: str) -> None:
    """The accumulated result, encoded, is a valid Message equal to the SDK's (modulo
    the argument spelling and ``stop_details`` null/absent)."""
    events = stream_events(name)
    encoded, losses = encode_response(normalized_arguments(chatcodec.accumulate_stream("anthropic", events)))
    assert losses == []
    assert_valid_response(encoded)
    sdk = _sdk_message(events)
    for message in (encoded, sdk):
        if message.get("stop_details") is None:
            message.pop("stop_details", None)
    assert encoded == sdk


@pytest.mark.parametrize("name", RESPONSE_FIXTURES)
def test_response_replayed_as_a_stream_accumulates_back(name: str) -> None:
    """Streamed == non-streamed for the same scenario: the response as events, encoded as
    Anthropic SSE, decoded and accumulated, is the response again."""
    response = chatcodec.decode_response("anthropic", load_json("response", name))
    wire, losses = encode_events(events_from_response(response, lambda text: [text[:7], text[7:]] if text else []))
    assert losses == []
    assert_valid_stream([with_web_fetch_count(event) for event in wire] if name in PREDATES_SDK else wire)
    again = chatcodec.accumulate_stream("anthropic", "".join(chatcodec.to_sse("anthropic", wire)))
    assert normalized_arguments(again) == normalized_arguments(response)
    assert encode_response(again)[0] == load_json("response", name)
