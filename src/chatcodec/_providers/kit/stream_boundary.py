"""Where a stream's records meet a codec written against contract version 1 (kit module).

Inside a conversion, canonical stream events travel as records
(:mod:`chatcodec._model.stream_records`): the built-in decoders hand them to the
:class:`~chatcodec.streams._builder.StreamBuilder`, the built-in encoders ``match`` on them,
and no pydantic model is made per event. A codec written against contract version 1 keeps
working unchanged, its events converted here, at the one boundary:

- a stream decoder's events are told apart one by one (a set lookup): a record goes on as
  it is, a model (what a version 1 decoder built itself) becomes its record
  (:func:`records_of`); a decoder that drives the builder gives records either way;
- a stream encoder says what it reads with a ``stream_contract`` attribute (``2``: records);
  one without it is a version 1 encoder, and :func:`record_encoder` puts it behind
  :class:`ModelsEncoder`, which gives it each record as its validated model.

Why an attribute on the encoder and not a look at the first event: an encoder is given
events, it gives none back, so nothing it does says which it reads; the attribute costs
one lookup per stream, and its absence is exactly the version 1 contract.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar, cast

from chatcodec._codec_protocols import NumbersStreamEvents, numbers_events
from chatcodec._model.stream_records import AnyStreamRecord, event_of, is_record, record_of
from chatcodec._payloads import too_deep

if TYPE_CHECKING:
    from chatcodec._codec_protocols import RecordStreamEncoder, StreamDecoder, StreamEncoder
    from chatcodec._model.stream_events import AnyStreamEvent

RECORDS_CONTRACT = 2
"""The ``stream_contract`` of an encoder that reads records (version 1 encoders read models)."""


def speaks_records(encoder: object) -> bool:
    """Whether ``encoder`` reads records: its ``stream_contract`` is :data:`RECORDS_CONTRACT` or later."""
    contract = getattr(encoder, "stream_contract", 1)
    return isinstance(contract, int) and contract >= RECORDS_CONTRACT


def records_of(events: Iterable[AnyStreamRecord | AnyStreamEvent]) -> list[AnyStreamRecord]:
    """``events`` (a decoder's, or a caller's) as records: records as they are, models converted."""
    return [record_of(event) for event in events]


def models_of(events: Iterable[AnyStreamRecord | AnyStreamEvent]) -> list[AnyStreamEvent]:
    """``events`` as the public models (where a decoder's events leave through the public
    API: ``decode_stream``, :class:`~chatcodec.Conversation`): records validated into their
    models, models as they are."""
    return [
        event_of(cast("AnyStreamRecord", event)) if is_record(event) else cast("AnyStreamEvent", event)
        for event in events
    ]


class ModelsEncoder:
    """A version 1 stream encoder (it reads the public event models) behind the records
    interface: each record is given to it as its model, validated."""

    __slots__ = ("_encoder",)
    stream_contract: ClassVar[int] = RECORDS_CONTRACT

    def __init__(self, encoder: StreamEncoder) -> None:
        self._encoder = encoder

    def feed(self, event: AnyStreamRecord) -> Iterable[dict[str, Any]]:
        """The wire events the version 1 encoder writes for ``event``'s model."""
        return self._encoder.feed(event_of(event))

    def close(self) -> Iterable[dict[str, Any]]:
        """The closing wire events."""
        return self._encoder.close()


class _NumberedModelsEncoder(ModelsEncoder):
    """The same over an encoder that numbers its events (``NumbersStreamEvents``)."""

    __slots__ = ()

    def numbered(self, wire_event: dict[str, Any]) -> dict[str, Any]:
        """``wire_event`` with the stream's next number, from the version 1 encoder."""
        encoder = self._encoder
        assert isinstance(encoder, NumbersStreamEvents)  # chosen so by :func:`record_encoder`
        return encoder.numbered(wire_event)


class EitherEncoder:
    """A records encoder that takes the public models too (each made its record as it
    comes: a set lookup for a record), so ``codec.stream_encoder(...)`` fed models, as a
    proxy written before records feeds it, writes what it wrote."""

    __slots__ = ("_encoder",)
    stream_contract: ClassVar[int] = RECORDS_CONTRACT

    def __init__(self, encoder: RecordStreamEncoder) -> None:
        self._encoder = encoder

    def feed(self, event: AnyStreamRecord | AnyStreamEvent) -> Iterable[dict[str, Any]]:
        """The wire events ``event`` (a record or a model) completes."""
        return self._encoder.feed(record_of(event))

    def close(self) -> Iterable[dict[str, Any]]:
        """The closing wire events."""
        return self._encoder.close()


class _NumberedEitherEncoder(EitherEncoder):
    """The same over an encoder that numbers its events (``NumbersStreamEvents``)."""

    __slots__ = ()

    def numbered(self, wire_event: dict[str, Any]) -> dict[str, Any]:
        """``wire_event`` with the stream's next number, from the encoder within."""
        encoder = self._encoder
        assert isinstance(encoder, NumbersStreamEvents)  # chosen so by :func:`either_encoder`
        return encoder.numbered(wire_event)


def either_encoder(encoder: RecordStreamEncoder) -> EitherEncoder:
    """``encoder`` taking records or models (keeping its event numbers)."""
    if numbers_events(encoder):
        return _NumberedEitherEncoder(encoder)
    return EitherEncoder(encoder)


def record_encoder(encoder: StreamEncoder | RecordStreamEncoder) -> RecordStreamEncoder:
    """``encoder`` when it reads records, else behind :class:`ModelsEncoder` (keeping its event numbers)."""
    if speaks_records(encoder):
        return cast("RecordStreamEncoder", encoder)
    encoder = cast("StreamEncoder", encoder)
    if numbers_events(encoder):
        return _NumberedModelsEncoder(encoder)
    return ModelsEncoder(encoder)


def decoded_models(decoder: StreamDecoder, events: Iterable[dict[str, Any]]) -> Iterator[AnyStreamEvent]:
    """A whole stream's events as the public models (``decode_stream``): ``feed`` over
    ``events``, then ``close``."""
    for event in events:
        yield from models_of(decoder.feed(event))
    yield from models_of(decoder.close())


def encoded_records(
    encoder: RecordStreamEncoder, events: Iterable[AnyStreamEvent | AnyStreamRecord]
) -> Iterator[dict[str, Any]]:
    """The wire events for a whole stream (``encode_stream``), each event given as its
    record; a value nested too deep to write is refused as too deep."""
    try:
        for event in events:
            yield from encoder.feed(record_of(event))
        yield from encoder.close()
    except RecursionError:
        raise too_deep() from None
