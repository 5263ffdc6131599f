"""Gemini ``videoMetadata`` <-> a canonical video part's clip (``start_offset``,
``end_offset``, ``fps``).

A video is an ``inlineData`` or ``fileData`` part of a ``video/*`` type, or a ``fileData``
part with no type whose URI is a YouTube link (the API reads those itself: "pass a YouTube
URL ... ``file_data=types.FileData(file_uri='https://www.youtube.com/watch?v=...')``",
https://ai.google.dev/gemini-api/docs/video-understanding#youtube). Beside it,
``videoMetadata`` says which clip to watch and how densely ("Set clipping intervals",
"Set a custom frame rate", same page; google-genai ``types.VideoMetadata``:
``start_offset``, ``end_offset``, ``fps``). The offsets are protobuf ``Duration`` s,
JSON strings of seconds ending in ``s`` ("1250s", "1.5s", at most nine fractional
digits); canonical holds seconds as numbers. An offset that would be written back
spelled otherwise ("1.50s"), a negative one, or another key leaves the whole
``videoMetadata`` in the part's bag, so a same-provider round trip stays exact.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from chatcodec.codec_kit import is_a_double

VIDEO_METADATA = "videoMetadata"
_DURATION = re.compile(r"\d{1,12}(\.\d{1,9})?s")
_OFFSETS = {"startOffset": "start_offset", "endOffset": "end_offset"}
_YOUTUBE = re.compile(r"https?://(www\.|m\.)?(youtube\.com|youtu\.be)/", re.IGNORECASE)


def is_youtube(uri: object) -> bool:
    """Whether ``uri`` is a YouTube link, which Gemini reads as a video with no MIME type."""
    return isinstance(uri, str) and _YOUTUBE.match(uri) is not None


def duration(seconds: float) -> str:
    """Seconds as a protobuf ``Duration`` JSON string: ``90`` -> ``"90s"``, ``1.5`` -> ``"1.5s"``."""
    text = f"{seconds:.9f}".rstrip("0").rstrip(".")
    return f"{text}s"


def take_clip(canonical: dict[str, Any], bag: dict[str, Any]) -> dict[str, Any]:
    """``canonical`` (a video part) with the clip its bag's ``videoMetadata`` gives, taken
    out of the bag when every field of it reads back the same."""
    metadata = bag.get(VIDEO_METADATA)
    if metadata.__class__ is not dict or not metadata:
        return canonical
    clip: dict[str, Any] = {}
    for key, value in metadata.items():
        if key in _OFFSETS and isinstance(value, str) and _DURATION.fullmatch(value):
            seconds = float(value[:-1])
            if duration(seconds) != value:
                return canonical
            clip[_OFFSETS[key]] = seconds
        elif key == "fps" and is_a_double(value) and value > 0:  # a double in the API; JSON may hold 10**400
            clip["fps"] = float(value)
        else:
            return canonical
    del bag[VIDEO_METADATA]
    canonical.update(clip)
    return canonical


def clip_metadata(part: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``videoMetadata`` for a canonical video part's clip, or None when it has none."""
    metadata: dict[str, Any] = {}
    for key, field in _OFFSETS.items():
        seconds = part.get(field)
        if seconds is not None:
            metadata[key] = duration(seconds)
    fps = part.get("fps")
    if fps is not None:
        metadata["fps"] = fps
    return metadata or None
