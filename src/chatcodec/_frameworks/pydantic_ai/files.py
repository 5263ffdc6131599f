"""A ``FilePart`` (a file the model generated, in a ``ModelResponse``) <-> an assistant's image
or audio part.

pydantic-ai keeps what a model generates beside its text (an image from Gemini or from the
Responses API's image generation, audio) as ``FilePart(content=BinaryContent(...))``, with the
part's own ``id``, ``provider_name`` and ``provider_details``
(https://ai.pydantic.dev/api/messages/#pydantic_ai.messages.FilePart). Canonical assistant
content holds images and audio, so a ``FilePart`` of either is that part (its bytes read as any
``BinaryContent``'s, :mod:`.content`), its own fields kept in the part's bag under
``file_part`` (``_file_part`` when they hold only spelling: the nulls pydantic-ai dumps); a file
of another kind (a PDF, a video) stays an opaque part of this format. A Gemini thought
signature in its ``provider_details`` (pydantic-ai's Google model keeps a generated image's
there, and Gemini wants it back on the image to edit it) goes to the part's ``gemini`` bag, as
a text part's does (:mod:`.response_parts`). An image or audio part of
an assistant message from another format is written as a ``FilePart``; a ``FilePart`` holds
bytes, so one given by URL or file id is reported, not written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.pydantic_ai.content import decode_item, encode_media
from chatcodec._frameworks.pydantic_ai.markers import PROVIDER
from chatcodec._providers.families.google.thought_signatures import attach_signature
from chatcodec.codec_kit import as_dict, restore_fields, split_fields
from chatcodec.contract import EncodeContext, Steps

DETAILS_SIGNATURE = "thought_signature"
"""Where pydantic-ai keeps a Gemini thought signature (``provider_details``)."""

KINDS = ("image", "audio")
"""The canonical parts an assistant message holds that a ``FilePart`` stands for."""

_ENVELOPE = ("file_part", "_file_part")
"""The bag keys of a ``FilePart``'s own fields: with data, and with spelling only."""


def decode_file(part: Mapping[str, Any]) -> dict[str, Any] | None:
    """A ``FilePart`` as an image or audio part; None for one canonical assistant content has
    no part for (kept opaque by the caller)."""
    content = as_dict(part.get("content"))
    if content is None or content.get("kind") != "binary":
        return None
    media = decode_item(content)
    if media["type"] not in KINDS:
        return None
    envelope = split_fields(part, ("content", "part_kind"))
    signature = _take_signature(envelope)
    if envelope:
        data = any(not key.startswith("_") for key in envelope)
        own = media.setdefault("provider_metadata", {}).setdefault(PROVIDER, {})
        own[_ENVELOPE[0] if data else _ENVELOPE[1]] = envelope
    return attach_signature(media, signature) if signature is not None else media


def _take_signature(envelope: dict[str, Any]) -> str | None:
    """The Gemini thought signature in a ``FilePart``'s ``provider_details`` (where
    pydantic-ai's Google model keeps an image's), taken out of ``envelope``."""
    details = as_dict(envelope.get("provider_details"))
    signature = details.get(DETAILS_SIGNATURE) if details is not None else None
    if details is None or not isinstance(signature, str):
        return None
    rest = {key: value for key, value in details.items() if key != DETAILS_SIGNATURE}
    if rest:
        envelope["provider_details"] = rest
    else:
        del envelope["provider_details"]
    return signature


def encode_file(
    part: Mapping[str, Any], bag: dict[str, Any], context: EncodeContext, at: Steps
) -> dict[str, Any] | None:
    """An assistant's image or audio part (its bag claimed) as a ``FilePart``; None, reported,
    for one not given as bytes."""
    kept = [as_dict(bag.pop(key, None)) for key in _ENVELOPE]
    envelope = kept[0] or kept[1] or {}
    kind = part["source"]["type"]
    if kind != "base64":
        why = f"a pydantic-ai FilePart holds bytes: a {kind} source is not written"
        context.losses.add((*at, "source"), f"generated {part['type']}", why)
        return None
    content = encode_media(part, bag, context, at)
    if content is None:
        return None
    return {**restore_fields(envelope), "content": content, "part_kind": "file"}
