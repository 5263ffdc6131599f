"""The driver every provider's fast stream accumulation shares: try, else replay.

A provider's walker reads the plain shapes of its stream straight from the dicts; the
moment it meets anything else it gives up, and the whole stream, from its first event,
goes through the general path (``decode_stream`` + :class:`~chatcodec.StreamAccumulator`).
So the fast path never has to reproduce a rare shape or an error message: whatever it
does not handle exactly gives the general path's result, or raises its error.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from chatcodec.accumulator import accumulate
from chatcodec.errors import ValidationError
from chatcodec.response import ChatResponse
from chatcodec.stream_events import AnyStreamEvent


class UnhandledError(Exception):
    """The stream holds something only the general path handles."""


class FastWalker(Protocol):
    """A provider's reader of plain stream events."""

    def continues(self, payload: dict[str, Any], /) -> bool:
        """Take an event that only continues an open part; False if it is not one."""
        ...

    def feed(self, payload: dict[str, Any], /) -> bool:
        """Take any other event, strictly; False when the stream needs the general path."""
        ...

    def response(self) -> ChatResponse:
        """Build and validate the accumulated response."""
        ...


DecodeStream = Callable[[Iterable[dict[str, Any]]], Iterator[AnyStreamEvent]]
"""A provider's general stream decoder."""


def accumulate_or_replay(
    payloads: Iterable[dict[str, Any]], walker: FastWalker, decode_stream: DecodeStream
) -> ChatResponse:
    """What ``decode_stream`` followed by a :class:`~chatcodec.StreamAccumulator` gives (or
    raises) for ``payloads``, through ``walker`` when it can read every event."""
    continues, feed = walker.continues, walker.feed
    seen: list[dict[str, Any]]
    if isinstance(payloads, list):  # replayed from the list itself when needed
        seen = payloads
        for payload in seen:
            if not (continues(payload) or feed(payload)):
                return accumulate(decode_stream(seen))
    else:
        seen = []
        iterator = iter(payloads)
        for payload in iterator:  # errors of the input itself (bad SSE) propagate as they are
            seen.append(payload)
            if not (continues(payload) or feed(payload)):
                return accumulate(decode_stream(itertools.chain(seen, iterator)))
    try:
        return walker.response()
    except ValidationError:  # replayed, so the error is worded as the general path words it
        return accumulate(decode_stream(seen))
