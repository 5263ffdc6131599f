"""``gen_ai.tool.definitions`` <-> a request's tools.

The conventions describe the tools a model call was given as ``{"type": "function", "name",
"description"?, "parameters"?}`` (``gen-ai-tool-definitions.json``; any other ``type`` is a
generic definition): read, a function definition is a canonical tool (its other keys in its
bag), any other kept whole as a provider tool of this format, so a trace replayed elsewhere
offers the model the tools it had. Written, what a definition has no field for (``strict``,
a cache marker, another format's provider tool, the tool choice) is a reported loss.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.otel_genai.markers import KIT, PROVIDER
from chatcodec._frameworks.otel_genai.parts import finish
from chatcodec._frameworks.otel_genai.wire import TITLE, refuse
from chatcodec.codec_kit import as_dict, rule_error, wire_fields
from chatcodec.contract import EncodeContext, Steps


def read_tools(definitions: list[Any], where: Steps) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The function tools and the other definitions (opaque provider tools) of the attribute."""
    tools: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    for index, item in enumerate(definitions):
        definition = as_dict(item)
        if definition is None:
            raise rule_error(TITLE, (*where, index), "tool", "a tool definition is an object", item)
        if not isinstance(definition.get("type"), str):
            refuse(definition, (*where, index), "type", "a tool definition's type is a string")
        if definition["type"] != "function":
            others.append({"type": "opaque", "provider": PROVIDER, "data": definition})
            continue
        tools.append(_function(definition, (*where, index)))
    return tools, others


def _function(definition: dict[str, Any], at: Steps) -> dict[str, Any]:
    name, description, parameters = definition.get("name"), definition.get("description"), definition.get("parameters")
    if not isinstance(name, str) or not name:
        refuse(definition, at, "name", "a function tool is named (a string of one character or more)")
    if not isinstance(description, str | None):
        refuse(definition, at, "description", "a tool's description is a string")
    if not isinstance(parameters, dict | None):
        refuse(definition, at, "parameters", "a tool's parameters are a JSON Schema object")
    tool: dict[str, Any] = {"name": name}
    if description is not None:
        tool["description"] = description
    if parameters is not None:
        tool["parameters"] = parameters
    markers = {"no_parameters": "parameters" not in definition or None, "null_parameters": None}
    if "parameters" in definition and parameters is None:
        markers["null_parameters"] = True
    return finish(tool, definition, ("type", "name", "description", "parameters"), **markers)


def write_tools(request: Mapping[str, Any], context: EncodeContext) -> list[dict[str, Any]] | None:
    """The request's tools and provider tools as the attribute's definitions (None: it has none)."""
    tools: list[Mapping[str, Any]] = request.get("tools") or []
    provider_tools: list[Mapping[str, Any]] = request.get("provider_tools") or []
    if not tools and not provider_tools:
        return None
    written = [write_tool(tool, context, ("tools", index)) for index, tool in enumerate(tools)]
    for index, tool in enumerate(provider_tools):
        if tool.get("provider") == PROVIDER:
            written.append(dict(tool["data"]))
        else:
            why = "a GenAI tool definition holds this format's own provider tools only"
            context.losses.add(("provider_tools", index), f"{tool.get('provider')} provider tool", why, "setting")
    return written


def write_tool(tool: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """One canonical tool as a function definition (also what the gateway records)."""
    bag = KIT.claim(context.losses, tool.get("provider_metadata"), at)
    definition: dict[str, Any] = {"type": "function", "name": tool["name"]}
    if tool.get("description") is not None:
        definition["description"] = tool["description"]
    if bag.get("_null_parameters"):
        definition["parameters"] = None
    elif not (bag.get("_no_parameters") and tool.get("parameters") in (None, _EMPTY)):
        definition["parameters"] = tool.get("parameters", _EMPTY)
    for key in ("strict", "cache_control"):
        if tool.get(key) is not None:
            context.losses.add((*at, key), key, "a GenAI tool definition has no such field", "setting")
    definition.update(wire_fields(bag))
    return definition


_EMPTY: dict[str, Any] = {"type": "object", "properties": {}}
"""The canonical default parameters (an object of no properties)."""
