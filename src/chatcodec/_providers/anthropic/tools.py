"""Tool definitions and ``tool_choice`` <-> canonical tools.

A client tool (``input_schema``; ``type`` absent or ``"custom"``) is a canonical
:class:`~chatcodec.ToolDefinition`; a server tool (``type`` like
``web_search_20250305`` or ``code_execution_20250522``) runs on Anthropic's side and is
kept whole in ``provider_tools``. When the two kinds were interleaved, their order is
kept as a ``_tool_order`` marker so the list comes back as it was.

``tool_choice.type`` ``any`` is canonical ``required``; ``disable_parallel_tool_use: true``
is canonical ``parallel_tool_calls=False`` (sent on an ``auto`` choice when the request
names no choice, which means the same thing). Tool names follow
:func:`~chatcodec._providers.kit.tool_name` here, in tool calls and in ``tool_choice``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.anthropic import wire as shapes
from chatcodec._providers.anthropic.encode_context import AnthropicContext
from chatcodec._providers.anthropic.markers import KIT, PROVIDER
from chatcodec._providers.anthropic.parts import opaque
from chatcodec._providers.families.claude.schema_subset import to_anthropic_subset
from chatcodec._providers.families.schema_writing import AS_SENT, anthropic_schema, json_schema, read_as_sent
from chatcodec.codec_kit import (
    as_dict,
    as_list,
    decode_cache_control,
    restore_fields,
    rule_error,
    shape_fields,
    split_fields,
    tool_name,
)
from chatcodec.contract import DecodeContext, Reading

_TOOL_FIELDS = frozenset({"name", "description", "input_schema", "strict"})
_CHOICE_FIELDS = frozenset(shape_fields(shapes.ToolChoice))
"""The fields the tool choice shape types (``wire.py``), all read here."""
_CHOICE_TYPES = {"auto": "auto", "any": "required", "tool": "tool", "none": "none"}
"""Anthropic's ``tool_choice.type`` -> the canonical one (the one table of the two)."""
_WIRE_CHOICE_TYPES = {canonical: wire for wire, canonical in _CHOICE_TYPES.items()}
_FUNCTION, _SERVER = "function", "server"
_SCHEMA = "input_schema"
"""Where a client tool holds its JSON Schema (canonical ``parameters``)."""


def empty_schema() -> dict[str, Any]:
    """Canonical ``ToolDefinition.parameters`` when none is given (an object taking no
    arguments; ``tests/providers/anthropic`` holds it equal to the model's default)."""
    return {"type": "object", "properties": {}}


