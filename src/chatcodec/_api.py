"""The stable top-level functions: decode, encode, convert and accumulate.

Every function names its wire format by registry name (``"openai-chat"``,
``"anthropic"``, ... or ``"canonical"``) and accepts payloads as dicts, JSON text or
bytes, or the official SDKs' objects (read as the JSON their server sent, see
:mod:`chatcodec._sdk_objects`). Encoders take ``on_loss`` and an optional ``losses`` list that receives every
:class:`~chatcodec.Loss`, whatever the policy.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar, cast

from chatcodec._codec_options import checked_options
from chatcodec._codec_protocols import StreamDecoder, SupportsStreamDecoder
from chatcodec._conversion import common_json, direct_conversion, read_request_data, trace_source, write_request_data
from chatcodec._errors import PayloadError
from chatcodec._harness_roles import read_or_retry
from chatcodec._losses import Loss, LossRecorder, OnLoss
from chatcodec._option_table import OptionTable, escaped_fields, named_options, unknown_option
from chatcodec._payloads import Payload, load_object
from chatcodec._providers.contract.context import Reading
from chatcodec._providers.contract.reading import held
from chatcodec._public_label import shown_as
from chatcodec._registry import get_codec
from chatcodec._sdk_objects import SdkObject, sdk_json_items, sdk_json_nested

if TYPE_CHECKING:  # the models, streams and strict checks load on first use
    from chatcodec._content_rule import ContentRule
    from chatcodec._model.request import ChatRequest
    from chatcodec._model.response import ChatResponse
    from chatcodec._model.stream_events import AnyStreamEvent
    from chatcodec.options import EncoderOptions, ReadingOptions
    from chatcodec.streams._builder import StreamBuilder
    from chatcodec.streams._input import StreamInput

ModelT = TypeVar("ModelT", "ChatRequest", "ChatResponse")

SdkPayload = Payload | SdkObject
"""A payload, or an SDK object holding one (``client.chat.completions.create(...)``)."""


def decode_request(
    provider: str, payload: SdkPayload, *, strict: bool = False, options: ReadingOptions | None = None
) -> ChatRequest:
    """Read a ``provider`` request body into a :class:`ChatRequest`.

    ``strict``: refuse, as the provider would, a field its published API does not define
    (with the nearest known name), and the structure it refuses (an orphan tool result,
    an empty conversation, a token limit under 1); see :mod:`chatcodec._strict.fields`. By
    default such fields are read, kept and reported.

    ``options``: the reading options by name; ``server`` names the compatible server the
    body is for (``options={"server": "deepseek"}``, as the writer's option does), whose
    documented fields strict reading accepts, and no other server's (DeepSeek's
    ``thinking`` is refused for Groq).
    """
    codec = get_codec(provider)
    server = _reading_server(options)
    fields = load_object(sdk_json_nested(payload), f"{provider} request")
    if strict:
        from chatcodec._strict.check import check_request

        check_request(provider, fields, f"{provider} request", server)
    return codec.decode_request(fields)


READING_OPTIONS = OptionTable.of("server")
"""The options :func:`decode_request` takes (typed as :class:`~chatcodec.options.ReadingOptions`)."""


def _reading_server(options: ReadingOptions | Mapping[str, Any] | None) -> str | None:
    """The ``server`` option (a name), refusing an option reading does not take."""
    if not options:
        return None
    for name in options:
        if name not in READING_OPTIONS.names:
            raise unknown_option("decode_request", READING_OPTIONS, name)
    server = options.get("server")
    if server is not None and not isinstance(server, str):
        raise PayloadError(f"the option server must be a server's name, not {type(server).__name__}")
    return server


def encode_request(
    provider: str,
    request: ChatRequest | Mapping[str, Any],
    *,
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
    content_rule: ContentRule | None = None,
    options: EncoderOptions | None = None,
    extra_fields: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Write ``request`` as a ``provider`` request body (a JSON-ready dict).

    ``content_rule`` shapes message content by the target model's capabilities first
    (OpenHands' string-or-list rule, :class:`~chatcodec.ContentRule`); what it drops is a
    loss like any other. ``options`` are this provider's encoder options by name (its
    :mod:`chatcodec.options` TypedDict), such as the ``max_tokens`` Anthropic requires
    when the request has none; a name the encoder does not take raises
    :class:`~chatcodec.OptionError`. ``extra_fields`` are wire fields to send as they are,
    over the request's ``provider_options[provider]``.
    """
    codec = get_codec(provider)
    recorder = LossRecorder()
    named = named_options(provider, codec.options, options)
    from chatcodec._model.request import ChatRequest

    model = with_fields(_as_model(ChatRequest, request), provider, extra_fields)
    if content_rule is not None:
        model = model.model_copy(update={"messages": content_rule.apply(model.messages, recorder)})
    encoded = codec.encode_request(model, recorder, options=named)
    recorder.settle(on_loss, losses)
    return encoded


