"""LangChain content blocks <-> canonical content parts.

LangChain keeps a message's content as a string or a list of blocks: its standard blocks
(``text``, ``reasoning``, ``image``, ``audio``, ``file`` with ``url``, ``base64`` +
``mime_type`` or ``file_id``), the OpenAI ``image_url`` shape its chat models accept, and
provider blocks it passes through untouched, of which Anthropic's ``thinking`` (with its
``signature``) and ``redacted_thinking`` have a canonical home: thinking a later Claude
turn must send back signed. Every other block (``tool_call`` chunks in content, server tool
blocks, ``non_standard``) is kept whole as an opaque part of this format, which another
format reports as lost. What a block holds beyond its canonical fields (``id``,
``extras``, ``annotations``, ``index``) rides in the part's bag, so a round trip is exact.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.langchain.markers import KIT, PROVIDER
from chatcodec.contract import EncodeContext, Steps, leftovers, wire_fields

_MEDIA = {"image": "image", "audio": "audio", "file": "document"}
"""A standard media block's type -> the canonical part type."""

_BLOCK_OF = {part: block for block, part in _MEDIA.items()}

ANTHROPIC = "anthropic"
"""The provider whose thinking blocks LangChain passes through as they are."""


def decode_block(block: str | dict[str, Any]) -> dict[str, Any]:
    """One content item as a canonical part."""
    if isinstance(block, str):
        return {"type": "text", "text": block, "provider_metadata": {PROVIDER: {"_bare": True}}}
    kind = block.get("type")
    if kind == "text" and isinstance(block.get("text"), str):
        return KIT.attach({"type": "text", "text": block["text"]}, leftovers(block, ("type", "text")))
    if kind == "reasoning" and isinstance(block.get("reasoning", ""), str):
        reasoning = {"type": "thinking", "text": block.get("reasoning", "")}
        return KIT.attach(reasoning, leftovers(block, ("type", "reasoning")))
    if kind == "thinking" and isinstance(block.get("thinking"), str):
        thinking = {"type": "thinking", "text": block["thinking"], "provider": ANTHROPIC}
        if isinstance(block.get("signature"), str):
            thinking["signature"] = block["signature"]
        return KIT.attach(thinking, leftovers(block, ("type", "thinking", "signature")))
    if kind == "redacted_thinking" and isinstance(block.get("data"), str):
        redacted = {"type": "thinking", "text": "", "redacted": True, "encrypted": block["data"], "provider": ANTHROPIC}
        return KIT.attach(redacted, leftovers(block, ("type", "data")))
    if kind == "image_url" and isinstance(block.get("image_url"), dict):
        return _image_url(block)
    if kind in _MEDIA and isinstance(block.get("source_type"), str):
        return _v0_media(block, kind)
    if kind in _MEDIA:
        source = _source(block)
        if source is not None:
            part: dict[str, Any] = {"type": _MEDIA[kind], "source": source}
            mapped: tuple[str, ...] = ("type", "url", "base64", "file_id", "mime_type")
            if kind == "file" and isinstance(block.get("filename"), str):
                part["filename"], mapped = block["filename"], (*mapped, "filename")
            return KIT.attach(part, leftovers(block, mapped))
    return {"type": "opaque", "provider": PROVIDER, "data": block}


_V0_KEYS = {"base64": "data", "url": "url", "id": "id"}
"""LangChain's v0 multimodal blocks (``source_type``, before the standard blocks of 1.0, still
in LangGraph checkpoints): where each source type keeps its value."""


def _v0_media(block: dict[str, Any], kind: str) -> dict[str, Any]:
    """A v0 media block (``{"type": "image", "source_type": "base64", "data": ..., "mime_type":
    ...}``, ``"url"`` with ``url``, ``"id"`` with ``id``) as a canonical part, marked to be
    written back in its shape; any other source type kept whole."""
    source_type = block["source_type"]
    key = _V0_KEYS.get(source_type)
    value, mime = block.get(key or ""), block.get("mime_type")
    if not isinstance(value, str) or not value or (source_type == "base64" and not (isinstance(mime, str) and mime)):
        return {"type": "opaque", "provider": PROVIDER, "data": block}
    source: dict[str, Any]
    if source_type == "base64":
        source = {"type": "base64", "media_type": mime, "data": value}
    else:
        source = {"type": "url", "url": value} if source_type == "url" else {"type": "file", "file_id": value}
        if isinstance(mime, str) and mime:
            source["media_type"] = mime
    part: dict[str, Any] = {"type": _MEDIA[kind], "source": source}
    mapped: tuple[str, ...] = ("type", "source_type", key or "", "mime_type")
    if kind == "file" and isinstance(block.get("filename"), str):
        part["filename"], mapped = block["filename"], (*mapped, "filename")
    return KIT.attach(part, {**leftovers(block, mapped), "_v0": True})


