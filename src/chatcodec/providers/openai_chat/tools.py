"""Tool definitions and ``tool_choice`` <-> canonical tools.

A ``function`` tool is a canonical :class:`~chatcodec.ToolDefinition`; any other tool
(``custom`` tools, a compatible server's own kinds) is kept whole in ``provider_tools``,
with its position when a function tool follows it, so the list comes back as it was.
A ``tool_choice`` string is a canonical choice of that type; a named function is
``{"type": "tool", "name": ...}``; other shapes (``allowed_tools``, a custom tool) stay in
the request's bag as they are. Function names follow
:func:`~chatcodec.providers.kit.tool_name` here, in tool calls and in ``tool_choice``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chatcodec._narrow import as_dict
from chatcodec.losses import LossRecorder
from chatcodec.providers.kit import absent_keys, leftovers, mark_absent, present, tool_name, unmapped, wire_fields
from chatcodec.providers.kit.context import DecodeContext, EncodeContext
from chatcodec.providers.openai_chat import cache_control
from chatcodec.providers.openai_chat.markers import KIT, PROVIDER, opaque

if TYPE_CHECKING:  # annotations only: the decoder (one-pass path) loads no model (issue 25)
    from chatcodec.request import ChatRequest
    from chatcodec.tools import ToolDefinition

_DEFAULT_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}}


def decode_tools(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Fill ``tools``, ``provider_tools`` and ``tool_choice`` (``bag`` is the request's own
    bag, unused: what is not mapped stays in the request's leftovers)."""
    _decode_function_tools(request, canonical)
    _decode_tool_choice(request, canonical)


def _decode_function_tools(wire: dict[str, Any], data: dict[str, Any]) -> None:
    tools = wire.get("tools")
    if not tools:
        return  # null or []: kept as it is
    data["tools"] = [_decode_function_tool(tool) for tool in tools if tool["type"] == "function"]
    functions_left = len(data["tools"])
    provider_tools: list[dict[str, Any]] = []
    for position, tool in enumerate(tools):
        if tool["type"] == "function":
            functions_left -= 1
        else:  # kept whole; its position matters only when a function tool follows it
            provider_tools.append(opaque(tool, {"_position": position} if functions_left else {}))
    data["provider_tools"] = provider_tools


_FUNCTION_KEYS = ("name", "description", "parameters", "strict")
_FUNCTION_KEY_SET = frozenset(_FUNCTION_KEYS)


def _decode_function_tool(tool: dict[str, Any]) -> dict[str, Any]:
    function: dict[str, Any] = tool["function"]
    if (
        len(tool) == 2
        and "name" in function
        and "parameters" in function
        and function.keys() <= _FUNCTION_KEY_SET
        and None not in function.values()
    ):  # every key mapped and nothing for a bag: what the steps below give it, at a fifth of the cost
        return {key: function[key] for key in _FUNCTION_KEYS if key in function}
    mapped = ["name", *present(function, "description", "parameters", "strict")]
    definition = {key: function[key] for key in mapped}
    bag = leftovers(tool, ("type", "function"))
    function_rest = unmapped(function, mapped)
    if function_rest:
        bag["function"] = function_rest
    mark_absent(bag, function, "parameters")
    cache_control.take(bag, definition)
    return KIT.attach(definition, bag)


def _decode_tool_choice(wire: dict[str, Any], data: dict[str, Any]) -> None:
    choice = wire.get("tool_choice")
    if isinstance(choice, str):
        data["tool_choice"] = {"type": choice}
        return
    named = as_dict(choice)
    function = as_dict(named.get("function")) if named is not None else None
    if named is None or function is None or set(named) != {"type", "function"} or set(function) != {"name"}:
        return  # allowed_tools, custom tools: kept as they are
    data["tool_choice"] = {"type": "tool", "name": function["name"]}


def encode_tools(request: ChatRequest, wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext) -> None:
    """Write ``tools`` (function tools, and this provider's own tools at their places) and
    ``tool_choice``; ``bag`` is the request's own bag (unused: OpenAI keeps nothing there)."""
    losses = context.losses
    tools = [_encode_function_tool(tool, losses, index) for index, tool in enumerate(request.tools)]
    for index, tool in enumerate(request.provider_tools):
        if tool.provider != PROVIDER:
            why = f"{PROVIDER} has no {tool.provider} hosted tools"
            losses.add(("provider_tools", index), f"{tool.provider} tool", why)
            continue
        if not isinstance(tool.data.get("type"), str):
            # OpenAI tells every tool by its ``type``; one without it is refused by the API
            # (and by this codec's own decoder), so it is not written.
            losses.add(("provider_tools", index), "openai-chat tool without a type", "OpenAI requires a tool's type")
            continue
        position = KIT.own(tool.provider_metadata).get("_position")
        at = position if isinstance(position, int) and 0 <= position <= len(tools) else len(tools)
        tools.insert(at, dict(tool.data))
    if tools:
        wire["tools"] = tools
    if request.tool_choice is not None:
        choice = request.tool_choice
        if choice.type == "tool" and choice.name is not None:
            name = tool_name(choice.name, losses, ("tool_choice",), PROVIDER)
            wire["tool_choice"] = {"type": "function", "function": {"name": name}}
        else:
            wire["tool_choice"] = choice.type


def _encode_function_tool(tool: ToolDefinition, losses: LossRecorder, index: int) -> dict[str, Any]:
    KIT.report_foreign(losses, tool.provider_metadata, ("tools", index))
    bag = KIT.own(tool.provider_metadata)
    function_rest = as_dict(bag.pop("function", None)) or {}
    function: dict[str, Any] = {**function_rest, "name": tool_name(tool.name, losses, ("tools", index), PROVIDER)}
    if tool.description is not None:
        function["description"] = tool.description
    left_out = "parameters" in absent_keys(bag) or "parameters" in function_rest  # absent, or a kept null
    if not (left_out and tool.parameters == _DEFAULT_PARAMETERS):
        function["parameters"] = tool.parameters
    if tool.strict is not None:
        function["strict"] = tool.strict
    wire = {**wire_fields(bag), "type": "function", "function": function}
    why = "OpenAI tools take no cache breakpoint"
    cache_control.write(wire, tool.cache_control, tool.provider_metadata, losses, ("tools", index), why=why)
    return wire
