"""Gemini ``tools`` and ``toolConfig`` <-> canonical tools, provider tools and tool choice.

``tools`` is a list of Tool objects: ``functionDeclarations`` (each a canonical tool
definition; its schema in ``parameters``, Google's OpenAPI subset, or
``parametersJsonSchema``, full JSON Schema, remembered by the ``_schema_key`` marker)
or a built-in tool (``googleSearch``, ``codeExecution``, ``urlContext``...), kept whole
as an opaque provider tool. Encoding writes one Tool object holding every declaration,
then each built-in tool object, the layout every client sends.

``toolConfig.functionCallingConfig.mode``: ``AUTO`` is ``auto``, ``NONE`` is ``none``,
``ANY`` is ``required``, or ``tool`` when ``allowedFunctionNames`` names one function.
``VALIDATED``, several allowed names and any other setting have no canonical meaning and
ride in the request's bag as they were sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.gemini import wire as shapes
from chatcodec._providers.gemini.markers import KIT, NO_CACHE_MARKER, PROVIDER, SCHEMA_KEY
from chatcodec._providers.gemini.tool_names import GEMINI_TOOL_NAMES
from chatcodec.codec_kit import as_count, as_list, leftovers, restore_fields, shape_fields, tool_name, unmapped_fields
from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder

_DECLARATION_FIELDS = shape_fields(shapes.FunctionDeclaration)
"""The fields a declaration's shape types (``wire.py``), all read here: any other is kept."""
LAYOUT = "_tools_layout"
"""Marker: how the payload grouped its Tool objects, when not as the encoder would."""
TOOLS_LAYOUT = "tools_layout"
"""The encoder option that chooses the layout over :data:`LAYOUT` (see ``markers.OPTIONS``)."""
_MODES = {"AUTO": "auto", "NONE": "none", "ANY": "required"}
_WIRE_MODES = {"auto": "AUTO", "none": "NONE", "required": "ANY", "tool": "ANY"}


