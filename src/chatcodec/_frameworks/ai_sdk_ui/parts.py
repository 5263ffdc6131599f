"""``UIMessage`` parts other than tools <-> canonical content parts.

``text`` and ``reasoning`` (its ``providerMetadata`` giving Anthropic's signature or redacted
data and Gemini's thought signature, :mod:`..ai_sdk.provider_options`) and ``file`` (a ``url``,
often a ``data:`` URL, and a ``mediaType`` picking the canonical media part) have a canonical
home. ``source-url``, ``source-document``, an app's ``data-*`` parts and any other part are
kept whole as opaque parts of this format, which another format reports. Tool parts are
:mod:`.tool_parts`; ``step-start`` parts are markers (:mod:`.messages`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.ai_sdk import bags
from chatcodec._frameworks.ai_sdk.bags import UNKEPT, write_options
from chatcodec._frameworks.ai_sdk.media import data_of, kind_of, media_type_of, source_of, spelt, url_type, writes_data
from chatcodec._frameworks.ai_sdk_ui.markers import KIT, METADATA, PROVIDER
from chatcodec.codec_kit import wire_fields
from chatcodec.contract import EncodeContext, Steps


def finish(
    canonical: dict[str, Any], wire: Mapping[str, Any], mapped: tuple[str, ...], **markers: Any
) -> dict[str, Any]:
    """``canonical`` with its ``providerMetadata`` read and its bag attached (:func:`..ai_sdk.bags.finish`)."""
    return bags.finish(KIT, canonical, wire, mapped, key=METADATA, markers=markers)


def decode_part(part: dict[str, Any]) -> dict[str, Any]:
    """One UI part (not a tool part) as a canonical part."""
    kind = part.get("type")
    if kind in ("text", "reasoning") and isinstance(part.get("text"), str):
        canonical = {"type": "text" if kind == "text" else "thinking", "text": part["text"]}
        return finish(canonical, part, ("type", "text", "state"), state=part.get("state"))
    if kind == "file" and isinstance(part.get("url"), str) and isinstance(part.get("mediaType"), str):
        media_type: str = part["mediaType"]
        media: dict[str, Any] = {
            "type": kind_of(media_type),
            "source": source_of(part["url"], media_type, data_urls=True),
        }
        mapped: tuple[str, ...] = ("type", "url", *spelt(media_type))
        if media["type"] == "document" and isinstance(part.get("filename"), str):
            media["filename"], mapped = part["filename"], (*mapped, "filename")
        return finish(media, part, mapped, url_type=url_type(part["url"], media["source"]))
    return {"type": "opaque", "provider": PROVIDER, "data": part}


def encode_part(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """One canonical part (not a call) as a UI part; None (with a loss) for one a UI message has no part for."""
    metadata, carried = bags.from_sibling(part.get("provider_metadata"), PROVIDER, part["type"])
    bag = bags.claim(KIT, context.losses, metadata, at)
    for key, value in carried.items():
        bag.setdefault(key, value)
    kept = bag.pop(METADATA, UNKEPT)
    kind = part["type"]
    if kind == "opaque":
        if part["provider"] == PROVIDER:
            return dict(part["data"])
        context.losses.add(at, f"{part['provider']} block", "a UIMessage has no part for another format's block")
        return None
    if kind in ("text", "refusal", "thinking"):
        if kind == "refusal":
            context.losses.add(at, "refusal part", "a UIMessage has no refusal part; written as text")
        wire: dict[str, Any] = {"type": "reasoning" if kind == "thinking" else "text", "text": part.get("text", "")}
        state = bag.pop("_state", None)
        if state is not None:
            wire["state"] = state
    elif kind in ("image", "audio", "video", "document"):
        media_type = media_type_of(part, context, at) if writes_data(part) else None
        url = data_of(part, context, at, as_data_url=True, spelt_type=bag.pop("_url_type", None), media_type=media_type)
        if url is None:
            return None
        for key in ("detail", "title", "start_offset", "end_offset", "fps"):
            if part.get(key) is not None:
                context.losses.add((*at, key), key, f"a UIMessage file part has no {key}")
        wire = {"type": "file", "mediaType": media_type, "url": url}
        if part.get("filename") is not None:
            wire["filename"] = part["filename"]
    else:
        context.losses.add(at, f"{kind} part", f"a UIMessage has no part for a {kind} part here")
        return None
    wire.update(wire_fields(bag))
    return write_options(wire, part, kept, context, at, key=METADATA)
