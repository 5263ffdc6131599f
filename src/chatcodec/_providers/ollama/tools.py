"""The request's ``tools``, both ways; Ollama has no tool choice.

A function tool is ``{"type": "function", "function": {"name", "description",
"parameters"}}``, as OpenAI spells it; a tool of another ``type`` is kept whole in
``provider_tools``. The server reads the schema into its own Go types
(``api.ToolFunctionParameters``, ``api.ToolProperty``), which keep ``type``,
``properties``, ``required``, ``items``, ``enum``, ``description``, ``anyOf`` and ``$defs``:
other keywords (``minimum``, ``format``, ``additionalProperties``...) are sent as they are
and never reach the model, which the encoder does not report (the body says them; the
server drops them).

Ollama names no rule for tool names (``ToolFunction.Name`` is any string), so names are
sent as they are; a blank one names no tool: it is fitted as every format fits one,
reported. There is no ``tool_choice`` and no switch for parallel calls: a choice other than ``auto`` and
``parallel_tool_calls: false`` are reported, and a tool's ``strict`` flag and cache
breakpoint too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.families.schema_writing import AS_SENT, json_schema, read_as_sent
from chatcodec._providers.ollama.markers import KIT, NO_PARAMETERS, PROVIDER
from chatcodec.codec_kit import as_dict, leftovers, present_keys, unblank_tool_name, unmapped_fields, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext

_EMPTY_SCHEMA: Mapping[str, Any] = {"type": "object", "properties": {}}
"""The canonical default of a tool's ``parameters``."""


# --- decode --------------------------------------------------------------------------


def decode_tools(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """``tools`` into ``canonical`` (function tools) and ``provider_tools`` (the rest)."""
    tools: list[dict[str, Any]] = request.get("tools") or []
    functions = [_decode_function(tool) for tool in tools if tool.get("type") == "function"]
    others = [
        {"type": "opaque", "provider": PROVIDER, "data": tool} for tool in tools if tool.get("type") != "function"
    ]
    if functions:
        canonical["tools"] = functions
    if others:
        canonical["provider_tools"] = others


def _decode_function(tool: dict[str, Any]) -> dict[str, Any]:
    function: dict[str, Any] = tool["function"]
    bag = leftovers(tool, ("type", "function"))
    canonical: dict[str, Any] = {"type": "function", "name": function["name"]}
    if function.get("description") is not None:
        canonical["description"] = function["description"]
    if function.get("parameters") is not None:
        canonical["parameters"] = function["parameters"]
        if read_as_sent(function["parameters"]):  # sent back unchanged (families/schema_writing.py)
            bag[AS_SENT] = True
    elif "parameters" not in function:
        bag[NO_PARAMETERS] = True
    rest = unmapped_fields(function, ("name", *present_keys(function, "description", "parameters")))
    if rest:
        bag["function"] = rest
    return KIT.attach(canonical, bag)


# --- encode --------------------------------------------------------------------------


def encode_tools(request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext) -> None:
    """``tools``; a tool choice and the parallel-calls switch have no field and are reported."""
    losses = context.losses
    tools = [_encode_function(tool, context, position) for position, tool in enumerate(request.get("tools") or ())]
    for position, tool in enumerate(request.get("provider_tools") or ()):
        if tool.get("provider") == PROVIDER:
            tools.append(dict(tool["data"]))
        else:
            losses.add(("provider_tools", position), f"{tool.get('provider')} tool", "Ollama has no such tool")
    if tools:
        wire["tools"] = tools
    choice = request.get("tool_choice")
    if choice is not None and choice.get("type", "auto") != "auto":
        losses.add(("tool_choice",), "tool_choice", "Ollama has no tool choice; the model decides", "setting")
    if request.get("parallel_tool_calls") is False:
        losses.add(
            ("parallel_tool_calls",), "parallel_tool_calls", "Ollama has no switch for parallel calls", "setting"
        )


def _encode_function(tool: Mapping[str, Any], context: EncodeContext, position: int) -> dict[str, Any]:
    losses = context.losses
    at = ("tools", position)
    bag = KIT.claim(losses, tool.get("provider_metadata"), at)
    name = unblank_tool_name(tool["name"], losses, at, "Ollama")
    wire = {key: value for key, value in wire_fields(bag).items() if key != "function"}
    function: dict[str, Any] = {**(as_dict(bag.get("function")) or {}), "name": name}
    if tool.get("description") is not None:
        function["description"] = tool["description"]
    parameters = tool.get("parameters", _EMPTY_SCHEMA)
    if parameters is not _EMPTY_SCHEMA:
        parameters = json_schema(parameters, losses, (*at, "parameters"), as_sent=bag.get(AS_SENT))
    kept_as_it_came = bag.get(NO_PARAMETERS) or function.get("parameters", 0) is None
    if not (kept_as_it_came and parameters == _EMPTY_SCHEMA):
        function["parameters"] = parameters
    if tool.get("strict") is not None:
        losses.add((*at, "strict"), "strict", "Ollama tools have no strict flag", "setting")
    if tool.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache_control", "Ollama has no prompt-cache breakpoints", "setting")
    return {**wire, "type": "function", "function": function}
