"""``tools``, ``tool_choice`` and ``parallel_tool_calls`` <-> canonical tools.

A ``function`` tool is flat in Responses (``name``, ``parameters``, ``strict`` beside
``type``, not under ``function`` as in Chat) and is a canonical
:class:`~chatcodec.ToolDefinition`. Every other kind (``web_search``, ``file_search``,
``computer_use_preview``, ``code_interpreter``, ``image_generation``, ``mcp``,
``local_shell``, ``custom`` ...) runs on OpenAI's side or has no canonical meaning and is
kept whole in ``provider_tools``; their interleaving is kept as a ``_tool_order`` marker. A
Chat custom tool is written as Responses' (``families/openai/custom_tools.py``).

``FunctionToolParam`` requires ``parameters`` and ``strict`` (both nullable), and the API
treats a missing ``strict`` as ``true``: a canonical tool with no ``strict`` is sent
``"strict": null`` (the provider default it asked for), and a wire tool without the key
is marked so it goes back without it.

``tool_choice`` is ``"auto"``, ``"none"``, ``"required"`` or ``{"type": "function",
"name": ...}``; other choices (``allowed_tools``, a built-in tool, ``mcp``) are kept whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._providers.families.openai.custom_tools import responses_tool_from_chat
from chatcodec._providers.families.openai.strict_schema import to_openai_strict
from chatcodec._providers.families.schema_writing import (
    AS_SENT,
    STRICT_SCHEMA_OPTION,
    openai_strict_schema,
    read_as_sent,
)
from chatcodec._providers.openai_responses.markers import KIT, PROVIDER
from chatcodec._providers.openai_responses.parts import canonical_text, opaque
from chatcodec.codec_kit import (
    COMMON_TOOL_NAMES,
    NULLS_MARKER,
    as_dict,
    as_list,
    restore_fields,
    split_fields,
    tool_name,
)
from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder, Reading, Steps

_CHOICES = ("auto", "none", "required")
_FUNCTION, _BUILT_IN = "function", "provider"
_TOOL_FIELDS = frozenset({"type", "name", "description", "parameters", "strict"})
"""A function tool's fields, read here (a set: :func:`~chatcodec._providers.kit.split_fields` asks each key)."""
_NO_PARAMETERS = "_no_parameters"
_NO_STRICT = "_no_strict"