def decode_response(provider: str, payload: SdkPayload, *, strict: bool = False) -> ChatResponse:
    """Read a ``provider`` response body into a :class:`ChatResponse` (``strict``: refuse
    a field the provider's published API does not define, as :func:`decode_request`)."""
    codec = get_codec(provider)
    fields = load_object(sdk_json_nested(payload), f"{provider} response")
    response = codec.decode_response(fields)  # an error body raises ProviderAPIError first
    if strict:
        from chatcodec._strict.check import check_payload

        check_payload(provider, "response", fields, f"{provider} response")
    return response


def encode_response(
    provider: str,
    response: ChatResponse | Mapping[str, Any],
    *,
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
    options: EncoderOptions | None = None,
) -> dict[str, Any]:
    """Write ``response`` as a ``provider`` response body (for proxies and test doubles).

    ``options`` are the encoder's output options by name (see :func:`encode_stream`).
    """
    from chatcodec._model.response import ChatResponse

    codec = get_codec(provider)
    recorder = LossRecorder()
    named = named_options(provider, codec.options, options)
    encoded = codec.encode_response(_as_model(ChatResponse, response), recorder, options=named)
    recorder.settle(on_loss, losses)
    return encoded


def decode_stream(
    provider: str, events: StreamInput, *, strict: bool = False, partial: bool = False
) -> Iterator[AnyStreamEvent]:
    """Map a ``provider`` stream to canonical events, lazily.

    ``events`` is raw SSE (text or bytes, whole or in chunks), JSON lines, or an
    iterable of already-parsed event dicts. ``strict``: an event holding a field the
    provider's published API does not define raises a :class:`~chatcodec.StreamError`
    naming the event and the field. A stream that ends without its format's last event
    (Anthropic's ``message_stop``, a ``finish_reason`` for every OpenAI choice, ...: it was
    cut between two events) raises a :class:`~chatcodec.StreamError` naming what is
    missing, after the events that came; ``partial=True`` takes it as it stands.
    """
    from chatcodec._strict.check import checked_events
    from chatcodec.streams._input import iter_event_payloads

    codec = get_codec(provider)
    payloads = _plain_dicts(events) or iter_event_payloads(events)  # a list of dicts: no step per event
    if strict:
        payloads = checked_events(provider, payloads)
    if partial or not _decodes_incrementally(type(codec)):
        return codec.decode_stream(payloads)
    from chatcodec.streams._builder import StreamBuilder

    builder = StreamBuilder(emit=True)
    decoder = cast("SupportsStreamDecoder", codec).stream_decoder(builder)  # a codec without streams refuses here
    return _whole_stream(provider, decoder, builder, payloads)


def _whole_stream(
    provider: str, decoder: StreamDecoder, builder: StreamBuilder, payloads: Iterable[dict[str, Any]]
) -> Iterator[AnyStreamEvent]:
    """The decoder's events for ``payloads``, then its close; a :class:`~chatcodec.StreamError`
    at the end when the stream never sent its last event."""
    from chatcodec._providers.kit.stream_boundary import models_of

    for payload in payloads:
        yield from models_of(decoder.feed(payload))
    yield from models_of(decoder.close())
    builder.refuse_cut(provider)


