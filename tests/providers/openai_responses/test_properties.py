"""Any canonical request encodes to a body the SDK's ``ResponseCreateParams`` accepts, and
any canonical response to one its ``Response`` model accepts with no undeclared key:
strict in what is written, whatever came in (what cannot be carried is a loss)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

import chatcodec
from chatcodec.streams._replay import events_from_response
from chatcodec.testing import chat_responses
from chatcodec.testing._laws.built_in.openai_responses import single_hop_requests
from chatcodec.testing._laws.normal_forms import without_provider_data
from providers.openai_responses.responses_support import (
    FORMAT,
    assert_request_matches_sdk,
    assert_response_matches_sdk,
    assert_stream_matches_sdk,
    encode_request,
    encode_response,
)

PROPERTY = settings(
    max_examples=max(50, settings.default.max_examples), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROPERTY
@given(single_hop_requests())
def test_any_request_encodes_to_what_the_sdk_accepts(request: chatcodec.ChatRequest) -> None:
    payload, _ = encode_request(request)
    assert_request_matches_sdk(payload)


@PROPERTY
@given(chat_responses().map(without_provider_data))
def test_any_response_encodes_to_what_the_sdk_accepts_and_streams_too(response: chatcodec.ChatResponse) -> None:
    body, _ = encode_response(response)
    assert_response_matches_sdk(body, no_extra_keys=True)
    events = list(chatcodec.encode_stream(FORMAT, events_from_response(response), on_loss="ignore"))
    assert_stream_matches_sdk(events, no_extra_keys=True)
