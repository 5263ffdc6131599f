"""Gemini media parts (``inlineData``, ``fileData``) <-> canonical image, audio and
document parts, for content and for tool results alike (Gemini 3 multimodal results carry
the same parts beside their ``response``).

Media map by MIME type: ``image/*`` to image parts, ``audio/*`` to audio parts, PDF and
``text/*`` to documents (in user turns); anything else (video...) and code execution
parts are kept whole as opaque parts. ``videoMetadata`` beside the media rides in the
part's bag.

An image part's ``mediaResolution`` (per part, Gemini 3: ``PartMediaResolution.level``;
https://ai.google.dev/gemini-api/docs/media-resolution, "Per-part media resolution") of
``MEDIA_RESOLUTION_LOW`` or ``_HIGH`` is canonical ``detail`` ``low`` / ``high``, as
OpenAI's image ``detail`` is; ``auto`` is no field (Gemini's default).
Other levels (``MEDIUM``, ``ULTRA_HIGH``, a ``numTokens``) have no canonical word and
ride in the bag.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Mapping
from typing import Any, Literal

import pydantic_core
from pydantic_core import SchemaValidator
from pydantic_core import core_schema as cs

from chatcodec._narrow import as_dict
from chatcodec.losses import LossRecorder
from chatcodec.providers.gemini.markers import KIT, NO_MIME_TYPE
from chatcodec.providers.kit import Steps, leftovers, restore_fields

Turn = Literal["user", "model", "system"]
"""Which kind of content a part is read for: each canonical message takes other parts."""

MEDIA_KEYS = {"inlineData": ("mimeType", "data"), "fileData": ("fileUri", "mimeType")}
_BASE64_BYTES = SchemaValidator(cs.bytes_schema(), config=cs.CoreConfig(val_json_bytes="base64"))
"""pydantic-core's base64 reading of JSON, which the google-genai types use for ``bytes``
fields (pydantic's ``val_json_bytes="base64"``; built here without pydantic)."""


def is_base64(text: str) -> bool:
    """Whether ``text`` reads as base64 bytes (standard or URL-safe alphabet, padding
    optional, no stray bits), as ``inlineData.data`` and ``thoughtSignature`` must.

    The text is given to pydantic-core as a JSON string as it is: a quote or a backslash
    (which JSON would escape) and a lone surrogate (which UTF-8 cannot hold) are in
    neither alphabet, and writing the text with ``json.dumps`` cost four times the check."""
    if '"' in text or "\\" in text:
        return False
    try:
        document = b'"' + text.encode() + b'"'
    except UnicodeEncodeError:
        return False
    try:
        _BASE64_BYTES.validate_json(document)
    except pydantic_core.ValidationError:
        return False
    return True


def media_kind(mime_type: str | None, turn: Turn) -> str:
    """The canonical part type for media of ``mime_type`` in a ``turn``, or ``opaque``."""
    if mime_type is None:
        return "document" if turn == "user" else "opaque"
    if mime_type.startswith("image/"):
        return "image"
    if mime_type.startswith("audio/"):
        return "audio"
    if turn == "user" and (mime_type == "application/pdf" or mime_type.startswith("text/")):
        return "document"
    return "opaque"


def decode_media(part: dict[str, Any], key: str, turn: Turn) -> dict[str, Any] | None:
    """The canonical media part for an ``inlineData`` / ``fileData`` part, or None when
    it must stay whole (another kind of media, or fields with no canonical home)."""
    blob: dict[str, Any] = part[key]
    if not set(blob) <= set(MEDIA_KEYS[key]):
        return None
    mime_type = blob.get("mimeType")
    kind = media_kind(mime_type, turn)
    if kind == "opaque":
        return None
    bag = leftovers(part, (key,))
    if key == "inlineData":
        source: dict[str, Any] = {"type": "base64", "media_type": mime_type, "data": blob["data"]}
    else:
        source = {"type": "url", "url": blob["fileUri"]}
        if mime_type is not None:
            source["media_type"] = mime_type
        else:
            bag[NO_MIME_TYPE] = True  # written back without one (see file_mime_type)
    canonical: dict[str, Any] = {"type": kind, "source": source}
    return KIT.attach(_take_detail(canonical, bag) if kind == "image" else canonical, bag)


_LEVELS = {"MEDIA_RESOLUTION_LOW": "low", "MEDIA_RESOLUTION_HIGH": "high"}
_DETAIL_LEVELS = {detail: level for level, detail in _LEVELS.items()}
_RESOLUTION = "mediaResolution"


def _take_detail(canonical: dict[str, Any], bag: dict[str, Any]) -> dict[str, Any]:
    """``canonical`` (an image) with the ``detail`` its bag's ``mediaResolution`` says."""
    resolution = as_dict(bag.get(_RESOLUTION))
    level = resolution.get("level") if resolution is not None and len(resolution) == 1 else None
    if level in _LEVELS:
        canonical["detail"] = _LEVELS[level]
        del bag[_RESOLUTION]
    return canonical


_MIME_TYPES = mimetypes.MimeTypes()
_DEFAULT_MIME_TYPES = {"image": "image/jpeg", "audio": "audio/mpeg", "document": "application/pdf"}
"""What a URL with no telling extension is sent as, by canonical part type."""


def file_mime_type(part_type: str, url: str, losses: LossRecorder, at: Steps) -> str:
    """The ``mimeType`` ``fileData`` requires (400 without it) for a URL source with none,
    for a part of ``part_type`` (image, audio, document): guessed from the URL's extension
    when it names one of the part's kind, else the part's usual type (JPEG, MP3, PDF);
    either guess is reported."""
    guessed, _ = _MIME_TYPES.guess_type(url.split("?", 1)[0].split("#", 1)[0], strict=False)
    kind = part_type if part_type != "document" else "application"
    if guessed is None or not (guessed.startswith(f"{kind}/") or part_type == "document"):
        guessed = _DEFAULT_MIME_TYPES[part_type]
    losses.add((*at, "source", "media_type"), "media type", f"Gemini fileData needs one; none given, guessed {guessed}")
    return guessed


IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"})
"""The image types Gemini reads ("Gemini supports the following image format MIME types:
PNG, JPEG, WEBP, HEIC, HEIF": https://ai.google.dev/gemini-api/docs/image-understanding#supported-formats);
a BMP, GIF or TIFF image is refused (400 "Unsupported MIME type")."""

FILES_API = "https://generativelanguage.googleapis.com/v1beta/"
"""Where a Files API name (``files/abc123``) lives: an upload's ``uri`` is this prefix and
its ``name`` (https://ai.google.dev/gemini-api/docs/files, ``file_data.file_uri``)."""


def _file_data(
    kind: str, source: Mapping[str, Any], bag: dict[str, Any], losses: LossRecorder, at: Steps
) -> dict[str, Any] | None:
    """``fileData`` for a file id that names a Gemini file: a Files API name
    (``files/...``, written as its URI) or a URI (``gs://``, ``https://``); ``mimeType``
    is required, guessed when the source has none. Another provider's id (``file-...``)
    means nothing to Gemini: a loss."""
    file_id: str = source["file_id"]
    if file_id.startswith("files/"):
        file_id = FILES_API + file_id
    elif "://" not in file_id:
        losses.add((*at, "source"), "file id", "Gemini references files by URI, not another provider's file id")
        return None
    mime_type = source.get("media_type") or file_mime_type(kind, file_id, losses, at)
    return {**restore_fields(bag), "fileData": {"fileUri": file_id, "mimeType": mime_type}}


def encode_media(
    part: Mapping[str, Any], bag: dict[str, Any], losses: LossRecorder, at: Steps
) -> dict[str, Any] | None:
    """``inlineData`` for base64, ``fileData`` for a URL, for canonical image, audio and
    document part data; other sources are losses."""
    kind: str = part["type"]
    if kind == "image" and part.get("detail") in _DETAIL_LEVELS:
        bag = {**bag, _RESOLUTION: {"level": _DETAIL_LEVELS[part["detail"]]}}
    if kind == "document" and (part.get("title") is not None or part.get("filename") is not None):
        losses.add(at, "document title or file name", "Gemini media parts have neither")
    source: Mapping[str, Any] = part["source"]
    source_type: str = source["type"]
    if source_type == "url" and source.get("media_type") is None and not bag.get(NO_MIME_TYPE):
        source = {**source, "media_type": file_mime_type(kind, source["url"], losses, at)}
    read_as = kind if source_type == "text" else media_kind(source.get("media_type"), "user")
    if read_as != kind:
        losses.add(
            (*at, "source"), f"{kind} media type", f"Gemini tells media apart by MIME type; it reads back as {read_as}"
        )
    if source_type == "base64":
        if kind == "image" and read_as == "image" and source["media_type"] not in IMAGE_TYPES:
            losses.add(
                at, f"image of type {source['media_type']}", "Gemini takes PNG, JPEG, WebP, HEIC and HEIF images"
            )
            return None
        if not is_base64(source["data"]):
            losses.add((*at, "source", "data"), "media data", "not base64: Gemini cannot read it")
            return None
        return {**restore_fields(bag), "inlineData": {"mimeType": source["media_type"], "data": source["data"]}}
    if source_type == "url":
        file_data = {"fileUri": source["url"]}
        if source.get("media_type") is not None:
            file_data["mimeType"] = source["media_type"]
        return {**restore_fields(bag), "fileData": file_data}
    if source_type == "file":
        return _file_data(kind, source, bag, losses, at)
    losses.add((*at, "source"), "text document", "Gemini has no document part; sent as text")
    return {**restore_fields(bag), "text": source["text"]}
