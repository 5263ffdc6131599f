"""An image's width and height, read from the header of its bytes (PNG, JPEG, WebP, GIF).

An engine expands a vision model's image placeholder to a count of tokens fixed by the image's
size (:mod:`.image_grids`), so a rendering that is token-exact needs the size of every image it
holds. The size is in the first bytes of each format these models read; reading it here keeps
the core free of an imaging library (PIL opens the same headers: ``Image.open(...).size``). A
JPEG's EXIF orientation is not applied, as vLLM's loader applies none (``Image.open`` in
``vllm/multimodal/media/image.py``); transformers' ``load_image`` turns a photo stored sideways
(orientations 5 to 8) upright, so a trainer loading one that way sees its sides swapped.
"""

from __future__ import annotations

import base64
import binascii
import struct

_PNG = b"\x89PNG\r\n\x1a\n"
_GIFS = (b"GIF87a", b"GIF89a")
_JPEG = b"\xff\xd8"
_HEAD = 4096
"""How many characters of a base64 text are decoded first: every header but a JPEG's
(whose frame header may follow a large EXIF segment) is within them."""

_JPEG_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
"""The JPEG markers that open a frame header (SOF0-SOF15; 0xC4, 0xC8 and 0xCC are the
Huffman table, a reserved extension and the arithmetic coding table: ITU-T T.81, table B.1)."""
_JPEG_BARE = frozenset({0x01, *range(0xD0, 0xD8)})
"""The JPEG markers with no length after them (TEM, RST0-RST7)."""


def image_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` of a PNG, JPEG, WebP or GIF image, read from its header; None for
    any other bytes (or a header cut short)."""
    if data.startswith(_PNG) and data[12:16] == b"IHDR" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return _positive(width, height)
    if data[:6] in _GIFS and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return _positive(width, height)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp_size(data)
    if data.startswith(_JPEG):
        return _jpeg_size(data)
    return None


def base64_image_size(text: str) -> tuple[int, int] | None:
    """``(width, height)`` of the image a base64 text holds (standard or URL-safe alphabet);
    None where the text is no image this reads. Only the head is decoded, unless the image is
    a JPEG whose frame header lies past it."""
    head = _decoded(text[:_HEAD])
    if head is None:
        return None
    found = image_size(head)
    if found is None and head.startswith(_JPEG) and len(text) > _HEAD:
        whole = _decoded(text)
        return None if whole is None else image_size(whole)
    return found


def _decoded(text: str) -> bytes | None:
    cut = "".join(text.split())  # a MIME line-wrapped text's breaks
    cut = cut[: len(cut) - len(cut) % 4]  # a head cut anywhere: whole groups of four only
    try:
        if "-" in cut or "_" in cut:
            return base64.urlsafe_b64decode(cut)
        return base64.b64decode(cut, validate=False)
    except (binascii.Error, ValueError):
        return None


def _positive(width: int, height: int) -> tuple[int, int] | None:
    return (width, height) if width > 0 and height > 0 else None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    """A WebP's canvas: its ``VP8X`` extended header, else its one frame's (``VP8 `` lossy or
    ``VP8L`` lossless), as the WebP container specification (RFC 9649) lays them out."""
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return _positive(width, height)
    if chunk == b"VP8 " and len(data) >= 30 and data[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", data[26:30])
        return _positive(width & 0x3FFF, height & 0x3FFF)
    if chunk == b"VP8L" and len(data) >= 25 and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return _positive((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """A JPEG's size from its first frame header, walking the segments from the start."""
    position = 2
    while position + 4 <= len(data):
        if data[position] != 0xFF:
            return None
        marker = data[position + 1]
        if marker == 0xFF:  # a fill byte before the marker
            position += 1
            continue
        if marker in _JPEG_BARE:
            position += 2
            continue
        length = int.from_bytes(data[position + 2 : position + 4], "big")
        if marker in _JPEG_FRAMES:
            if position + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[position + 5 : position + 9])
            return _positive(width, height)
        if length < 2:
            return None
        position += 2 + length
    return None
