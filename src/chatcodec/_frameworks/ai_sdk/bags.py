"""A part's bags when Gemini's thought signature rides beside the format's own: the
``gemini`` bag :mod:`.provider_options` fills must survive the format's bag being attached,
and must not be reported as lost by the format's own encoder, which writes it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.ai_sdk.provider_options import decode_options, encode_options, foreign_metadata
from chatcodec.codec_kit import ProviderKit, as_dict, leftovers
from chatcodec.contract import EncodeContext, LossRecorder, Steps


def attach(kit: ProviderKit, canonical: dict[str, Any], bag: Mapping[str, Any]) -> dict[str, Any]:
    """``canonical`` with ``bag`` as its ``provider_metadata[kit.name]`` (kept beside a
    ``gemini`` bag already there) when ``bag`` is not empty."""
    if bag:
        canonical.setdefault("provider_metadata", {})[kit.name] = dict(bag)
    return canonical


def claim(kit: ProviderKit, losses: LossRecorder, metadata: Mapping[str, Any] | None, at: Steps) -> dict[str, Any]:
    """The format's own bag; other formats' bags reported, but for the Gemini signature it writes."""
    return kit.claim(losses, foreign_metadata(metadata), at)


def finish(
    kit: ProviderKit,
    canonical: dict[str, Any],
    wire: Mapping[str, Any],
    mapped: tuple[str, ...],
    *,
    key: str,
    markers: Mapping[str, Any],
) -> dict[str, Any]:
    """``canonical`` with its provider options (under ``key``: ``providerOptions`` or
    ``providerMetadata``) read and its bag attached: the unmapped fields, the rest of the
    options, and ``markers`` (each set one as ``_name``)."""
    bag = leftovers(wire, (*mapped, key))
    raw = as_dict(wire.get(key))
    if key in wire and raw is None:  # no options object: kept as it came
        bag[key] = wire[key]
    else:
        rest = decode_options(canonical, raw)
        if rest or (key in wire and not raw):
            bag[key] = rest
    bag.update({f"_{name}": value for name, value in markers.items() if value is not None})
    return attach(kit, canonical, bag)


UNKEPT = object()
"""What a bag without an options object pops (one kept as ``null`` is written back as ``null``)."""


def write_options(
    wire: dict[str, Any], part: Mapping[str, Any], kept: object, context: EncodeContext, at: Steps, *, key: str
) -> dict[str, Any]:
    """``wire`` with canonical ``part``'s provider options written under ``key``: ``kept``
    (popped from the bag with :data:`UNKEPT` as the default) with the canonical fields
    written in; no key when nothing was kept and nothing is to be written; a kept value
    that is no object written back as it came."""
    options_kept = as_dict(kept)
    if kept is not UNKEPT and options_kept is None:
        wire[key] = kept
        return wire
    options = encode_options(part, options_kept, context, at)
    if options or kept is not UNKEPT:
        wire[key] = options
    return wire


_FORMATS = ("ai-sdk-model", "ai-sdk-ui")
_MEDIA = frozenset({"image", "audio", "video", "document"})
_OPTIONED = frozenset({"text", "refusal", "thinking", "tool_use", "tool_result", *_MEDIA})
"""The canonical parts both forms give provider options: a ``UIMessage``'s text, reasoning
and file parts (``providerMetadata``) and tool parts (``callProviderMetadata``) are the
``ModelMessage`` parts (``providerOptions``) ``convertToModelMessages`` makes of them; a tool
part's call options are its ``tool-result`` part's too (:data:`CALL_OPTIONS`)."""

CALL_OPTIONS = "_call_options"
"""The marker a ``UIMessage`` tool part's result keeps its call's ``callProviderMetadata``
under: ``convertToModelMessages`` writes them as the ``providerOptions`` of the call and of
the ``tool-result`` it makes of the part (a client-executed tool's; its
``resultProviderMetadata`` it does not send)."""


def _options_key(fmt: str, kind: str) -> str:
    if fmt == _FORMATS[0]:
        return "providerOptions"
    if kind == "tool_result":
        return CALL_OPTIONS
    return "callProviderMetadata" if kind == "tool_use" else "providerMetadata"


def from_sibling(
    metadata: Mapping[str, Any] | None, own: str, kind: str
) -> tuple[Mapping[str, Any] | None, dict[str, Any]]:
    """What the other AI SDK form kept on a canonical part of ``kind`` that the form ``own``
    writes as well, as ``own``'s bag entries, and ``metadata`` without it, so the writer
    carries it rather than reporting it as the other form's data, as ``convertToModelMessages``
    carries it: a part's provider options beyond the canonical fields (a ``UIMessage`` part's
    ``providerMetadata`` is the ``ModelMessage`` part's ``providerOptions``), and a media
    part's ``filename`` (an image, audio or video has no canonical one) and ``mediaType`` as
    it was spelt (:mod:`.media`)."""
    sibling = _FORMATS[1] if own == _FORMATS[0] else _FORMATS[0]
    bag = as_dict(metadata.get(sibling)) if metadata and kind in _OPTIONED else None
    if metadata is None or bag is None:
        return metadata, {}
    keys = {_options_key(sibling, kind): _options_key(own, kind)}
    if kind in _MEDIA:
        keys.update(filename="filename", mediaType="mediaType")
    taken = {theirs for theirs in keys if _carried(theirs, bag.get(theirs))}
    if not taken:
        return metadata, {}
    rest = {key: value for key, value in bag.items() if key not in taken}
    trimmed = {name: value for name, value in metadata.items() if name != sibling}
    if rest:
        trimmed[sibling] = rest
    return trimmed or None, {keys[theirs]: bag[theirs] for theirs in taken}


def _carried(key: str, value: object) -> bool:
    """Whether the other form's ``value`` under ``key`` is one this form takes (options an
    object, a file name or media type a string); anything else stays reported."""
    return as_dict(value) is not None if key not in ("filename", "mediaType") else isinstance(value, str)
