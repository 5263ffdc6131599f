"""Step 7, streamed: the upstream's stream converted and relayed to the caller as it comes,
what is to be kept handed to :mod:`.keep` before the last bytes are written.

A stream's headers are sent once its first event is converted, so an upstream that
answers 200 with no event is a 502, not an empty success; a body that ends between two
events ends the caller's stream with an error event in its own shape, never a clean
finish it would take for a complete answer. Each canonical event is shown to the log
line, the span and what the stream gathers to keep on its way to the caller's encoder
(:class:`ObservedConverter`), each scrubbed of the credentials the request sent first
(:mod:`chatcodec.serve._secrets`), so the caller, the log, the span and the store see none.
Every write must be accepted within ``write_timeout``
(:func:`~chatcodec.serve._deadlines.write_deadline_stream`); however the stream ends (a
caller gone or too slow included), the upstream response is closed, which tells the
upstream to stop and frees its pool connection.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

import anyio
import httpx
from starlette.responses import Response

from chatcodec._error_statuses import error_status
from chatcodec._errors import ChatcodecError
from chatcodec._model.stream_records import AnyStreamRecord, ErrorRecord, ThinkingStartRecord
from chatcodec.serve._config import ServeConfig
from chatcodec.serve._deadlines import write_deadline_stream
from chatcodec.serve._held_deltas import HeldDeltas
from chatcodec.serve._identity import AS_THEY_ARE, Identity
from chatcodec.serve._limits import EventSizeCheck
from chatcodec.serve._own_reasoning import own_signature, signed_events
from chatcodec.serve._refusal import RefusalError
from chatcodec.serve._request_log import RequestRecord, losses_header
from chatcodec.serve._secrets import NO_SECRETS, Secrets
from chatcodec.serve._steps import keep
from chatcodec.serve._steps import record as turn_record
from chatcodec.serve._steps.caller_watch import CLIENT_GONE
from chatcodec.serve._steps.fit import Fitted
from chatcodec.serve._steps.send import Sent
from chatcodec.serve._steps.shared import Server
from chatcodec.serve._upstream_errors import failure
from chatcodec.streams._accumulator import StreamAccumulator
from chatcodec.streams._convert import StreamConverter

__all__ = ["CUT_OFF", "LOST", "ObservedConverter", "RecordingConverter", "StreamGathering", "streamed"]

CUT_OFF = "the upstream stream ended before its answer did (its connection was cut between two events)"
"""The error that ends a stream whose upstream body ended without its format's last event or an error event."""
LOST = "the stream ended before its answer did: its caller went away (or the server stopped it)"
"""Why a stream the caller's side ended is logged unfinished (status 499), when no other
reason was given (the write deadline gives its own): under load a lost stream was a line
saying ``cancelled`` and nothing more."""


async def streamed(server: Server, fitted: Fitted, sent: Sent, record: RequestRecord) -> Response:
    """The caller's streamed response to ``fitted``, from the upstream's open stream ``sent``."""
    upstream, config = fitted.route.upstream, server.config
    response = sent.response
    try:
        gathering = StreamGathering(server, fitted, record)
        watch = gathering if gathering.active else None
        recording = fitted.recording
        converting = ObservedConverter if recording is None else partial(RecordingConverter, recording=recording)
        converter = converting(
            upstream,
            config.api,
            options=fitted.call.options,
            on_loss="ignore",
            target_framing=fitted.call.framing,
            watchers=_watchers(server, record, watch),
            on_error=_error_noted(record),
            identity=sent.identity,
            max_event_bytes=config.max_event_bytes,
            secrets=record.secrets,
        )
        chunks = _upstream_chunks(response)
        first = await _first_events(chunks, converter, upstream, config)
    except BaseException:
        with anyio.CancelScope(shield=True):
            await response.aclose()
        raise
    record.status = 200
    headers = {**sent.passed, **losses_header(record.losses), "cache-control": "no-cache"}
    turn = None if recording is None else turn_record.StreamedTurn(server, recording, record)
    body = _relayed(response, chunks, first, converter, record, config=config, gathering=watch, turn=turn)
    limit = config.write_timeout
    return write_deadline_stream(body, converter.media_type, headers, write_timeout=limit, on_late=record.late)


