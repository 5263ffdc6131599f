"""Law: every finish reason maps both ways.

Each raw word a provider documents decodes to its unified reason with the word kept
(``FinishReason(unified, raw)``), encodes back to the same word with no loss (the body
equals the recorded one with that word), and survives a stream: replayed as events,
encoded as the provider's stream and accumulated, the response has the same reason.
"""

from __future__ import annotations

import pytest

import chatcodec
from chatcodec.streams._replay import events_from_response
from conformance.entry import ProviderEntry
from conformance.providers import PROVIDERS, STREAMING_NAMES, case_id

CASES = [(provider, raw) for provider in PROVIDERS for raw in provider.finish_reasons]


@pytest.mark.parametrize(("provider", "raw"), CASES, ids=case_id)
def test_raw_finish_reason_maps_both_ways(provider: ProviderEntry, raw: str) -> None:
    payload = provider.with_finish_reason(provider.load("response", provider.finish_reason_fixture), raw)
    response = chatcodec.decode_response(provider.name, payload)
    assert response.finish_reason == chatcodec.FinishReason(unified=provider.finish_reasons[raw], raw=raw)
    losses: list[chatcodec.Loss] = []
    assert chatcodec.encode_response(provider.name, response, on_loss="ignore", losses=losses) == payload
    assert losses == []


STREAMABLE = [
    (provider, raw) for provider, raw in CASES if raw not in provider.stream_gaps and provider.name in STREAMING_NAMES
]
"""Every case of a codec with streams but the words a provider's ``stream_gaps`` names,
each with its bug."""


@pytest.mark.parametrize(("provider", "raw"), STREAMABLE, ids=case_id)
def test_raw_finish_reason_survives_a_stream(provider: ProviderEntry, raw: str) -> None:
    payload = provider.with_finish_reason(provider.load("response", provider.finish_reason_fixture), raw)
    response = chatcodec.decode_response(provider.name, payload)
    losses: list[chatcodec.Loss] = []
    wire = list(chatcodec.encode_stream(provider.name, events_from_response(response), on_loss="ignore", losses=losses))
    assert losses == []
    assert chatcodec.accumulate_stream(provider.name, wire).finish_reason == response.finish_reason
