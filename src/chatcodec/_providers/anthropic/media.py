"""The media sources Anthropic takes: which base64 image types, which document sources
(a PDF, plain text, a URL, a file id), and how a canonical source is written as one. A
source Anthropic would refuse is dropped and reported (a loss), never sent to be refused,
but for two cases.

A ``file:`` URL (``file:///home/me/cat.png``) names a path on the caller's machine, which
Anthropic's servers cannot fetch. It is kept as given and reported, not dropped: a
same-format round trip stays exact (a request the provider refuses is the caller's to fix, sent as it came),
a gateway in front of the provider may resolve it (vLLM reads local files under
``--allowed-local-media-path``), and dropping it would change what the model is asked
about; the loss tells the caller to send the bytes inline (base64) instead.

A base64 image or PDF's data is sent as given, its alphabet unproved: the text is the
caller's, unchanged (a data URL of an OpenAI body is split into the same text), and proving
it cost more than the whole conversion of a session with screenshots
(:func:`chatcodec._compat.fits_a_data_url`). A payload that is not base64 is then named by
Anthropic's 400, as it would be were it sent to Anthropic directly. Only a plain-text document,
which is decoded here, is proved (:func:`_plain_text`).
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._providers.families.claude.wire_rules import report_image_detail
from chatcodec.codec_kit import is_local_file_url, local_file_why, lower_case_source, media_type_essence

if TYPE_CHECKING:
    from chatcodec.contract import LossRecorder, Steps

Part = Mapping[str, Any]
"""A canonical content part as data."""


IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
"""The base64 image types Anthropic takes (``Base64ImageSource.media_type`` in the API
reference and the SDK's types; "Supported image formats: JPEG, PNG, GIF, and WebP",
https://docs.anthropic.com/en/docs/build-with-claude/vision): a HEIC, BMP, SVG or TIFF
image is refused with a 400."""


_IMAGES_TAKEN = "Anthropic takes JPEG, PNG, GIF and WebP images only"
"""What Anthropic says of an image type it does not take (in any case)."""


def image_source(part: Part, losses: LossRecorder, at: Steps) -> Mapping[str, Any] | None:
    """The canonical source of an image part Anthropic takes, to write with
    :func:`media_source`, or None for a base64 type it refuses (a loss); a ``detail`` it has
    no field for is reported. A media type is case-insensitive (RFC 2045, section 5.1:
    ``image/JPEG`` is a JPEG) but the API takes the four lower-case names only: one in other
    case is written lower case, reported."""
    source: Mapping[str, Any] = part["source"]
    if not own_file_id(source, losses, at):
        return None
    if source["type"] == "base64" and source["media_type"] not in IMAGE_TYPES:
        lowered = lower_case_source(
            source,
            IMAGE_TYPES,
            losses,
            at,
            provider="Anthropic",
            takes="Anthropic takes JPEG, PNG, GIF and WebP images only",
        )
        if lowered is None:
            return None
        source = lowered
    detail = part.get("detail")
    if detail is not None:
        report_image_detail(detail, losses, at, "Anthropic")
    return source


def own_file_id(source: Mapping[str, Any], losses: LossRecorder, at: Steps) -> bool:
    """Whether a source is not a file id Anthropic could have given: its Files API ids are
    tokens (``file_011CNha8iCJcU1wXNR6q4V8w``, https://platform.claude.com/docs/en/build-with-claude/files),
    never a URI or a path. Gemini names an upload by its URI or ``files/<id>``; sent as a
    ``file_id`` it is refused, so it is reported, not sent."""
    if source["type"] != "file" or "/" not in source["file_id"]:
        return True
    why = "a URI or storage path (another provider's upload), not an Anthropic file id; not sent"
    losses.add((*at, "source", "file_id"), "file id", why)
    return False


PDF = "application/pdf"
PLAIN_TEXT_TYPE = "text/plain"


def document_source(source: Mapping[str, Any], losses: LossRecorder, at: Steps) -> dict[str, Any] | None:
    """The document source Anthropic takes (``Base64PDFSource``, ``PlainTextSource``,
    ``URLPDFSource``, ``FileDocumentSource`` in the API reference and SDK types): base64
    only as a PDF, text only as ``text/plain``. Base64 plain text is sent as the text it
    encodes (the same bytes, so nothing changes); any other base64 document would be
    rejected, so it is dropped and reported."""
    kind = source["type"]
    if not own_file_id(source, losses, at):
        return None
    if kind == "base64" and source["media_type"] != PDF:
        essential = media_type_essence(source["media_type"])
        if essential == PDF:  # a PDF spelt with parameters or capitals: sent as the type alone, reported
            pdf = lower_case_source(source, (PDF,), losses, at, provider="Anthropic", takes="")
            return media_source(pdf or source, losses, at)
        text = _plain_text(source["data"]) if essential == PLAIN_TEXT_TYPE else None
        if text is not None:
            return {"type": "text", "media_type": PLAIN_TEXT_TYPE, "data": text}
        why = "Anthropic takes base64 documents as PDF only (plain text as UTF-8 text)"
        losses.add(at, f"document of type {source['media_type']}", why)
        return None
    media_type = source.get("media_type", PLAIN_TEXT_TYPE)
    if kind == "text" and media_type != PLAIN_TEXT_TYPE:
        why = "Anthropic text documents are text/plain; sent as that"
        losses.add((*at, "source", "media_type"), f"media type {media_type}", why)
        return {"type": "text", "media_type": PLAIN_TEXT_TYPE, "data": source["text"]}
    return media_source(source, losses, at)


def _plain_text(data: str) -> str | None:
    """The UTF-8 text base64 ``data`` encodes, or None when it is not that (bad base64,
    other bytes)."""
    try:
        return base64.b64decode(data, validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None


def media_source(source: Mapping[str, Any], losses: LossRecorder, at: Steps) -> dict[str, Any]:
    """The wire ``source`` of a canonical media source: base64, text, a URL or a file id
    (a URL or file source has no media type: one given is reported)."""
    kind = source["type"]
    if kind == "base64":
        return {"type": "base64", "media_type": source["media_type"], "data": source["data"]}
    if kind == "text":
        return {"type": "text", "media_type": source.get("media_type", PLAIN_TEXT_TYPE), "data": source["text"]}
    if kind == "url":
        wire = {"type": "url", "url": source["url"]}
        if is_local_file_url(source["url"]):
            losses.add((*at, "source", "url"), "local file URL", local_file_why("Anthropic"))
    else:
        wire = {"type": "file", "file_id": source["file_id"]}
    if source.get("media_type") is not None:
        losses.add((*at, "source", "media_type"), "media type", f"Anthropic {kind} sources have none")
    return wire