def _upstream_chunks(response: httpx.Response) -> AsyncIterator[bytes]:
    """The upstream body's chunks. One that is not content-encoded (an SSE stream, as the
    APIs send one) is read from the response's byte stream (``Response.stream``, what
    ``aiter_raw`` itself reads) as it arrives: ``aiter_bytes`` adds a generator and a
    decoder a chunk that change nothing, and ``aiter_raw`` a generator and a chunker a
    chunk that change nothing without a ``chunk_size`` (``bench/serve_events.py``
    counts them). What else it does is done here: the stream is read
    once, and the response closed (``_relayed``, or the error path of :func:`streamed`)."""
    encoded = response.headers.get("content-encoding", "identity").strip().lower() != "identity"
    if encoded:
        return response.aiter_bytes()
    stream = response.stream
    return aiter(stream) if isinstance(stream, httpx.AsyncByteStream) else response.aiter_raw()


def _watchers(
    server: Server, record: RequestRecord, gathering: StreamGathering | None
) -> tuple[Callable[[AnyStreamRecord], None], ...]:
    """What a stream's canonical events are shown to: the span, which gathers the answer,
    and ``gathering``, the answer to keep; those there are, found once, not asked at each event."""
    watching = (server.telemetry.stream_watcher(record), None if gathering is None else gathering.observe)
    return tuple(watcher for watcher in watching if watcher is not None)


def _error_noted(record: RequestRecord) -> Callable[[ErrorRecord], None]:
    """An error event the upstream sent mid-stream, put in the log line with its status."""

    def noted(event: ErrorRecord) -> None:
        record.error = event.message
        record.stream_error_status = error_status(event.error_type, 502, provider=record.upstream)

    return noted


