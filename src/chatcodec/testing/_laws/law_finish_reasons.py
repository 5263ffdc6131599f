"""Law: every finish reason maps both ways.

Each raw word a codec's entry documents decodes to its unified reason with the word kept
(``FinishReason(unified, raw)``), encodes back to the same word with no loss (the body
equals the recorded one with that word), and survives a stream: replayed as events,
encoded as the codec's stream and accumulated, the response has the same reason.
"""

from __future__ import annotations

import chatcodec
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.registry import law
from chatcodec.testing._replay import events_from_response


@law(lambda suite: [(entry, raw) for entry in suite.entries for raw in entry.finish_reasons])
def raw_finish_reason_maps_both_ways(provider: ProviderEntry, raw: str) -> None:
    payload = provider.with_finish_reason(provider.load("response", provider.finish_reason_fixture), raw)
    response = chatcodec.decode_response(provider.name, payload)
    assert response.finish_reason == chatcodec.FinishReason(unified=provider.finish_reasons[raw], raw=raw)
    losses: list[chatcodec.Loss] = []
    assert chatcodec.encode_response(provider.name, response, on_loss="ignore", losses=losses) == payload
    assert losses == []


@law(
    lambda suite: [
        (entry, raw) for entry in suite.streaming for raw in entry.finish_reasons if raw not in entry.stream_gaps
    ]
)
def raw_finish_reason_survives_a_stream(provider: ProviderEntry, raw: str) -> None:
    """Every word of a codec with streams but those its entry's ``stream_gaps`` names, each with its bug."""
    payload = provider.with_finish_reason(provider.load("response", provider.finish_reason_fixture), raw)
    response = chatcodec.decode_response(provider.name, payload)
    losses: list[chatcodec.Loss] = []
    wire = list(chatcodec.encode_stream(provider.name, events_from_response(response), on_loss="ignore", losses=losses))
    assert losses == []
    assert chatcodec.accumulate_stream(provider.name, wire).finish_reason == response.finish_reason
