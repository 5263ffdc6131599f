"""Gemini media parts (``inlineData``, ``fileData``) <-> canonical image, audio, video and
document parts, for content and for tool results alike (Gemini 3 multimodal results carry
the same parts beside their ``response``).

Media map by MIME type: ``image/*`` to image parts, ``audio/*`` to audio parts, ``video/*``
(and a YouTube link with no type) to video parts, PDF and ``text/*`` to documents (in user
turns; a result's video stays whole: ``FunctionResponsePart`` has no ``videoMetadata``);
anything else and code execution parts are kept whole as opaque parts. ``videoMetadata``
beside a video is its clip (:mod:`.video`).

An image part's ``mediaResolution`` (per part, Gemini 3: ``PartMediaResolution.level``;
https://ai.google.dev/gemini-api/docs/media-resolution, "Per-part media resolution") of
``MEDIA_RESOLUTION_LOW`` or ``_HIGH`` is canonical ``detail`` ``low`` / ``high``, as
OpenAI's image ``detail`` is; ``auto`` is no field (Gemini's default).
Other levels (``MEDIUM``, ``ULTRA_HIGH``, a ``numTokens``) have no canonical word and
ride in the bag.

A ``file:`` URL (``file:///home/me/cat.png``) names a path on the caller's machine, which
Gemini cannot fetch (``fileData.fileUri`` is a Files API URI, ``gs://`` or ``http(s)``). It
is kept as given and reported, not dropped: a same-format round trip stays exact (a request
the provider refuses is the caller's to fix, sent as it came), a gateway in front of the
provider may resolve it (vLLM reads local files under ``--allowed-local-media-path``), and
dropping it would change what the model is asked about; the loss tells the caller to send
the bytes inline (base64) instead.
"""

from __future__ import annotations

import mimetypes
import re
from collections.abc import Mapping
from functools import cache
from typing import Any, Literal

import pydantic_core
from pydantic_core import SchemaValidator
from pydantic_core import core_schema as cs

from chatcodec._providers.families.google.file_uris import file_uri
from chatcodec._providers.gemini.markers import KIT, NO_MIME_TYPE
from chatcodec._providers.gemini.video import VIDEO_METADATA, clip_metadata, is_youtube, take_clip
from chatcodec.codec_kit import (
    as_dict,
    is_local_file_url,
    leftovers,
    local_file_why,
    lower_case_source,
    media_type_essence,
    restore_fields,
)
from chatcodec.contract import LossRecorder, Steps

Turn = Literal["user", "model", "system", "result"]
"""Which kind of content a part is read for: each canonical message (and a tool result) takes
other parts."""

MEDIA_KEYS = {"inlineData": ("mimeType", "data"), "fileData": ("fileUri", "mimeType")}
_BASE64_BYTES = SchemaValidator(cs.bytes_schema(), config=cs.CoreConfig(val_json_bytes="base64"))
"""pydantic-core's base64 reading of JSON, which the google-genai types use for ``bytes``
fields (pydantic's ``val_json_bytes="base64"``; built here without pydantic)."""


_IMAGES_TAKEN = "Gemini takes PNG, JPEG, WebP, HEIC and HEIF images"
"""What Gemini says of an image type it does not take (in any case)."""


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
        return "document" if turn in ("user", "result") else "opaque"
    mime_type = media_type_essence(mime_type)  # told apart by type and subtype (parameters, any case)
    if mime_type.startswith("image/"):
        return "image"
    if mime_type.startswith("audio/"):
        return "audio"
    if mime_type.startswith("video/"):
        return "video" if turn == "user" else "opaque"
    if turn in ("user", "result") and (mime_type == "application/pdf" or mime_type.startswith("text/")):
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
    if mime_type is None and turn == "user" and is_youtube(blob.get("fileUri")):
        kind = "video"
    if kind == "opaque":
        return None
    bag = leftovers(part, (key,))
    if key == "inlineData":
        source: dict[str, Any] = {"type": "base64", "media_type": mime_type, "data": blob["data"]}
    elif mime_type is not None and _FILES_API_URI.fullmatch(str(blob["fileUri"])):
        source = {"type": "file", "file_id": blob["fileUri"], "media_type": mime_type}
    else:
        source = {"type": "url", "url": blob["fileUri"]}
        if mime_type is not None:
            source["media_type"] = mime_type
        elif kind != "video":  # a video with no type is a YouTube link, written back without one
            bag[NO_MIME_TYPE] = True  # written back without one (see file_mime_type)
    canonical: dict[str, Any] = {"type": kind, "source": source}
    if kind == "image":
        canonical = _take_detail(canonical, bag)
    elif kind == "video":
        canonical = take_clip(canonical, bag)
    return KIT.attach(canonical, bag)


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


