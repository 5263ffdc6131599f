"""The law every provider's stream decoder keeps, whichever way its builder runs.

``accumulate_stream`` drives the decoder with a :class:`~chatcodec.stream_builder.StreamBuilder`
that builds the response directly; ``decode_stream`` drives it with one that emits canonical
events, which :class:`~chatcodec.StreamAccumulator` (the same builder, fed events) turns
into a response. Both must give the same response (as JSON, key order included) or raise
the same error, for every stream, broken ones included.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import chatcodec

Outcome = str | tuple[type[BaseException], str]
"""A response as JSON, or an error's type and message."""


def outcome(accumulate_with: Callable[[Any], chatcodec.ChatResponse], events: Any) -> Outcome:
    """The response as JSON (key order included), or the error's type and message."""
    try:
        return accumulate_with(events).model_dump_json()
    except Exception as error:  # any error at all must be the same both ways
        return type(error), str(error)


def one_by_one(events: list[Any]) -> Iterator[Any]:
    """The events as a one-pass iterator, as an HTTP client hands them over."""
    yield from events


class StreamLaw:
    """``accumulate_stream`` against ``decode_stream`` + ``StreamAccumulator``, for one provider."""

    def __init__(self, provider: str) -> None:
        self.provider = provider

    def decoded(self, events: Any) -> chatcodec.ChatResponse:
        """The response the canonical events accumulate to."""
        accumulator = chatcodec.StreamAccumulator()
        accumulator.extend(chatcodec.decode_stream(self.provider, events))
        return accumulator.response()

    def accumulated(self, events: Any) -> chatcodec.ChatResponse:
        return chatcodec.accumulate_stream(self.provider, events)

    def assert_same(self, events: Any) -> None:
        assert outcome(self.accumulated, events) == outcome(self.decoded, events)

    def assert_same_one_by_one(self, events: list[Any]) -> None:
        """The same on one-pass iterators (a list of dicts is read as it is)."""
        accumulated = outcome(self.accumulated, one_by_one(events))
        assert accumulated == outcome(self.decoded, one_by_one(events))
