"""The request's ``tools`` and ``generation_config.tool_choice``, both ways.

A ``function`` tool is a canonical tool definition (``name``, ``description``,
``parameters`` as JSON Schema); a built-in tool (``google_search``, ``code_execution``,
``url_context``, ``file_search``, ``google_maps``, ``computer_use``, ``mcp_server``, ...)
is one of this provider's ``provider_tools``, kept whole. ``tool_choice`` is ``auto``,
``none``, ``any`` (canonical ``required``), ``validated``, or ``{"allowed_tools": {"mode",
"tools"}}``; ``any`` limited to one function is canonical ``tool`` (google-genai 3.6.1
``ToolChoiceType``, ``AllowedTools``). Any other choice stays in the settings bag.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.gemini_interactions.markers import DISPLAY, KIT, NO_PARAMETERS, PROVIDER
from chatcodec._providers.gemini_interactions.wire import FunctionTool, validated
from chatcodec.codec_kit import as_dict, as_list, leftovers, unblank_tool_name, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext

_FUNCTION = ("type", "name", "description", "parameters")
_CHOICES = {"auto": "auto", "none": "none", "any": "required"}
"""The choice words with a canonical home, by wire word."""


def decode_tools(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Read ``tools`` (and the tool choice, from the generation config) into ``canonical``."""
    del bag, context
    tools: list[dict[str, Any]] = []
    provider_tools: list[dict[str, Any]] = []
    for index, tool in enumerate(request.get("tools", [])):
        if tool.get("type") == "function":
            function = validated(FunctionTool, tool, f"{DISPLAY} request", ("tools", index))
            tools.append(_definition(function))
        else:
            provider_tools.append({"type": "opaque", "provider": PROVIDER, "data": tool})
    if tools:
        canonical["tools"] = tools
    if provider_tools:
        canonical["provider_tools"] = provider_tools


def _definition(function: Mapping[str, Any]) -> dict[str, Any]:
    definition: dict[str, Any] = {"type": "function", "name": function["name"]}
    if "description" in function:
        definition["description"] = function["description"]
    bag = leftovers(function, _FUNCTION)
    if "parameters" in function:
        definition["parameters"] = function["parameters"]
    else:
        bag[NO_PARAMETERS] = True
    return KIT.attach(definition, bag)


def decode_tool_choice(choice: object) -> dict[str, Any] | None:
    """The canonical choice for a wire ``tool_choice`` (None: no canonical home, kept)."""
    if isinstance(choice, str):
        word = _CHOICES.get(choice)
        return None if word is None else {"type": word}
    config = as_dict(choice) or {}
    allowed = as_dict(config.get("allowed_tools")) if len(config) == 1 else None
    if allowed is not None and allowed.keys() == {"mode", "tools"} and allowed["mode"] == "any":
        names = as_list(allowed["tools"]) or []
        if len(names) == 1:
            return {"type": "tool", "name": names[0]}
    return None


def encode_tool_choice(choice: Mapping[str, Any], context: EncodeContext) -> object:
    """The wire ``tool_choice`` for a canonical one."""
    if choice["type"] == "tool":
        name = unblank_tool_name(choice["name"], context.losses, ("tool_choice",), DISPLAY)
        return {"allowed_tools": {"mode": "any", "tools": [name]}}
    return {"auto": "auto", "none": "none", "required": "any"}[choice["type"]]


def encode_tools(request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext) -> None:
    """Write ``tools``; another provider's built-in tool is reported, not sent."""
    del bag
    losses = context.losses
    written: list[dict[str, Any]] = []
    for index, tool in enumerate(request.get("tools") or ()):
        at = ("tools", index)
        extra = wire_fields(KIT.claim(losses, tool.get("provider_metadata"), at))
        function: dict[str, Any] = {"type": "function", "name": unblank_tool_name(tool["name"], losses, at, DISPLAY)}
        if tool.get("description") is not None:
            function["description"] = tool["description"]
        if not KIT.marker(tool.get("provider_metadata"), NO_PARAMETERS):
            function["parameters"] = tool.get("parameters", {"type": "object", "properties": {}})
        if tool.get("strict") is not None:
            losses.add((*at, "strict"), "strict", f"{DISPLAY} functions have no strict flag", "setting")
        if tool.get("cache_control") is not None:
            losses.add((*at, "cache_control"), "cache_control", f"{DISPLAY} has no cache breakpoints", "setting")
        written.append({**function, **extra})
    for index, tool in enumerate(request.get("provider_tools") or ()):
        if tool["provider"] == PROVIDER:
            written.append(dict(tool["data"]))
        else:
            losses.add(("provider_tools", index), f"{tool['provider']} tool", f"{DISPLAY} cannot run it", "setting")
    if written:
        wire["tools"] = written
    if request.get("parallel_tool_calls") is not None:
        why = f"{DISPLAY} has no parallel_tool_calls switch"
        losses.add(("parallel_tool_calls",), "parallel_tool_calls", why, "setting")
