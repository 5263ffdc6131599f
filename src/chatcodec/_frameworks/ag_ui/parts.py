"""AG-UI content parts <-> canonical parts: what a user message and a tool message hold.

A ``text`` part is a text part; an ``image``, ``audio``, ``video`` or ``document`` part the
canonical part of its name, its source bytes inline (``data``: a base64 source), a URL
(``url``) or a provider's file handle (``file``: a file source). A part's ``id`` and
``metadata``, and its source's other fields (a file's ``provider``), ride in the part's bag. The
``binary`` part of AG-UI before 1.0 reads as the media part its ``mimeType`` names (a
``filename`` on a document is its file name), and is written as that 1.0 part, as AG-UI's own
compatibility boundary upgrades it (nothing in AG-UI writes one back). What a part has that
AG-UI has no field for (a cache marker, an image's detail, a video's clip, a document's title or
file name, a document given as text) is reported where it is written.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.ag_ui.markers import DISPLAY, KIT
from chatcodec._frameworks.ag_ui.wire import LEGACY, MEDIA
from chatcodec.codec_kit import as_dict, leftovers, restore_fields, unmapped_fields
from chatcodec.contract import EncodeContext, Steps

_SOURCE_KEYS = ("type", "value", "mimeType")
_NO_FIELD = f"an {DISPLAY} content part has no field for it"


def decode_part(part: Mapping[str, Any]) -> dict[str, Any]:
    """One AG-UI content part (checked by :mod:`.wire`) as a canonical part dict."""
    kind = part["type"]
    if kind == "text":
        return KIT.attach({"type": "text", "text": part["text"]}, leftovers(part, ("type", "text")))
    if kind == LEGACY:
        return _decode_binary(part)
    source = part["source"]
    bag = leftovers(part, ("type", "source"))
    extra = unmapped_fields(source, _SOURCE_KEYS)
    if extra:
        bag["source"] = extra
    return KIT.attach({"type": kind, "source": _canonical_source(source)}, bag)


def _canonical_source(source: Mapping[str, Any]) -> dict[str, Any]:
    kind, value, media_type = source["type"], source["value"], source.get("mimeType")
    if kind == "data":
        return {"type": "base64", "media_type": media_type, "data": value}
    found: dict[str, Any] = {"type": "url", "url": value} if kind == "url" else {"type": "file", "file_id": value}
    if media_type is not None:
        found["media_type"] = media_type
    return found


def _kind_of(media_type: str) -> str:
    """The canonical part a media type names: an image, audio or video, else a document."""
    head = media_type.split("/", 1)[0].lower()
    return head if head in ("image", "audio", "video") else "document"


def _decode_binary(part: Mapping[str, Any]) -> dict[str, Any]:
    """A pre-1.0 ``binary`` part: its ``data``, else its ``url``, else its ``id`` is the source."""
    media_type: str = part["mimeType"]
    kind = _kind_of(media_type)
    held = next(key for key in ("data", "url", "id") if part.get(key))
    source: dict[str, Any]
    if held == "data":
        source = {"type": "base64", "media_type": media_type, "data": part["data"]}
    elif held == "url":
        source = {"type": "url", "url": part["url"], "media_type": media_type}
    else:
        source = {"type": "file", "file_id": part["id"], "media_type": media_type}
    mapped = ["type", "mimeType", held]
    canonical: dict[str, Any] = {"type": kind, "source": source}
    if kind == "document" and isinstance(part.get("filename"), str):
        canonical["filename"] = part["filename"]
        mapped.append("filename")
    return KIT.attach(canonical, leftovers(part, mapped))


def encode_part(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """One canonical part of a user message or a tool result as an AG-UI content part; None
    (reported) for one AG-UI has no part for."""
    losses = context.losses
    kind = part["type"]
    if kind not in ("text", *MEDIA):
        losses.add(at, f"{kind} part", f"an {DISPLAY} message holds text and media parts only: left out")
        return None
    bag = KIT.claim(losses, as_dict(part.get("provider_metadata")), (*at, "provider_metadata"))
    if part.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache_control", _NO_FIELD, "setting")
    if kind == "text":
        return {**restore_fields(bag), "type": "text", "text": part["text"]}
    for key in ("detail", "start_offset", "end_offset", "fps", "title"):
        if part.get(key) is not None:
            losses.add((*at, key), f"{kind} {key}", _NO_FIELD)
    if part.get("filename") is not None:
        losses.add((*at, "filename"), "document filename", _NO_FIELD)
    extra = as_dict(bag.pop("source", None)) or {}
    return {**restore_fields(bag), "type": kind, "source": {**extra, **_wire_source(part["source"], context, at)}}


def _wire_source(source: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    kind = source["type"]
    if kind == "base64":
        return {"type": "data", "value": source["data"], "mimeType": source["media_type"]}
    if kind == "text":
        why = f"an {DISPLAY} part carries bytes, a URL or a file handle: written as its UTF-8 bytes, inline"
        context.losses.add((*at, "source"), "document text source", why)
        value = base64.b64encode(source["text"].encode("utf-8", "surrogatepass")).decode("ascii")
        return {"type": "data", "value": value, "mimeType": source.get("media_type") or "text/plain"}
    wire: dict[str, Any] = {"type": "url", "value": source["url"]} if kind == "url" else {}
    if kind == "file":
        wire = {"type": "file", "value": source["file_id"]}
    if source.get("media_type") is not None:
        wire["mimeType"] = source["media_type"]
    return wire