def decode_tools(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Map ``tools`` and ``toolConfig`` into ``canonical``; the rest goes into ``bag``."""
    definitions: list[dict[str, Any]] = []
    provider_tools: list[dict[str, Any]] = []
    tools: list[dict[str, Any]] = request.get("tools") or []
    layout: list[list[Any]] = []
    for tool in tools:
        declarations: list[dict[str, Any]] = tool.get("functionDeclarations") or []
        definitions.extend(_decode_declaration(declaration) for declaration in declarations)
        built_in = unmapped_fields(tool, ("functionDeclarations",))
        has_built_in = bool(built_in) or "functionDeclarations" not in tool
        if has_built_in:
            provider_tools.append({"type": "opaque", "provider": PROVIDER, "data": built_in})
        layout.append([len(declarations) if "functionDeclarations" in tool else None, has_built_in])
    if layout != _default_layout(len(definitions), len(provider_tools)):
        bag[LAYOUT] = layout
    if definitions:
        canonical["tools"] = definitions
    if provider_tools:
        canonical["provider_tools"] = provider_tools
    if "toolConfig" in request:
        _decode_tool_config(request["toolConfig"], canonical, bag)


def _default_layout(declarations: int, built_in: int) -> list[list[Any]]:
    """One Tool object of every declaration, then one per built-in tool: what the encoder
    writes unless the payload grouped its tools otherwise (``_tools_layout``)."""
    functions: list[list[Any]] = [[declarations, False]] if declarations else []
    return functions + [[None, True]] * built_in


def _decode_declaration(declaration: dict[str, Any]) -> dict[str, Any]:
    """A canonical tool definition (as its model dumps it: ``type`` written, a missing
    schema as the canonical empty one)."""
    definition: dict[str, Any] = {"type": "function", "name": declaration["name"]}
    if "description" in declaration:
        definition["description"] = declaration["description"]
    bag = leftovers(declaration, _DECLARATION_FIELDS)
    if "parametersJsonSchema" in declaration:
        definition["parameters"] = declaration["parametersJsonSchema"]
        if "parameters" in declaration:
            bag["parameters"] = declaration["parameters"]
    elif "parameters" in declaration:
        definition["parameters"] = declaration["parameters"]
        bag[SCHEMA_KEY] = "parameters"
    else:
        definition["parameters"] = {"type": "object", "properties": {}}
        bag[SCHEMA_KEY] = None
    return KIT.attach(definition, bag)


def _decode_tool_config(config: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    calling = config.get("functionCallingConfig")
    choice = None if calling is None else _choice(calling)
    if choice is None:
        bag["toolConfig"] = config
        return
    canonical["tool_choice"] = choice
    rest = unmapped_fields(config, ("functionCallingConfig",))
    if rest:
        bag["toolConfig"] = rest


def _choice(calling: dict[str, Any]) -> dict[str, Any] | None:
    mode = calling.get("mode")
    names = calling.get("allowedFunctionNames")
    if set(calling) - {"mode", "allowedFunctionNames"} or not isinstance(mode, str):
        return None
    if names is None and mode in _MODES:
        return {"type": _MODES[mode]}
    if mode == "ANY" and names is not None and len(names) == 1:
        return {"type": "tool", "name": names[0]}
    return None


def encode_tools(request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext) -> None:
    """Write ``tools`` and ``toolConfig`` for canonical request data into ``wire`` (the
    layout is the ``tools_layout`` option, else the one the payload had: the reader's
    :data:`LAYOUT` marker in ``bag``, read back here)."""
    losses = context.losses
    tools: list[Mapping[str, Any]] = request.get("tools", [])
    declarations = [_encode_declaration(tool, index, losses) for index, tool in enumerate(tools)]
    built_in: list[dict[str, Any]] = []
    for index, tool in enumerate(request.get("provider_tools", ())):
        if tool["provider"] != PROVIDER:
            losses.add(("provider_tools", index), f"{tool['provider']} tool", "Gemini has no such built-in tool")
            continue
        built_in.append(dict(tool["data"]))
    layout = context.option(TOOLS_LAYOUT)
    laid_out = _laid_out(declarations, built_in, bag.get(LAYOUT) if layout is None else layout)
    if laid_out:
        wire["tools"] = laid_out
    choice: Mapping[str, Any] | None = request.get("tool_choice")
    if choice is not None:
        calling: dict[str, Any] = {"mode": _WIRE_MODES[choice["type"]]}
        if choice.get("name") is not None:
            calling["allowedFunctionNames"] = [
                tool_name(choice["name"], losses, ("tool_choice",), PROVIDER, GEMINI_TOOL_NAMES)
            ]
        wire["toolConfig"] = {**(wire.get("toolConfig") or {}), "functionCallingConfig": calling}
    if request.get("parallel_tool_calls") is False:
        losses.add(("parallel_tool_calls",), "parallel_tool_calls", "Gemini cannot turn parallel calls off", "setting")


def _laid_out(
    declarations: list[dict[str, Any]], built_in: list[dict[str, Any]], layout: object
) -> list[dict[str, Any]]:
    """The Tool objects, grouped as the decoded payload grouped them when the marker still
    fits the tools, else in the default layout."""
    entries = as_list(layout)
    if entries is None or not _fits(entries, len(declarations), len(built_in)):
        entries = _default_layout(len(declarations), len(built_in))
    tools: list[dict[str, Any]] = []
    next_declaration, next_built_in = 0, 0
    for count, has_built_in in entries:
        tool: dict[str, Any] = {}
        if count is not None:
            tool["functionDeclarations"] = declarations[next_declaration : next_declaration + count]
            next_declaration += count
        if has_built_in:
            tool.update(built_in[next_built_in])
            next_built_in += 1
        tools.append(tool)
    return tools


def _fits(entries: list[Any], declarations: int, built_in: int) -> bool:
    shaped = [as_list(entry) for entry in entries]
    if any(entry is None or len(entry) != 2 for entry in shaped):
        return False
    counts = [entry[0] for entry in shaped if entry is not None]
    flags = [entry[1] for entry in shaped if entry is not None]
    if not all(count is None or as_count(count) is not None for count in counts):
        return False
    return sum(count or 0 for count in counts) == declarations and sum(flag is True for flag in flags) == built_in


_EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}
"""The canonical schema of a tool without parameters (``ToolDefinition``'s default)."""


def _encode_declaration(tool: Mapping[str, Any], index: int, losses: LossRecorder) -> dict[str, Any]:
    at = ("tools", index)
    bag = KIT.claim(losses, tool.get("provider_metadata"), at)
    declaration = restore_fields(bag)
    declaration["name"] = tool_name(tool["name"], losses, at, PROVIDER, GEMINI_TOOL_NAMES)
    if tool.get("description") is not None:
        declaration["description"] = tool["description"]
    parameters: dict[str, Any] | None = tool.get("parameters")
    if parameters is None:  # left out of the data: the canonical default
        parameters = {"type": "object", "properties": {}}
    schema_key = bag.get(SCHEMA_KEY, "parametersJsonSchema")
    if schema_key in ("parameters", "parametersJsonSchema"):
        declaration[schema_key] = parameters
    elif parameters != _EMPTY_SCHEMA:
        declaration["parametersJsonSchema"] = parameters
    if tool.get("strict") is not None:
        losses.add((*at, "strict"), "strict", "Gemini function declarations have no strict switch", "setting")
    if tool.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache_control", NO_CACHE_MARKER, "setting")
    return declaration