@cache
def _mime_types() -> mimetypes.MimeTypes:
    """The table, read on the first guess: it reads the system's ``mime.types``, which only
    a conversion that guesses should pay for."""
    return mimetypes.MimeTypes()


_DEFAULT_MIME_TYPES = {
    "image": "image/jpeg",
    "audio": "audio/mpeg",
    "video": "video/mp4",
    "document": "application/pdf",
}
"""What a URL with no telling extension is sent as, by canonical part type."""


def file_mime_type(part_type: str, url: str, losses: LossRecorder, at: Steps) -> str:
    """The ``mimeType`` ``fileData`` requires (400 without it) for a URL source with none,
    for a part of ``part_type`` (image, audio, document): guessed from the URL's extension
    when it names one of the part's kind, else the part's usual type (JPEG, MP3, PDF);
    either guess is reported."""
    guessed, _ = _mime_types().guess_type(url.split("?", 1)[0].split("#", 1)[0], strict=False)
    kind = part_type if part_type != "document" else "application"
    if guessed is None or not (guessed.startswith(f"{kind}/") or part_type == "document"):
        guessed = _DEFAULT_MIME_TYPES[part_type]
    losses.add((*at, "source", "media_type"), "media type", f"Gemini fileData needs one; none given, guessed {guessed}")
    return guessed


S3_WHY = "Gemini fetches no s3:// location (a Files API upload, gs://, or an http(s) URL such as a signed one)"
"""Why media in S3 is not sent: ``fileData.fileUri`` is a Files API URI, a Cloud Storage
``gs://`` URI or an ``http(s)`` URL (https://ai.google.dev/gemini-api/docs/file-input-methods)."""

IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"})
"""The image types Gemini reads ("Gemini supports the following image format MIME types:
PNG, JPEG, WEBP, HEIC, HEIF": https://ai.google.dev/gemini-api/docs/image-understanding#supported-formats);
a BMP, GIF or TIFF image is refused (400 "Unsupported MIME type")."""


_FILES_API_URI = re.compile(r"https://generativelanguage\.googleapis\.com/v\w+/files/[^/?#]+")
"""An upload's ``uri`` in the Files API (``.../v1beta/files/abc123``,
https://ai.google.dev/gemini-api/docs/files): read as a file id, not a URL, since no one but
Gemini (with the caller's key) can fetch it; written back as it came (:func:`_file_data`), and
reported by another provider's writer rather than sent as a URL it cannot download."""


def _file_data(
    kind: str, source: Mapping[str, Any], bag: dict[str, Any], losses: LossRecorder, at: Steps
) -> dict[str, Any] | None:
    """``fileData`` for a file id that names a Gemini file: a Files API name
    (``files/...``, written as its URI) or a URI (``gs://``, ``https://``); ``mimeType``
    is required, guessed when the source has none. Another provider's id (``file-...``)
    means nothing to Gemini: a loss."""
    file_id = file_uri(source["file_id"])
    if file_id is None:
        losses.add((*at, "source"), "file id", "Gemini references files by URI, not another provider's file id")
        return None
    mime_type = source.get("media_type") or file_mime_type(kind, file_id, losses, at)
    return {**restore_fields(bag), "fileData": {"fileUri": file_id, "mimeType": mime_type}}


