"""``ModelMessage`` content parts <-> canonical content parts.

``text``, ``reasoning`` (thinking; Anthropic's signature or redacted data and Gemini's
thought signature from its ``providerOptions``, :mod:`..ai_sdk.provider_options`), ``image``
and ``file`` (the media type picks image, audio, video or document, :mod:`..ai_sdk.media`)
and ``tool-call`` (its ``input`` object as the canonical JSON text of the arguments) have a
canonical home. Every other part (a ``tool-approval-request`` in an assistant turn) is
kept whole as an opaque part of this format, which another format reports (``ai-sdk-ui`` folds
an approval request into its call's tool part); so are a provider-executed ``tool-call`` and the
``tool-result`` beside it in an assistant turn, the form of a server tool that ``ai-sdk-ui`` and
``pydantic-ai`` share (:mod:`..server_tools`). What a part holds beyond its canonical fields (a
file's image ``filename``, the rest of ``providerOptions``) rides in its bag; an image's
``filename`` a ``UIMessage`` file part gave is carried the same way, written as a ``file`` part
(an ``image`` part has none).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.ai_sdk import bags
from chatcodec._frameworks.ai_sdk.bags import UNKEPT, claim, from_sibling, write_options
from chatcodec._frameworks.ai_sdk.media import data_of, data_url, kind_of, media_type_of, source_of, spelt, url_type
from chatcodec._frameworks.ai_sdk_model.markers import KIT, PROVIDER
from chatcodec.codec_kit import compact_json, wire_fields
from chatcodec.contract import EncodeContext, Steps

OPTIONS = "providerOptions"


def finish(
    canonical: dict[str, Any], wire: Mapping[str, Any], mapped: tuple[str, ...], **markers: Any
) -> dict[str, Any]:
    """``canonical`` with its ``providerOptions`` read and its bag attached (:func:`..ai_sdk.bags.finish`)."""
    return bags.finish(KIT, canonical, wire, mapped, key=OPTIONS, markers=markers)


def decode_part(part: dict[str, Any]) -> dict[str, Any]:
    """One content part as a canonical part."""
    kind = part.get("type")
    if kind == "text" and isinstance(part.get("text"), str):
        return finish({"type": "text", "text": part["text"]}, part, ("type", "text"))
    if kind == "reasoning" and isinstance(part.get("text"), str):
        return finish({"type": "thinking", "text": part["text"]}, part, ("type", "text"))
    if kind == "image" and isinstance(part.get("image"), str):
        media_type = part.get("mediaType") if isinstance(part.get("mediaType"), str) else None
        source = source_of(part["image"], media_type, data_urls=True)
        image = {"type": "image", "source": source}
        inline = data_url(part["image"]) is not None or None
        markers = {"no_media_type": media_type is None or None, "data_url": inline}
        return finish(
            image, part, ("type", "image", *spelt(media_type)), **markers, url_type=url_type(part["image"], source)
        )
    if kind == "file" and isinstance(part.get("data"), str) and isinstance(part.get("mediaType"), str):
        return decode_file(part)
    if kind == "tool-call" and isinstance(part.get("toolCallId"), str) and isinstance(part.get("toolName"), str):
        if part.get("providerExecuted") is True:  # a server tool's: kept whole (:mod:`..server_tools`)
            return {"type": "opaque", "provider": PROVIDER, "data": part}
        call = {"type": "tool_use", "id": part["toolCallId"], "name": part["toolName"]}
        call["arguments"] = compact_json(part.get("input"))
        return finish(call, part, ("type", "toolCallId", "toolName", "input"))
    return {"type": "opaque", "provider": PROVIDER, "data": part}


def decode_file(part: dict[str, Any]) -> dict[str, Any]:
    """A ``file`` part as the media part its type names."""
    media_type: str = part["mediaType"]
    kind = kind_of(media_type)
    media: dict[str, Any] = {"type": kind, "source": source_of(part["data"], media_type, data_urls=True)}
    mapped: tuple[str, ...] = ("type", "data", *spelt(media_type))
    if kind == "document" and isinstance(part.get("filename"), str):
        media["filename"], mapped = part["filename"], (*mapped, "filename")
    inline = data_url(part["data"]) is not None or None
    spelt_type = url_type(part["data"], media["source"])
    return finish(media, part, mapped, file=kind == "image" or None, data_url=inline, url_type=spelt_type)


def encode_part(
    part: Mapping[str, Any], context: EncodeContext, at: Steps, *, role: str = "user"
) -> dict[str, Any] | None:
    """One canonical part as a content part of a ``role`` message; None (with a loss) for one
    the AI SDK has no part for."""
    metadata, carried = from_sibling(part.get("provider_metadata"), PROVIDER, part["type"])
    bag = claim(KIT, context.losses, metadata, at)
    for key, value in carried.items():
        bag.setdefault(key, value)
    kept = bag.pop(OPTIONS, UNKEPT)
    kind = part["type"]
    if kind == "opaque":
        if part["provider"] == PROVIDER:
            return dict(part["data"])
        context.losses.add(at, f"{part['provider']} block", "the AI SDK has no part for another format's block")
        return None
    if kind in ("text", "refusal"):
        if kind == "refusal":
            context.losses.add(at, "refusal part", "the AI SDK has no refusal part; written as text")
        wire: dict[str, Any] = {"type": "text", "text": part["text"]}
    elif kind == "thinking":
        wire = {"type": "reasoning", "text": part.get("text", "")}
    elif kind == "tool_use":
        wire = _call(part, context, at)
    elif kind in ("image", "audio", "video", "document"):
        media = _media(part, bag, context, at, image_part=role != "assistant")
        if media is None:
            return None
        wire = media
    else:
        context.losses.add(at, f"{kind} part", f"the AI SDK has no part for a {kind} part here")
        return None
    wire.update(wire_fields(bag))
    return write_options(wire, part, kept, context, at, key=OPTIONS)


def _call(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    if part.get("kind", "function") != "function":
        context.losses.add((*at, "kind"), "custom tool call", "AI SDK calls take a JSON input; sent as one")
    arguments: str = part.get("arguments") or ""
    try:
        value: Any = json.loads(arguments) if arguments else {}
    except ValueError:
        context.losses.add(
            (*at, "arguments"), "arguments", "not JSON: the AI SDK's input is a JSON value; kept as text"
        )
        value = arguments
    return {"type": "tool-call", "toolCallId": part["id"], "toolName": part["name"], "input": value}


def _media(
    part: Mapping[str, Any], bag: dict[str, Any], context: EncodeContext, at: Steps, *, image_part: bool
) -> dict[str, Any] | None:
    """A media part as a ``file`` part, or an image as an ``image`` part where the message takes
    one (``image_part``: a user message's ``ImagePart``; an assistant's content has ``file`` parts
    only, ``modelMessageSchema``'s ``AssistantContent``, as ``convertToModelMessages`` writes an
    assistant's image)."""
    for key in ("detail", "title", "start_offset", "end_offset", "fps"):
        if part.get(key) is not None:
            context.losses.add((*at, key), key, f"an AI SDK file part has no {key}")
    as_data_url = bool(bag.pop("_data_url", None))
    data = data_of(part, context, at, as_data_url=as_data_url, spelt_type=bag.pop("_url_type", None))
    if data is None:
        return None
    written_as_file = bool(bag.pop("_file", None))
    if part["type"] == "image" and image_part and not written_as_file and "filename" not in bag:
        image: dict[str, Any] = {"type": "image", "image": data}
        if not bag.pop("_no_media_type", None) and part["source"].get("media_type"):
            image["mediaType"] = part["source"]["media_type"]
        return image
    wire: dict[str, Any] = {"type": "file", "data": data, "mediaType": media_type_of(part, context, at)}
    if part.get("filename") is not None:
        wire["filename"] = part["filename"]
    return wire