def _source(block: Mapping[str, Any]) -> dict[str, Any] | None:
    mime = block.get("mime_type")
    if isinstance(block.get("base64"), str) and isinstance(mime, str) and mime:
        return {"type": "base64", "media_type": mime, "data": block["base64"]}
    for key, kind in (("url", "url"), ("file_id", "file")):
        if isinstance(block.get(key), str) and block[key]:
            source = {"type": kind, key: block[key]}
            if isinstance(mime, str) and mime:
                source["media_type"] = mime
            return source
    return None


def _image_url(block: dict[str, Any]) -> dict[str, Any]:
    inner = block["image_url"]
    url = inner.get("url")
    if not isinstance(url, str) or not url:
        return {"type": "opaque", "provider": PROVIDER, "data": block}
    part: dict[str, Any] = {"type": "image", "source": {"type": "url", "url": url}}
    if inner.get("detail") in ("auto", "low", "high"):
        part["detail"] = inner["detail"]
    bag = leftovers(block, ("type", "image_url"))
    bag["_image_url"] = leftovers(inner, ("url", "detail"))
    return KIT.attach(part, bag)


def encode_block(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> str | dict[str, Any] | None:
    """One canonical part as a content item; None (with a loss) for a part LangChain has no block for."""
    bag = KIT.claim(context.losses, part.get("provider_metadata"), at)
    if part.get("cache_control") is not None:
        context.losses.add((*at, "cache_control"), "cache_control", "LangChain content blocks keep no cache marker")
    kind = part["type"]
    if kind == "text":
        return part["text"] if bag.get("_bare") else {"type": "text", "text": part["text"], **wire_fields(bag)}
    if kind == "thinking":
        return _thinking(part, bag, context, at)
    if kind in _BLOCK_OF:
        return _media(part, bag)
    if kind == "opaque" and part["provider"] == PROVIDER:
        return dict(part["data"])
    context.losses.add(at, f"{kind} part", f"LangChain has no block for a {kind} part")
    return None


def _thinking(part: Mapping[str, Any], bag: dict[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    if part.get("provider") == ANTHROPIC or (part.get("signature") and not part.get("encrypted")):
        if part.get("redacted"):
            return {"type": "redacted_thinking", "data": part.get("encrypted", ""), **wire_fields(bag)}
        block = {"type": "thinking", "thinking": part.get("text", "")}
        if part.get("signature") is not None:
            block["signature"] = part["signature"]
        return {**block, **wire_fields(bag)}
    for key in ("signature", "encrypted"):
        if part.get(key) is not None:
            context.losses.add((*at, key), f"thinking {key}", "a LangChain reasoning block keeps no provider's token")
    return {"type": "reasoning", "reasoning": part.get("text", ""), **wire_fields(bag)}


def _media(part: Mapping[str, Any], bag: dict[str, Any]) -> dict[str, Any]:
    source = part["source"]
    url_shape = bag.pop("_image_url", None)
    if url_shape is not None and source["type"] == "url":
        inner = {"url": source["url"], **({"detail": part["detail"]} if "detail" in part else {}), **url_shape}
        return {"type": "image_url", "image_url": inner, **wire_fields(bag)}
    block: dict[str, Any] = {"type": _BLOCK_OF[part["type"]]}
    if bag.pop("_v0", None) and source["type"] in ("base64", "url", "file"):
        block["source_type"] = {"base64": "base64", "url": "url", "file": "id"}[source["type"]]
        block[_V0_KEYS[block["source_type"]]] = source.get(
            {"base64": "data", "url": "url", "file": "file_id"}[source["type"]]
        )
    elif source["type"] == "base64":
        block["base64"] = source["data"]
    elif source["type"] in ("url", "file"):
        key = "url" if source["type"] == "url" else "file_id"
        block[key] = source[key]
    else:  # a text source: LangChain's text-plain file block
        block["text"] = source["text"]
    if source.get("media_type") is not None:
        block["mime_type"] = source["media_type"]
    if part.get("filename") is not None:
        block["filename"] = part["filename"]
    return {**block, **wire_fields(bag)}


def encode_part(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The part role: one canonical part as a block (a plain string item as a ``text`` block)."""
    block = encode_block(part, context, at)
    return {"type": "text", "text": block} if isinstance(block, str) else block
