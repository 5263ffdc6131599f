"""Comparing ``accumulate_stream``'s fast path with the general path, for any provider.

The general path is what ``accumulate_stream`` did before providers had a fast one:
decode to canonical events, then :class:`~chatcodec.StreamAccumulator`. Both paths must
give the same response (as JSON, key order included) or raise the same error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest

import chatcodec
from chatcodec.accumulator import accumulate

Outcome = str | tuple[type[BaseException], str]
"""A response as JSON, or an error's type and message."""


def outcome(accumulate_with: Callable[[Any], chatcodec.ChatResponse], events: Any) -> Outcome:
    """The response as JSON (key order included), or the error's type and message."""
    try:
        return accumulate_with(events).model_dump_json()
    except Exception as error:  # any error at all must be the general path's
        return type(error), str(error)


def one_by_one(events: list[Any]) -> Iterator[Any]:
    """The events as a one-pass iterator, as an HTTP client hands them over."""
    yield from events


class StreamPaths:
    """The two paths of one provider, and the assertions that they agree."""

    def __init__(self, provider: str, stream: ModuleType, stream_accumulate: ModuleType) -> None:
        self.provider = provider
        self.stream = stream
        self.stream_accumulate = stream_accumulate

    def general(self, events: Any) -> chatcodec.ChatResponse:
        """What ``accumulate_stream`` gave before it had a fast path."""
        accumulator = chatcodec.StreamAccumulator()
        accumulator.extend(chatcodec.decode_stream(self.provider, events))
        return accumulator.response()

    def fast(self, events: Any) -> chatcodec.ChatResponse:
        return chatcodec.accumulate_stream(self.provider, events)

    def assert_same(self, events: Any) -> None:
        assert outcome(self.fast, events) == outcome(self.general, events)

    def assert_same_one_by_one(self, events: list[Any]) -> None:
        """The provider's own ``accumulate_stream`` against its own decoder, on a one-pass
        iterator (``accumulate_stream`` of the API hands a list of dicts over as it is)."""
        fast_outcome = outcome(self.stream_accumulate.accumulate_stream, one_by_one(events))
        decode = self.stream.decode_stream
        assert fast_outcome == outcome(lambda given: accumulate(decode(given)), one_by_one(events))

    def record_general_path(self, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
        """Every event the general decoder is given from now on."""
        given_events: list[dict[str, Any]] = []
        decoder = self.stream.StreamDecoder
        feed = decoder.feed

        def recording(self: Any, event: dict[str, Any]) -> list[chatcodec.AnyStreamEvent]:
            given_events.append(event)
            return feed(self, event)

        monkeypatch.setattr(decoder, "feed", recording)
        return given_events

    def forbid_general_path(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Make any use of the general decoder fail the test from now on."""

        def refuse(self: Any, event: dict[str, Any]) -> list[chatcodec.AnyStreamEvent]:
            raise AssertionError("the general path was used")

        monkeypatch.setattr(self.stream.StreamDecoder, "feed", refuse)
