"""AI SDK media <-> canonical media parts.

A ``ModelMessage`` file part holds ``data`` (base64 text, or a URL, which JSON stores as its
string) with a required ``mediaType``; an image part holds ``image`` with an optional one; a
``UIMessage`` file part holds a ``url`` (an ``https:`` URL or a ``data:`` URL) and a
``mediaType``. The media type picks the canonical part (``image/*``, ``audio/*``,
``video/*``, anything else a document); a data URL is a base64 source.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

from chatcodec.contract import EncodeContext, Steps

_KINDS = ("image", "audio", "video")

_SNIFFED = (("iVBOR", "image/png"), ("/9j/", "image/jpeg"), ("R0lG", "image/gif"), ("UklG", "image/webp"))
"""Base64 openings of the image types the AI SDK itself detects when an image part has no media type."""


def kind_of(media_type: str) -> str:
    """The canonical part type for a media type."""
    top = media_type.split("/", 1)[0]
    return top if top in _KINDS else "document"


def is_url(text: str) -> bool:
    """Whether a data string is a URL (the AI SDK reads any other string as base64)."""
    return text.startswith(("http://", "https://", "data:", "gs://", "s3://", "file://"))


def data_url(text: str) -> tuple[str, str] | None:
    """A base64 ``data:`` URL's media type and data, or None."""
    if not text.startswith("data:") or ";base64," not in text:
        return None
    media_type, data = text[5:].split(";base64,", 1)
    return (media_type, data) if media_type else None


def sniffed(data: str) -> str | None:
    """The image type a base64 string opens with, or None."""
    return next((media for opening, media in _SNIFFED if data.startswith(opening)), None)


def source_of(text: str, media_type: str | None, *, data_urls: bool) -> dict[str, Any]:
    """The canonical source for a data string: a data URL (read as base64 when ``data_urls``),
    another URL, or base64 text (its media type given, sniffed, or generic)."""
    inline = data_url(text) if data_urls else None
    if inline is not None:
        return {"type": "base64", "media_type": media_type or inline[0], "data": inline[1]}
    if is_url(text):
        return {"type": "url", "url": text, **({"media_type": media_type} if media_type else {})}
    return {"type": "base64", "media_type": media_type or sniffed(text) or "application/octet-stream", "data": text}


PLACES: dict[str, frozenset[str]] = {
    "system": frozenset({"text", "opaque"}),
    "user": frozenset({"text", "image", "audio", "video", "document", "opaque"}),
    "assistant": frozenset({"text", "thinking", "tool_use", "refusal", "image", "audio", "opaque"}),
}
"""The canonical parts each role holds: another part a message of the role carries (a file
of a document type in an assistant turn) is kept whole as an opaque part of the format."""


def placed(canonical: dict[str, Any], wire: dict[str, Any], role: str, provider: str) -> dict[str, Any]:
    """``canonical`` when a ``role`` message holds its kind, else ``wire`` kept opaque."""
    if canonical["type"] in PLACES.get(role, PLACES["user"]):
        return canonical
    return {"type": "opaque", "provider": provider, "data": wire}


def media_type_of(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> str:
    """A canonical media part's media type, which the AI SDK requires on a file; one made up
    from the part's kind (``image/*``) is reported."""
    media_type = part["source"].get("media_type")
    if isinstance(media_type, str) and media_type:
        if kind_of(media_type) != part["type"]:
            why = f"the AI SDK reads a file's kind from its media type: {media_type!r} reads as {kind_of(media_type)}"
            context.losses.add((*at, "source", "media_type"), f"{part['type']} part", why)
        return media_type
    made = "application/octet-stream" if part["type"] == "document" else f"{part['type']}/*"
    context.losses.add((*at, "source"), "media type", f"the AI SDK requires one on a file; written as {made}")
    return made


def data_of(part: Mapping[str, Any], context: EncodeContext, at: Steps, *, as_data_url: bool) -> str | None:
    """A canonical source as the AI SDK's data string (base64, a URL, or a data URL when
    ``as_data_url``); None, reported, for a provider's file id."""
    source = part["source"]
    kind = source["type"]
    if kind == "url":
        return str(source["url"])
    if kind == "base64":
        return f"data:{source['media_type']};base64,{source['data']}" if as_data_url else str(source["data"])
    if kind == "text":
        encoded = base64.b64encode(str(source["text"]).encode()).decode()
        return f"data:{source['media_type']};base64,{encoded}" if as_data_url else encoded
    context.losses.add((*at, "source"), f"{kind} source", "an AI SDK file holds data or a URL, not a file id")
    return None
