"""Law: every recorded payload round trips exactly, and what is encoded passes the SDK.

Requests and responses: ``encode(decode(x)) == x`` with no loss reported, and the encoded
body passes the SDK oracle of the codec's entry. Streams: the recorded events pass the
oracle; decoded, encoded again and decoded, they give the same canonical events with no
loss, and the encoded events pass the oracle too; accumulated, they give a finished response
(every choice has a finish reason) with the stream's id. A codec checked without recordings
has no case here.
"""

from __future__ import annotations

import chatcodec
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.registry import law


@law(lambda suite: suite.recorded("request"))
def recorded_request_round_trips_exactly(provider: ProviderEntry, name: str) -> None:
    payload = provider.load("request", name)
    losses: list[chatcodec.Loss] = []
    decoded = chatcodec.decode_request(provider.name, payload)
    encoded = chatcodec.encode_request(provider.name, decoded, on_loss="ignore", losses=losses)
    assert encoded == payload
    assert losses == []
    provider.check_request(encoded)


@law(lambda suite: suite.recorded("response"))
def recorded_response_round_trips_exactly(provider: ProviderEntry, name: str) -> None:
    payload = provider.load("response", name)
    losses: list[chatcodec.Loss] = []
    decoded = chatcodec.decode_response(provider.name, payload)
    encoded = chatcodec.encode_response(provider.name, decoded, on_loss="ignore", losses=losses)
    assert encoded == payload
    assert losses == []
    provider.check_response(provider.for_sdk(name, encoded))


@law(lambda suite: suite.recorded_streams())
def recorded_stream_events_pass_the_sdk(provider: ProviderEntry, name: str) -> None:
    provider.check_stream(provider.stream_events(name))


@law(lambda suite: suite.recorded_streams())
def recorded_stream_events_survive_encoding(provider: ProviderEntry, name: str) -> None:
    events = list(chatcodec.decode_stream(provider.name, provider.stream_text(name)))
    losses: list[chatcodec.Loss] = []
    encoded = list(chatcodec.encode_stream(provider.name, events, on_loss="ignore", losses=losses))
    assert losses == []
    provider.check_stream([provider.for_sdk(name, event) for event in encoded])
    assert list(chatcodec.decode_stream(provider.name, encoded)) == events


@law(lambda suite: suite.recorded_streams())
def recorded_stream_accumulates_to_a_finished_response(provider: ProviderEntry, name: str) -> None:
    start = next(iter(chatcodec.decode_stream(provider.name, provider.stream_text(name))))
    response = chatcodec.accumulate_stream(provider.name, provider.stream_text(name))
    assert isinstance(start, chatcodec.ResponseStartEvent)
    assert response.id == start.id
    assert response.choices
    assert all(choice.finish_reason is not None for choice in response.choices)


@law(lambda suite: suite.streaming)
def a_recorded_stream_decodes_lazily_to_the_events_of_its_parsed_form(provider: ProviderEntry) -> None:
    """SSE text, JSON lines and parsed dicts are one stream: the same events."""
    for name in provider.recorded["stream"]:
        from_text = list(chatcodec.decode_stream(provider.name, provider.stream_text(name)))
        assert list(chatcodec.decode_stream(provider.name, provider.stream_events(name))) == from_text
        assert isinstance(from_text[0], chatcodec.ResponseStartEvent)
