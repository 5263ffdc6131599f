"""Tool definitions and ``tool_choice`` <-> canonical tools.

A client tool (``input_schema``; ``type`` absent or ``"custom"``) is a canonical
:class:`~chatcodec.ToolDefinition`; a server tool (``type`` like
``web_search_20250305`` or ``code_execution_20250522``) runs on Anthropic's side and is
kept whole in ``provider_tools``. When the two kinds were interleaved, their order is
kept as a ``_tool_order`` marker so the list comes back as it was.

``tool_choice.type`` ``any`` is canonical ``required``; ``disable_parallel_tool_use: true``
is canonical ``parallel_tool_calls=False`` (sent on an ``auto`` choice when the request
names no choice, which means the same thing). Tool names follow
:func:`~chatcodec.providers.kit.tool_name` here, in tool calls and in ``tool_choice``.
"""

from __future__ import annotations

from typing import Any

from chatcodec._narrow import as_dict, as_list
from chatcodec.providers.anthropic.markers import KIT, PROVIDER
from chatcodec.providers.anthropic.parts import AnthropicContext, opaque
from chatcodec.providers.kit import decode_cache_control, restore_fields, split_fields, tool_name
from chatcodec.providers.kit.context import DecodeContext
from chatcodec.request import ChatRequest
from chatcodec.tools import ToolChoice

_TOOL_FIELDS = frozenset({"name", "description", "input_schema", "strict"})
_RENAMED = (("description", "description"), ("input_schema", "parameters"), ("strict", "strict"))
_CHOICE_FIELDS = frozenset({"type", "name", "disable_parallel_tool_use"})
_CHOICE_TYPES = {"auto": "auto", "any": "required", "tool": "tool", "none": "none"}
_WIRE_CHOICE_TYPES = {canonical: wire for wire, canonical in _CHOICE_TYPES.items()}
_FUNCTION, _SERVER = "function", "server"


def decode_tools(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Fill ``tools``, ``provider_tools``, ``tool_choice`` and ``parallel_tool_calls``."""
    tools = as_list(request.get("tools"))
    if tools is not None:
        order = [_SERVER if tool.get("type") not in (None, "custom") else _FUNCTION for tool in tools]
        canonical["tools"] = [_decode_tool(tool) for tool, kind in zip(tools, order, strict=True) if kind == _FUNCTION]
        canonical["provider_tools"] = [opaque(tool) for tool, kind in zip(tools, order, strict=True) if kind == _SERVER]
        if order != sorted(order, key=lambda kind: kind == _SERVER):
            bag["_tool_order"] = order
        if not tools:
            bag["_empty_tools"] = True
    choice = as_dict(request.get("tool_choice"))
    if choice is not None:
        canonical["tool_choice"] = {"type": _CHOICE_TYPES[choice["type"]]}
        if "name" in choice:
            canonical["tool_choice"]["name"] = choice["name"]
        if "disable_parallel_tool_use" in choice:
            canonical["parallel_tool_calls"] = not choice["disable_parallel_tool_use"]
        rest = split_fields(choice, _CHOICE_FIELDS)
        if rest:
            bag["tool_choice"] = rest


def _decode_tool(tool: dict[str, Any]) -> dict[str, Any]:
    definition: dict[str, Any] = {"name": tool["name"]}
    mapped = set(_TOOL_FIELDS)
    for wire_key, canonical_key in (
        ("description", "description"),
        ("input_schema", "parameters"),
        ("strict", "strict"),
    ):
        if tool.get(wire_key) is not None:
            definition[canonical_key] = tool[wire_key]
    marker = decode_cache_control(tool.get("cache_control"))
    if marker is not None:
        definition["cache_control"] = marker
        mapped.add("cache_control")
    rest = split_fields(tool, mapped)
    if "input_schema" not in tool:
        rest["_no_input_schema"] = True
    return KIT.attach(definition, rest)


def encode_tools(request: ChatRequest, wire: dict[str, Any], bag: dict[str, Any], context: AnthropicContext) -> None:
    """Write ``tools`` and ``tool_choice`` (tools first: they open the cached prefix)."""
    wire.pop("tools", None)
    functions = [_encode_tool(request, index, context) for index in range(len(request.tools))]
    servers: list[dict[str, Any]] = []
    for index, tool in enumerate(request.provider_tools):
        at = ("provider_tools", index)
        if tool.provider != "anthropic":
            context.losses.add(
                at, f"{tool.provider} tool", "only Anthropic's own server tools can be sent to Anthropic"
            )
            continue
        KIT.claim(context.losses, tool.provider_metadata, at)
        servers.append(context.cache(dict(tool.data), tool.cache_control, at))
    tools = _ordered(functions, servers, as_list(bag.get("_tool_order")))
    if tools or bag.get("_empty_tools"):
        wire["tools"] = tools
    _encode_choice(request, wire, bag, context)


def _encode_tool(request: ChatRequest, index: int, context: AnthropicContext) -> dict[str, Any]:
    tool = request.tools[index]
    at = ("tools", index)
    rest = KIT.claim(context.losses, tool.provider_metadata, at)
    wire = {**restore_fields(rest), "name": tool_name(tool.name, context.losses, at, PROVIDER)}
    if tool.description is not None:
        wire["description"] = tool.description
    if not rest.get("_no_input_schema"):
        wire["input_schema"] = tool.parameters
    if tool.strict is not None:
        wire["strict"] = tool.strict
    return context.cache(wire, tool.cache_control, at)


def _ordered(
    functions: list[dict[str, Any]], servers: list[dict[str, Any]], order: list[Any] | None
) -> list[dict[str, Any]]:
    """Client tools then server tools, unless the decoder recorded another order."""
    if order is None or order.count(_FUNCTION) != len(functions) or order.count(_SERVER) != len(servers):
        return functions + servers
    pending = {_FUNCTION: iter(functions), _SERVER: iter(servers)}
    return [next(pending[kind]) for kind in order]


def _encode_choice(request: ChatRequest, wire: dict[str, Any], bag: dict[str, Any], context: AnthropicContext) -> None:
    rest = as_dict(wire.pop("tool_choice", None)) or {}
    choice = request.tool_choice
    parallel = request.parallel_tool_calls
    if choice is None and parallel is not False:
        return
    choice = choice or ToolChoice(type="auto")
    encoded: dict[str, Any] = {**restore_fields(rest), "type": _WIRE_CHOICE_TYPES[choice.type]}
    if choice.name is not None:
        encoded["name"] = tool_name(choice.name, context.losses, ("tool_choice",), PROVIDER)
    if choice.type != "none" and parallel is not None:
        encoded["disable_parallel_tool_use"] = not parallel
    elif parallel is False:
        at = ("parallel_tool_calls",)
        context.losses.add(
            at, "parallel_tool_calls", "Anthropic's tool_choice none takes no parallel setting", "setting"
        )
    wire["tool_choice"] = encoded