def _part_fields(part: Mapping[str, Any], bag: dict[str, Any], losses: LossRecorder, at: Steps) -> dict[str, Any]:
    """The bag with what the part's own fields say beside its media (an image's
    ``mediaResolution``, a video's ``videoMetadata``); a document's title or name reported."""
    kind: str = part["type"]
    if kind == "image" and part.get("detail") in _DETAIL_LEVELS:
        return {**bag, _RESOLUTION: {"level": _DETAIL_LEVELS[part["detail"]]}}
    if kind == "video":
        clip = clip_metadata(part)
        return bag if clip is None else {**bag, VIDEO_METADATA: clip}
    if kind == "document" and (part.get("title") is not None or part.get("filename") is not None):
        losses.add(at, "document title or file name", "Gemini media parts have neither")
    return bag


def encode_media(
    part: Mapping[str, Any], bag: dict[str, Any], losses: LossRecorder, at: Steps
) -> dict[str, Any] | None:
    """``inlineData`` for base64, ``fileData`` for a URL, for canonical image, audio, video
    and document part data; other sources are losses."""
    kind: str = part["type"]
    bag = _part_fields(part, bag, losses, at)
    source: Mapping[str, Any] = part["source"]
    source_type: str = source["type"]
    youtube = kind == "video" and source_type == "url" and is_youtube(source["url"])
    if source_type == "url" and source.get("media_type") is None and not bag.get(NO_MIME_TYPE) and not youtube:
        source = {**source, "media_type": file_mime_type(kind, source["url"], losses, at)}
    unknown_file = source_type == "file" and source.get("media_type") is None  # its type is guessed by kind
    read_as = kind if source_type == "text" or youtube or unknown_file else media_kind(source.get("media_type"), "user")
    if read_as != kind:
        losses.add(
            (*at, "source"), f"{kind} media type", f"Gemini tells media apart by MIME type; it reads back as {read_as}"
        )
    if source_type == "base64":
        if kind == "image" and read_as == "image" and source["media_type"] not in IMAGE_TYPES:
            lowered = lower_case_source(
                source,
                IMAGE_TYPES,
                losses,
                at,
                provider="Gemini",
                takes="Gemini takes PNG, JPEG, WebP, HEIC and HEIF images",
            )
            if lowered is None:
                return None
            source = lowered
        elif media_type_essence(source["media_type"]) != source["media_type"]:  # parameters: the type alone
            essential = media_type_essence(source["media_type"])
            source = lower_case_source(source, (essential,), losses, at, provider="Gemini", takes="") or source
        if not is_base64(source["data"]):
            losses.add((*at, "source", "data"), "media data", "not base64: Gemini cannot read it")
            return None
        return {**restore_fields(bag), "inlineData": {"mimeType": source["media_type"], "data": source["data"]}}
    if source_type == "url":
        return _url_data(kind, source, bag, losses, at)
    if source_type == "file":
        return _file_data(kind, source, bag, losses, at)
    losses.add((*at, "source"), "text document", "Gemini has no document part; sent as text")
    return {**restore_fields(bag), "text": source["text"]}


def _url_data(
    kind: str, source: Mapping[str, Any], bag: dict[str, Any], losses: LossRecorder, at: Steps
) -> dict[str, Any] | None:
    """``fileData`` for media by URL; one in S3 is not sent (:data:`S3_WHY`)."""
    if source["url"][:5].lower() == "s3://":
        losses.add((*at, "source"), f"{kind} in S3", S3_WHY)
        return None
    if is_local_file_url(source["url"]):
        losses.add((*at, "source", "url"), "local file URL", local_file_why("Gemini"))
    file_data = {"fileUri": source["url"]}
    if source.get("media_type") is not None:
        file_data["mimeType"] = source["media_type"]
    return {**restore_fields(bag), "fileData": file_data}
