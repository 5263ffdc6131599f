"""A ``tool-result`` part and its typed ``output`` <-> a canonical ``tool_result``.

``text`` is the result's text; ``json`` its value as compact JSON text (marked, so it is
written back as JSON); ``error-text`` / ``error-json`` the same with ``is_error``;
``execution-denied`` (the user refused the call) an error result whose text is the reason;
``content`` a list of text and media items (``text``, ``media``, ``image-data``,
``file-data``, ``image-url``, ``file-url``; ids and ``custom`` items kept opaque). The
result's ``toolName`` is its ``name``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.ai_sdk.bags import UNKEPT, claim, from_sibling, write_options
from chatcodec._frameworks.ai_sdk.media import data_of, essence, kind_of, media_type_of, spelt
from chatcodec._frameworks.ai_sdk_model.markers import DENIED, KIT, PROVIDER
from chatcodec._frameworks.ai_sdk_model.parts import OPTIONS, finish
from chatcodec._frameworks.json_results import json_valued
from chatcodec.codec_kit import as_dict, compact_json, wire_fields
from chatcodec.contract import EncodeContext, Steps

_JSON = ("json", "error-json")
_DEFAULT_ITEM = {"image": ("image-data", "image-url"), "document": ("file-data", "file-url")}


def decode_result(part: dict[str, Any]) -> dict[str, Any]:
    """A ``tool-result`` part as a canonical result (its output checked by the validator)."""
    output: dict[str, Any] = part["output"]
    kind = output["type"]
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": part["toolCallId"], "name": part["toolName"]}
    if kind.startswith("error") or kind == DENIED:
        result["is_error"] = True
    markers: dict[str, Any] = {}
    if kind in _JSON:
        result["content"], markers["output"] = compact_json(output.get("value")), "json"
    elif kind == DENIED:
        result["content"], markers["output"] = output.get("reason", ""), DENIED
        markers["no_reason"] = "reason" not in output or None
    elif kind == "content":
        result["content"] = [_item(item) for item in output["value"]]
    else:
        result["content"] = output["value"]
    decoded = finish(result, part, ("type", "toolCallId", "toolName", "output"), **markers)
    extra = {key: value for key, value in output.items() if key not in ("type", "value", "reason")}
    if extra:  # the output's own providerOptions: kept (and reported elsewhere) as the bag's "output"
        decoded.setdefault("provider_metadata", {}).setdefault(PROVIDER, {})["output"] = extra
    return decoded


def _item(item: dict[str, Any]) -> dict[str, Any]:
    kind = item.get("type")
    if kind == "text" and isinstance(item.get("text"), str):
        return finish({"type": "text", "text": item["text"]}, item, ("type", "text"))
    data, url, media_type = item.get("data"), item.get("url"), item.get("mediaType")
    if media_type == "":  # no media type canonical holds (it has one character at least): kept whole
        return {"type": "opaque", "provider": PROVIDER, "data": item}
    if kind in ("media", "image-data", "file-data") and isinstance(data, str) and isinstance(media_type, str):
        part: dict[str, Any] = {
            "type": kind_of(media_type),
            "source": {"type": "base64", "media_type": essence(media_type), "data": data},
        }
    elif kind in ("image-url", "file-url") and isinstance(url, str) and url:  # an empty URL is no source: kept whole
        part = {
            "type": "image" if kind == "image-url" else kind_of(media_type or ""),
            "source": {"type": "url", "url": url},
        }
        if isinstance(media_type, str):
            part["source"]["media_type"] = essence(media_type)
    else:
        return {"type": "opaque", "provider": PROVIDER, "data": item}
    mapped: tuple[str, ...] = ("type", "data", "url", *spelt(media_type if isinstance(media_type, str) else None))
    if part["type"] == "document" and isinstance(item.get("filename"), str):
        part["filename"], mapped = item["filename"], (*mapped, "filename")
    default = _DEFAULT_ITEM["image" if part["type"] == "image" else "document"]
    return finish(part, item, mapped, item=None if kind in default else kind)


def encode_result(
    result: Mapping[str, Any], names: Mapping[str, str], context: EncodeContext, at: Steps
) -> dict[str, Any]:
    """A canonical result as a ``tool-result`` part (its ``toolName`` from its call when unnamed)."""
    metadata, carried = from_sibling(result.get("provider_metadata"), PROVIDER, "tool_result")
    bag = claim(KIT, context.losses, metadata, at)
    kept = bag.pop(OPTIONS, carried.get(OPTIONS, UNKEPT))  # a UI tool part's call options, where it had no own
    name = result.get("name") or names.get(result["tool_use_id"])
    if name is None:
        context.losses.add(
            (*at, "name"), "tool name", "an AI SDK result names its tool; its call is not in the history"
        )
        name = ""
    extra = as_dict(bag.pop("output", None)) or {}
    output = {**_output(result, bag, context, at), **extra}
    wire: dict[str, Any] = {
        "type": "tool-result",
        "toolCallId": result["tool_use_id"],
        "toolName": name,
        "output": output,
    }
    wire.update(wire_fields(bag))
    return write_options(wire, result, kept, context, at, key=OPTIONS)


def _output(result: Mapping[str, Any], bag: dict[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    content = result.get("content", "")
    error = bool(result.get("is_error"))
    spelled = bag.pop("_output", None) or ("json" if json_valued(result.get("provider_metadata")) else None)
    if spelled == DENIED and error and isinstance(content, str):
        return {"type": DENIED} if bag.pop("_no_reason", None) and not content else {"type": DENIED, "reason": content}
    if isinstance(content, str):
        if spelled == "json":
            try:
                return {"type": "error-json" if error else "json", "value": json.loads(content)}
            except ValueError:
                pass
        return {"type": "error-text" if error else "text", "value": content}
    if error and all(part["type"] == "text" and not part.get("provider_metadata") for part in content):
        if len(content) > 1:
            context.losses.add((*at, "content"), "text parts", "an AI SDK error output is one text: the parts joined")
        return {"type": "error-text", "value": "".join(part["text"] for part in content)}
    items = [
        item for index, part in enumerate(content) if (item := _encode_item(part, context, (*at, "content", index)))
    ]
    if error:
        context.losses.add((*at, "is_error"), "is_error", "an AI SDK content output is no error; the flag is not sent")
    return {"type": "content", "value": items}


def _encode_item(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    bag = claim(KIT, context.losses, part.get("provider_metadata"), at)
    kept = bag.pop(OPTIONS, UNKEPT)
    kind = part["type"]
    if kind == "opaque" and part["provider"] == PROVIDER:
        return dict(part["data"])
    if kind == "text":
        item: dict[str, Any] = {"type": "text", "text": part["text"]}
    elif kind in ("image", "audio", "video", "document"):
        data = data_of(part, context, at, as_data_url=False)
        if data is None:
            return None
        default = _DEFAULT_ITEM["image" if kind == "image" else "document"]
        url = part["source"]["type"] == "url"
        item = {"type": bag.pop("_item", None) or default[url]}
        if url:
            item["url"] = data
            if part["source"].get("media_type") is not None and item["type"] != "image-url":
                item["mediaType"] = part["source"]["media_type"]
        else:
            item.update(data=data, mediaType=media_type_of(part, context, at))
        if part.get("filename") is not None:
            item["filename"] = part["filename"]
    else:
        context.losses.add(at, f"{kind} part", "an AI SDK tool output holds text and media only")
        return None
    item.update(wire_fields(bag))
    return write_options(item, part, kept, context, at, key=OPTIONS)
