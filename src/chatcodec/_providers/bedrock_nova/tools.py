"""``toolConfig`` <-> canonical tools and tool choice.

Nova's ``toolConfig`` is the family's (``tools`` of ``toolSpec`` with an ``inputSchema``
``json`` object, ``toolChoice`` ``{"auto": {}}``, ``{"any": {}}`` or ``{"tool": {"name"}}``;
https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-tools.html). A tool list
canonical cannot hold exactly (a ``cachePoint`` among the tools, a member added later, a
choice of another kind) is kept whole in the bag and written back as it came. Nova has
no ``none`` choice and no switch for parallel calls: both are reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._narrow import as_dict, is_dict
from chatcodec._providers.bedrock_nova.markers import KIT
from chatcodec._providers.bedrock_nova.parts import tool_name
from chatcodec._providers.contract.context import DecodeContext, EncodeContext
from chatcodec._providers.families.schema_writing import json_schema

_CHOICES = {"auto": "auto", "any": "required"}
_WIRE_CHOICES = {"auto": "auto", "required": "any"}
_SPEC_FIELDS = frozenset({"name", "description", "inputSchema"})


def decode_tools(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Fill ``tools`` and ``tool_choice`` from ``toolConfig`` (or keep it whole in ``bag``)."""
    del context
    config = request["toolConfig"]
    tools = [_decode_tool(tool) for tool in config["tools"]]
    choice = _decode_choice(config["toolChoice"]) if "toolChoice" in config else None
    if set(config) - {"tools", "toolChoice"} or None in tools or ("toolChoice" in config and choice is None):
        bag["toolConfig"] = config
        return
    if tools:
        canonical["tools"] = tools
    else:
        bag["_tool_config"] = True  # an empty tool list, written back
    if choice is not None:
        canonical["tool_choice"] = choice


def _decode_tool(tool: Mapping[str, Any]) -> dict[str, Any] | None:
    spec = as_dict(tool.get("toolSpec"))
    if len(tool) != 1 or spec is None or set(spec) - _SPEC_FIELDS:
        return None
    schema = as_dict(spec["inputSchema"])
    if schema is None or set(schema) != {"json"} or not is_dict(schema["json"]):
        return None
    decoded: dict[str, Any] = {"type": "function", "name": spec["name"]}
    if "description" in spec:
        decoded["description"] = spec["description"]
    decoded["parameters"] = schema["json"]
    return decoded


def _decode_choice(choice: Mapping[str, Any]) -> dict[str, Any] | None:
    if len(choice) != 1:
        return None
    ((kind, value),) = choice.items()
    if kind in _CHOICES and value == {}:
        return {"type": _CHOICES[kind]}
    named = as_dict(value)
    if kind == "tool" and named is not None and set(named) == {"name"} and isinstance(named["name"], str):
        return {"type": "tool", "name": named["name"]}
    return None


def encode_tools(request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext) -> None:
    """Write ``toolConfig`` (``request``: canonical request data)."""
    losses = context.losses
    for index, tool in enumerate(request.get("provider_tools") or ()):
        losses.add(("provider_tools", index), f"{tool['provider']} tool", "Nova takes function tools only")
    if request.get("parallel_tool_calls") is not None:
        losses.add(("parallel_tool_calls",), "parallel_tool_calls", "Nova has no such switch", "setting")
    if "toolConfig" in bag:
        return  # kept whole: written back by the request's bag
    tools = [_encode_tool(tool, index, context) for index, tool in enumerate(request.get("tools") or ())]
    choice = _encode_choice(request.get("tool_choice"), context)
    if choice is not None and not tools:
        losses.add(("tool_choice",), "tool_choice without tools", "Nova needs at least one tool for it", "setting")
        choice = None
    if tools or bag.get("_tool_config"):
        wire["toolConfig"] = {"tools": tools, **({"toolChoice": choice} if choice is not None else {})}


def _encode_tool(tool: Mapping[str, Any], index: int, context: EncodeContext) -> dict[str, Any]:
    at = ("tools", index)
    if tool.get("provider_metadata"):
        KIT.report_foreign(context.losses, tool["provider_metadata"], at)
    for key, why in (("strict", "Nova has no strict tools"), ("cache_control", "sent without its cache point")):
        if tool.get(key) is not None:
            context.losses.add((*at, key), f"tool {key}", why, "setting")
    spec: dict[str, Any] = {"name": tool_name(tool["name"], context, at)}
    if tool.get("description") is not None:
        spec["description"] = tool["description"]
    spec["inputSchema"] = {"json": json_schema(tool["parameters"], context.losses, (*at, "parameters"))}
    return {"toolSpec": spec}


def _encode_choice(choice: Mapping[str, Any] | None, context: EncodeContext) -> dict[str, Any] | None:
    if choice is None:
        return None
    kind = choice.get("type", "auto")
    if kind == "none":
        context.losses.add(("tool_choice",), "tool_choice 'none'", "Nova has no such choice; sent none", "setting")
        return None
    if kind == "tool":
        return {"tool": {"name": tool_name(choice.get("name") or "", context, ("tool_choice",))}}
    return {_WIRE_CHOICES[kind]: {}}
