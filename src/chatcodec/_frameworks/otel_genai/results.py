"""A ``tool_call_response`` part <-> a canonical ``tool_result``.

The conventions give the result as ``response`` (any JSON value) and no error flag;
pydantic-ai writes ``result`` (``_otel_messages.ToolCallResponsePart``, after the draft it
cites, lmolkova/semantic-conventions' ``models.ipynb``) and the tool's ``name``, which is the
result's ``name``. A text value is the result's text; a list of the conventions' parts its
content parts; any other JSON value its compact JSON text, marked so it is written back as the value.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.otel_genai.markers import KIT
from chatcodec._frameworks.otel_genai.parts import decode_media, encode_part, finish, opaque
from chatcodec.codec_kit import as_dict, as_list, compact_json, wire_fields
from chatcodec.contract import EncodeContext, Steps

_CONTENT_PARTS = frozenset(
    {"text", "blob", "uri", "file", "binary", "image-url", "audio-url", "video-url", "document-url"}
)
"""The part types a tool result's content list may hold (text and media)."""


def decode_result(part: dict[str, Any]) -> dict[str, Any]:
    """A ``tool_call_response`` part as a canonical result."""
    key = "response" if "response" in part or "result" not in part else "result"
    value = part.get(key)
    ident = part.get("id")
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": ident if isinstance(ident, str) else ""}
    markers: dict[str, object] = {"result": key == "result" or None, "no_id": not isinstance(ident, str) or None}
    if isinstance(value, str):
        result["content"] = value
    elif (items := _parts(value)) is not None:
        result["content"] = [_content_part(item) for item in items]
    else:
        result["content"], markers["json"] = compact_json(value), True
    mapped: tuple[str, ...] = ("type", "id", key)
    if isinstance(part.get("name"), str):
        result["name"], mapped = part["name"], (*mapped, "name")
    return finish(result, part, mapped, **markers)


def _parts(value: object) -> list[dict[str, Any]] | None:
    """A result's value when it is a list of the conventions' text and media parts (a non-empty
    list of objects, each typed as one); None for any other value, a JSON value."""
    listed = as_list(value)
    if not listed or not all(_typed(item) in _CONTENT_PARTS for item in listed):
        return None
    parts: list[dict[str, Any]] = listed
    return parts


def _typed(item: object) -> str | None:
    kind = (as_dict(item) or {}).get("type")
    return kind if isinstance(kind, str) else None


def _content_part(item: dict[str, Any]) -> dict[str, Any]:
    if item["type"] == "text" and isinstance(item.get("content"), str):
        return finish({"type": "text", "text": item["content"]}, item, ("type", "content"))
    return decode_media(item) or opaque(item)


def encode_result(result: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """A canonical result as a ``tool_call_response`` part."""
    bag = KIT.claim(context.losses, result.get("provider_metadata"), at)
    wire: dict[str, Any] = {"type": "tool_call_response"}
    if not (bag.get("_no_id") and not result["tool_use_id"]):
        wire["id"] = result["tool_use_id"]
    content = result.get("content", "")
    value: object
    if isinstance(content, str):
        value = _json_value(content) if bag.get("_json") else content
    else:
        written = (encode_part(item, context, (*at, "content", index)) for index, item in enumerate(content))
        value = [item for item in written if item is not None]
    wire["result" if bag.get("_result") else "response"] = value
    if result.get("name") is not None:
        wire["name"] = result["name"]
    if result.get("is_error"):
        context.losses.add((*at, "is_error"), "is_error", "a GenAI tool_call_response has no error flag")
    if result.get("cache_control") is not None:
        context.losses.add(
            (*at, "cache_control"), "cache_control", "the GenAI conventions have no cache marker", "setting"
        )
    wire.update(wire_fields(bag))
    return wire


def _json_value(text: str) -> object:
    try:
        value: object = json.loads(text)
    except ValueError:
        return text
    return value
