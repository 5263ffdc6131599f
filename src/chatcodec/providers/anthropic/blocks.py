"""Anthropic content blocks -> canonical content parts (as dicts, validated once later).

Every wire block becomes exactly one part, so block ``i`` of a response is part ``i``
(the stream decoder relies on it). A block canonical cannot hold where it stands (a
server-tool call, a search result, a ``content``-sourced document, a ``tool_use`` in a
user turn, a type added after this was written) becomes an opaque part holding the block
verbatim, so nothing is lost and the same block goes back out.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from chatcodec._narrow import as_dict, as_list
from chatcodec.providers.anthropic.markers import KIT, PROVIDER
from chatcodec.providers.anthropic.tool_ids import restore_tool_use_id
from chatcodec.providers.kit import decode_cache_control, split_fields

USER_KINDS = frozenset({"text", "image", "document"})
"""Block types a canonical user message (or tool result) holds as parts."""

ASSISTANT_KINDS = frozenset({"text", "image", "thinking", "redacted_thinking", "tool_use"})
"""Block types a canonical assistant message holds as parts."""

SYSTEM_KINDS = frozenset({"text"})
"""Block types a canonical system message holds as parts."""


def opaque(block: Mapping[str, Any]) -> dict[str, Any]:
    """The block kept whole, for Anthropic to get back verbatim."""
    return {"type": "opaque", "provider": PROVIDER, "data": dict(block)}


def arguments_text(tool_input: Mapping[str, Any]) -> str:
    """``tool_use.input`` as canonical argument text: compact JSON, non-ASCII kept, so that
    parsing it back gives the identical object."""
    return json.dumps(tool_input, ensure_ascii=False, separators=(",", ":"))


def decode_block(block: Mapping[str, Any], allowed: frozenset[str], model: str | None = None) -> dict[str, Any]:
    """The canonical part for a wire block, opaque when ``allowed`` excludes its type."""
    kind = block["type"]
    if kind not in allowed:
        return opaque(block)
    decoded = _DECODERS[kind](block, model)
    return opaque(block) if decoded is None else decoded


def _part(
    canonical: dict[str, Any], block: Mapping[str, Any], mapped: frozenset[str], **markers: Any
) -> dict[str, Any]:
    """Attach the cache marker and the bag of unmapped fields (plus spelling ``markers``)."""
    marker = decode_cache_control(block.get("cache_control"))
    if marker is not None:
        canonical["cache_control"] = marker
        mapped = mapped | {"cache_control"}
    return KIT.attach(canonical, {**split_fields(block, mapped), **markers})


_TEXT_FIELDS = frozenset({"type", "text"})


def _text(block: Mapping[str, Any], model: str | None) -> dict[str, Any]:
    return _part({"type": "text", "text": block["text"]}, block, _TEXT_FIELDS)


_SOURCE_KEYS: dict[str, frozenset[str]] = {
    "base64": frozenset({"type", "media_type", "data"}),
    "url": frozenset({"type", "url"}),
    "file": frozenset({"type", "file_id"}),
    "text": frozenset({"type", "media_type", "data"}),
}


def _source(source: Mapping[str, Any], kinds: frozenset[str]) -> dict[str, Any] | None:
    """The canonical source, or None when canonical cannot say it exactly (an unknown
    source type, extra keys, or an empty URL, file id or media type canonical forbids)."""
    kind = source["type"]
    if kind not in kinds or frozenset(source) != _SOURCE_KEYS[kind]:
        return None
    values = [source[key] for key in _SOURCE_KEYS[kind] if key != "type"]
    if not all(isinstance(value, str) for value in values):
        return None
    if kind == "text":
        return {"type": "text", "text": source["data"], "media_type": source["media_type"]}
    if not source.get("url", True) or not source.get("file_id", True) or not source.get("media_type", True):
        return None
    return dict(source)


_IMAGE_SOURCES = frozenset({"base64", "url", "file"})
_DOCUMENT_SOURCES = frozenset({"base64", "url", "file", "text"})
_IMAGE_FIELDS = frozenset({"type", "source"})
_DOCUMENT_FIELDS = frozenset({"type", "source", "title"})


def _image(block: Mapping[str, Any], model: str | None) -> dict[str, Any] | None:
    source = _source(block["source"], _IMAGE_SOURCES)
    if source is None:
        return None
    return _part({"type": "image", "source": source}, block, _IMAGE_FIELDS)


def _document(block: Mapping[str, Any], model: str | None) -> dict[str, Any] | None:
    source = _source(block["source"], _DOCUMENT_SOURCES)
    if source is None:
        return None
    canonical: dict[str, Any] = {"type": "document", "source": source}
    if block.get("title") is not None:
        canonical["title"] = block["title"]
    return _part(canonical, block, _DOCUMENT_FIELDS)


_THINKING_FIELDS = frozenset({"type", "thinking", "signature"})
_REDACTED_FIELDS = frozenset({"type", "data"})


def _thinking(block: Mapping[str, Any], model: str | None) -> dict[str, Any]:
    canonical: dict[str, Any] = {"type": "thinking", "text": block["thinking"], "provider": PROVIDER}
    if block.get("signature") is not None:
        canonical["signature"] = block["signature"]
    if model is not None:
        canonical["model"] = model
    return _part(canonical, block, _THINKING_FIELDS)


def _redacted_thinking(block: Mapping[str, Any], model: str | None) -> dict[str, Any]:
    # The payload stays opaque: it is encrypted reasoning, never readable text.
    canonical: dict[str, Any] = {"type": "thinking", "encrypted": block["data"], "redacted": True, "provider": PROVIDER}
    if model is not None:
        canonical["model"] = model
    return _part(canonical, block, _REDACTED_FIELDS)


_TOOL_USE_FIELDS = frozenset({"type", "id", "name", "input"})


def _tool_use(block: Mapping[str, Any], model: str | None) -> dict[str, Any]:
    canonical = {
        "type": "tool_use",
        "id": restore_tool_use_id(block["id"]),
        "name": block["name"],
        "arguments": arguments_text(block["input"]),
    }
    return _part(canonical, block, _TOOL_USE_FIELDS)


_TOOL_RESULT_FIELDS = frozenset({"type", "tool_use_id", "content", "is_error"})


def decode_tool_result(block: Mapping[str, Any]) -> dict[str, Any]:
    """A ``tool_result`` block as a canonical tool-result part (images and documents kept)."""
    canonical: dict[str, Any] = {"type": "tool_result", "tool_use_id": restore_tool_use_id(block["tool_use_id"])}
    content = block.get("content")
    listed = as_list(content)
    if listed is not None:
        canonical["content"] = [decode_block(item, USER_KINDS) for item in listed]
    elif isinstance(content, str):
        canonical["content"] = content
    markers: dict[str, Any] = {}
    if block.get("is_error") is True:
        canonical["is_error"] = True
    elif block.get("is_error") is False:
        markers["_is_error"] = False  # spelled out (pydantic-ai always sends it)
    if "content" not in block:
        markers["_no_content"] = True
    return _part(canonical, block, _TOOL_RESULT_FIELDS, **markers)


_DECODERS: dict[str, Callable[[Mapping[str, Any], str | None], dict[str, Any] | None]] = {
    "text": _text,
    "image": _image,
    "document": _document,
    "thinking": _thinking,
    "redacted_thinking": _redacted_thinking,
    "tool_use": _tool_use,
}


def decode_blocks(blocks: list[Any], allowed: frozenset[str], model: str | None = None) -> list[dict[str, Any]]:
    """Canonical parts for a list of (validated) wire blocks."""
    return [decode_block(block, allowed, model) for block in blocks]


def is_tool_result(block: object) -> bool:
    """Whether a (validated) block is a ``tool_result``."""
    fields = as_dict(block)
    return fields is not None and fields.get("type") == "tool_result"