def encode_stream(
    provider: str,
    events: Iterable[AnyStreamEvent],
    *,
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
    options: EncoderOptions | None = None,
) -> Iterator[dict[str, Any]]:
    """Write canonical events as ``provider`` stream events, lazily (for proxies).

    The loss policy is applied when the stream is exhausted. ``options`` are the
    encoder's output options by name; OpenAI Chat's: ``reasoning_field`` (where another
    provider's reasoning goes: ``"reasoning_content"``, the default, ``"reasoning"``,
    ``"reasoning_details"``, or ``None`` to drop it with a loss) and, for streams,
    ``include_usage`` (the client's ``stream_options.include_usage``: one usage chunk,
    last, or none). They go straight to the encoder; a name it does not take raises
    :class:`~chatcodec.OptionError`, as a codec without a stream encoder is refused, at
    the call.
    """
    codec = get_codec(provider)
    recorder = LossRecorder()
    named = named_options(provider, codec.options, options)
    return _settled(codec.encode_stream(events, recorder, options=named), recorder, on_loss, losses)


def _settled(
    encoded: Iterator[dict[str, Any]], recorder: LossRecorder, on_loss: OnLoss, losses: list[Loss] | None
) -> Iterator[dict[str, Any]]:
    """``encoded``, with the loss policy applied once it is exhausted."""
    yield from encoded
    recorder.settle(on_loss, losses)


def accumulate_stream(
    provider: str, events: StreamInput, *, strict: bool = False, partial: bool = False
) -> ChatResponse:
    """Decode a ``provider`` stream and accumulate it into one :class:`ChatResponse`.

    A codec with an incremental decoder (:class:`~chatcodec._codec_protocols.SupportsStreamDecoder`)
    drives a :class:`~chatcodec.streams._builder.StreamBuilder` that builds the response
    directly, with no event per delta; the result is what ``decode_stream`` followed by
    :class:`~chatcodec.StreamAccumulator` gives, as both are that one builder.
    ``strict`` and ``partial`` as in :func:`decode_stream`: a stream cut between two
    events is a :class:`~chatcodec.StreamError` unless ``partial=True``, which gives what
    arrived (a choice whose finish never came has ``finish_reason`` ``None``).
    """
    from chatcodec._strict.check import checked_events
    from chatcodec.streams._builder import StreamBuilder
    from chatcodec.streams._input import iter_event_payloads

    codec = get_codec(provider)
    if strict:
        events = checked_events(provider, iter_event_payloads(events))
    builder = StreamBuilder()
    if not _decodes_incrementally(type(codec)):
        for event in codec.decode_stream(iter_event_payloads(events)):
            builder.add(event)
        return builder.response(provider=provider)
    decoder = cast("SupportsStreamDecoder", codec).stream_decoder(builder)
    decoder.read(_plain_dicts(events) or iter_event_payloads(events))
    decoder.close()
    if not partial:
        builder.refuse_cut(provider)
    return builder.response(provider=provider)


