"""Law: ``accumulate_stream`` gives exactly what ``decode_stream`` + ``StreamAccumulator`` give.

``accumulate_stream`` builds the response straight from the provider's decoder; it must
give the same response (as JSON, key order included) for every recorded and generated
stream, and the same error (type and message) for every broken one, read whole or one
event at a time (``stream_law.py``). The hand-written streams and mutation vocabularies
are each provider's ``streams`` entry in the provider table.

The generated laws run at least :data:`MINIMUM_EXAMPLES` examples per provider (what the
per-provider tests they replace ran), more under a longer profile.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec.streams._replay import events_from_response
from chatcodec.testing import Splitter, chat_responses, chunkings, stream_events
from conformance.entry import ProviderEntry
from conformance.fixtures import JsonObject
from conformance.providers import (
    PROVIDER,
    STREAMING,
    STREAMING_NAMES,
    by_name,
    case_id,
    stream_fixture_cases,
)
from conformance.stream_law import StreamLaw, broken_streams, changed, one_by_one, outcome

MINIMUM_EXAMPLES = 100
AT_LEAST = settings(max_examples=max(MINIMUM_EXAMPLES, settings.default.max_examples), deadline=None)


def _cases(kind: str) -> list[tuple[ProviderEntry, str]]:
    """``(provider, name)`` for each of a provider's named hand-written streams."""
    return [(provider, name) for provider in STREAMING for name in getattr(provider.streams, kind)()]


# --- recordings and hand-written streams -------------------------------------------------------


@pytest.mark.parametrize(("provider", "name"), stream_fixture_cases(), ids=case_id)
def test_every_recording_accumulates_as_decoded(provider: ProviderEntry, name: str) -> None:
    law = StreamLaw(provider.name)
    events = provider.stream_events(name)
    law.assert_same(provider.stream_text(name))
    law.assert_same(events)
    law.assert_same_one_by_one(events)


@pytest.mark.parametrize("provider", STREAMING, ids=by_name)
def test_a_plain_stream_accumulates_to_its_parts(provider: ProviderEntry) -> None:
    law = StreamLaw(provider.name)
    events = provider.streams.plain()
    expected = law.decoded(events)
    assert law.accumulated(events) == expected
    assert law.accumulated(one_by_one(events)) == expected
    assert [part.type for part in expected.message.parts] == list(provider.streams.plain_parts)


@pytest.mark.parametrize(("provider", "name"), _cases("broken"), ids=case_id)
def test_broken_streams_raise_the_decoded_error(provider: ProviderEntry, name: str) -> None:
    StreamLaw(provider.name).assert_same(provider.streams.broken()[name])


@pytest.mark.parametrize(("provider", "name"), _cases("rules"), ids=case_id)
def test_each_rule_holds_both_ways(provider: ProviderEntry, name: str) -> None:
    law = StreamLaw(provider.name)
    law.assert_same(provider.streams.rules()[name])
    law.assert_same_one_by_one(provider.streams.rules()[name])


@pytest.mark.parametrize("provider", STREAMING, ids=by_name)
def test_a_broken_sse_stream_raises_as_decoded(provider: ProviderEntry) -> None:
    law = StreamLaw(provider.name)
    sse = provider.streams.to_sse(provider.streams.plain())
    fragment = f'"{provider.streams.text_fragment}"'
    assert sse.count(fragment) == 1
    law.assert_same(sse.replace(fragment, fragment[:-1]))  # bad JSON mid-stream
    law.assert_same(sse[: len(sse) // 2])  # cut off


@pytest.mark.parametrize("provider", STREAMING, ids=by_name)
def test_every_field_set_to_anything_gives_the_decoded_outcome(provider: ProviderEntry) -> None:
    law = StreamLaw(provider.name)
    events = provider.streams.plain()
    for position, paths in provider.streams.field_paths().items():
        for path in paths:
            for value in provider.streams.odd_values:
                broken = changed(events, position, path, value)
                assert outcome(law.accumulated, broken) == outcome(law.decoded, broken), (position, path, value)


# --- generated streams -----------------------------------------------------------------------


def _wire(provider: str, events: Iterable[chatcodec.AnyStreamEvent]) -> list[JsonObject]:
    """The wire events the encoder writes for ``events``, up to the first it refuses."""
    written: list[JsonObject] = []
    with contextlib.suppress(chatcodec.StreamError):
        written.extend(chatcodec.encode_stream(provider, events, on_loss="ignore"))
    return written


def _shaped_wire(provider: str, response: chatcodec.ChatResponse, split: Splitter) -> list[JsonObject]:
    """A response in the provider's own shapes as its stream: the encoder refuses none of it."""
    return list(chatcodec.encode_stream(provider, events_from_response(response, split), on_loss="ignore"))


@AT_LEAST
@given(data=st.data())
@pytest.mark.parametrize("name", STREAMING_NAMES)
def test_provider_shaped_streams_accumulate_as_decoded(name: str, data: st.DataObject) -> None:
    response = data.draw(PROVIDER[name].shaped_responses(), "response")
    events = _shaped_wire(name, response, data.draw(chunkings(), "split"))
    StreamLaw(name).assert_same(events)
    StreamLaw(name).assert_same_one_by_one(events)


@AT_LEAST
@given(data=st.data())
@pytest.mark.parametrize("name", STREAMING_NAMES)
def test_any_response_streamed_accumulates_as_decoded(name: str, data: st.DataObject) -> None:
    response = data.draw(chat_responses(), "response")
    StreamLaw(name).assert_same(_wire(name, events_from_response(response, data.draw(chunkings(), "split"))))


@AT_LEAST
@given(data=st.data())
@pytest.mark.parametrize("name", STREAMING_NAMES)
def test_any_event_sequence_accumulates_as_decoded(name: str, data: st.DataObject) -> None:
    StreamLaw(name).assert_same(_wire(name, data.draw(st.lists(stream_events(), max_size=12), "events")))


@AT_LEAST
@given(data=st.data())
@pytest.mark.parametrize("name", STREAMING_NAMES)
def test_broken_streams_fail_or_succeed_as_decoded(name: str, data: st.DataObject) -> None:
    provider = PROVIDER[name]
    response = data.draw(provider.shaped_responses(), "response")
    events = _shaped_wire(name, response, data.draw(chunkings(), "split"))
    broken = data.draw(broken_streams(events, provider.streams), "broken")
    StreamLaw(name).assert_same(broken)
    StreamLaw(name).assert_same_one_by_one(broken)