def decode_tools(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Fill ``tools``, ``provider_tools``, ``tool_choice`` and ``parallel_tool_calls``."""
    tools = as_list(request.get("tools"))
    reading = context.reading
    if tools is not None:
        recalled = _recalled_client_tools(tools, exact=context.closed, reading=reading)
        if recalled is not None:
            canonical["tools"] = recalled
            tools = []  # each a client tool, read: no server tool, no order to keep
        functions: list[dict[str, Any]] = []
        servers: list[dict[str, Any]] = []
        order: list[str] = []
        for index, tool in enumerate(tools):
            if tool.get("type") in (None, "custom"):
                functions.append(_decode_tool(tool, index, exact=context.closed, reading=reading))
                order.append(_FUNCTION)
            else:
                servers.append(opaque(tool))
                order.append(_SERVER)
        if functions:
            canonical["tools"] = functions
        if servers:
            canonical["provider_tools"] = servers
        if servers and functions and order != sorted(order, key=lambda kind: kind == _SERVER):
            bag["_tool_order"] = order
        if not tools and recalled is None:
            bag["_empty_tools"] = True
    choice = as_dict(request.get("tool_choice"))
    if choice is not None:
        _decode_choice(choice, canonical, bag)


def _recalled_client_tools(
    tools: list[dict[str, Any]], *, exact: bool, reading: Reading | None
) -> list[dict[str, Any]] | None:
    """The canonical tools of ``tools`` when each is a client tool and a conversion's
    ``reading`` is there to note what the writer may reuse: from the memory of tool readings
    when the same tools were read before (an agent sends them with every request,
    :mod:`~chatcodec._providers.kit.remembered_tools`), else read by :func:`_decode_tool` and
    remembered; None for any other list (read tool by tool)."""
    if reading is None or not tools or not client_tools(tools):
        return None
    read = read_client_tools if exact else _read
    found, text = reading.recall_tools(tools, read, schema=_SCHEMA)
    if found is None:
        start = len(reading.own)
        found = read(tools, reading)
        reading.remember_tools(text, read, tools, found, start=start, schema=_SCHEMA)
    return found


def client_tools(tools: list[Any]) -> bool:
    """Whether each of ``tools`` is a client tool (no ``type``, or ``custom``): the tools whose
    reading is remembered whole (a server tool is kept by reference, in its order)."""
    return all(tool.__class__ is dict and tool.get("type") in (None, "custom") for tool in tools)


def read_client_tools(tools: list[dict[str, Any]], reading: Reading | None) -> list[dict[str, Any]]:
    """Client ``tools`` of the closed front's copy, read: the key of their remembered reading
    (a direct path recalls them by it, the caller's own list, before any front checks them)."""
    return [_decode_tool(tool, index, exact=True, reading=reading) for index, tool in enumerate(tools)]


def _read(tools: list[dict[str, Any]], reading: Reading | None) -> list[dict[str, Any]]:
    """:func:`read_client_tools` for tools the full wire shapes validated."""
    return [_decode_tool(tool, index, exact=False, reading=reading) for index, tool in enumerate(tools)]


def _decode_tool(tool: dict[str, Any], index: int, *, exact: bool, reading: Reading | None) -> dict[str, Any]:
    """``exact``: the closed front's copy (:func:`~chatcodec._providers.kit.schema_memory.cached_rewrite`);
    ``reading``: a conversion's, for its writer."""
    name = tool.get("name")
    if name is None:  # a client tool names itself (a toolset entry, which has no name, has a type)
        raise rule_error("Anthropic request", ("tools", index, "name"), "missing", "Field required", tool)
    if not name:  # canonical tools need a name (a server tool is kept whole, whatever it holds)
        raise rule_error("Anthropic request", ("tools", index, "name"), "string_too_short", _NO_NAME, name)
    definition: dict[str, Any] = {"type": "function", "name": name}
    if tool.get("description") is not None:
        definition["description"] = tool["description"]
    schema = tool.get("input_schema")
    definition["parameters"] = schema if schema is not None else empty_schema()
    if tool.get("strict") is not None:
        definition["strict"] = tool["strict"]
    mapped = _TOOL_FIELDS
    marker = decode_cache_control(tool.get("cache_control"))
    if marker is not None:
        definition["cache_control"] = marker
        mapped = mapped | {"cache_control"}
    rest = split_fields(tool, mapped)
    if "input_schema" not in tool:
        rest["_no_input_schema"] = True
    elif read_as_sent(
        schema, to_anthropic_subset if tool.get("strict") is True else None, exact=exact, reading=reading
    ):
        rest[AS_SENT] = True  # sent back unchanged (families/schema_writing.py)
    return KIT.attach(definition, rest)


_NO_NAME = "String should have at least 1 character"


def _decode_choice(choice: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    kind = _CHOICE_TYPES[choice["type"]]
    if (kind == "tool") != ("name" in choice):  # canonical's rule: a name with ``tool``, and only then
        why = "name is required when type is 'tool', and only then"
        raise rule_error("Anthropic request", ("tool_choice",), "value_error", why, choice)
    canonical["tool_choice"] = {"type": kind, "name": choice["name"]} if "name" in choice else {"type": kind}
    if "disable_parallel_tool_use" in choice:
        canonical["parallel_tool_calls"] = not choice["disable_parallel_tool_use"]
    rest = split_fields(choice, _CHOICE_FIELDS)
    if rest:
        bag["tool_choice"] = rest


def encode_tools(
    request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: AnthropicContext
) -> None:
    """Write ``tools`` and ``tool_choice`` (tools first: they open the cached prefix)."""
    wire.pop("tools", None)
    functions = _encode_functions(request.get("tools") or [], context)
    servers: list[dict[str, Any]] = []
    for index, tool in enumerate(request.get("provider_tools") or ()):
        at = ("provider_tools", index)
        if tool["provider"] != PROVIDER:
            context.losses.add(
                at, f"{tool['provider']} tool", "only Anthropic's own server tools can be sent to Anthropic"
            )
            continue
        if not _is_tool(tool["data"]):
            why = "an Anthropic tool has a server tool's type or a client tool's name; this has neither: not sent"
            context.losses.add((*at, "data"), "anthropic tool", why)
            continue
        KIT.claim(context.losses, tool.get("provider_metadata"), at)
        servers.append(context.cache(dict(tool["data"]), tool.get("cache_control"), at))
    tools = _ordered(functions, servers, as_list(bag.get("_tool_order"))) if servers else functions
    if tools or bag.get("_empty_tools"):
        wire["tools"] = tools
    encode_choice(request, wire, context)


def _is_tool(data: Mapping[str, Any]) -> bool:
    """Whether a kept tool is one Anthropic (and this codec's reader) takes: a server tool
    names its ``type``, a client tool its ``name`` (``{}``, which an edited or generated
    canonical request may hold, is neither)."""
    return data.get("type") not in (None, "custom") or isinstance(data.get("name"), str)


def _encode_functions(tools: list[dict[str, Any]], context: AnthropicContext) -> list[dict[str, Any]]:
    """The client tools, as :func:`encode_tool` writes each: the same tools recalled by the
    conversion's reading (an agent's every request) are written as this writer wrote them
    before (:meth:`~chatcodec._providers.contract.context.Reading.written_tools`), when that
    writing noted no loss and sent no cache marker (a marker is a breakpoint the context
    counts: the writing is then not a function of the tools alone)."""
    reading = context.reading
    if reading is not None and tools:
        found = reading.written_tools(tools, encode_tool, "input_schema")
        if found is not None:
            return found
    losses = context.losses.count()
    wire = [encode_tool(tool, index, context) for index, tool in enumerate(tools)]
    if reading is not None and context.losses.count() == losses and not any("cache_control" in tool for tool in wire):
        reading.remember_written_tools(tools, encode_tool, wire, "input_schema")
    return wire


def encode_tool(tool: Mapping[str, Any], index: int, context: AnthropicContext) -> dict[str, Any]:
    """A canonical function tool (the ``index``-th) as an Anthropic client tool (also the
    OpenAI Chat direct path's, for tools it did not write before)."""
    at = ("tools", index)
    metadata = tool.get("provider_metadata")
    rest = KIT.claim(context.losses, metadata, at) if metadata else {}
    name = tool_name(tool["name"], context.losses, at, PROVIDER)
    wire: dict[str, Any] = {**restore_fields(rest), "name": name} if rest else {"name": name}  # no bag: nothing else
    description = tool.get("description")
    if description is not None:
        wire["description"] = description
    strict = tool.get("strict")
    if not rest or not rest.get("_no_input_schema"):
        schema = tool.get("parameters")
        if schema is None:
            wire["input_schema"] = empty_schema()
        else:  # a strict tool's schema in the structured-outputs subset; JSON Schema in any case
            rewrite = anthropic_schema if strict is True else json_schema
            as_sent = rest.get(AS_SENT) if rest else None
            wire["input_schema"] = rewrite(
                schema, context.losses, (*at, "parameters"), as_sent=as_sent, reading=context.reading
            )
    if strict is not None:
        wire["strict"] = strict
    cache_control = tool.get("cache_control")
    if cache_control is None and "cache_control" not in wire:
        return wire
    return context.cache(wire, cache_control, at)


def _ordered(
    functions: list[dict[str, Any]], servers: list[dict[str, Any]], order: list[Any] | None
) -> list[dict[str, Any]]:
    """Client tools then server tools, unless the decoder recorded another order."""
    if order is None or order.count(_FUNCTION) != len(functions) or order.count(_SERVER) != len(servers):
        return functions + servers
    pending = {_FUNCTION: iter(functions), _SERVER: iter(servers)}
    return [next(pending[kind]) for kind in order]


def encode_choice(request: Mapping[str, Any], wire: dict[str, Any], context: AnthropicContext) -> None:
    """Write ``tool_choice`` for the request's canonical choice and ``parallel_tool_calls``
    (a kept ``tool_choice`` of the bag, in ``wire``, restored under them)."""
    rest = as_dict(wire.pop("tool_choice")) if "tool_choice" in wire else None  # a kept choice's fields: rare
    choice = request.get("tool_choice")
    parallel = request.get("parallel_tool_calls")
    if choice is None and parallel is not False:
        return
    kind = "auto" if choice is None else choice.get("type", "auto")
    written = _WIRE_CHOICE_TYPES[kind]
    encoded: dict[str, Any] = {**restore_fields(rest), "type": written} if rest else {"type": written}
    name = None if choice is None else choice.get("name")
    if name is not None:
        encoded["name"] = tool_name(name, context.losses, ("tool_choice",), PROVIDER)
    if kind != "none" and parallel is not None:
        encoded["disable_parallel_tool_use"] = not parallel
    elif parallel is False:
        at = ("parallel_tool_calls",)
        context.losses.add(
            at, "parallel_tool_calls", "Anthropic's tool_choice none takes no parallel setting", "setting"
        )
    wire["tool_choice"] = encoded
