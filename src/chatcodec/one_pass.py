"""The one-pass conversion path (issue 25): validate once in Rust, decode to canonical
dicts, encode from them, with no canonical model built on the way.

A provider offers a side of it in its ``one_pass.py``: ``decode_request(payload)`` (a
dict, or JSON text or bytes, to a canonical request dict) and ``encode_request(request,
losses)`` (a canonical request dict to the wire). Each side handles its format's common
shapes and returns ``None`` for anything else, so a pair of providers converts in one
pass when both sides have one, through the canonical dicts (N codecs, 2N mappings, as on
the general path). Whenever either side declines, or raises, the general path runs from
the start: output, losses and errors are the general path's, and the conformance suite
checks that the two paths agree (``tests/conformance/test_one_pass.py``).

A provider's side is its codec's ``one_pass`` role (``ProviderCodec(one_pass=...)``, its
``one_pass.py``), reached through the registry (:func:`~chatcodec.registry.get_one_pass`,
which imports a built-in provider's side without its codec) as every reader above the
providers reaches them: this module names no provider.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, cast

from chatcodec.errors import ChatcodecError
from chatcodec.losses import LossRecorder
from chatcodec.payloads import load_object
from chatcodec.providers.kit.context import marked_options, split_options, with_field_data
from chatcodec.registry import Codec, get_codec, get_one_pass
from chatcodec.sdk_objects import sdk_json_nested


class _Decoder(Protocol):
    def decode_request(self, payload: object, /) -> dict[str, Any] | None: ...


class _Encoder(Protocol):
    def encode_request(self, request: dict[str, Any], losses: LossRecorder, /) -> dict[str, Any] | None: ...


def _side(provider: str, function: str) -> object | None:
    """The provider's one-pass module when it has ``function``; None otherwise (no such
    provider, or no one-pass side: the general path runs, and reports what it must)."""
    try:
        side: object = get_one_pass(provider)
    except ChatcodecError:
        return None
    return side if hasattr(side, function) else None


def _data_codec(provider: str) -> Codec | None:
    """The provider's codec when it reads and writes canonical data itself (issue 29: its
    one reader and writer are its only path); None for a provider still on two paths."""
    try:
        codec = get_codec(provider)
    except ChatcodecError:
        return None
    return codec if getattr(codec, "reads_data", False) else None


def has_one_pass(source: str, target: str) -> bool:
    """Whether ``source`` -> ``target`` requests can convert in one pass."""
    reads = _side(source, "decode_request") is not None or _data_codec(source) is not None
    return reads and (_side(target, "encode_request") is not None or _data_codec(target) is not None)


def _read(payload: object, source: str) -> dict[str, Any] | None:
    """The source's canonical data for ``payload``, read in one pass.

    A data codec's reader gets a plain dict as it is, not walked for SDK objects first
    (the walk cost a third of an agent session's conversion): its validation takes JSON
    values only (a closed schema in Rust, or the wire shapes and a JSON-value check), so
    an SDK object anywhere is refused, and the general path, which reads SDK objects
    before the reader, runs instead."""
    decoder = _side(source, "decode_request")
    if decoder is not None:
        return cast(_Decoder, decoder).decode_request(payload)
    codec = _data_codec(source)
    if codec is None:
        return None
    fields = cast(dict[str, Any], payload) if type(payload) is dict else load_object(sdk_json_nested(payload))
    return codec.read_request(fields)


def _write(
    canonical: dict[str, Any], target: str, options: Mapping[str, Any] | None, recorder: LossRecorder
) -> dict[str, Any] | None:
    encoder = _side(target, "encode_request")
    if encoder is not None:
        if options:
            _put_options(canonical, target, options)
        return cast(_Encoder, encoder).encode_request(canonical, recorder)
    codec = _data_codec(target)
    if codec is None:
        return None
    named, fields = split_options(codec.options, options)
    return codec.write_request(with_field_data(canonical, target, fields), recorder, options=named)


def convert_request(
    payload: object,
    source: str,
    target: str,
    options: Mapping[str, Any] | None = None,
    *,
    update: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], LossRecorder] | None:
    """The ``target`` request for a ``source`` request and the losses recorded, or
    ``None`` when the general path must convert it.

    ``options`` are the target encoder's. ``update`` sets top-level canonical fields
    between the two sides, as ``ChatRequest.model_copy(update=...)`` does on the general
    path (the proxy's model mapping and stream flag); ``None`` leaves a field unset."""
    recorder = LossRecorder()
    try:
        canonical = _read(payload, source)
        if canonical is None:
            return None
        if update:
            _put_fields(canonical, update)
        encoded = _write(canonical, target, options, recorder)
    except Exception:  # any refusal, an error included, is the general path's to report
        return None
    return None if encoded is None else (encoded, recorder)


def _put_options(request: dict[str, Any], target: str, options: Mapping[str, Any]) -> None:
    """``options`` over the request's ``provider_options[target]``, as ``api.with_options``
    puts them on a :class:`~chatcodec.ChatRequest`."""
    provider_options = dict(request.get("provider_options") or {})
    provider_options[target] = {**(provider_options.get(target) or {}), **marked_options(options)}
    request["provider_options"] = provider_options


def _put_fields(request: dict[str, Any], update: Mapping[str, Any]) -> None:
    """``update`` over the request's top-level fields; a ``None`` removes the field (an
    unset field reads as ``None`` on both sides)."""
    for key, value in update.items():
        if value is None:
            request.pop(key, None)
        else:
            request[key] = value