def decode_tools(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Fill ``tools``, ``provider_tools``, ``tool_choice`` and ``parallel_tool_calls``."""
    tools = as_list(request.get("tools"))
    noted = context.reading
    functions = _remembered_function_tools(tools, noted, context.tools_recalled) if tools else None
    if functions is not None:  # function tools alone, the usual request
        canonical["tools"] = functions
    elif tools is not None:
        order = [_FUNCTION if _is_function(tool) else _BUILT_IN for tool in tools]
        functions = [
            decode_function_tool(tool, noted) for tool, kind in zip(tools, order, strict=True) if kind == _FUNCTION
        ]
        built_in = [opaque(tool) for tool, kind in zip(tools, order, strict=True) if kind != _FUNCTION]
        if functions:
            canonical["tools"] = functions
        if built_in:
            canonical["provider_tools"] = built_in
        if _BUILT_IN in order and order != sorted(order, key=lambda kind: kind == _BUILT_IN):
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


def _remembered_function_tools(
    tools: list[dict[str, Any]], noted: Reading | None, recalled: tuple[list[dict[str, Any]] | None, bytes] | None
) -> list[dict[str, Any]] | None:
    """:func:`_function_tools`, from the memory of tool readings in a conversion (``noted``;
    ``recalled``: what the closed front found of the caller's tools before it took them,
    :mod:`~chatcodec._providers.families.openai.tools_front`)."""
    if noted is None:
        return _function_tools(tools, None)
    if recalled is not None and recalled[0] is not None:  # read before, left unchecked by the front
        return recalled[0]
    functions, text = (None, recalled[1]) if recalled is not None else noted.recall_tools(tools, _function_tools)
    if functions is None:
        start = len(noted.own)
        functions = _function_tools(tools, noted)
        whole = recalled is not None  # remembered by the caller's list: its schemas too
        noted.remember_tools(text, _function_tools, tools, functions, start=start, whole=whole)
    return functions


def _function_tools(tools: list[dict[str, Any]], noted: Reading | None) -> list[dict[str, Any]] | None:
    """The canonical tools of ``tools`` when each is a function tool (None otherwise: the
    others are kept whole, by reference), for
    :func:`~chatcodec._providers.kit.remembered_tools.remember` to keep."""
    if not all(map(_is_function, tools)):
        return None
    return [decode_function_tool(tool, noted) for tool in tools]


FRONT_KEY = _function_tools
"""The key of the readings the closed front looks up by the caller's own tools
(:mod:`~chatcodec._providers.families.openai.tools_front`)."""


def decode_function_tool(tool: dict[str, Any], noted: Reading | None = None) -> dict[str, Any]:
    """A canonical tool for a ``function`` tool: its other fields in the bag, and markers
    for a ``parameters`` or ``strict`` the wire left out (both are written by default).
    Without ``parameters``, canonical's default is written, as the model dumps it. The
    ``null`` fields, the keys left out and whether the schema goes back as it came are this
    format's writer's to read: with ``noted`` (a conversion's record) they are kept there
    (:attr:`~chatcodec.contract.Reading.own`), and another writer passes them over."""
    definition: dict[str, Any] = {"type": "function", "name": tool["name"]}
    if tool.get("description") is not None:
        definition["description"] = tool["description"]
    parameters = tool.get("parameters")
    definition["parameters"] = {"type": "object", "properties": {}} if parameters is None else parameters
    if tool.get("strict") is not None:
        definition["strict"] = tool["strict"]
    rest = _tool_bag(tool)
    plain = None if noted is None else {key: value for key, value in rest.items() if key != NULLS_MARKER}
    if "parameters" not in tool:
        rest[_NO_PARAMETERS] = True
    elif parameters is not None and read_as_sent(
        parameters, to_openai_strict if tool.get("strict") is True else None, reading=noted
    ):
        rest[AS_SENT] = True  # sent back unchanged (families/schema_writing.py)
    if "strict" not in tool:
        rest[_NO_STRICT] = True
    if noted is None or plain is None:
        return KIT.attach(definition, rest)
    canonical = KIT.attach(definition, plain)  # the markers only this format's writer reads: in the record
    if len(plain) != len(rest):
        noted.own.append((canonical, PROVIDER, None, rest))
    return canonical
    if "parameters" not in tool:
        rest[_NO_PARAMETERS] = True
    elif parameters is not None and read_as_sent(parameters, to_openai_strict if tool.get("strict") is True else None):
        rest[AS_SENT] = True  # sent back unchanged (families/schema_writing.py)
    if "strict" not in tool:
        rest[_NO_STRICT] = True
    return KIT.attach(definition, rest)


def _tool_bag(tool: dict[str, Any]) -> dict[str, Any]:
    """:func:`~chatcodec._providers.kit.split_fields` of a function tool, answered in one
    look for the usual tool: no field but its own, and none ``null`` or only ``strict``
    (the OpenAI SDK's default, which a Responses agent sends on every tool of every
    request; the general split costs more)."""
    if tool.keys() <= _TOOL_FIELDS:
        nulls = [*tool.values()].count(None)
        if not nulls:
            return {}
        if nulls == 1 and tool.get("strict", False) is None:
            return {NULLS_MARKER: ["strict"]}
    return split_fields(tool, _TOOL_FIELDS)


def _is_function(tool: dict[str, Any]) -> bool:
    """Whether ``tool`` is a function tool canonical holds (a name it takes: non-empty,
    no lone surrogate), else it is kept whole with the built-in tools."""
    parameters = tool.get("parameters")
    return (
        tool.get("type") == "function"
        and canonical_text(tool.get("name"))
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


def encode_tools(request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext) -> None:
    """Write ``tools``, ``tool_choice`` and ``parallel_tool_calls``."""
    losses = context.losses
    wire.pop("tools", None)
    functions, built_in = request.get("tools"), request.get("provider_tools")
    if functions or built_in or bag.get("_empty_tools"):
        tools = _ordered(
            encode_functions(functions or [], context),
            _built_in(built_in or (), losses),
            as_list(bag.get("_tool_order")),
        )
        if tools or bag.get("_empty_tools"):
            wire["tools"] = tools
    encode_choice(request, wire, losses)


def encode_choice(request: Mapping[str, Any], wire: dict[str, Any], losses: LossRecorder) -> None:
    """Write ``tool_choice`` and ``parallel_tool_calls`` (a direct path's top level calls it too)."""
    choice = request.get("tool_choice")
    if choice is not None:
        kind = choice.get("type", "auto")
        wire["tool_choice"] = (
            kind
            if kind != "tool"
            else {"type": "function", "name": request_tool_name(choice.get("name") or "", losses, ("tool_choice",))}
        )
    if request.get("parallel_tool_calls") is not None:
        wire["parallel_tool_calls"] = request["parallel_tool_calls"]


_CHAT = "openai-chat"
"""The sibling wire whose custom tools are respelled as Responses'."""


def _built_in(tools: Sequence[Mapping[str, Any]], losses: LossRecorder) -> list[dict[str, Any]]:
    """This provider's own built-in tools, as they were; another provider's are reported."""
    built_in: list[dict[str, Any]] = []
    for index, tool in enumerate(tools):
        at = ("provider_tools", index)
        if tool["provider"] != PROVIDER:
            custom = responses_tool_from_chat(tool["data"], losses, at) if tool["provider"] == _CHAT else None
            if custom is not None:
                built_in.append(custom)  # the sibling wire's custom tool, respelled
                continue
            losses.add(at, f"{tool['provider']} tool", f"only {PROVIDER}'s own tools can be sent to it")
            continue
        KIT.report_foreign(losses, tool.get("provider_metadata"), at)
        built_in.append(dict(tool["data"]))
    return built_in


def request_tool_name(name: str, losses: LossRecorder, at: Steps) -> str:
    """A tool name as a request sends it (OpenAI's rule: :func:`~chatcodec._providers.kit.tool_name`,
    which remembers the names sent as they are in :data:`SENT_AS_IS`)."""
    return tool_name(name, losses, at, PROVIDER)


SENT_AS_IS = COMMON_TOOL_NAMES.accepted
"""Tool names OpenAI's rule took as they are: a loop may look a name up here first."""


def encode_functions(functions: list[dict[str, Any]], context: EncodeContext) -> list[dict[str, Any]]:
    """The function tools, as :func:`_encode_tool` writes each: the same tools recalled by
    the conversion's reading (an agent's every request) are written as this writer wrote
    them before with no loss (the :data:`STRICT_SCHEMA_OPTION`'s value part of the key), from
    the memory of tool readings (:meth:`~chatcodec._providers.contract.context.Reading.written_tools`)."""
    option = context.option(STRICT_SCHEMA_OPTION)  # asked once, not per tool
    reading = context.reading
    key = (_encode_tool, option)
    if reading is not None:
        found = reading.written_tools(functions, key)
        if found is not None:
            return found
    losses = context.losses.count()
    wire = [_encode_tool(tool, index, context, option) for index, tool in enumerate(functions)]
    if reading is not None and context.losses.count() == losses:
        reading.remember_written_tools(functions, key, wire)
    return wire


def _encode_tool(tool: Mapping[str, Any], index: int, context: EncodeContext, option: object) -> dict[str, Any]:
    """A function tool (``option``: the :data:`STRICT_SCHEMA_OPTION`'s value)."""
    losses = context.losses
    at = ("tools", index)
    metadata = tool.get("provider_metadata")
    rest = KIT.claim(losses, metadata, at) if metadata else {}
    name = tool["name"]
    if name not in SENT_AS_IS:  # the usual name, looked up first (as a request turn's calls are)
        name = request_tool_name(name, losses, at)
    wire: dict[str, Any] = (
        {**restore_fields(rest), "type": "function", "name": name} if rest else {"type": "function", "name": name}
    )
    description = tool.get("description")
    if description is not None:
        wire["description"] = description
    strict = tool.get("strict")
    # a tool with no bag (the usual one) has no marker to look up
    if not rest or (not rest.get(_NO_PARAMETERS) and "parameters" not in (as_list(rest.get(NULLS_MARKER)) or ())):
        parameters = tool.get("parameters")
        if parameters is None:
            wire["parameters"] = {"type": "object", "properties": {}}
        else:  # JSON Schema, and what strict mode takes when strict is true (families/schema_writing.py)
            at_schema, as_sent = (*at, "parameters"), rest.get(AS_SENT) if rest else None
            wire["parameters"], strict = openai_strict_schema(
                parameters, strict, losses, at_schema, option, as_sent=as_sent, reading=context.reading
            )
    if strict is not None:
        wire["strict"] = strict
    elif not rest or not rest.get(_NO_STRICT):
        wire["strict"] = None
    if tool.get("cache_control") is not None:
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
