"""What a codec is, as protocols: the methods every wire format implements and the optional ones
(push-style stream decoding and encoding, reading messages alone). They sit below the registry and
the contract, which both need them, and import neither, so no import circle runs through the registry."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from typing_extensions import TypeIs

from chatcodec._option_table import OptionTable
from chatcodec._public_label import shown_as

if TYPE_CHECKING:  # annotations only: a conversion imports no canonical model
    from chatcodec._losses import LossRecorder
    from chatcodec._model.messages import AnyMessage
    from chatcodec._model.request import ChatRequest
    from chatcodec._model.response import ChatResponse
    from chatcodec._model.stream_events import AnyStreamEvent
    from chatcodec._model.stream_records import AnyStreamRecord
    from chatcodec.streams._builder import StreamBuilder


class Codec(Protocol):
    """What every wire format implements. ``read_*`` read the wire into canonical data
    (plain dicts, no model built) and ``write_*`` write canonical data to the wire,
    recording losses: the one reader and writer per direction. ``decode_*`` and
    ``encode_*`` are the same with models at the door. ``options`` are the encoder's, by
    public name, straight into its encode context."""

    name: str
    """The registry name (``"openai-chat"``)."""
    options: OptionTable
    """The encoder's options, by their one name (``options=`` refuses any other)."""

    def read_request(self, payload: dict[str, Any]) -> dict[str, Any]: ...

    def read_request_json(self, text: str | bytes | bytearray) -> dict[str, Any]:
        """A request body given as JSON text, as canonical data (a codec may parse and
        validate it in one pass)."""
        ...

    def write_request(
        self, request: Mapping[str, Any], losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]: ...

    def decode_request(self, payload: dict[str, Any]) -> ChatRequest: ...

    def encode_request(
        self, request: ChatRequest, losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]: ...

    def read_response(self, payload: dict[str, Any]) -> dict[str, Any]: ...

    def write_response(
        self, response: Mapping[str, Any], losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]: ...

    def decode_response(self, payload: dict[str, Any]) -> ChatResponse: ...

    def encode_response(
        self, response: ChatResponse, losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]: ...

    def decode_stream(self, events: Iterable[dict[str, Any]]) -> Iterator[AnyStreamEvent]: ...

    def encode_stream(
        self, events: Iterable[AnyStreamEvent], losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> Iterator[dict[str, Any]]: ...


class PlainParts(Protocol):
    """A built-in format's readers of the plain pieces of an agent turn (its folder's
    ``plain_parts.py``), loaded without its codec (:func:`~chatcodec._registry.get_plain_parts`):
    the dialect readers read a plain call and a reasoning string by them, so an OpenAI-shaped
    history builds no codec, and the codec's reader calls the same functions."""

    STRING_FIELD_PARTS: Mapping[str, Callable[[str], dict[str, Any]]]
    """The thinking part of each reasoning string field alone on a message, by the field."""

    def plain_call(self, call: Mapping[str, Any], /) -> dict[str, Any] | None:
        """A plain function call's canonical part, or None for a call of another shape."""
        ...


class StreamDecoder(Protocol):
    """Push-style decoding of one provider stream: feed wire events as they arrive
    (from a sync or async source alike)."""

    def feed(self, event: dict[str, Any]) -> Sequence[AnyStreamRecord | AnyStreamEvent]:
        """Canonical events for one wire event (often none, sometimes several): records
        (what the :class:`~chatcodec.contract.StreamBuilder` emits), or, from a decoder
        written against contract version 1 that builds its own, the public models."""
        ...

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        """Read wire events into the decoder's builder (what :meth:`feed` does, without
        handing events back: how ``accumulate_stream`` drives it, with the whole stream)."""
        ...

    def close(self) -> Sequence[AnyStreamRecord | AnyStreamEvent]:
        """Events still owed when the stream ends (records or models, as :meth:`feed`)."""
        ...


@runtime_checkable
class SupportsStreamDecoder(Protocol):
    """A codec that decodes streams incrementally (what :class:`~chatcodec.Conversation`,
    async proxies and :func:`~chatcodec.accumulate_stream` use); ``decode_stream`` is then
    ``feed`` over the events.

    The decoder drives ``builder`` (a :class:`~chatcodec.streams._builder.StreamBuilder`):
    none means one that emits canonical events; ``accumulate_stream`` passes one that
    builds the response directly.
    """

    def stream_decoder(self, builder: StreamBuilder | None = None) -> StreamDecoder:
        """A decoder of this format's stream, driving ``builder`` (a new one when omitted)."""
        ...


class StreamEncoder(Protocol):
    """Push-style encoding of one canonical stream: ``feed`` each canonical event as it
    is decoded (from a sync or async source alike), ``close`` at the end. What the losses
    recorder passed to :meth:`SupportsStreamEncoder.stream_encoder` collects is settled
    by the caller.

    This is contract version 1's encoder, given the public event models; one that reads
    records is a :class:`RecordStreamEncoder` (what the built-in encoders are)."""

    def feed(self, event: AnyStreamEvent) -> Iterable[dict[str, Any]]:
        """The wire events ``event`` completes (often none or one)."""
        ...

    def close(self) -> Iterable[dict[str, Any]]:
        """The closing wire events."""
        ...


class RecordStreamEncoder(Protocol):
    """A stream encoder given records (:mod:`chatcodec._model.stream_records`), not the
    public models: what contract version 2 adds, so a conversion builds no model per event.
    It says so with ``stream_contract = 2`` (a class attribute); an encoder without it is a
    :class:`StreamEncoder`, given each event as its model (docs/contributing.md, "Stream records")."""

    stream_contract: ClassVar[int]
    """``2``: this encoder reads records."""

    def feed(self, event: AnyStreamRecord) -> Iterable[dict[str, Any]]:
        """The wire events ``event`` completes (often none or one)."""
        ...

    def close(self) -> Iterable[dict[str, Any]]:
        """The closing wire events."""
        ...


@runtime_checkable
class NumbersStreamEvents(Protocol):
    """A stream encoder whose events carry a running number (the Responses stream's
    ``sequence_number``): an event written beside it (the error that ends a cut stream,
    :meth:`~chatcodec.StreamConverter.fail`) takes the stream's next number from it."""

    def numbered(self, wire_event: dict[str, Any]) -> dict[str, Any]:
        """``wire_event`` with the stream's next number (which it then counts)."""
        ...


@runtime_checkable
class SupportsStreamEncoder(Protocol):
    """A codec that encodes streams push-style (what :class:`~chatcodec.StreamConverter`
    and async proxies use); ``encode_stream`` is then ``feed`` over the events."""

    def stream_encoder(
        self, losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> StreamEncoder | RecordStreamEncoder: ...


@runtime_checkable
class SupportsMessageDecoding(Protocol):
    """A codec that reads wire messages without a whole request around them."""

    def decode_messages(self, messages: list[dict[str, Any]]) -> list[AnyMessage]: ...


def _conforms(value: object, protocol: Any) -> bool:
    """``isinstance(value, protocol)`` for a runtime-checkable protocol of methods, its
    class asked first (what ``isinstance`` asks first too): ``issubclass`` of a class is
    remembered by the ABC machinery, where each ``isinstance`` of a protocol walks its
    attributes again (docs/performance.md, "Levers in the code")."""
    return issubclass(type(value), protocol) or isinstance(value, protocol)


def has_stream_decoder(codec: object) -> TypeIs[SupportsStreamDecoder]:
    """Whether ``codec`` is a :class:`SupportsStreamDecoder`."""
    return _conforms(codec, SupportsStreamDecoder)


def has_stream_encoder(codec: object) -> TypeIs[SupportsStreamEncoder]:
    """Whether ``codec`` is a :class:`SupportsStreamEncoder`."""
    return _conforms(codec, SupportsStreamEncoder)


def decodes_messages(codec: object) -> TypeIs[SupportsMessageDecoding]:
    """Whether ``codec`` is a :class:`SupportsMessageDecoding`."""
    return _conforms(codec, SupportsMessageDecoding)


def numbers_events(encoder: object) -> TypeIs[NumbersStreamEvents]:
    """Whether ``encoder`` is a :class:`NumbersStreamEvents`."""
    return _conforms(encoder, NumbersStreamEvents)


shown_as(
    "chatcodec",
    Codec,
    StreamDecoder,
    StreamEncoder,
    SupportsMessageDecoding,
    SupportsStreamDecoder,
    SupportsStreamEncoder,
)

shown_as("chatcodec.contract", RecordStreamEncoder)  # contract version 2's encoder: a contract name only
