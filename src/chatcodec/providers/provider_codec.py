"""The one codec class every provider is an instance of.

A provider folder writes functions (``request.py``, ``response.py``, ``stream_decode.py``,
``stream_encode.py``), never a codec class: its ``codec.py`` hands those modules to
:class:`ProviderCodec`, which gives the registry the :class:`~chatcodec.registry.Codec`
methods and the incremental stream decoding the conversation builder needs. So the
forwarding is written once, and a reader who knows one provider's ``codec.py`` knows
them all.

The module arguments are typed by protocols (a module satisfies a protocol through its
functions), so a provider missing a function, or with a different signature, fails
type-checking in its ``codec.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import pydantic_core

from chatcodec.errors import StreamError, ValidationError
from chatcodec.losses import LossRecorder
from chatcodec.messages import AnyMessage
from chatcodec.payloads import too_deep
from chatcodec.providers.field_sets import FieldSets, load_field_sets
from chatcodec.providers.kit import canonical_refusal
from chatcodec.providers.target_rules import apply_target_rules
from chatcodec.registry import StreamDecoder, StreamEncoder
from chatcodec.request import ChatRequest
from chatcodec.response import ChatResponse
from chatcodec.stream_builder import StreamBuilder
from chatcodec.stream_events import AnyStreamEvent

InputT = TypeVar("InputT")
ResultT = TypeVar("ResultT")
DecoderT = TypeVar("DecoderT")


class RequestFunctions(Protocol):
    """What a provider's ``request.py`` offers."""

    def decode_request(self, payload: dict[str, Any], /) -> ChatRequest: ...

    def encode_request(self, request: ChatRequest, losses: LossRecorder, /) -> dict[str, Any]: ...

    def decode_message_list(self, messages: list[dict[str, Any]], /) -> list[AnyMessage]: ...


class ResponseFunctions(Protocol):
    """What a provider's ``response.py`` offers."""

    def decode_response(self, payload: dict[str, Any], /) -> ChatResponse: ...

    def encode_response(self, response: ChatResponse, losses: LossRecorder, /) -> dict[str, Any]: ...


class StreamEncodeFunctions(Protocol):
    """What a provider's stream encoder offers."""

    def encode_stream(self, events: Iterable[AnyStreamEvent], losses: LossRecorder, /) -> Iterator[dict[str, Any]]: ...

    def stream_encoder(self, losses: LossRecorder, /) -> StreamEncoder: ...


class ProviderCodec:
    """A wire format's codec, assembled from its folder's modules."""

    __slots__ = ("_dialect", "_new_stream_decoder", "_requests", "_responses", "_stream_encoder", "name")

    def __init__(
        self,
        name: str,
        *,
        requests: RequestFunctions,
        responses: ResponseFunctions,
        stream_decoder: Callable[[StreamBuilder | None], StreamDecoder],
        stream_encoder: StreamEncodeFunctions,
        dialect: DialectDecoders | None = None,
    ) -> None:
        self.name = name
        """The registry name (``"openai-chat"``)."""
        self._requests = requests
        self._responses = responses
        self._new_stream_decoder = stream_decoder
        self._stream_encoder = stream_encoder
        self._dialect = dialect or DialectDecoders()

    def __repr__(self) -> str:
        return f"ProviderCodec({self.name!r})"

    def decode_request(self, payload: dict[str, Any]) -> ChatRequest:
        """Read a request body; everything without a canonical field is kept."""
        return _reading(self._requests.decode_request, payload)

    def encode_request(self, request: ChatRequest, losses: LossRecorder) -> dict[str, Any]:
        """Write a request body; what the format cannot carry is recorded in ``losses``,
        and the provider's rules in force (API version, model family) are applied last
        (:mod:`chatcodec.providers.target_rules`)."""
        try:
            wire = self._requests.encode_request(request, losses)
        except RecursionError:
            raise too_deep() from None
        options = (request.provider_options or {}).get(self.name)
        apply_target_rules(self.name, wire, model=request.model, options=options, losses=losses)
        return wire

    def decode_response(self, payload: dict[str, Any]) -> ChatResponse:
        """Read a response body."""
        return _reading(self._responses.decode_response, payload)

    def encode_response(self, response: ChatResponse, losses: LossRecorder) -> dict[str, Any]:
        """Write a response body (for proxies and test doubles)."""
        try:
            return self._responses.encode_response(response, losses)
        except RecursionError:
            raise too_deep() from None

    def decode_messages(self, messages: list[dict[str, Any]]) -> list[AnyMessage]:
        """Read a bare wire ``messages`` list (a stored conversation)."""
        return _reading(self._requests.decode_message_list, messages)

    def stream_decoder(self, builder: StreamBuilder | None = None) -> StreamDecoder:
        """A fresh push-style decoder for one stream (``feed`` each event, then ``close``),
        driving ``builder`` (by default one that emits canonical events)."""
        return _DepthGuard(self._new_stream_decoder(builder))

    def decode_stream(self, events: Iterable[dict[str, Any]]) -> Iterator[AnyStreamEvent]:
        """Canonical events for a whole stream, lazily: ``feed`` over the events, then ``close``."""
        decoder = self.stream_decoder(None)
        for event in events:
            yield from decoder.feed(event)
        yield from decoder.close()

    def stream_encoder(self, losses: LossRecorder) -> StreamEncoder:
        """A fresh push-style encoder for one stream (``feed`` each canonical event, then
        ``close``), for a proxy that gets events as the upstream sends them."""
        return self._stream_encoder.stream_encoder(losses)

    def encode_stream(self, events: Iterable[AnyStreamEvent], losses: LossRecorder) -> Iterator[dict[str, Any]]:
        """Wire events for canonical ones, lazily (for proxies)."""
        try:
            yield from self._stream_encoder.encode_stream(events, losses)
        except RecursionError:
            raise too_deep() from None

    # --- dialect reading (issue 20, item 3) -----------------------------------------------
    # What the dialect readers (chatcodec.dialects, chatcodec.dialect_tools) call: pieces of
    # this provider's shape found outside a request body, read into canonical *data* (dicts,
    # not yet validated: the boundary validates them with the caller's paths). Each method is
    # backed by the provider's own decoder, given in ``dialect=``.

    def decode_part(self, part: dict[str, Any]) -> dict[str, Any]:
        """One content part (block) in this provider's shape, as canonical part data."""
        return self._dialect_decoder(self._dialect.part, "content parts")(part)

    def decode_assistant(self, message: dict[str, Any]) -> dict[str, Any]:
        """One assistant message in this provider's shape, as canonical message data."""
        return self._dialect_decoder(self._dialect.assistant, "assistant messages")(message)

    def decode_tools(self, tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """A request's ``tools`` list in this provider's shape, as canonical tool data
        (function tools only: a provider's own tool kinds have no canonical tool)."""
        decode = self._dialect_decoder(self._dialect.tools, "tool definitions")
        canonical: dict[str, Any] = {}
        decode({"tools": tools}, canonical, {})
        decoded: list[dict[str, Any]] = canonical.get("tools") or []
        return decoded

    def _dialect_decoder(self, decoder: DecoderT | None, what: str) -> DecoderT:
        if decoder is None:
            raise NotImplementedError(f"the {self.name} codec reads no {what} outside a body")
        return decoder

    # --- published field sets, for strict reading (issue 22 follow-up) ------------------------
    # What chatcodec.strict reads through the codec (never from a provider folder): the
    # ``known_fields.json`` package data beside the provider's own modules.

    def field_sets(self) -> FieldSets | None:
        """The fields this provider's published API defines, per object kind (its
        ``known_fields.json``, generated from the official SDK by ``tools/known_fields.py``),
        read once on first use; ``None`` for a codec whose package has no such file."""
        package = getattr(self._requests, "__package__", None)
        return load_field_sets(package) if isinstance(package, str) and package else None

    # --- end of published field sets --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DialectDecoders:
    """The provider's own decoders behind :class:`ProviderCodec`'s dialect-reading methods
    (``decode_part``, ``decode_assistant``, ``decode_tools``); a provider gives the ones
    whose shapes the dialect readers accept, the rest stay ``None``."""

    part: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """Its ``parts.decode_part`` for any content part or block."""
    assistant: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    """Its decoder of one wire assistant message."""
    tools: Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], None] | None = None
    """Its ``tools.decode_tools(request, canonical, bag)``."""


