"""``image`` and ``video`` blocks and their sources <-> canonical media parts, for both
Bedrock block bodies (Converse's ``ImageBlock`` / ``VideoBlock`` and Nova's are one shape:
a ``format`` and a ``source`` union of ``bytes`` or ``s3Location``;
https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ImageBlock.html,
https://docs.aws.amazon.com/nova/latest/userguide/modalities-image.html).

A source is ``bytes`` (base64 text in the JSON form, in Converse's and in Nova's
InvokeModel body alike) or an ``s3Location`` (a canonical URL ``s3://...``; its
``bucketOwner``, the account that owns a bucket of another account, in the part's bag as
``_bucket_owner``). Bedrock fetches no ``http(s)`` URL and has no file ids
(ValidationException; botocore ``ImageSource`` has no such member), so such a source is a
loss and the part is not sent; base64 that is not standard (a botocore blob) is one too.

A video's format is a media type canonically, by its registered name (``mov`` is
``video/quicktime``, ``three_gp`` ``video/3gpp``); the names other providers use for a
format (Gemini's ``video/mov``, ``video/wmv``, ``video/mpg``) are written as that format
too. ``mpg`` shares ``video/mpeg`` with ``mpeg``, so the decoder keeps a format the media
type does not give back in the ``_format`` marker. A video block has no clip: a part's
``start_offset``, ``end_offset`` and ``fps`` are reported when dropped.

A body's own bag and names come from its :class:`~.body.Body` (:class:`Media`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._compat import media_type_essence
from chatcodec._narrow import as_dict
from chatcodec._providers.contract.context import EncodeContext
from chatcodec._providers.families.aws.blobs import is_base64
from chatcodec._providers.families.aws.blocks import IMAGE_TYPES, VIDEO_TYPES
from chatcodec._providers.families.aws.body import Body
from chatcodec.codec_kit import leftovers, restore_fields
from chatcodec.contract import Steps

BUCKET_OWNER = "_bucket_owner"
"""Marker: a media source's ``s3Location.bucketOwner``."""
FORMAT = "_format"
"""Marker: the wire format, when the media type reads back as another name."""

IMAGE_FORMATS = {media: name for name, media in IMAGE_TYPES.items()} | {"image/jpg": "jpeg"}
"""Media type -> image ``format``."""
VIDEO_FORMATS = {
    **{media: name for name, media in VIDEO_TYPES.items() if name != "mpg"},
    "video/matroska": "mkv",
    "video/mov": "mov",
    "video/mpg": "mpg",
    "video/wmv": "wmv",
    "video/x-ms-asf": "wmv",
    "video/3gp": "three_gp",
}
"""Media type -> video ``format``: the registered names, and the ones Gemini's video list
uses (https://ai.google.dev/gemini-api/docs/video-understanding#supported-formats)."""
CLIP = ("start_offset", "end_offset", "fps")

URL_WHY = "Bedrock takes media only as bytes or an S3 location; it fetches no URL, so it was not sent"
"""Why media by an ``http(s)`` URL is not sent (a loss)."""


def bucket_owner(source: Mapping[str, Any]) -> str | None:
    """The ``bucketOwner`` of an ``s3Location`` source, for the part's bag."""
    location = as_dict(source.get("s3Location"))
    owner = location.get("bucketOwner") if location is not None else None
    return owner if isinstance(owner, str) else None


def with_owner(bag: dict[str, Any], source: Mapping[str, Any]) -> dict[str, Any]:
    """``bag`` with the source's bucket owner, when it has one."""
    owner = bucket_owner(source)
    if owner is not None:
        bag[BUCKET_OWNER] = owner
    return bag


def decode_source(source: Mapping[str, Any], media_type: str | None) -> dict[str, Any] | None:
    """The canonical source for a ``bytes`` or ``s3Location`` source (None: canonical has no
    source for it, and the block is kept whole); a ``bucketOwner`` is the caller's to keep
    (:func:`with_owner`)."""
    if len(source) != 1:
        return None
    data = source.get("bytes")
    if isinstance(data, str) and media_type is not None:
        return {"type": "base64", "media_type": media_type, "data": data}
    location: Any = source.get("s3Location")
    if location.__class__ is dict and location.keys() <= {"uri", "bucketOwner"} and _url(location.get("uri", "")):
        if not isinstance(location.get("bucketOwner", ""), str):
            return None
        url: dict[str, Any] = {"type": "url", "url": location["uri"]}
        if media_type is not None:
            url["media_type"] = media_type
        return url
    return None


def _url(uri: object) -> bool:
    """Whether canonical holds ``uri`` as a URL: a string, not empty, and no lone surrogate
    (valid JSON, not Unicode); a source with another one is kept whole, in its block."""
    if not isinstance(uri, str):
        return False
    if uri.isascii():
        return bool(uri)
    try:
        uri.encode()
    except UnicodeEncodeError:
        return False
    return True


def encode_source(
    source: Mapping[str, Any], what: str, context: EncodeContext, at: Steps, owner: object = None
) -> dict[str, Any] | None:
    """The wire source for a canonical one (an S3 location with the bucket ``owner`` the
    part's bag keeps); None when Bedrock cannot take it (a loss). A ``text`` source (a
    document's) is written as it is."""
    kind = source["type"]
    if kind == "base64":
        if is_base64(source["data"]):
            return {"bytes": source["data"]}
        context.losses.add((*at, "source", "data"), f"{what} data", "not standard base64 (Bedrock bytes)")
    elif kind == "url":
        if source["url"].startswith("s3://"):
            if isinstance(owner, str):
                return {"s3Location": {"uri": source["url"], "bucketOwner": owner}}
            return {"s3Location": {"uri": source["url"]}}
        context.losses.add((*at, "source"), f"{what} by URL", URL_WHY)
    elif kind == "file":
        context.losses.add((*at, "source"), f"{what} by file id", "Bedrock has no file ids; not sent")
    else:
        return {"text": source["text"]}
    return None


