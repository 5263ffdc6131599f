"""An ``AIMessage``'s ``tool_calls`` and ``invalid_tool_calls`` <-> canonical ``tool_use`` parts.

A LangChain call holds its arguments parsed (``args``, an object); the canonical part holds
them as JSON text, written compactly in the object's own key order, so reading them back
gives the same object. A call LangChain could not parse (``invalid_tool_calls``: ``args``
is the raw text, beside an ``error``) is a ``tool_use`` with that text as its arguments,
marked ``_invalid`` with the error, so another format sends the call as the model wrote it
and reports that LangChain had flagged it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.langchain.markers import KIT
from chatcodec.codec_kit import as_dict, compact_json, leftovers, wire_fields
from chatcodec.contract import EncodeContext, Steps


def decode_calls(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The message's calls, valid then invalid, as canonical ``tool_use`` parts."""
    parts: list[dict[str, Any]] = []
    for call in data.get("tool_calls") or ():
        part = {"type": "tool_use", "id": call.get("id") or "", "name": call["name"]}
        part["arguments"] = compact_json(call.get("args", {}))
        parts.append(KIT.attach(part, leftovers(call, ("id", "name", "args", "type"))))
    for call in data.get("invalid_tool_calls") or ():
        args = call.get("args")
        part = {"type": "tool_use", "id": call.get("id") or "", "name": call.get("name") or ""}
        part["arguments"] = args if isinstance(args, str) else ""
        bag = leftovers(call, ("id", "name", "args", "type"))
        bag["_invalid"] = {"id": call.get("id"), "name": call.get("name"), "args": args}
        parts.append(KIT.attach(part, bag))
    return parts


def encode_calls(
    parts: list[tuple[int, Mapping[str, Any]]], data: dict[str, Any], context: EncodeContext, at: Steps
) -> None:
    """Write ``tool_use`` parts (each with its index in the content) into ``data``'s call lists."""
    valid: list[dict[str, Any]] = []
    invalid: list[dict[str, Any]] = []
    for index, part in parts:
        where = (*at, "content", index)
        bag = KIT.claim(context.losses, part.get("provider_metadata"), where)
        if part.get("kind", "function") != "function":
            context.losses.add((*where, "kind"), "custom tool call", "LangChain calls take JSON arguments; sent as one")
        if part.get("cache_control") is not None:
            context.losses.add((*where, "cache_control"), "cache_control", "LangChain tool calls keep no cache marker")
        raw = bag.pop("_invalid", None)
        args = _parsed(part.get("arguments") or "")
        if raw is not None or args is None:
            known = raw or {"id": part["id"], "name": part["name"], "args": part.get("arguments")}
            invalid.append({"type": "invalid_tool_call", **known, **wire_fields(bag)})
            continue
        valid.append({"name": part["name"], "args": args, "id": part["id"], "type": "tool_call", **wire_fields(bag)})
    if valid:
        data["tool_calls"] = valid
    if invalid:
        data["invalid_tool_calls"] = invalid


def _parsed(arguments: str) -> dict[str, Any] | None:
    """The arguments as an object, or None when they are no JSON object (an invalid call)."""
    if not arguments:
        return {}
    try:
        value: Any = json.loads(arguments)
    except ValueError:
        return None
    return as_dict(value)
