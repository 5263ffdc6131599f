"""The one request conversion path: the source provider's reader to canonical data, the
target provider's writer from it, with no canonical model built on the way.

:func:`~chatcodec.convert_request`, the batch converter and ``chatcodec serve`` all
convert through here; each provider has one reader and one writer (its codec's
``read_request`` and ``write_request``), so there is no second path to agree with.
Split in two steps because the proxy changes canonical fields between them (the model
it maps, the stream flag) and tells a refused read from a refused write.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast

from chatcodec._direct.table import DirectPath, direct_path
from chatcodec._errors import ChatcodecError, CodecNotAvailableError
from chatcodec._losses import LossRecorder
from chatcodec._option_table import named_options
from chatcodec._payloads import load_object
from chatcodec._providers.contract.context import Reading, with_field_data
from chatcodec._providers.contract.outside_values import not_json_data
from chatcodec._providers.contract.provider_codec import ProviderCodec
from chatcodec._providers.contract.rules_applied import RulesApplied
from chatcodec._providers.kit.origins import Origins, OriginsByIndex, origins_in
from chatcodec._registry import get_codec, origins_of, outside_origin
from chatcodec._sdk_objects import sdk_json_nested

if TYPE_CHECKING:
    from chatcodec._codec_protocols import Codec


def read_request_data(
    payload: object,
    source: str,
    *,
    strict: bool = False,
    target: str | None = None,
    server: str | None = None,
    noted: Reading | None = None,
) -> dict[str, Any]:
    """``payload`` (a dict, JSON text or bytes, or SDK objects) read by ``source``'s reader
    as canonical request data; ``strict`` refuses what the provider refuses first (what
    ``server``, a compatible server of the format, refuses when named), and a turn order
    ``target`` refuses (when given). ``noted``: the record a built-in reader fills for the
    writer that follows (:class:`~chatcodec._providers.contract.context.Reading`).

    A plain dict goes to the reader as it is, not walked for SDK objects: the walk cost a
    third of an agent session's conversion, and the reader's closed front takes JSON
    values only, so an SDK object anywhere inside is refused, and only then is the
    payload walked and read again (an SDK object is never a reason for an error)."""
    reader = get_codec(source)
    origin = outside_origin(source)
    if origin is not None:  # someone else's reader: what it gives back is checked before any writer reads it
        with _outside_call(source, origin, "read_request"):
            read = _read(reader, payload, source, strict=strict, target=target, server=server, noted=noted)
        return _outside_reading(source, origin, read)
    return _read(reader, payload, source, strict=strict, target=target, server=server, noted=noted)


def _read(
    reader: Codec,
    payload: object,
    source: str,
    *,
    strict: bool,
    target: str | None,
    server: str | None,
    noted: Reading | None,
) -> dict[str, Any]:
    own = reader if noted is not None and isinstance(reader, ProviderCodec) else None  # a version-1 codec: no record
    if strict:
        from chatcodec._strict.check import check_request, check_target

        fields = load_object(sdk_json_nested(payload), f"{source} request")
        check_request(source, fields, f"{source} request", server)
        canonical = reader.read_request(fields) if own is None else own.read_request(fields, noted=noted)
        if target is not None:
            check_target(source, fields, target, f"{source} request for {target}")
        return canonical
    if type(payload) is dict:
        fields = cast("dict[str, Any]", payload)
        try:
            return reader.read_request(fields) if own is None else own.read_request(fields, noted=noted)
        except ChatcodecError:
            walked = sdk_json_nested(fields)
            if walked is fields:
                raise
            fields = load_object(walked, f"{source} request")
            return reader.read_request(fields) if own is None else own.read_request(fields, noted=noted)
    if isinstance(payload, str | bytes | bytearray):  # parsed and validated in one pass, in Rust
        return reader.read_request_json(payload) if own is None else own.read_request_json(payload, noted=noted)
    fields = load_object(sdk_json_nested(payload), f"{source} request")
    return reader.read_request(fields) if own is None else own.read_request(fields, noted=noted)


def common_json(text: str | bytes | bytearray, source: str) -> dict[str, Any] | None:
    """JSON ``text`` parsed and validated in one pass in Rust by ``source``'s closed front,
    when it takes it, for a reading that follows on this thread (which does not validate it
    again); ``None`` otherwise (then parse it as :func:`~chatcodec._payloads.load_object` does)."""
    parse = getattr(get_codec(source), "common_json", None)
    return None if parse is None else cast("dict[str, Any] | None", parse(text))


def direct_conversion(source: str, target: str, options: Mapping[str, Any] | None = None) -> DirectPath | None:
    """The pair's direct path (:mod:`chatcodec._direct`) for a conversion whose writer takes
    ``options``, None when there is none to take: the pair has no direct path (or they are
    off), or options are named (the direct paths write with the writer's defaults alone, so
    a conversion with options goes the canonical path). The direct path may still hand a body
    of a shape it does not admit back (None): the canonical path converts it then."""
    return None if options else direct_path(source, target)


def write_request_data(
    canonical: dict[str, Any],
    target: str,
    recorder: LossRecorder,
    options: Mapping[str, Any] | None = None,
    extra_fields: Mapping[str, Any] | None = None,
    *,
    noted: Reading | None = None,
    writer: Codec | None = None,
    applied: RulesApplied | None = None,
) -> dict[str, Any]:
    """``canonical`` written by ``target``'s writer, its losses into ``recorder``.

    ``options`` are the writer's settings by name (its codec's ``options``: any other name
    raises :class:`~chatcodec._errors.OptionError`); ``extra_fields`` are wire fields to
    send, kept in the request's ``provider_options[target]``; ``noted``: what the reading
    left a built-in writer to reuse (:func:`read_request_data`'s); ``writer``: ``target``'s
    codec when the caller looked it up already (one look-up a conversion); ``applied``: told the
    API version whose rules the body follows (:class:`RulesApplied`: what the gateway sends as
    the version header; left unset by a contract-1 codec's writer)."""
    if writer is None:
        writer = get_codec(target)
    named = named_options(target, writer.options, options) if options else {}
    if extra_fields:
        canonical = with_field_data(canonical, target, extra_fields)
    if applied is not None and isinstance(writer, ProviderCodec):
        return writer.write_request(canonical, recorder, options=named, noted=noted, applied=applied)
    if noted is not None and isinstance(writer, ProviderCodec):  # a version-1 codec writes without one
        return writer.write_request(canonical, recorder, options=named, noted=noted)
    if noted is not None:  # canonical data out (or an outside codec's writer): what a reading with no record gives
        noted.put_own()
    origin = outside_origin(target)
    if origin is None:
        return writer.write_request(canonical, recorder, options=named)
    with _outside_call(target, origin, "write_request"):
        written = writer.write_request(canonical, recorder, options=named)
    _check_outside(target, origin, "write_request", written)  # a body chatcodec's JSON writer would choke on
    return written


@contextmanager
def _outside_call(codec: str, origin: str, method: str) -> Generator[None]:
    """What an outside codec's ``method`` raises that is no chatcodec error (nor a value too
    deep, which the codec names at its place) is the codec's, named with where it came from."""
    try:
        yield
    except (ChatcodecError, RecursionError):
        raise
    except Exception as error:
        raise CodecNotAvailableError(
            f"the codec {codec!r} ({origin}) failed in {method}: {type(error).__name__}: {error}"
        ) from error


def _check_outside(codec: str, origin: str, method: str, result: object) -> None:
    """Refuses what an outside codec's ``method`` returned unless it is a dict of JSON data,
    naming the codec and where it came from (never read as chatcodec's own bug)."""
    if not isinstance(result, dict):
        raise CodecNotAvailableError(
            f"the codec {codec!r} ({origin}) returned a {type(result).__name__} from {method}, not a dict"
        )
    error = not_json_data(codec, origin, method, cast("dict[str, Any]", result))
    if error is not None:
        raise error


def _outside_reading(source: str, origin: str, canonical: object) -> dict[str, Any]:
    """An outside reader's canonical data, checked to be JSON data and a canonical request."""
    from chatcodec._canonical_validation import validate_canonical  # the models load for outside codecs only
    from chatcodec._model.request import ChatRequest

    _check_outside(source, origin, "read_request", canonical)
    try:
        validate_canonical(ChatRequest, canonical)
    except ChatcodecError as error:
        raise CodecNotAvailableError(
            f"the codec {source!r} ({origin}) returned data from read_request that is no canonical request: {error}"
        ) from None
    return cast("dict[str, Any]", canonical)


def trace_source(
    recorder: LossRecorder,
    payload: object,
    source: str,
    canonical: Mapping[str, Any],
    *,
    messages: Sequence[Mapping[str, Any]] | None = None,
    starts: Sequence[int] | None = None,
) -> None:
    """Have ``recorder`` name the losses found while writing ``canonical`` (read from
    ``payload`` by ``source``'s reader) at their place in ``payload``: its own numbering
    and field names (:mod:`chatcodec._providers.kit.origins`), found only when a loss is
    reported, and only for the messages a loss names (a built-in's ``origins_by_index``).
    ``messages``: the canonical messages, when ``canonical`` holds none of them (a direct
    path's, :mod:`chatcodec._direct`, read only when a loss is named); ``starts``: where each
    of them starts in the input, when the path's admission found it (the origins then pass
    over the input no more)."""
    codec = get_codec(source)
    if not isinstance(codec, ProviderCodec):
        return
    read = cast("list[dict[str, Any]]", canonical.get("messages") or []) if messages is None else messages

    def find() -> OriginsByIndex:
        fields = (
            cast("dict[str, Any]", payload) if type(payload) is dict else load_object(sdk_json_nested(payload), source)
        )
        module = origins_of(source)
        if module is None:
            return OriginsByIndex.listed(codec.message_origins(fields, read))
        return origins_in(module, fields, read, starts)

    recorder.trace(Origins(find, read))


def with_updates(canonical: dict[str, Any], update: Mapping[str, Any]) -> dict[str, Any]:
    """``canonical`` with ``update`` over its top-level fields, as
    ``ChatRequest.model_copy(update=...)`` sets them; a ``None`` removes the field (an
    unset field reads as ``None``)."""
    for key, value in update.items():
        if value is None:
            canonical.pop(key, None)
        else:
            canonical[key] = value
    return canonical
