"""AI SDK media <-> canonical media parts.

A ``ModelMessage`` file part holds ``data`` (base64 text, or a URL, which JSON stores as its
string) with a required ``mediaType``; an image part holds ``image`` with an optional one; a
``UIMessage`` file part holds a ``url`` (an ``https:`` URL or a ``data:`` URL) and a
``mediaType``. The media type picks the canonical part (``image/*``, ``audio/*``,
``video/*``, anything else a document); a data URL is a base64 source.

A media type may carry parameters (``application/pdf; name=doc.pdf``, as a browser or an
upload library writes it) and is case-insensitive: the canonical media type is its essence
(``application/pdf``), which every other format's writer recognises, and the format keeps the
type as it was spelt (the part's ``mediaType`` in its bag; a data URL's own type, when it is
not the canonical one, as the ``_url_type`` marker), so the part is written back as it came.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

from chatcodec._compat import media_type_essence
from chatcodec.contract import EncodeContext, Steps

_KINDS = ("image", "audio", "video")

_SNIFFED = (("iVBOR", "image/png"), ("/9j/", "image/jpeg"), ("R0lG", "image/gif"), ("UklG", "image/webp"))
"""Base64 openings of the image types the AI SDK itself detects when an image part has no media type."""


def essence(media_type: str) -> str:
    """``media_type`` without its parameters, lowercased (:func:`chatcodec._compat.media_type_essence`,
    the one rule every format's media types are recognised by)."""
    return media_type_essence(media_type)


def kind_of(media_type: str) -> str:
    """The canonical part type for a media type."""
    top = essence(media_type).split("/", 1)[0]
    return top if top in _KINDS else "document"


def spelt(media_type: str | None) -> tuple[str, ...]:
    """The wire key to map for a part's ``mediaType``: none when it is spelt otherwise than
    its essence (parameters, capitals), so the part's bag keeps it as it came."""
    return ("mediaType",) if media_type is None or essence(media_type) == media_type else ()


def url_type(text: str, source: Mapping[str, Any]) -> str | None:
    """The media type a data URL spells when it is not its canonical source's (parameters,
    capitals, or another type than the part's ``mediaType``), kept to write the URL back as
    it came; None otherwise."""
    inline = data_url(text)
    return inline[0] if inline is not None and inline[0] != source.get("media_type") else None


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
        return {"type": "base64", "media_type": essence(media_type or inline[0]), "data": inline[1]}
    if is_url(text):
        return {"type": "url", "url": text, **({"media_type": essence(media_type)} if media_type else {})}
    known = essence(media_type) if media_type else None
    return {"type": "base64", "media_type": known or sniffed(text) or "application/octet-stream", "data": text}


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
    media_type = _source_type(part["source"])
    if isinstance(media_type, str) and media_type:
        if kind_of(media_type) != part["type"]:
            why = f"the AI SDK reads a file's kind from its media type: {media_type!r} reads as {kind_of(media_type)}"
            context.losses.add((*at, "source", "media_type"), f"{part['type']} part", why)
        return media_type
    made = "application/octet-stream" if part["type"] == "document" else f"{part['type']}/*"
    context.losses.add((*at, "source"), "media type", f"the AI SDK requires one on a file; written as {made}")
    return made


def writes_data(part: Mapping[str, Any]) -> bool:
    """Whether :func:`data_of` writes ``part``'s source (a URL, base64 or text; not a file id)."""
    return part["source"]["type"] in ("url", "base64", "text")


def data_of(
    part: Mapping[str, Any],
    context: EncodeContext,
    at: Steps,
    *,
    as_data_url: bool,
    spelt_type: object = None,
    media_type: str | None = None,
) -> str | None:
    """A canonical source as the AI SDK's data string (base64, a URL, or a data URL when
    ``as_data_url``, of the media type its ``_url_type`` marker ``spelt_type`` kept, else the
    source's, else ``media_type``, the one the caller writes beside it, else one made up and
    reported by :func:`media_type_of`); None, reported, for a provider's file id."""
    source = part["source"]
    kind = source["type"]
    if kind == "url":
        return str(source["url"])
    if kind == "base64":
        data = str(source["data"])
    elif kind == "text":
        data = base64.b64encode(str(source["text"]).encode()).decode()
    else:
        context.losses.add((*at, "source"), f"{kind} source", "an AI SDK file holds data or a URL, not a file id")
        return None
    if not as_data_url:
        return data
    typed = spelt_type if isinstance(spelt_type, str) else _source_type(source) or media_type
    return f"data:{typed or media_type_of(part, context, at)};base64,{data}"


def _source_type(source: Mapping[str, Any]) -> object:
    """A canonical source's media type: a text source's is ``text/plain`` when left out (the
    canonical model's default, which canonical data need not spell)."""
    return source.get("media_type", "text/plain" if source["type"] == "text" else None)
