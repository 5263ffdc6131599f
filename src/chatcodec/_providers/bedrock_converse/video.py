"""Bedrock Converse ``video`` blocks <-> canonical video parts.

botocore's ``bedrock-runtime`` model has ``ContentBlock.video`` and
``ToolResultContentBlock.video`` (``VideoBlock``: a ``format`` of ``VideoFormat`` and a
``source`` union of ``bytes`` or ``s3Location``, as an image has;
https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_VideoBlock.html).
The format is a media type canonically, by its registered name (``mov`` is
``video/quicktime``, ``three_gp`` ``video/3gpp``); the names other providers use for a
format (Gemini's ``video/mov``, ``video/wmv``, ``video/mpg``) are written as that format
too. ``mpg`` shares ``video/mpeg`` with ``mpeg``, so the decoder keeps a format the media
type does not give back in the ``_format`` marker, as for audio. A video block has no
clip: a part's ``start_offset``, ``end_offset`` and ``fps`` are reported when dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._narrow import as_dict
from chatcodec._providers.bedrock_converse.audio import FORMAT, SourceReader, SourceWriter
from chatcodec._providers.bedrock_converse.context import BedrockContext
from chatcodec._providers.bedrock_converse.markers import BUCKET_OWNER, KIT
from chatcodec._providers.families.aws.blocks import VIDEO_TYPES
from chatcodec._providers.kit import Steps, leftovers, restore_fields

_FORMATS = {
    **{media: name for name, media in VIDEO_TYPES.items() if name != "mpg"},
    "video/matroska": "mkv",
    "video/mov": "mov",
    "video/mpg": "mpg",
    "video/wmv": "wmv",
    "video/x-ms-asf": "wmv",
    "video/3gp": "three_gp",
}
"""Media type -> format: the registered names, and the ones Gemini's video list uses
(https://ai.google.dev/gemini-api/docs/video-understanding#supported-formats)."""

CLIP = ("start_offset", "end_offset", "fps")


def decode_video(video: Mapping[str, Any], read_source: SourceReader) -> dict[str, Any] | None:
    """The canonical video part for a ``VideoBlock``; None when canonical cannot hold it
    (the block is then kept opaque)."""
    wire_format = video.get("format")
    source = as_dict(video.get("source"))
    media_type = VIDEO_TYPES.get(wire_format) if isinstance(wire_format, str) else None
    if media_type is None or source is None:
        return None
    canonical_source = read_source(source, media_type)
    if canonical_source is None:
        return None
    bag = leftovers(video, ("format", "source"))
    location = as_dict(source.get("s3Location"))
    if location is not None and isinstance(location.get("bucketOwner"), str):
        bag[BUCKET_OWNER] = location["bucketOwner"]
    if _FORMATS.get(media_type) != wire_format:
        bag[FORMAT] = wire_format
    return KIT.attach({"type": "video", "source": canonical_source}, bag)


def encode_video(
    part: Mapping[str, Any], bag: dict[str, Any], write_source: SourceWriter, context: BedrockContext, at: Steps
) -> dict[str, Any] | None:
    """A ``video`` block for a video part (canonical data); None when its format or source
    is not one Bedrock takes (reported)."""
    source = part["source"]
    wire_source = write_source(source, "video", context, at, bag.get(BUCKET_OWNER))
    if wire_source is None:
        return None
    media_type = source.get("media_type")
    kept = bag.get(FORMAT)
    lowered = (media_type or "").lower()
    same_type = isinstance(kept, str) and VIDEO_TYPES.get(kept) == lowered
    wire_format = kept if same_type else _FORMATS.get(lowered)
    if wire_format is None:
        why = f"Bedrock takes {', '.join(VIDEO_TYPES)}"
        context.losses.add((*at, "source", "media_type"), f"video of type {media_type!r}", why)
        return None
    for field in CLIP:
        if part.get(field) is not None:
            context.losses.add((*at, field), f"video {field}", "a Bedrock video block has no clip or frame rate")
    return {"video": {**restore_fields(bag), "format": wire_format, "source": wire_source}}
