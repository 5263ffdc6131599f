"""``tools``, ``tool_choice`` and ``parallel_tool_calls`` <-> canonical tools.

A ``function`` tool is flat in Responses (``name``, ``parameters``, ``strict`` beside
``type``, not under ``function`` as in Chat) and is a canonical
:class:`~chatcodec.ToolDefinition`. Every other kind (``web_search``, ``file_search``,
``computer_use_preview``, ``code_interpreter``, ``image_generation``, ``mcp``,
``local_shell``, ``custom`` ...) runs on OpenAI's side or has no canonical meaning and is
kept whole in ``provider_tools``; their interleaving is kept as a ``_tool_order`` marker.

``FunctionToolParam`` requires ``parameters`` and ``strict`` (both nullable), and the API
treats a missing ``strict`` as ``true``: a canonical tool with no ``strict`` is sent
``"strict": null`` (the provider default it asked for), and a wire tool without the key
is marked so it goes back without it.

``tool_choice`` is ``"auto"``, ``"none"``, ``"required"`` or ``{"type": "function",
"name": ...}``; other choices (``allowed_tools``, a built-in tool, ``mcp``) are kept whole.
"""

from __future__ import annotations

from typing import Any

from chatcodec._narrow import as_dict, as_list
from chatcodec.losses import LossRecorder
from chatcodec.providers.kit import NULLS, restore_fields
from chatcodec.providers.kit.context import DecodeContext, EncodeContext
from chatcodec.providers.kit.tool_names import tool_name
from chatcodec.providers.openai_responses.markers import KIT, PROVIDER
from chatcodec.providers.openai_responses.parts import opaque
from chatcodec.providers.openai_responses.plain_rules import decode_function_tool
from chatcodec.request import ChatRequest

_CHOICES = ("auto", "none", "required")
_FUNCTION, _BUILT_IN = "function", "provider"


def decode_tools(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Fill ``tools``, ``provider_tools``, ``tool_choice`` and ``parallel_tool_calls``."""
    tools = as_list(request.get("tools"))
    if tools is not None:
        order = [_FUNCTION if _is_function(tool) else _BUILT_IN for tool in tools]
        canonical["tools"] = [
            decode_function_tool(tool) for tool, kind in zip(tools, order, strict=True) if kind == _FUNCTION
        ]
        canonical["provider_tools"] = [
            opaque(tool) for tool, kind in zip(tools, order, strict=True) if kind != _FUNCTION
        ]
        if order != sorted(order, key=lambda kind: kind == _BUILT_IN):
            bag["_tool_order"] = order
        if not tools:
            bag["_empty_tools"] = True
    choice = request.get("tool_choice")
    if choice in _CHOICES:
        canonical["tool_choice"] = {"type": choice}
    elif _is_named_function(choice):
        canonical["tool_choice"] = {"type": "tool", "name": (as_dict(choice) or {})["name"]}
    elif choice is not None:
        bag["tool_choice"] = choice
    if isinstance(request.get("parallel_tool_calls"), bool):
        canonical["parallel_tool_calls"] = request["parallel_tool_calls"]


def _is_function(tool: dict[str, Any]) -> bool:
    parameters = tool.get("parameters")
    return (
        tool.get("type") == "function"
        and isinstance(tool.get("name"), str)
        and bool(tool["name"])
        and (parameters is None or isinstance(parameters, dict))
        and isinstance(tool.get("strict"), bool | None)
        and isinstance(tool.get("description"), str | None)
    )


def _is_named_function(choice: object) -> bool:
    fields = as_dict(choice)
    return (
        fields is not None
        and set(fields) == {"type", "name"}
        and fields["type"] == "function"
        and bool(isinstance(fields["name"], str) and fields["name"])
    )


def encode_tools(request: ChatRequest, wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext) -> None:
    """Write ``tools``, ``tool_choice`` and ``parallel_tool_calls``."""
    losses = context.losses
    wire.pop("tools", None)
    functions = [_encode_tool(request, index, losses) for index in range(len(request.tools))]
    built_in: list[dict[str, Any]] = []
    for index, tool in enumerate(request.provider_tools):
        at = ("provider_tools", index)
        if tool.provider != PROVIDER:
            losses.add(at, f"{tool.provider} tool", f"only {PROVIDER}'s own tools can be sent to it")
            continue
        KIT.report_foreign(losses, tool.provider_metadata, at)
        built_in.append(dict(tool.data))
    tools = _ordered(functions, built_in, as_list(bag.get("_tool_order")))
    if tools or bag.get("_empty_tools"):
        wire["tools"] = tools
    choice = request.tool_choice
    if choice is not None:
        wire["tool_choice"] = (
            choice.type
            if choice.type != "tool"
            else {"type": "function", "name": tool_name(choice.name or "", losses, ("tool_choice",), PROVIDER)}
        )
    if request.parallel_tool_calls is not None:
        wire["parallel_tool_calls"] = request.parallel_tool_calls


def _encode_tool(request: ChatRequest, index: int, losses: LossRecorder) -> dict[str, Any]:
    tool = request.tools[index]
    at = ("tools", index)
    rest = KIT.claim(losses, tool.provider_metadata, at)
    nulls = as_list(rest.get(NULLS)) or []
    wire: dict[str, Any] = {
        **restore_fields(rest),
        "type": "function",
        "name": tool_name(tool.name, losses, at, PROVIDER),
    }
    if tool.description is not None:
        wire["description"] = tool.description
    if not rest.get("_no_parameters") and "parameters" not in nulls:
        wire["parameters"] = tool.parameters
    if tool.strict is not None:
        wire["strict"] = tool.strict
    elif not rest.get("_no_strict"):
        wire["strict"] = None
    if tool.cache_control is not None:
        losses.add((*at, "cache_control"), "cache_control", "Responses tools carry no cache breakpoint", "setting")
    return wire


def _ordered(
    functions: list[dict[str, Any]], built_in: list[dict[str, Any]], order: list[Any] | None
) -> list[dict[str, Any]]:
    """Function tools then the others, unless the decoder recorded another order."""
    if order is None or order.count(_FUNCTION) != len(functions) or order.count(_BUILT_IN) != len(built_in):
        return functions + built_in
    pending = {_FUNCTION: iter(functions), _BUILT_IN: iter(built_in)}
    return [next(pending[kind]) for kind in order]