class ObservedConverter(StreamConverter):
    """A stream converter that fills each canonical event's identity (:class:`Identity`),
    tells ``on_error`` of an error event and shows each event to ``watchers`` on its way to
    the target's encoder (the error events among them not yet translated). One method a
    canonical event, no observer call: serve's cost a streamed event is counted against
    the converter's (``bench/serve_events.py``)."""

    def __init__(
        self,
        *arguments: Any,
        watchers: Sequence[Callable[[AnyStreamRecord], None]],
        on_error: Callable[[ErrorRecord], None],
        identity: Identity,
        max_event_bytes: int,
        secrets: Secrets = NO_SECRETS,
        **settings: Any,
    ) -> None:
        super().__init__(*arguments, **settings)
        self._secrets = secrets if secrets else None
        self._held = None if self._secrets is None else HeldDeltas(self._secrets)
        """The request's credentials taken out of each event, a part's text that may begin one
        held until the next delta says (none sent: no call an event: :mod:`chatcodec.serve._held_deltas`)."""
        self.after_end = 0
        """Upstream events that came after the stream's own last event (or its error), dropped."""
        self._watchers = tuple(watchers)
        self._on_error = on_error
        self._identity = identity
        self._sizes = EventSizeCheck(max_event_bytes)

    # the converter's own steps under names of their own: ``super()`` made an object at every chunk and event
    _converter_feed = StreamConverter.feed
    _converter_feed_events = StreamConverter.feed_events
    _converter_encoded = StreamConverter._encoded

    def feed_events(self, wire_events: Iterable[Mapping[str, Any]]) -> bytes:
        """The converted bytes for the upstream's events before its stream's own last event
        (``message_stop``, ``interaction.completed``, an error): one after it is dropped and
        counted (:attr:`after_end`), so the caller never gets content after its finish."""
        if self._builder.ended:
            self.after_end += sum(1 for _ in wire_events)
            return b""
        if isinstance(wire_events, list) and len(wire_events) < 2:  # a chunk an event (most): checked above
            return self._converter_feed_events(wire_events)
        return self._converter_feed_events(self._before_end(wire_events))

    def _before_end(self, wire_events: Iterable[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
        builder = self._builder
        for wire_event in wire_events:
            if builder.ended:
                self.after_end += 1
            else:
                yield wire_event

    def fail(self, message: str, status: int = 502) -> bytes:
        """The error that ends the stream, its message scrubbed of the request's credentials
        (after the text held back, which is the caller's)."""
        if self._secrets is None or self._held is None:
            return StreamConverter.fail(self, message, status)
        held = [data for event in self._held.flushed() for data in self._passed(event)]
        return b"".join((*held, StreamConverter.fail(self, self._secrets.scrub(message), status)))

    def feed(self, chunk: bytes) -> bytes:
        """The converted bytes for ``chunk``; a :class:`StreamError` once one upstream event
        passes ``max_event_bytes`` (:mod:`chatcodec.serve._limits`)."""
        before, sizes = self.events_in, self._sizes
        converted = self._converter_feed(chunk)
        if sizes.pending or self.events_in == before:  # else an event, whole in the chunk: nothing to note
            sizes.fed(chunk, self.events_in > before)
        return converted

    def _encoded(self, event: AnyStreamRecord) -> list[bytes]:
        if type(event) not in AS_THEY_ARE:  # most events: no call (a stream's start, a thinking part's)
            event = self._identity.started(event)
        if self._held is None:
            return self._passed(event)
        return [data for ready in self._held.passed(event) for data in self._passed(ready)]

    def _passed(self, event: AnyStreamRecord) -> list[bytes]:
        if type(event) is ErrorRecord:
            self._on_error(event)
        for watch in self._watchers:
            watch(event)
        return self._converter_encoded(event)


class RecordingConverter(ObservedConverter):
    """An observed converter that hands each upstream event to the turn being recorded
    first (:mod:`.record`), which takes the token ids out of it: a stream recorded pays for
    it, one that is not never calls it."""

    def __init__(self, *arguments: Any, recording: turn_record.TurnRecording, **settings: Any) -> None:
        super().__init__(*arguments, **settings)
        self._recording = recording
        self._own_signature = own_signature(self._target) if recording.own_model else None
        """What the front signs the gateway's own model's reasoning with (:mod:`chatcodec.serve._own_reasoning`)."""

    def _encoded(self, event: AnyStreamRecord) -> list[bytes]:
        signature = self._own_signature
        if signature is None or type(event) is not ThinkingStartRecord:
            return ObservedConverter._encoded(self, event)
        return [data for signed in signed_events(event, signature) for data in ObservedConverter._encoded(self, signed)]

    def feed_events(self, wire_events: Iterable[Mapping[str, Any]]) -> bytes:
        events = wire_events if isinstance(wire_events, list) else list(wire_events)
        take = self._recording.take
        for event in events:
            take(event)
        return ObservedConverter.feed_events(self, events)


class StreamGathering:
    """What one streamed answer leaves to keep, gathered as it goes: its canonical events
    (for its signed thinking) and the bytes written read back (for a Responses answer),
    handed to :mod:`.keep` once, before the bytes that complete the answer are written, so
    a caller that continues at once finds them."""

    def __init__(self, server: Server, fitted: Fitted, record: RequestRecord) -> None:
        self._server = server
        self._prepared = fitted.answer
        self._record = record
        self._watch = server.answerer.watch(fitted.answer, fitted.canonical.read)
        self._events = StreamAccumulator() if server.keeps_thinking else None
        self._handed = False

    @property
    def active(self) -> bool:
        return self._watch is not None or self._events is not None

    def observe(self, event: AnyStreamRecord) -> None:
        """One canonical event on its way to the caller."""
        if self._watch is not None:
            self._watch.observe(event)
        if self._events is not None:
            self._events.add(event)

    async def written(self, converted: bytes, *, last: bool) -> None:
        """Bytes about to be written to the caller (``last``: the stream's end)."""
        if self._handed:
            return
        answer = None if self._watch is None else self._watch.feed(converted)
        if answer is None and not last:
            return
        message = self._message()
        if answer is not None or message is not None:
            self._handed = True
            await keep.kept(self._server, self._record, self._prepared, answer, message)

    def _message(self) -> dict[str, Any] | None:
        events = self._events
        if events is None or events.errors:
            return None
        try:
            message: dict[str, Any] = events.response().choices[0].message.model_dump(mode="json", exclude_none=True)
        except (ChatcodecError, ValueError, IndexError):
            return None
        return message


async def _first_events(
    chunks: AsyncIterator[bytes], converter: StreamConverter, upstream: str, config: ServeConfig
) -> bytes:
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
    except httpx.HTTPError as error:
        reason, status = failure(error, timeout=config.timeout, connect_timeout=config.connect_timeout)
        raise RefusalError(status, f"the {upstream} upstream's stream {reason}") from None
    if converter.events_in == 0:
        raise RefusalError(502, f"the {upstream} upstream answered 200 with an empty stream (no event)")
    return b""


async def _relayed(
    upstream: httpx.Response,
    chunks: AsyncIterator[bytes],
    first: bytes,
    converter: ObservedConverter,
    record: RequestRecord,
    *,
    config: ServeConfig,
    gathering: StreamGathering | None,
    turn: turn_record.StreamedTurn | None = None,
) -> AsyncIterator[bytes]:
    """The converted stream after its ``first`` bytes; the upstream response is closed
    however it ends (a caller that went away cancels this generator, and the close tells
    the upstream to stop). ``gathering`` reads what is written, to keep the answer
    (``--store``) before its last event is written."""

    finished = False
    try:
        if gathering is not None:  # each write read back before it is written (no coroutine per event without)
            await gathering.written(first, last=False)
        yield first
        async for chunk in chunks:
            converted = converter.feed(chunk)
            if converted:
                if gathering is not None:
                    await gathering.written(converted, last=False)
                yield converted
        closing = converter.close(cut_off=CUT_OFF)
        if not converter.ended:  # an error event in the front's shape ends the stream (close)
            record.error, record.stream_error_status = CUT_OFF, 502
        if gathering is not None:
            await gathering.written(closing, last=True)
        if turn is not None:  # recorded before the last bytes, so a caller reading the file at once finds it
            await turn.ended(record.error)
        yield closing
        finished = True
    except (ChatcodecError, httpx.HTTPError) as error:
        message, status = _broken(error, config)
        record.error, record.stream_error_status = message, status
        if turn is not None:
            await turn.ended(message)
        yield converter.fail(message, status)
        finished = True
    finally:
        with anyio.CancelScope(shield=True):
            await upstream.aclose()
            if turn is not None:
                await turn.ended(record.error or LOST, cancelled=not finished)
        _logged(record, converter, finished=finished)


def _broken(error: ChatcodecError | httpx.HTTPError, config: ServeConfig) -> tuple[str, int]:
    """Why an upstream stream broke after its headers, and the status it is logged with."""
    if isinstance(error, ChatcodecError):
        return f"the upstream stream cannot be read: {error}", 502
    reason, status = failure(error, timeout=config.timeout, connect_timeout=config.connect_timeout)
    return f"the upstream stream {reason}", status


def _logged(record: RequestRecord, converter: ObservedConverter, *, finished: bool) -> None:
    """The stream's log line written: its losses, its events, and, ``finished`` false (its
    caller's side ended it), that it was cancelled and why, when nothing said why already."""
    record.cancelled = not finished
    if not finished and record.error is None:
        record.error, record.stream_error_status = LOST, CLIENT_GONE
    record.losses = [*record.losses, *converter.losses]
    record.events = converter.events_out
    record.after_end = converter.after_end
    record.emit()