# --- end of dialect reading ----------------------------------------------------------------


def _reading(decode: Callable[[InputT], ResultT], payload: InputT) -> ResultT:
    """``decode(payload)``, with a value nested too deeply for Python or for pydantic
    refused at its place in ``payload`` (issue 10, items 15-16).

    pydantic-core refuses a value nested past its depth limit only when the canonical
    model is built, at the value's canonical place (``provider_metadata[...]``), which the
    input does not have; the route into the input's deepest value is where it is."""
    try:
        return decode(payload)
    except RecursionError:
        raise too_deep(payload) from None
    except ValidationError as error:
        if _too_deep(error):
            raise too_deep(payload) from None
        raise


def _too_deep(error: ValidationError) -> bool:
    return any(detail["type"] == "recursion_depth_exceeded" for detail in error.errors(include_url=False))


_DEPTH_RULE = "[rule: recursion_depth_exceeded]"
"""How :func:`~chatcodec.providers.kit.canonical_refusal` names pydantic-core's depth limit."""


class _DepthGuard:
    """A stream decoder whose ``RecursionError`` (an event nested a thousand levels deep,
    issue 10, item 16) is a :class:`~chatcodec.StreamError` naming the event and the route
    into its deepest value. Written once here, so every provider's decoder has it."""

    __slots__ = ("_decoder", "_fed")

    def __init__(self, decoder: StreamDecoder) -> None:
        self._decoder = decoder
        self._fed = 0

    def feed(self, event: dict[str, Any]) -> list[AnyStreamEvent]:
        self._fed += 1
        try:
            return self._decoder.feed(event)
        except RecursionError:
            raise self._error(event) from None
        except StreamError as error:
            if error.path == "$" and _DEPTH_RULE in str(error):  # refused at a canonical place: name the event's
                raise self._error(event) from None
            raise
        except ValidationError as error:  # a canonical model built from the event refused a too-deep value
            if _too_deep(error):
                raise self._error(event) from None
            raise

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        last: list[dict[str, Any] | None] = [None]
        try:
            self._decoder.read(self._counted(events, last))
        except RecursionError:
            raise self._error(last[0]) from None
        except ValidationError as error:
            if _too_deep(error):
                raise self._error(last[0]) from None
            raise

    def _counted(self, events: Iterable[dict[str, Any]], last: list[dict[str, Any] | None]) -> Iterator[dict[str, Any]]:
        for event in events:
            self._fed += 1
            last[0] = event
            yield event

    def close(self) -> list[AnyStreamEvent]:
        try:
            return self._decoder.close()
        except RecursionError:
            raise self._error(None) from None
        except pydantic_core.ValidationError as error:  # an event built at the end (the finish) refused a kept value
            raise canonical_refusal(error, max(self._fed - 1, 0)) from None

    def _error(self, event: object) -> StreamError:
        refused = too_deep(event)
        message = str(refused).partition(": ")[2]
        return StreamError(message, refused.path, max(self._fed - 1, 0))
