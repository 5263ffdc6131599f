"""A ``BinaryContent``'s ``data`` <-> canonical base64 text.

pydantic-ai's ``ModelMessagesTypeAdapter`` dumps ``BinaryContent.data`` (bytes) as pydantic's
JSON base64 (``ser_json_bytes="base64"``), which is the URL-safe alphabet with padding
(``-`` and ``_`` for ``+`` and ``/``: ``BinaryContent(b"\\xfb\\xff")`` dumps as ``"-_8="``),
and loads either alphabet, padded or not. A data URL, Anthropic's ``source.data``, Gemini's
``inlineData`` and an AI SDK file take the standard alphabet, so canonical data holds the
standard alphabet, padded: read here from what pydantic-ai stored, and written back in the
alphabet pydantic-ai writes. A text pydantic-ai would not have written (the standard
alphabet, no padding) is marked so a same-format round trip gives it back as it was:
``_standard_alphabet`` and ``_unpadded``, pure spelling (the bytes are the same).
"""

from __future__ import annotations

from typing import Any

_TO_STANDARD = bytes.maketrans(b"-_", b"+/")
_TO_URL_SAFE = bytes.maketrans(b"+/", b"-_")

STANDARD = "_standard_alphabet"
"""Marker: the stored text used ``+`` and ``/`` (written back so, not URL-safe)."""
UNPADDED = "_unpadded"
"""Marker: the stored text had no ``=`` padding (written back without it)."""


def read_data(data: str) -> tuple[str, dict[str, Any]]:
    """The standard base64 of a stored ``data`` text, and the markers that write it back as
    it came. A text that is no ASCII is no base64 of either alphabet: kept as it is."""
    if not data.isascii():
        return data, {}
    markers: dict[str, Any] = {}
    standard = data
    if "-" in data or "_" in data:
        standard = data.encode("ascii").translate(_TO_STANDARD).decode("ascii")
    elif "+" in data or "/" in data:
        markers[STANDARD] = True
    missing = -len(standard) % 4
    if missing in (1, 2):  # pydantic reads unpadded text; a remainder of 1 (3 missing) is no base64
        standard += "=" * missing
        markers[UNPADDED] = True
    return standard, markers


def write_data(data: str, bag: dict[str, Any]) -> str:
    """Canonical base64 ``data`` as pydantic-ai stores it (URL-safe, padded), or as the text
    read had it (the markers, popped from ``bag``)."""
    written = data
    if not bag.pop(STANDARD, None) and ("+" in data or "/" in data) and data.isascii():
        written = data.encode("ascii").translate(_TO_URL_SAFE).decode("ascii")
    if bag.pop(UNPADDED, None):
        written = written.rstrip("=")
    return written
