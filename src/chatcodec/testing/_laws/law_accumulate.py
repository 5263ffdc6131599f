"""Law: ``accumulate_stream`` gives exactly what ``decode_stream`` + ``StreamAccumulator`` give.

``accumulate_stream`` builds the response straight from the codec's decoder; it must give
the same response (as JSON, key order included) for every recorded and generated stream,
and the same error (type and message) for every broken one, read whole or one event at a
time (``stream_law.py``). The hand-written streams and mutation vocabularies are each
entry's ``streams``.

The generated laws run at least :data:`MINIMUM_EXAMPLES` examples per codec, more under a
longer profile.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable

from hypothesis import given
from hypothesis import strategies as st

import chatcodec
from chatcodec.testing._answers import chat_responses, stream_events
from chatcodec.testing._chunking import Splitter, chunkings
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.registry import at_least, law
from chatcodec.testing._laws.stream_law import StreamCases, StreamLaw, broken_streams, changed, one_by_one, outcome
from chatcodec.testing._laws.suite import Suite
from chatcodec.testing._replay import events_from_response

MINIMUM_EXAMPLES = 100
AT_LEAST = at_least(MINIMUM_EXAMPLES)


def _cases(kind: str) -> Callable[[Suite], list[tuple[ProviderEntry, str]]]:
    """``(entry, name)`` for each of a codec's named hand-written streams."""
    return lambda suite: [(entry, name) for entry in _hand_written(suite) for name in getattr(entry.streams, kind)()]


def _streaming(suite: Suite) -> tuple[ProviderEntry, ...]:
    return suite.streaming


def _hand_written(suite: Suite) -> list[ProviderEntry]:
    """The entries of codecs that stream and whose entries give hand-written streams."""
    return [entry for entry in suite.streaming if entry.streams is not None]


def _cases_of(provider: ProviderEntry) -> StreamCases:
    assert provider.streams is not None
    return provider.streams


@law(lambda suite: suite.recorded_streams())
def every_recording_accumulates_as_decoded(provider: ProviderEntry, name: str) -> None:
    law = StreamLaw(provider.name)
    events = provider.stream_events(name)
    law.assert_same(provider.stream_text(name))
    law.assert_same(events)
    law.assert_same_one_by_one(events)


@law(_hand_written)
def a_plain_stream_accumulates_to_its_parts(provider: ProviderEntry) -> None:
    law = StreamLaw(provider.name)
    events = _cases_of(provider).plain()
    expected = law.decoded(events)
    assert law.accumulated(events) == expected
    assert law.accumulated(one_by_one(events)) == expected
    assert [part.type for part in expected.message.parts] == list(_cases_of(provider).plain_parts)


@law(_cases("broken"))
def broken_streams_raise_the_decoded_error(provider: ProviderEntry, name: str) -> None:
    StreamLaw(provider.name).assert_same(_cases_of(provider).broken()[name])


@law(_cases("rules"))
def each_rule_holds_both_ways(provider: ProviderEntry, name: str) -> None:
    law = StreamLaw(provider.name)
    law.assert_same(_cases_of(provider).rules()[name])
    law.assert_same_one_by_one(_cases_of(provider).rules()[name])


@law(_hand_written)
def a_broken_sse_stream_raises_as_decoded(provider: ProviderEntry) -> None:
    law = StreamLaw(provider.name)
    sse = _cases_of(provider).to_sse(_cases_of(provider).plain())
    fragment = f'"{_cases_of(provider).text_fragment}"'
    assert sse.count(fragment) == 1
    law.assert_same(sse.replace(fragment, fragment[:-1]))  # bad JSON mid-stream
    law.assert_same(sse[: len(sse) // 2])  # cut off


@law(_hand_written)
def every_field_set_to_anything_gives_the_decoded_outcome(provider: ProviderEntry) -> None:
    law = StreamLaw(provider.name)
    events = _cases_of(provider).plain()
    for position, paths in _cases_of(provider).field_paths().items():
        for path in paths:
            for value in _cases_of(provider).odd_values:
                broken = changed(events, position, path, value)
                assert outcome(law.accumulated, broken) == outcome(law.decoded, broken), (position, path, value)


def _wire(provider: str, events: Iterable[chatcodec.AnyStreamEvent]) -> list[JsonObject]:
    """The wire events the encoder writes for ``events``, up to the first it refuses."""
    written: list[JsonObject] = []
    with contextlib.suppress(chatcodec.StreamError):
        written.extend(chatcodec.encode_stream(provider, events, on_loss="ignore"))
    return written


def _shaped_wire(provider: str, response: chatcodec.ChatResponse, split: Splitter) -> list[JsonObject]:
    """A response in the codec's own shapes as its stream: the encoder refuses none of it."""
    return list(chatcodec.encode_stream(provider, events_from_response(response, split), on_loss="ignore"))


@law(_streaming)
@AT_LEAST
@given(data=st.data())
def provider_shaped_streams_accumulate_as_decoded(provider: ProviderEntry, data: st.DataObject) -> None:
    response = data.draw(provider.shaped_responses(), "response")
    events = _shaped_wire(provider.name, response, data.draw(chunkings(), "split"))
    StreamLaw(provider.name).assert_same(events)
    StreamLaw(provider.name).assert_same_one_by_one(events)


@law(_streaming)
@AT_LEAST
@given(data=st.data())
def any_response_streamed_accumulates_as_decoded(provider: ProviderEntry, data: st.DataObject) -> None:
    response = data.draw(chat_responses(), "response")
    split = data.draw(chunkings(), "split")
    StreamLaw(provider.name).assert_same(_wire(provider.name, events_from_response(response, split)))


@law(_streaming)
@AT_LEAST
@given(data=st.data())
def any_event_sequence_accumulates_as_decoded(provider: ProviderEntry, data: st.DataObject) -> None:
    StreamLaw(provider.name).assert_same(
        _wire(provider.name, data.draw(st.lists(stream_events(), max_size=12), "events"))
    )


@law(_hand_written)
@AT_LEAST
@given(data=st.data())
def broken_streams_fail_or_succeed_as_decoded(provider: ProviderEntry, data: st.DataObject) -> None:
    response = data.draw(provider.shaped_responses(), "response")
    events = _shaped_wire(provider.name, response, data.draw(chunkings(), "split"))
    broken = data.draw(broken_streams(events, _cases_of(provider)), "broken")
    StreamLaw(provider.name).assert_same(broken)
    StreamLaw(provider.name).assert_same_one_by_one(broken)
