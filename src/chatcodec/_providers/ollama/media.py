"""Images, which Ollama takes as bare base64 strings in a message's ``images`` list.

The wire names no media type (``api.ImageData`` is raw bytes, base64 in JSON), while a
canonical base64 source must have one, so the decoder reads it from the image's first
bytes, as the server's image decoders do: PNG, JPEG, GIF, WebP and BMP by their
signatures, anything else ``application/octet-stream``. Encoding writes the base64 text
only: a canonical image whose media type is not the one its bytes show is reported, as
reading it back would name the other type. URL and file-id images cannot be sent (the
server fetches nothing), nor can audio or documents.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any

from chatcodec.contract import LossRecorder, Steps

UNKNOWN_MEDIA_TYPE = "application/octet-stream"
"""The media type of an image whose bytes match no signature known here."""

_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"BM", "image/bmp"),
)


def media_type_of(data: str) -> str:
    """The media type the image's first bytes show (:data:`UNKNOWN_MEDIA_TYPE` for none)."""
    head = _head(data)
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    for signature, media_type in _SIGNATURES:
        if head.startswith(signature):
            return media_type
    return UNKNOWN_MEDIA_TYPE


def _head(data: str) -> bytes:
    """The first bytes of base64 ``data`` (standard or URL-safe), or ``b""``."""
    text = data[:16]
    try:
        return base64.b64decode(text.replace("-", "+").replace("_", "/") + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return b""


def decode_image(data: str) -> dict[str, Any]:
    """A canonical image part for one entry of ``images``."""
    return {"type": "image", "source": {"type": "base64", "media_type": media_type_of(data), "data": data}}


def encode_image(part: Mapping[str, Any], losses: LossRecorder, at: Steps) -> str | None:
    """The ``images`` entry for a canonical image part (None, reported: it cannot be sent)."""
    source: Mapping[str, Any] = part["source"]
    if source.get("type") != "base64":
        losses.add(at, f"{source.get('type')} image", "Ollama takes images as base64 only")
        return None
    data: str = source["data"]
    shown = media_type_of(data)
    if source.get("media_type") != shown:
        why = f"Ollama images carry no media type; read back as {shown!r} from the bytes"
        losses.add((*at, "source", "media_type"), f"media type {source.get('media_type')!r}", why, "metadata")
    if part.get("detail") is not None:
        losses.add((*at, "detail"), "image detail", "Ollama images have no detail setting", "setting")
    return data
