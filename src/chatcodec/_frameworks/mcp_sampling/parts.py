"""Content blocks <-> canonical parts: ``text``, ``image`` and ``audio`` (base64 ``data``
and ``mimeType``), ``tool_use`` (``input`` an object) and ``tool_result`` (its
``content`` blocks, ``isError``, ``structuredContent``).

A block's fields without a canonical home (``annotations``, ``_meta``,
``structuredContent``) ride in the part's bag and are written back; a tool result's
``resource_link`` or ``resource`` block is an opaque part of this codec, kept whole."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.mcp_sampling.markers import DISPLAY, KIT, NO_CONTENT, PROVIDER
from chatcodec.codec_kit import arguments_object, as_dict, compact_json, leftovers, tool_name, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext, Steps

_MEDIA = ("image", "audio")


def decode_block(block: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """One validated wire block as a canonical part."""
    kind = block["type"]
    if kind == "text":
        return KIT.attach({"type": "text", "text": block["text"]}, leftovers(block, ("type", "text")))
    if kind in _MEDIA:
        source = {"type": "base64", "media_type": block["mimeType"], "data": block["data"]}
        return KIT.attach({"type": kind, "source": source}, leftovers(block, ("type", "data", "mimeType")))
    if kind == "tool_use":
        part = {"type": "tool_use", "id": block["id"], "name": block["name"], "arguments": compact_json(block["input"])}
        return KIT.attach(part, leftovers(block, ("type", "id", "name", "input")))
    if kind == "tool_result":
        return _decode_result(block, context)
    return {"type": "opaque", "provider": PROVIDER, "data": block}


def _decode_result(block: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    part: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": block["toolUseId"],
        "content": [_decode_result_block(inner, context) for inner in block.get("content", [])],
    }
    mapped: tuple[str, ...] = ("type", "toolUseId", "content")
    if block.get("isError") is True:
        part["is_error"] = True
        mapped = (*mapped, "isError")
    bag = leftovers(block, mapped)  # an ``isError: false`` is kept as it came
    if "content" not in block:
        bag[NO_CONTENT] = True
    return KIT.attach(part, bag)


def _decode_result_block(block: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """A block of a tool result's content: text and media as parts; any other (the wire's
    ``OtherBlock``, a ``tool_use`` there too: no call, and unchecked) kept whole."""
    if block["type"] in ("text", *_MEDIA):
        return decode_block(block, context)
    return {"type": "opaque", "provider": PROVIDER, "data": block}  # a resource, or a call there


def encode_part(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The wire block for a canonical part, or None for one the wire cannot carry (a loss)."""
    kind = part["type"]
    losses = context.losses
    if part.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache marker", f"{DISPLAY} has no cache markers", "metadata")
    if kind == "opaque" and part.get("provider") == PROVIDER:
        return dict(part["data"])
    block = wire_fields(KIT.claim(losses, part.get("provider_metadata"), at))
    if kind == "text":
        block.update(type="text", text=part["text"])
        return block
    if kind in _MEDIA:
        source = part["source"]
        if source.get("type") != "base64":
            losses.add(at, f"{kind} from a {source.get('type')} source", f"{DISPLAY} carries only base64 media")
            return None
        block.update(type=kind, data=source["data"], mimeType=source["media_type"])
        return block
    if kind == "tool_use" and part.get("kind", "function") == "function":
        name = tool_name(part["name"], losses, at, PROVIDER) if context.for_request else part["name"]
        block.update(type="tool_use", id=part["id"], name=name, input=_input(part["arguments"], context, at))
        return block
    if kind == "tool_result":
        return _encode_result(part, block, context, at)
    losses.add(at, f"{kind} part", f"{DISPLAY} has no {kind} content")
    return None


def _encode_result(part: Mapping[str, Any], block: dict[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    content = part.get("content")
    inner: list[dict[str, Any]] = []
    if isinstance(content, str):
        inner.append({"type": "text", "text": content})
    else:
        for index, item in enumerate(content or []):
            written = encode_part(item, context, (*at, "content", index))
            if written is not None:
                inner.append(written)
    block.update(type="tool_result", toolUseId=part["tool_use_id"])
    if inner or KIT.marker(part.get("provider_metadata"), NO_CONTENT) is not True:
        block["content"] = inner
    if part.get("is_error"):
        block["isError"] = True
    if part.get("name") is not None:
        context.losses.add((*at, "name"), "tool name of a result", f"{DISPLAY} results name only their call's id")
    return block


def _input(arguments: str, context: EncodeContext, at: Steps) -> dict[str, Any]:
    """The argument text as the object ``input`` must be: text that is not an object is
    wrapped (``{"input": text}``) and reported, as is a parse that changes it."""
    parsed, exact = arguments_object(arguments)
    found = as_dict(parsed)
    if found is None:
        context.losses.add(
            (*at, "arguments"), "tool arguments", f"{DISPLAY} takes an object as input; the text was wrapped"
        )
        return {"input": arguments}
    if not exact:
        context.losses.add((*at, "arguments"), "tool arguments", "repeated keys or unrepresentable numbers changed")
    return dict(found)
