"""Bedrock ``audio`` blocks <-> canonical audio parts (a body that lacks them, Nova's, keeps
them whole and reports an audio part: :attr:`~.body.Body.lacks`).

botocore's ``bedrock-runtime`` model has ``ContentBlock.audio`` (``AudioBlock``: a
``format`` of ``AudioFormat`` and a ``source`` union of ``bytes`` or ``s3Location``, as
an image has; https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_AudioBlock.html).
The format is a media type canonically: ``mp3`` is ``audio/mpeg`` as OpenAI's is, the
rest ``audio/<format>``. Two formats share a media type with another (``mpeg`` with
``mp3``), so the decoder keeps a format the media type does not give back in the
``_format`` marker, and a same-provider round trip writes it as it came.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._compat import audio_format_from_media_type, media_type_for_audio_format
from chatcodec._narrow import as_dict
from chatcodec._providers.contract.context import EncodeContext
from chatcodec._providers.families.aws.body import Body
from chatcodec._providers.families.aws.media import BUCKET_OWNER, FORMAT, decode_source, encode_source
from chatcodec.codec_kit import leftovers, restore_fields
from chatcodec.contract import Steps

AUDIO_FORMATS = frozenset(
    {"mp3", "opus", "wav", "aac", "flac", "mp4", "ogg", "mkv", "mka", "x-aac", "m4a", "mpeg", "mpga", "pcm", "webm"}
)
"""botocore ``AudioFormat``."""
_ALIASES = {"audio/mp3": "mp3", "audio/x-wav": "wav", "audio/wave": "wav", "audio/x-flac": "flac", "audio/x-m4a": "m4a"}
"""Media types other providers and browsers use for a format (Gemini's ``audio/mp3``)."""


def decode_audio(body: Body, audio: Mapping[str, Any]) -> dict[str, Any] | None:
    """The canonical audio part for an ``AudioBlock``; None when canonical cannot hold it
    (the block is then kept opaque)."""
    wire_format = audio.get("format")
    if wire_format not in AUDIO_FORMATS or not isinstance(audio.get("source"), dict):
        return None
    media_type = media_type_for_audio_format(wire_format)
    source = decode_source(audio["source"], media_type)
    if source is None:
        return None
    bag = leftovers(audio, ("format", "source"))
    owner = as_dict(audio["source"].get("s3Location"))
    if owner is not None and isinstance(owner.get("bucketOwner"), str):
        bag[BUCKET_OWNER] = owner["bucketOwner"]
    if _format(media_type) != wire_format:
        bag[FORMAT] = wire_format
    return body.kit.attach({"type": "audio", "source": source}, bag)


def _format(media_type: str | None) -> str | None:
    lowered = (media_type or "").lower()
    found = _ALIASES.get(lowered) or audio_format_from_media_type(lowered)
    return found if found in AUDIO_FORMATS else None


def encode_audio(
    part: Mapping[str, Any], bag: dict[str, Any], context: EncodeContext, at: Steps
) -> dict[str, Any] | None:
    """An ``audio`` block for an audio part (canonical data); None when its format or
    source is not one Bedrock takes (reported)."""
    source = part["source"]
    wire_source = encode_source(source, "audio", context, at, bag.get(BUCKET_OWNER))
    if wire_source is None:
        return None
    media_type = source.get("media_type")
    kept = bag.get(FORMAT)
    same_type = isinstance(kept, str) and media_type_for_audio_format(kept) == media_type
    wire_format = kept if same_type and kept in AUDIO_FORMATS else _format(media_type)
    if wire_format is None:
        context.losses.add((*at, "source", "media_type"), f"audio of type {media_type!r}", "Bedrock does not take it")
        return None
    return {"audio": {**restore_fields(bag), "format": wire_format, "source": wire_source}}