def convert_request(
    payload: SdkPayload,
    *,
    source: str,
    target: str,
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
    options: EncoderOptions | None = None,
    strict: bool = False,
    extra_fields: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Convert a request body from the ``source`` format to the ``target`` format
    (``options`` and ``extra_fields``: the target encoder's, as in :func:`encode_request`; ``strict``: the
    source is read as in :func:`decode_request`, and a turn order the target refuses is
    refused here).

    The source's reader gives canonical data and the target's writer writes it
    (:mod:`chatcodec._conversion`): no canonical model is built."""
    writer = get_codec(target)  # before reading: an unknown target, or a typo in its options, is the caller's
    named = checked_options(target, options) if options else {}
    if not strict and not extra_fields:
        direct = direct_conversion(source, target, named)  # the pair's one-pass path, for the shapes it admits
        given: Any = payload  # (a dict where asked below: ``cast`` is a call, made on every request)
        if direct is not None and given.__class__ is not dict and isinstance(given, _TEXTS):
            given = payload = _parsed(given, source)
        if direct is not None and given.__class__ is dict:  # a body given as SDK objects: the canonical path's
            recorder = LossRecorder()
            encoded = direct(given, recorder, writer)
            if encoded is not None:
                recorder.settle(on_loss, losses)
                return encoded
    recorder = LossRecorder()
    readings: list[Reading] = []  # what the reader leaves the writer to reuse: a fresh record for each reading

    def read(body: object) -> dict[str, Any]:
        readings.append(Reading())
        return read_request_data(body, source, strict=strict, target=target, noted=readings[-1])

    canonical, read_body = read_or_retry(payload, source, recorder, read)  # a harness's roles read if refused
    noted = readings[-1]
    trace_source(recorder, read_body, source, canonical)
    encoded = write_request_data(canonical, target, recorder, named, extra_fields, noted=noted, writer=writer)
    recorder.settle(on_loss, losses)
    return encoded


_TEXTS = (str, bytes, bytearray)
"""A body given as JSON text (a tuple: ``str | bytes | bytearray`` is a union made at each use)."""


def _parsed(text: str | bytes | bytearray, source: str) -> dict[str, Any]:
    """JSON text as the dict a direct path takes: parsed and validated in one pass by the
    source's closed front when it takes it (the canonical path, should the direct one hand the
    body back, reads that copy without validating it again), else parsed as the source's
    reader parses a body its front does not take (the same error for text that is no JSON)."""
    validated = common_json(text, source)
    return validated if validated is not None else load_object(text, f"{get_codec(source).name} request")


def convert_response(
    payload: SdkPayload,
    *,
    source: str,
    target: str,
    on_loss: OnLoss = "warn",
    losses: list[Loss] | None = None,
    strict: bool = False,
    options: EncoderOptions | None = None,
) -> dict[str, Any]:
    """Convert a response body from the ``source`` format to the ``target`` format
    (``strict``: the source is read as in :func:`decode_response`; ``options``: the target
    encoder's output options, as in :func:`encode_stream`)."""
    reader, writer = get_codec(source), get_codec(target)
    named = named_options(target, writer.options, options)
    recorder = LossRecorder()
    fields = load_object(sdk_json_nested(payload), f"{source} response")

    canonical = held(reader.read_response(fields), reader.decode_response, fields)  # an error body raises first
    if strict:
        from chatcodec._strict.check import check_payload

        check_payload(source, "response", fields, f"{source} response")
    if target != source:
        from chatcodec._error_shapes import failed_answer

        failure = failed_answer(source, canonical, fields)
        if failure is not None:
            raise failure
    encoded = writer.write_response(canonical, recorder, options=named)
    recorder.settle(on_loss, losses)
    return encoded


@cache
def _decodes_incrementally(kind: type[object]) -> bool:
    """Whether a codec class has an incremental stream decoder: asked once per class, as
    a protocol ``isinstance`` costs more than accumulating a short stream."""
    return issubclass(kind, SupportsStreamDecoder)


def _plain_dicts(events: StreamInput) -> list[dict[str, Any]] | None:
    """``events`` itself when it is a list of plain dicts, which is what
    :func:`iter_event_payloads` would yield one by one: accumulating then saves the
    generator step per event, which costs about as much as the rest of its work."""
    if type(events) is not list:
        return None
    items = cast("list[object]", events)
    return cast("list[dict[str, Any]]", items) if set(map(type, items)) <= {dict} else None


def with_fields(request: ChatRequest, provider: str, fields: Mapping[str, Any] | None) -> ChatRequest:
    """``request`` with ``fields`` (wire fields the caller asks to send, ``extra_fields=``)
    over its ``provider_options[provider]``, a ``_``-key escaped so it is sent as it is
    (:func:`~chatcodec._option_table.escaped_fields`)."""
    if not fields:
        return request
    provider_options = dict(request.provider_options or {})
    provider_options[provider] = {**(provider_options.get(provider) or {}), **escaped_fields(fields)}
    return request.model_copy(update={"provider_options": provider_options})


def _as_model(model: type[ModelT], value: ModelT | Mapping[str, Any]) -> ModelT:
    if isinstance(value, model):
        return value
    from chatcodec._validation import validate_model

    return validate_model(model, sdk_json_items(value))


shown_as(
    "chatcodec",
    accumulate_stream,
    convert_request,
    convert_response,
    decode_request,
    decode_response,
    decode_stream,
    encode_request,
    encode_response,
    encode_stream,
)
