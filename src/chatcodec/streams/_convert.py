"""Stream conversion for proxies: bytes of one provider's stream in, another's out.

An async proxy reads its upstream's body in chunks and must write converted chunks as
they come, without a thread to run a pull-style generator.
:class:`StreamConverter` is push-style: ``feed`` each chunk read from the upstream,
write what it returns; ``close`` when the body ends. :func:`convert_stream` and
:func:`aconvert_stream` wrap it over a sync or async iterable of chunks.

Both ends keep their provider's own framing (:mod:`chatcodec.streams._framing`): SSE for
OpenAI, Anthropic, Responses and Gemini (``alt=sse``; ``framing="json-array"`` for a
Gemini stream without it), AWS event-stream binary for Bedrock (what its HTTP API sends;
boto3's event dicts go to :meth:`StreamConverter.feed_events`).

A mid-stream error from the upstream is written in the caller's shape, with its type
translated through its HTTP status (:mod:`chatcodec._error_shapes`): an Anthropic
``overloaded_error`` reaches an OpenAI client as ``{"error": {"message": "Overloaded",
"type": "server_error"}}``, not as Anthropic's body nested in OpenAI's.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from chatcodec._codec_options import checked_options
from chatcodec._codec_protocols import (
    NumbersStreamEvents,
    SupportsStreamDecoder,
    SupportsStreamEncoder,
    has_stream_decoder,
    has_stream_encoder,
)
from chatcodec._error_shapes import error_event, translated_event
from chatcodec._errors import CodecNotAvailableError, StreamError
from chatcodec._losses import Loss, LossRecorder, OnLoss
from chatcodec._model.stream_records import AnyStreamRecord, ErrorRecord, FinishRecord, event_of, record_of
from chatcodec._providers.kit.stream_boundary import record_encoder
from chatcodec._public_label import shown_as
from chatcodec._registry import get_codec

if TYPE_CHECKING:
    from chatcodec._model.stream_events import ErrorEvent
from chatcodec.streams._builder import StreamBuilder
from chatcodec.streams._framing import Framing, WireEventReader, WireEventWriter
from chatcodec.streams._input import event_fields

__all__ = ["StreamConverter", "aconvert_stream", "convert_stream"]


def stream_codecs(source: str, target: str) -> tuple[SupportsStreamDecoder, SupportsStreamEncoder]:
    """The codecs a stream from ``source`` to ``target`` needs, or a
    :class:`~chatcodec.CodecNotAvailableError` naming the codec and what it lacks (streams
    are optional in a provider folder): what :class:`StreamConverter` asks first, and
    ``chatcodec serve`` before it calls the upstream."""
    source_codec, target_codec = get_codec(source), get_codec(target)
    if not has_stream_decoder(source_codec):
        raise CodecNotAvailableError(f"{source!r} has no push-style stream decoder")
    if not has_stream_encoder(target_codec):
        raise CodecNotAvailableError(f"{target!r} has no push-style stream encoder")
    if getattr(source_codec, "decodes_streams", True) is False:
        source_codec.stream_decoder(None)  # raises, in the codec's words
    if getattr(target_codec, "encodes_streams", True) is False:
        target_codec.stream_encoder(LossRecorder())  # raises, in the codec's words
    return source_codec, target_codec


class StreamConverter:
    """One stream's conversion from ``source`` to ``target``, fed as it arrives.

    ``options`` are the target encoder's output options (see
    :func:`~chatcodec.encode_stream`: ``reasoning_field``, ``include_usage``). The loss
    policy is applied at :meth:`close`; :attr:`losses` holds what was recorded so far.
    """

    def __init__(
        self,
        source: str,
        target: str,
        *,
        options: Mapping[str, Any] | None = None,
        on_loss: OnLoss = "warn",
        losses: list[Loss] | None = None,
        source_framing: Framing | None = None,
        target_framing: Framing | None = None,
    ) -> None:
        source_codec, target_codec = stream_codecs(source, target)
        self._settings = _Settings(source, target, dict(options or {}), on_loss, source_framing, target_framing)
        self._target = target
        self._recorder = LossRecorder()
        self._reader = WireEventReader(source, source_framing)
        self._builder = StreamBuilder(emit=True)
        self._decoder = source_codec.stream_decoder(self._builder)
        self._encoder = record_encoder(
            target_codec.stream_encoder(self._recorder, options=checked_options(target, options))
        )
        self._writer = WireEventWriter(target, target_framing)
        self._on_loss: OnLoss = on_loss
        self._losses = losses
        self.events_in: int = 0
        """Wire events read from the source so far."""
        self.events_out: int = 0
        """Wire events written for the target so far."""
        self._error: ErrorRecord | None = None
        self._finished = False  # a finish or error event came

    def __reduce__(self) -> tuple[Callable[[_Settings], StreamConverter], tuple[_Settings]]:
        """A converter that has not started pickles as its settings, so an engine can send
        one to each worker (Ray Data, ``datasets.map(num_proc=...)``); one mid-stream holds its decoder's and encoder's
        state, which has no portable form, and refuses. A ``losses`` list given to it is
        not sent: the copy records its losses in its own :attr:`losses`."""
        if self.events_in or self.events_out:
            import pickle  # loaded when a converter is pickled: a stream never is

            raise pickle.PicklingError(
                f"a StreamConverter that has converted events ({self.events_in} in) cannot be pickled; "
                "pickle it before the stream starts"
            )
        return _rebuilt, (self._settings,)

    @property
    def error(self) -> ErrorEvent | None:
        """The last error the source sent mid-stream (as read, before translation), for a
        proxy's log: the caller's stream had a 200 status, its answer failed all the same."""
        if self._error is None:
            return None
        error = event_of(self._error)
        assert error.type == "error"
        return error

    @property
    def ended(self) -> bool:
        """Whether the source said its answer is over: its format's last event came
        (Anthropic's ``message_stop``, a ``finish_reason`` for every OpenAI choice, ...) or
        an error event did; a body that ends before that was cut off between two events
        (judged at :meth:`close`, as a later choice may still start). For a source whose
        decoder names no last event (canonical events), a finish or an error event."""
        return self._builder.ended or (self._finished and self._builder.missing_end is None)

    @property
    def media_type(self) -> str:
        """The ``Content-Type`` of the converted stream."""
        return self._writer.media_type

    @property
    def losses(self) -> list[Loss]:
        """The losses recorded so far (the policy is applied only at :meth:`close`)."""
        return list(self._recorder.losses)

    def feed(self, chunk: bytes) -> bytes:
        """The converted bytes for one chunk of the source's body (often empty); a chunk of
        another type (an integer from iterating ``bytes``) is a :class:`~chatcodec.StreamError`."""
        if not isinstance(cast("object", chunk), bytes | bytearray | memoryview):
            raise StreamError(f"a chunk of a stream's body is bytes, not {type(chunk).__name__}", "$")
        return self.feed_events(self._reader.feed(bytes(chunk)))

    def feed_events(self, wire_events: Iterable[Mapping[str, Any]]) -> bytes:
        """The converted bytes for already-parsed source wire events (boto3's dicts)."""
        written: list[bytes] = []
        for wire_event in wire_events:
            self.events_in += 1
            for event in self._decoder.feed(dict(wire_event)):
                written.extend(self._encoded(record_of(event)))
        return b"".join(written)

    def close(self, *, cut_off: str | None = None, partial: bool = False) -> bytes:
        """The bytes still owed when the source's body ends; applies the loss policy.

        A source body that ended before its answer did (no last event of its format, no
        error event: its connection was cut between two events, see :attr:`ended`) is not
        given the target's clean finish (``[DONE]``, ``message_stop``) a caller would take
        for a complete answer: ``cut_off`` is, for a proxy, the error message that ends the
        stream in the target's shape (status 502); without it a
        :class:`~chatcodec.StreamError` names what the source never sent, unless
        ``partial=True``, which closes the target's stream over what arrived."""
        written = [self.feed_events(self._reader.close())]
        for event in self._decoder.close():
            written.extend(self._encoded(record_of(event)))
        if self._builder.ended and not self._finished:
            written.extend(self._unsaid_finish())
        if not self.ended and cut_off is not None:
            return b"".join(written) + self.fail(cut_off)
        if not partial:
            self._builder.refuse_cut(self._settings.source)
        for wire_event in self._encoder.close():
            written.append(self._written(wire_event))
        written.append(self._writer.close())
        self._recorder.settle(self._on_loss, self._losses)
        return b"".join(written)

    def _unsaid_finish(self) -> list[bytes]:
        """The target's end for a source that ended its answer (its last event came: Anthropic's
        ``message_stop``) without saying why (no ``stop_reason``): a finish of ``other``,
        reported, so the target writes its own end (a ``finish_reason``, ``messageStop``,
        ``done: true``, a completed status) instead of a stream a client takes for a cut one."""
        why = f"the {self._settings.source} stream ended without one: the target's end is written with 'other'"
        self._recorder.add(("events", self.events_in), "finish reason", why, "default")
        return self._encoded(FinishRecord(choice=0, finish_reason={"unified": "other"}))

    def fail(self, message: str, status: int = 502) -> bytes:
        """The bytes that end the stream with an error in the target's shape (for a proxy
        whose upstream broke off or sent what cannot be read: headers are already sent, so
        the error must travel inside the stream); applies the loss policy."""
        event = error_event(self._target, message, status)
        if isinstance(self._encoder, NumbersStreamEvents):  # numbered after the events already sent
            event = self._encoder.numbered(event)
        written = self._written(event) + self._writer.close()
        self._recorder.settle(self._on_loss, self._losses)
        return written

    def _encoded(self, event: AnyStreamRecord) -> list[bytes]:
        """The bytes for one canonical record (a decoder's events arrive as records: a
        contract version 1 decoder's models are made records as they come)."""
        if isinstance(event, FinishRecord):
            self._finished = True
        elif isinstance(event, ErrorRecord):
            self._error, self._finished = event, True
            if self._settings.source != self._target:  # the source's own error is the target's already
                event = translated_event(event, self._target)
        return [self._written(wire_event) for wire_event in self._encoder.feed(event)]

    def _written(self, wire_event: dict[str, Any]) -> bytes:
        self.events_out += 1
        return self._writer.write(wire_event)


@dataclass(frozen=True, slots=True)
class _Settings:
    """What a :class:`StreamConverter` was made with, kept for pickling."""

    source: str
    target: str
    options: dict[str, Any]
    on_loss: OnLoss
    source_framing: Framing | None
    target_framing: Framing | None


def _rebuilt(settings: _Settings) -> StreamConverter:
    """A :class:`StreamConverter` made again from its pickled settings."""
    return StreamConverter(
        settings.source,
        settings.target,
        options=settings.options,
        on_loss=settings.on_loss,
        source_framing=settings.source_framing,
        target_framing=settings.target_framing,
    )


def _whole_body_or_chunks(chunks: Iterable[bytes] | Iterable[object] | bytes | str) -> Iterable[object]:
    """A whole body (``bytes`` or ``str``, what a recorded stream is) is one chunk: iterating
    ``bytes`` gives integers, which the reader could only refuse one by one."""
    if isinstance(chunks, str):
        return (chunks.encode(),)
    if isinstance(chunks, bytes | bytearray | memoryview):
        return (bytes(chunks),)
    return chunks


def convert_stream(
    chunks: Iterable[bytes] | Iterable[object] | bytes | str,
    *,
    source: str,
    target: str,
    partial: bool = False,
    **settings: Any,
) -> Iterator[bytes]:
    """Convert a stream's body, read in chunks (or given whole as ``bytes``/``str``), lazily
    (``settings``: as :class:`StreamConverter`; ``partial``: as its :meth:`~StreamConverter.close`,
    a source cut between two events is a :class:`~chatcodec.StreamError` without it).

    ``chunks`` may also be the source's events already parsed, as ``decode_stream`` takes
    them: dicts, or an SDK's event objects (what ``client.chat.completions.create(...,
    stream=True)`` or Anthropic's ``messages.create(..., stream=True)`` yields)."""
    converter = StreamConverter(source, target, **settings)
    for index, chunk in enumerate(_whole_body_or_chunks(chunks)):
        converted = _fed(converter, chunk, index)
        if converted:
            yield converted
    yield converter.close(partial=partial)


def _fed(converter: StreamConverter, chunk: object, index: int) -> bytes:
    """``chunk`` fed to ``converter``: bytes of the body, text of it, or a parsed event."""
    if isinstance(chunk, bytes | bytearray):
        return converter.feed(bytes(chunk))
    if isinstance(chunk, memoryview):
        return converter.feed(chunk.tobytes())
    if isinstance(chunk, str):
        return converter.feed(chunk.encode())
    if isinstance(chunk, int):  # an integer from iterating ``bytes``: feed says what it is
        return converter.feed(cast("bytes", chunk))
    return converter.feed_events((event_fields(chunk, index),))


async def aconvert_stream(
    chunks: AsyncIterable[bytes] | AsyncIterable[object],
    *,
    source: str,
    target: str,
    partial: bool = False,
    **settings: Any,
) -> AsyncIterator[bytes]:
    """Convert a stream's body as an async client reads it (``httpx``'s ``aiter_bytes()``),
    or an async SDK stream's events, without a thread; ``settings`` and ``partial`` as
    :func:`convert_stream`."""
    converter = StreamConverter(source, target, **settings)
    index = 0
    async for chunk in chunks:
        converted = _fed(converter, chunk, index)
        index += 1
        if converted:
            yield converted
    yield converter.close(partial=partial)


shown_as("chatcodec", aconvert_stream, convert_stream, StreamConverter)
