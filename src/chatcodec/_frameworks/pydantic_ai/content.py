"""A ``UserPromptPart``'s content items, and a tool return's content, <-> canonical parts.

pydantic-ai's user content is a string, or a list of strings and media objects told apart by
``kind``: ``image-url``, ``audio-url``, ``video-url`` and ``document-url`` (a URL and its
inferred ``media_type``), ``binary`` (base64 ``data``, which pydantic stores URL-safe and
:mod:`.binary` reads as the standard alphabet, and a ``media_type``, the kind by the media
type's family), and ``cache-point``, a cache breakpoint after the item before it, which
is that part's ``cache_control``. An ``uploaded-file`` (a file in a provider's storage) is the
media part its media type names, by file id. Every other item (``text-content``...) is
kept whole as an opaque part of this format, which another format reports as lost.

A tool's return is any JSON value: a string is the result's text; a list of such items is its
parts (parts of text only are written as one string, reported); anything else is kept as its
compact JSON text, marked ``_json``, as pydantic-ai itself sends a non-text return to a model.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._compat import media_type_essence
from chatcodec._frameworks.pydantic_ai.binary import read_data, write_data
from chatcodec._frameworks.pydantic_ai.markers import KIT, PROVIDER, URL_DEFAULTS
from chatcodec.codec_kit import as_dict, as_list, compact_json, restore_fields, split_fields
from chatcodec.contract import EncodeContext, Steps

_URL_KINDS = {"image-url": "image", "audio-url": "audio", "video-url": "video", "document-url": "document"}
"""A URL item's ``kind`` -> the canonical part type."""

_KIND_OF = {part: kind for kind, part in _URL_KINDS.items()}

_FAMILIES = ("image", "audio", "video")
"""Media type families with a part of their own (every other binary is a document)."""

_TTLS = ("5m", "1h")
"""The cache lifetimes a ``CachePoint`` takes."""


def _identifier(value: str | bytes) -> str:
    """pydantic-ai's own identifier for media (its ``_multi_modal_content_identifier``)."""
    data = value.encode("utf-8", "surrogatepass") if isinstance(value, str) else value  # a lone surrogate too
    return hashlib.sha1(data, usedforsecurity=False).hexdigest()[:6]


def _bytes(data: str) -> bytes | None:
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None


def _media_bag(item: Mapping[str, Any], mapped: tuple[str, ...], derived: str | bytes | None) -> dict[str, Any]:
    bag = split_fields(item, (*mapped, "identifier"), URL_DEFAULTS if item.get("kind") != "binary" else {})
    identifier = item.get("identifier")
    if isinstance(identifier, str) and derived is not None and identifier == _identifier(derived):
        bag["_identifier"] = True
    elif identifier is not None:
        bag["identifier"] = identifier
    return bag


def decode_item(item: object) -> dict[str, Any]:
    """One content item (not a ``cache-point``) as a canonical part."""
    if isinstance(item, str):
        return {"type": "text", "text": item}
    entry = as_dict(item)
    if entry is None:
        return {"type": "opaque", "provider": PROVIDER, "data": {"value": item}}
    kind = entry.get("kind")
    if isinstance(kind, str) and kind in _URL_KINDS and isinstance(entry.get("url"), str) and entry["url"]:
        source: dict[str, Any] = {"type": "url", "url": entry["url"]}
        if isinstance(entry.get("media_type"), str) and entry["media_type"]:
            source["media_type"] = entry["media_type"]
        part: dict[str, Any] = {"type": _URL_KINDS[kind], "source": source}
        return KIT.attach(part, _media_bag(entry, ("url", "kind", "media_type"), entry["url"]))
    media = entry.get("media_type")
    data = entry.get("data")
    if kind == "binary" and isinstance(media, str) and media and isinstance(data, str):
        family = media.split("/", 1)[0]
        part = {"type": family if family in _FAMILIES else "document"}
        standard, spelling = read_data(data)
        part["source"] = {"type": "base64", "media_type": media, "data": standard}
        bag = _media_bag(entry, ("data", "kind", "media_type"), _bytes(standard))
        return KIT.attach(part, {**bag, **spelling})
    if kind == "uploaded-file":
        return _decode_uploaded(entry)
    return {"type": "opaque", "provider": PROVIDER, "data": entry}


def _decode_uploaded(entry: dict[str, Any]) -> dict[str, Any]:
    """An ``UploadedFile`` (a file in a provider's storage, by id: a Gemini Files API URI, a
    ``gs://`` or ``s3://`` URI, another provider's id) as the media part its media type names
    (pydantic-ai infers one from the id's extension when none was given), its source a file
    id; the provider it belongs to rides in the bag. Kept whole when it is not one."""
    file_id, media = entry.get("file_id"), entry.get("media_type")
    if not (isinstance(file_id, str) and file_id and isinstance(media, str) and media):
        return {"type": "opaque", "provider": PROVIDER, "data": entry}
    family = media_type_essence(media).split("/", 1)[0]
    part: dict[str, Any] = {
        "type": family if family in _FAMILIES else "document",
        "source": {"type": "file", "file_id": file_id, "media_type": media},
    }
    return KIT.attach(part, _media_bag(entry, ("file_id", "kind", "media_type"), file_id))


def decode_items(content: Sequence[object]) -> list[dict[str, Any]]:
    """A content list as canonical parts, each ``cache-point`` the ``cache_control`` of the part before it."""
    parts: list[dict[str, Any]] = []
    for item in content:
        marker = point_marker(item)
        if marker is not None and parts and "cache_control" not in parts[-1]:
            parts[-1]["cache_control"] = marker
            continue
        parts.append(decode_item(item))
    return parts