def media_format(
    media_type: str | None, formats: Mapping[str, str], what: str, context: EncodeContext, at: Steps
) -> str | None:
    """The wire ``format`` for a media type, known by its essence (None: Bedrock takes no such
    media, reported); parameters the format has no place for are reported."""
    essential = media_type_essence(media_type or "")
    found = formats.get(essential)
    if found is None:
        context.losses.add((*at, "source", "media_type"), f"{what} of type {media_type!r}", "Bedrock does not take it")
    elif media_type is not None and ";" in media_type:
        why = f"a Bedrock block names its format alone ({found}); the parameters are not sent"
        context.losses.add((*at, "source", "media_type"), f"media type {media_type}", why)
    return found


class Media:
    """One body's image and video reader and writer (its :class:`Body`: the kit whose bag a
    part's leftover fields and bucket owner go in)."""

    __slots__ = ("body",)

    def __init__(self, body: Body) -> None:
        self.body = body

    def part_bag(self, part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
        """The body's own bag on a part being written (another provider's reported as lost)."""
        metadata = part.get("provider_metadata")
        return self.body.kit.claim(context.losses, metadata, at) if metadata else {}

    @staticmethod
    def takes_video(media_type: object) -> bool:
        """Whether ``media_type`` is a video type a ``video`` block takes (in any case)."""
        return isinstance(media_type, str) and media_type_essence(media_type) in VIDEO_FORMATS

    def owner_of(self, part: Mapping[str, Any]) -> object:
        """The bucket owner a part's bag keeps, this body's or its sibling's (None when
        neither keeps one)."""
        metadata = part.get("provider_metadata")
        return self.body.marker(metadata, BUCKET_OWNER) if metadata else None

    def decode_image(self, image: Mapping[str, Any]) -> dict[str, Any] | None:
        """An ``ImageBlock`` as an image part (None: kept whole)."""
        wire_format = image.get("format")
        media_type = IMAGE_TYPES.get(wire_format) if isinstance(wire_format, str) else None
        source = as_dict(image.get("source"))
        decoded = decode_source(source, media_type) if source is not None else None
        if media_type is None or source is None or decoded is None:
            return None
        part = {"type": "image", "source": decoded}
        if len(image) == 2 and bucket_owner(source) is None:
            return part
        return self.body.kit.attach(part, with_owner(leftovers(image, ("format", "source")), source))

    def encode_image(self, part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
        """The ``image`` block for an image part; None when Bedrock cannot take it (a loss)."""
        detail = part.get("detail")
        if detail is not None and detail != "auto":
            context.losses.add((*at, "detail"), f"image detail {detail!r}", "Bedrock has no resolution hint")
        source = part["source"]
        wire_source = encode_source(source, "image", context, at, self.owner_of(part))
        if wire_source is None:
            return None
        image_format = media_format(source.get("media_type"), IMAGE_FORMATS, "image", context, at)
        if image_format is None:
            return None
        bag = self.part_bag(part, context, at)
        image = restore_fields(bag) if bag else {}
        image["format"] = image_format
        image["source"] = wire_source
        return {"image": image}

    def decode_video(self, video: Mapping[str, Any]) -> dict[str, Any] | None:
        """The canonical video part for a ``VideoBlock``; None when canonical cannot hold it
        (the block is then kept opaque)."""
        wire_format = video.get("format")
        source = as_dict(video.get("source"))
        media_type = VIDEO_TYPES.get(wire_format) if isinstance(wire_format, str) else None
        if media_type is None or source is None:
            return None
        canonical_source = decode_source(source, media_type)
        if canonical_source is None:
            return None
        bag = with_owner(leftovers(video, ("format", "source")), source)
        if VIDEO_FORMATS.get(media_type) != wire_format:
            bag[FORMAT] = wire_format
        return self.body.kit.attach({"type": "video", "source": canonical_source}, bag)

    def encode_video(
        self, part: Mapping[str, Any], bag: dict[str, Any], context: EncodeContext, at: Steps
    ) -> dict[str, Any] | None:
        """A ``video`` block for a video part (canonical data, its body's ``bag`` claimed);
        None when its format or source is not one Bedrock takes (reported)."""
        source = part["source"]
        wire_source = encode_source(source, "video", context, at, self.owner_of(part))
        if wire_source is None:
            return None
        media_type = source.get("media_type")
        kept = bag.get(FORMAT)
        lowered = media_type_essence(media_type or "")
        same_type = isinstance(kept, str) and VIDEO_TYPES.get(kept) == lowered
        wire_format = kept if same_type else VIDEO_FORMATS.get(lowered)
        if wire_format is None:
            why = f"Bedrock takes {', '.join(VIDEO_TYPES)}"
            context.losses.add((*at, "source", "media_type"), f"video of type {media_type!r}", why)
            return None
        for field in CLIP:
            if part.get(field) is not None:
                context.losses.add((*at, field), f"video {field}", "a Bedrock video block has no clip or frame rate")
        return {"video": {**restore_fields(bag), "format": wire_format, "source": wire_source}}
