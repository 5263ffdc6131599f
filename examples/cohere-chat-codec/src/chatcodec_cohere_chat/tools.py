"""Tool definitions (``tools``: ``{"type": "function", "function": {name, description,
parameters}}``) and ``tool_choice`` (``REQUIRED``, ``NONE``; absent, the model chooses:
the canonical ``auto``), both ways.

A definition's other fields ride in its bag. The wire cannot force one named tool: such a
choice is sent as ``REQUIRED`` and reported."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.codec_kit import as_dict, leftovers, tool_name, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext
from chatcodec_cohere_chat.markers import DISPLAY, KIT, PROVIDER

EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}
"""The ``parameters`` of a tool that takes none (the API requires the field)."""

_CHOICES = {"REQUIRED": "required", "NONE": "none"}
_WORDS = {kind: word for word, kind in _CHOICES.items()}
FUNCTION_FIELDS = "function"
"""The bag key of a definition's ``function`` fields beyond name, description and parameters."""


def decode_tools(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Read ``tools`` and ``tool_choice`` into ``canonical`` (taken out of ``bag``)."""
    del request, context
    tools = bag.pop("tools", None)
    if tools is not None:
        canonical["tools"] = [_decode_tool(tool) for tool in tools]
    choice = bag.pop("tool_choice", None)
    if choice is not None:
        canonical["tool_choice"] = {"type": _CHOICES[choice]}


def _decode_tool(tool: dict[str, Any]) -> dict[str, Any]:
    function = tool["function"]
    definition: dict[str, Any] = {"type": "function", "name": function["name"]}
    if "description" in function:
        definition["description"] = function["description"]
    definition["parameters"] = function["parameters"]
    bag = leftovers(tool, ("type", "function"))
    extra = leftovers(function, ("name", "description", "parameters"))
    if extra:
        bag[FUNCTION_FIELDS] = extra
    return KIT.attach(definition, bag)


def encode_tools(request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext) -> None:
    """Write ``tools`` and ``tool_choice``; what the wire cannot say is a loss."""
    del bag
    losses = context.losses
    tools = request.get("tools")
    if tools:
        written: list[dict[str, Any]] = []
        for index, tool in enumerate(tools):
            at = ("tools", index)
            if tool.get("type", "function") != "function":
                losses.add(at, f"{tool.get('type')} tool", f"{DISPLAY} tools are functions")
                continue
            own = KIT.claim(losses, tool.get("provider_metadata"), at)
            function: dict[str, Any] = {"name": tool_name(tool["name"], losses, at, PROVIDER)}
            if tool.get("description") is not None:
                function["description"] = tool["description"]
            parameters = tool.get("parameters")
            function["parameters"] = dict(parameters) if parameters is not None else dict(EMPTY_SCHEMA)
            function.update(as_dict(own.pop(FUNCTION_FIELDS, None)) or {})
            for key in ("strict", "cache_control"):
                if tool.get(key) is not None:
                    losses.add((*at, key), key, f"{DISPLAY} tools have no {key}", "setting")
            written.append({**wire_fields(own), "type": "function", "function": function})
        wire["tools"] = written
    for key in ("provider_tools", "parallel_tool_calls"):
        if request.get(key) is not None:
            losses.add((key,), key, f"{DISPLAY} requests have no {key}", "setting")
    choice = request.get("tool_choice")
    if choice is None or choice["type"] == "auto":
        return
    kind = choice["type"]
    if kind == "tool":
        why = f"{DISPLAY} cannot force one tool; sent REQUIRED"
        losses.add(("tool_choice",), f"tool choice {choice.get('name')!r}", why, "setting")
        kind = "required"
    wire["tool_choice"] = _WORDS[kind]