def point_marker(item: object) -> dict[str, Any] | None:
    """The ``cache_control`` a plain ``cache-point`` item stands for; None for any other item."""
    point = as_dict(item)
    if point is None or point.get("kind") != "cache-point" or not point.keys() <= {"kind", "ttl"}:
        return None
    if not isinstance(point.get("ttl", ""), str):  # no lifetime CachePoint knows: kept as an item
        return None
    marker: dict[str, Any] = {"type": "ephemeral"}
    if "ttl" in point:
        marker["ttl"] = point["ttl"]
    return marker


def cache_point(marker: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """A ``cache_control`` (at ``at``) as the ``cache-point`` item after its part."""
    point: dict[str, Any] = {"kind": "cache-point"}
    ttl = marker.get("ttl")
    if ttl in _TTLS:
        point["ttl"] = ttl
    elif ttl is not None:
        context.losses.add((*at, "ttl"), "cache ttl", "a CachePoint lasts 5m or 1h")
    return point


def encode_items(parts: Sequence[Mapping[str, Any]], context: EncodeContext, at: Steps) -> list[Any]:
    """Canonical parts as content items (a ``cache_control`` as a ``cache-point`` after its part)."""
    items: list[Any] = []
    for index, part in enumerate(parts):
        where = (*at, index)
        item = encode_item(part, context, where)
        if item is not None:
            items.append(item)
        marker = part.get("cache_control")
        if marker is not None:
            items.append(cache_point(marker, context, (*where, "cache_control")))
    return items


def encode_item(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> Any:
    """One canonical part as a content item; None (with a loss) for one pydantic-ai has no item for."""
    bag = KIT.claim(context.losses, part.get("provider_metadata"), at)
    kind = part["type"]
    if kind == "text":
        return part["text"]
    if kind == "opaque" and part["provider"] == PROVIDER:
        return dict(part["data"])
    if kind in _KIND_OF:
        return encode_media(part, bag, context, at)
    context.losses.add(at, f"{kind} part", f"pydantic-ai user content has no item for a {kind} part")
    return None


def encode_media(
    part: Mapping[str, Any], bag: dict[str, Any], context: EncodeContext, at: Steps
) -> dict[str, Any] | None:
    """A canonical media part (its bag claimed) as a URL item or ``BinaryContent``; None,
    reported, for a source pydantic-ai media cannot take."""
    source = part["source"]
    derived = bag.pop("_identifier", None)
    if part.get("detail") not in (None, "auto"):
        context.losses.add((*at, "detail"), "image detail", "pydantic-ai media keeps no detail hint")
    for key in ("filename", "title"):
        if part.get(key) is not None:
            context.losses.add((*at, key), key, f"pydantic-ai media keeps no {key}")
    if source["type"] == "url":
        item = restore_fields(bag, URL_DEFAULTS)
        item.update(url=source["url"], kind=_KIND_OF[part["type"]])
        if source.get("media_type") is not None:
            item["media_type"] = source["media_type"]
        if derived:
            item["identifier"] = _identifier(source["url"])
        return item
    if source["type"] == "base64":
        data = write_data(source["data"], bag)
        item = restore_fields(bag)
        item.update(data=data, media_type=source["media_type"], kind="binary")
        raw = _bytes(source["data"]) if derived else None
        if raw is not None:
            item["identifier"] = _identifier(raw)
        return item
    if source["type"] == "file" and isinstance(bag.get("provider_name"), str):  # an UploadedFile read so
        item = restore_fields(bag)
        item.update(file_id=source["file_id"], kind="uploaded-file", media_type=source.get("media_type"))
        if derived:
            item["identifier"] = _identifier(source["file_id"])
        return item
    if source["type"] == "text":  # a text document: its text as a plain item
        context.losses.add((*at, "source"), "text document", "sent as plain text (pydantic-ai has no text document)")
        return {"text": source["text"]}
    why = "pydantic-ai media take a URL or bytes (an UploadedFile names its provider, which this source does not)"
    context.losses.add((*at, "source"), f"{source['type']} source", why)
    return None


def decode_return(content: object) -> tuple[str | list[dict[str, Any]], bool]:
    """A tool return's content as canonical result content, and whether it was a JSON value."""
    if isinstance(content, str):
        return content, False
    items = as_list(content)
    if items is not None and not all(map(_is_text, items)) and all(map(_is_item, items)):
        return decode_items(items), False
    return compact_json(content), True


def _is_text(item: object) -> bool:
    return isinstance(item, str)


def _is_item(item: object) -> bool:
    entry = as_dict(item)
    return isinstance(item, str) or (entry is not None and entry.get("kind") in (*_URL_KINDS, "binary"))


def encode_return(content: str | Sequence[Mapping[str, Any]], as_json: bool, context: EncodeContext, at: Steps) -> Any:
    """Canonical result content as a tool return's content (``as_json``: the JSON value the text
    spells). Parts of text only are written as one string: pydantic-ai sends a list of strings
    (or an empty list) to a model as its JSON text, and reads it back as that text, so the list
    form itself is a spelling change and the parts' boundaries, when several, a loss."""
    if isinstance(content, str):
        if as_json:
            try:
                return json.loads(content)
            except ValueError:
                return content
        return content
    for index, part in enumerate(content):  # a CachePoint is user content: in a return, JSON text
        if part.get("cache_control") is not None:
            why = "a tool return keeps no cache marker"
            context.losses.add((*at, index, "cache_control"), "cache_control", why, "setting")
    items = encode_items([{**part, "cache_control": None} for part in content], context, at)
    if all(isinstance(item, str) for item in items):
        if len(items) <= 1:
            why = "a text-only tool return is one string: the list reads back as the string"
            context.losses.add(at, "content list", why, "spelling")
        else:
            context.losses.add(at, "text parts", "a text-only tool return is one string: the text parts are joined")
        return "".join(items)
    return items
