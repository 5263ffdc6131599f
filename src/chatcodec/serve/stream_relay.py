"""Relaying a converted stream to the caller: the first events before the headers, the rest
as they come, the upstream closed however the stream ends.

A stream's headers are sent once its first event is converted, so an upstream that answers
200 with no event is a 502, not an empty success; a body that ends between two events ends
the caller's stream with an error event in its own shape, never a clean finish it would take
for a complete answer. :class:`ObservedConverter` shows each canonical event to the request's
log, span and keeper on its way to the caller's encoder.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
import httpx

from chatcodec.errors import ChatcodecError
from chatcodec.model.stream_events import AnyStreamEvent
from chatcodec.serve.identity import Identity
from chatcodec.serve.keeping import StreamKeeping
from chatcodec.serve.limits import EventSizeCheck
from chatcodec.serve.refusal import RefusalError
from chatcodec.serve.request_log import RequestRecord
from chatcodec.streams.convert import StreamConverter

__all__ = ["CUT_OFF", "ObservedConverter", "converted_stream", "first_events"]

CUT_OFF = "the upstream stream ended before its answer did (its connection was cut between two events)"
"""The error that ends a stream whose upstream body ended without its format's last event or an error event."""


class ObservedConverter(StreamConverter):
    """A stream converter that shows each canonical event to ``observe`` on its way to
    the target's encoder (the error events among them already translated)."""

    def __init__(
        self,
        *arguments: Any,
        observe: Callable[[AnyStreamEvent], None],
        identity: Identity,
        max_event_bytes: int,
        **settings: Any,
    ) -> None:
        super().__init__(*arguments, **settings)
        self._observe = observe
        self._identity = identity
        self._sizes = EventSizeCheck(max_event_bytes)

    def feed(self, chunk: bytes) -> bytes:
        """The converted bytes for ``chunk``; a :class:`StreamError` once one upstream event
        passes ``max_event_bytes`` (:mod:`.limits`)."""
        before = self.events_in
        converted = super().feed(chunk)
        self._sizes.fed(chunk, self.events_in > before)
        return converted

    def _encoded(self, event: AnyStreamEvent) -> list[bytes]:
        event = self._identity.started(event)
        self._observe(event)
        return super()._encoded(event)


async def first_events(chunks: AsyncIterator[bytes], converter: StreamConverter, upstream: str) -> bytes:
    """The converted bytes up to the first event written for the caller; a stream that
    ends with no event at all is a 502 (an upstream 200 with an empty body is a failure
    the caller must see, not an empty answer)."""
    try:
        async for chunk in chunks:
            converted = converter.feed(chunk)
            if converted:
                return converted
    except ChatcodecError as error:
        raise RefusalError(502, f"the {upstream} upstream's stream cannot be read: {error}") from None
    except httpx.TimeoutException as error:
        raise RefusalError(504, f"the {upstream} upstream did not answer in time: {error!r}") from None
    except httpx.HTTPError as error:
        raise RefusalError(502, f"the {upstream} upstream's stream broke off: {error!r}") from None
    if converter.events_in == 0:
        raise RefusalError(502, f"the {upstream} upstream answered 200 with an empty stream (no event)")
    return b""


async def converted_stream(
    upstream: httpx.Response,
    chunks: AsyncIterator[bytes],
    first: bytes,
    converter: StreamConverter,
    record: RequestRecord,
    *,
    keeping: StreamKeeping | None = None,
) -> AsyncIterator[bytes]:
    """The converted stream after its ``first`` bytes; the upstream response is closed
    however it ends (a caller that went away cancels this generator, and the close tells
    the upstream to stop). ``keeping`` reads what is written, to keep the answer
    (``--store``, :mod:`.keeping`) before its last event is written."""

    async def watched(converted: bytes, *, last: bool = False) -> bytes:
        if keeping is not None:
            await keeping.written(converted, last=last)
        return converted

    finished = False
    try:
        yield await watched(first)
        async for chunk in chunks:
            converted = converter.feed(chunk)
            if converted:
                yield await watched(converted)
        closing = converter.close(cut_off=CUT_OFF)
        if not converter.ended:  # an error event in the front's shape ends the stream (close)
            record.error, record.stream_error_status = CUT_OFF, 502
        yield await watched(closing, last=True)
        finished = True
    except (ChatcodecError, httpx.HTTPError) as error:
        record.error, record.stream_error_status = f"the upstream stream broke off: {error}", 502
        yield converter.fail(record.error, 502)
        finished = True
    finally:
        with anyio.CancelScope(shield=True):
            await upstream.aclose()
        record.cancelled = not finished
        record.losses = [*record.losses, *converter.losses]
        record.events = converter.events_out
        record.emit()
