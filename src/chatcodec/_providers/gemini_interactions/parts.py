"""A ``Content`` object <-> one canonical content part.

Text is a text part; an image, audio clip, video or document is a media part whose source
is ``data`` (base64, with its ``mime_type``) or ``uri`` (a URL, or a Files API URI, with
its ``mime_type`` when given), as the API reference's ``ImageContent`` and siblings have
them; an image's ``resolution`` of ``low`` or ``high`` is the canonical ``detail`` of that
name (google-genai 3.6.1 ``MediaResolution``: ``medium`` and ``ultra_high`` have no canonical
word and ride in the part's bag). A content kind without a canonical home (or inline data
without a ``mime_type``, which canonical base64 needs) is an opaque part holding the object
whole, so a same-format round trip is exact; another format reports it. So is a video or
a document in the model's answer (an image or audio clip only, in a canonical assistant
message), as the ``gemini`` codec keeps them: one such output never fails the whole answer.
Every ``match`` over the canonical part kinds ends in ``assert_never``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.families.google.file_uris import NOT_A_URI, file_uri
from chatcodec._providers.gemini_interactions.markers import DISPLAY, KIT, PROVIDER
from chatcodec.codec_kit import leftovers, wire_fields
from chatcodec.contract import EncodeContext, Steps

MEDIA = frozenset({"image", "audio", "video", "document"})
"""The content kinds that are media, spelled as the canonical part kinds."""

ANSWER_MEDIA = frozenset({"image", "audio"})
"""The media a canonical assistant message holds; the model's other media are kept whole."""

DETAILS = frozenset({"low", "high"})
"""The image ``resolution`` values that are canonical ``detail`` words, the same both ways."""

_MEDIA_FIELDS = ("type", "data", "uri", "mime_type")
_TEXT_FIELDS = ("type", "text")


def opaque(value: Mapping[str, Any]) -> dict[str, Any]:
    """An object with no canonical home, kept whole as this provider's opaque part."""
    return {"type": "opaque", "provider": PROVIDER, "data": dict(value)}


def decode_content(content: Mapping[str, Any], *, answer: bool = False) -> dict[str, Any]:
    """One wire ``Content`` as a canonical part (``answer``: of the model's turn)."""
    kind = content["type"]
    if kind == "text":
        return KIT.attach({"type": "text", "text": content["text"]}, leftovers(content, _TEXT_FIELDS))
    if kind in (ANSWER_MEDIA if answer else MEDIA):
        source = _source(content)
        if source is not None:
            part: dict[str, Any] = {"type": kind, "source": source}
            mapped: tuple[str, ...] = _MEDIA_FIELDS
            if kind == "image" and content.get("resolution") in DETAILS:
                part["detail"] = content["resolution"]
                mapped = (*_MEDIA_FIELDS, "resolution")
            return KIT.attach(part, leftovers(content, mapped))
    return opaque(content)


def _source(content: Mapping[str, Any]) -> dict[str, Any] | None:
    mime = content.get("mime_type")
    if "data" in content and "uri" not in content and isinstance(mime, str) and mime:
        return {"type": "base64", "media_type": mime, "data": content["data"]}
    if "uri" in content and "data" not in content and content["uri"]:
        source: dict[str, Any] = {"type": "url", "url": content["uri"]}
        if isinstance(mime, str) and mime:
            source["media_type"] = mime
        return source
    return None


def encode_part(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The ``Content`` for one canonical user or answer part (None: not carried, reported)."""
    kind = part["type"]
    if part.get("cache_control") is not None:
        context.losses.add((*at, "cache_control"), "cache_control", f"{DISPLAY} has no cache breakpoints", "setting")
    if kind == "opaque" and part["provider"] == PROVIDER:
        return dict(part["data"])
    written = wire_fields(KIT.claim(context.losses, part.get("provider_metadata"), at))
    if kind == "text":
        return {"type": "text", "text": part["text"], **written}
    if kind in MEDIA:
        media = _media(part, context, at)
        return None if media is None else {**media, **written}
    if kind == "refusal":
        context.losses.add(at, "refusal", f"{DISPLAY} has no refusal content; sent as text")
        return {"type": "text", "text": part["text"], **written}
    context.losses.add(at, f"{kind} part", f"{DISPLAY} has no place for it here")
    return None


def is_step(data: Mapping[str, Any]) -> bool:
    """Whether an opaque part of this provider holds a step (a built-in tool's call or
    result), not a content object: its kind is no content kind."""
    kind = data.get("type")
    return not (isinstance(kind, str) and (kind in MEDIA or kind == "text"))


def _media(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    kind, source = part["type"], part["source"]
    for key in ("title", "filename", "start_offset", "end_offset", "fps"):
        if part.get(key) is not None:
            context.losses.add((*at, key), key, f"{DISPLAY} {kind} content has no {key}", "setting")
    resolution = {"resolution": part["detail"]} if part.get("detail") in DETAILS else {}
    # ``auto`` is the API's own default: no resolution says the same
    match source["type"]:
        case "base64":
            return {"type": kind, "data": source["data"], "mime_type": source["media_type"], **resolution}
        case "url" | "file":
            uri = source["url"] if source["type"] == "url" else file_uri(source["file_id"])
            if uri is None:
                context.losses.add((*at, "source", "file_id"), "file id", NOT_A_URI)
                return None
            written: dict[str, Any] = {"type": kind, "uri": uri}
            if source.get("media_type"):
                written["mime_type"] = source["media_type"]
            return {**written, **resolution}
        case "text":
            context.losses.add(
                (*at, "source"), f"{kind} text source", f"{DISPLAY} takes a document's text as a text part"
            )
            return {"type": "text", "text": source["text"]}
        case _:
            context.losses.add((*at, "source"), f"{source['type']} source", f"{DISPLAY} has no such source")
            return None
