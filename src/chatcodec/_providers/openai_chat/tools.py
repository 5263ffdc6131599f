"""Tool definitions and ``tool_choice`` <-> canonical tools.

A ``function`` tool is a canonical :class:`~chatcodec.ToolDefinition`; any other tool
(``custom`` tools, a compatible server's own kinds) is kept whole in ``provider_tools``,
with its position when a function tool follows it, so the list comes back as it was; a
Responses custom tool is written as Chat's (``families/openai/custom_tools.py``).
A ``tool_choice`` string is a canonical choice of that type; a named function is
``{"type": "tool", "name": ...}``; other shapes (``allowed_tools``, a custom tool) stay in
the request's bag as they are. Function names follow
:func:`~chatcodec._providers.kit.tool_name` here, in tool calls and in ``tool_choice``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from chatcodec._providers.families.openai.custom_tools import chat_tool_from_responses
from chatcodec._providers.families.openai.strict_schema import to_openai_strict
from chatcodec._providers.families.schema_writing import (
    AS_SENT,
    STRICT_SCHEMA_OPTION,
    openai_strict_schema,
    read_as_sent,
)
from chatcodec._providers.openai_chat import cache_control
from chatcodec._providers.openai_chat import wire as shapes
from chatcodec._providers.openai_chat.markers import KIT, PROVIDER, opaque
from chatcodec.codec_kit import (
    COMMON_TOOL_NAMES,
    absent_keys,
    as_dict,
    leftovers,
    mark_absent,
    present_keys,
    shape_fields,
    tool_name,
    unmapped_fields,
    wire_fields,
)

if TYPE_CHECKING:
    from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder, Reading, Steps


_RESPONSES = "openai-responses"
"""The sibling wire whose custom tools are respelled as Chat's."""


def _default_parameters() -> dict[str, Any]:
    """A canonical tool's default ``parameters`` (``ToolDefinition.parameters``): an
    object schema with no properties, a new one each time (the data is the caller's)."""
    return {"type": "object", "properties": {}}


def decode_tools(
    request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
) -> None:
    """Fill ``tools``, ``provider_tools`` and ``tool_choice`` (``bag`` is the request's own
    bag, unused: what is not mapped stays in the request's leftovers)."""
    recalled = context.tools_recalled if context.closed else None
    _decode_function_tools(request, canonical, exact=context.closed, reading=context.reading, recalled=recalled)
    decode_tool_choice(request, canonical)


def _decode_function_tools(
    wire: dict[str, Any],
    data: dict[str, Any],
    *,
    exact: bool,
    reading: Reading | None,
    recalled: tuple[list[dict[str, Any]] | None, bytes] | None = None,
) -> None:
    """``exact``: the closed front's copy (:func:`~chatcodec._providers.kit.schema_memory.cached_rewrite`);
    ``reading``: a conversion's, for its writer; ``recalled``: what the front found of the
    caller's tools before it took them (:mod:`~chatcodec._providers.families.openai.tools_front`)."""
    tools = wire.get("tools")
    if not tools:
        return  # null or []: kept as it is
    if recalled is not None and recalled[0] is not None:  # read before, left unchecked by the front
        data["tools"] = recalled[0]
        return
    functions_left = sum(1 for tool in tools if tool["type"] == "function")
    if functions_left == len(tools):  # each schema asked: the answers remembered by value
        read = _asked_exact if exact else _asked
        if reading is None:
            data["tools"] = read(tools, None)
            return
        found, text = (None, recalled[1]) if recalled is not None else reading.recall_tools(tools, read, "function")
        if found is None:
            start = len(reading.own)
            found = read(tools, reading)
            whole = recalled is not None  # remembered by the caller's list: its schemas too
            reading.remember_tools(text, read, tools, found, start=start, nested="function", whole=whole)
        data["tools"] = found
        return
    if functions_left:
        data["tools"] = [_decode_function_tool(tool, exact, reading) for tool in tools if tool["type"] == "function"]
    provider_tools: list[dict[str, Any]] = []
    for position, tool in enumerate(tools):
        if tool["type"] == "function":
            functions_left -= 1
        else:  # kept whole; its position matters only when a function tool follows it
            provider_tools.append(opaque(tool, {"_position": position} if functions_left else {}))
    data["provider_tools"] = provider_tools


_FUNCTION_KEYS = shape_fields(shapes.FunctionDefinition)
"""The fields a function's shape types (``wire.py``), all read here."""
_FUNCTION_KEY_SET = frozenset(_FUNCTION_KEYS)
_TAKEN, _TAKES = COMMON_TOOL_NAMES.accepted, COMMON_TOOL_NAMES.takes


def _asked_exact(tools: list[dict[str, Any]], reading: Reading | None) -> list[dict[str, Any]]:
    """The function tools of a closed front's copy, each schema asked whether it goes back
    as it came (for this format's writer): the memory of tool readings keeps them
    (:mod:`~chatcodec._providers.kit.remembered_tools`), as the as-sent test is most of a
    tool's reading."""
    return [_decode_function_tool(tool, True, reading) for tool in tools]


def _asked(tools: list[dict[str, Any]], reading: Reading | None) -> list[dict[str, Any]]:
    """:func:`_asked_exact` for tools read without the closed front."""
    return [_decode_function_tool(tool, False, reading) for tool in tools]


FRONT_KEY = _asked_exact
"""The key of the readings the closed front looks up by the caller's own tools
(:mod:`~chatcodec._providers.families.openai.tools_front`): the closed front's copy read."""


def _decode_function_tool(tool: dict[str, Any], exact: bool, reading: Reading | None) -> dict[str, Any]:
    function: dict[str, Any] = tool["function"]
    as_sent = "parameters" in function and _as_sent(function, exact, reading)
    if (
        not as_sent
        and len(tool) == 2
        and "name" in function
        and "parameters" in function
        and function.keys() <= _FUNCTION_KEY_SET
        and None not in function.values()
    ):  # every key mapped and nothing for a bag: what the steps below give it, at a fifth of the cost
        return {"type": "function", **function}
    mapped = ["name", *present_keys(function, "description", "parameters", "strict")]
    definition = {"type": "function", **{key: function[key] for key in mapped}}
    if "parameters" not in definition:
        definition["parameters"] = _default_parameters()
    bag = leftovers(tool, ("type", "function"))
    function_rest = unmapped_fields(function, mapped)
    if function_rest:
        bag["function"] = function_rest
    mark_absent(bag, function, "parameters")
    cache_control.take(bag, definition)
    if as_sent:  # sent back unchanged (families/schema_writing.py)
        bag[AS_SENT] = True
    return KIT.attach(definition, bag)


def _as_sent(function: dict[str, Any], exact: bool, reading: Reading | None) -> bool:
    """Whether the function's schema goes back unchanged though this writer would rewrite it."""
    rewrite = to_openai_strict if function.get("strict") is True else None
    return read_as_sent(function["parameters"], rewrite, exact=exact, reading=reading)


def decode_tool_choice(wire: dict[str, Any], data: dict[str, Any]) -> None:
    """The canonical ``tool_choice`` of a string or a named function (other shapes stay in the bag)."""
    choice = wire.get("tool_choice")
    if isinstance(choice, str):
        data["tool_choice"] = {"type": choice}
        return
    named = as_dict(choice)
    function = as_dict(named.get("function")) if named is not None else None
    if named is None or function is None or set(named) != {"type", "function"} or set(function) != {"name"}:
        return  # allowed_tools, custom tools: kept as they are
    data["tool_choice"] = {"type": "tool", "name": function["name"]}


def encode_tools(request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext) -> None:
    """Write ``tools`` (function tools, and this provider's own tools at their places) and
    ``tool_choice`` for canonical request data; ``bag`` is the request's own bag (unused:
    OpenAI keeps nothing there)."""
    losses = context.losses
    definitions: list[Mapping[str, Any]] = request.get("tools") or []
    provider_tools: list[Mapping[str, Any]] = request.get("provider_tools") or []
    tools = encode_functions(definitions, context)
    for index, tool in enumerate(provider_tools):
        provider = tool["provider"]
        if provider != PROVIDER:
            custom = chat_tool_from_responses(tool["data"], losses, ("provider_tools", index))
            if custom is not None and provider == _RESPONSES:
                tools.append(custom)  # the sibling wire's custom tool, respelled
                continue
            losses.add(("provider_tools", index), f"{provider} tool", f"{PROVIDER} has no {provider} hosted tools")
            continue
        data: Mapping[str, Any] = tool["data"]
        if not isinstance(data.get("type"), str):
            # OpenAI tells every tool by its ``type``; one without it is refused by the API
            # (and by this codec's own decoder), so it is not written.
            losses.add(("provider_tools", index), "openai-chat tool without a type", "OpenAI requires a tool's type")
            continue
        position = KIT.marker(tool.get("provider_metadata"), "_position")
        at = position if isinstance(position, int) and 0 <= position <= len(tools) else len(tools)
        tools.insert(at, dict(data))
    if tools:
        wire["tools"] = tools
    encode_choice(request, wire, losses)


def encode_choice(request: Mapping[str, Any], wire: dict[str, Any], losses: LossRecorder) -> None:
    """Write the canonical ``tool_choice`` of ``request``: a type alone as its string, a named
    tool as a named function (its name by OpenAI's rule). Lifted out of :func:`encode_tools` for
    a direct path's top level (``chatcodec._direct``), which calls it too."""
    choice = request.get("tool_choice")
    if choice is not None:
        kind = choice.get("type", "auto")
        name = choice.get("name")
        if kind == "tool" and name is not None:
            name = tool_name(name, losses, ("tool_choice",), PROVIDER)
            wire["tool_choice"] = {"type": "function", "function": {"name": name}}
        else:
            wire["tool_choice"] = kind


def encode_functions(definitions: Sequence[Mapping[str, Any]], context: EncodeContext) -> list[dict[str, Any]]:
    """The canonical function tools ``definitions`` written (:func:`_encode_function_tools`,
    under the caller's ``strict_schema`` option). Lifted out of :func:`encode_tools` for a direct
    path's top level (``chatcodec._direct``), which calls it too."""
    return _encode_function_tools(definitions, context, context.option(STRICT_SCHEMA_OPTION))


def _encode_function_tools(
    definitions: Sequence[Mapping[str, Any]], context: EncodeContext, strict_schema: object
) -> list[dict[str, Any]]:
    """The function tools, as :func:`_encode_function_tool` writes each: the same tools
    recalled by the conversion's reading (an agent's every request) are written as this
    writer wrote them before with no loss (``strict_schema`` part of the key), from the
    memory of tool readings (:meth:`~chatcodec.contract.Reading.written_tools`)."""
    losses, reading = context.losses, context.reading
    key = (_encode_function_tool, strict_schema)
    if reading is not None and definitions:
        found = reading.written_tools(definitions, key, nested=_NESTED)
        if found is not None:
            return found
    count = losses.count()
    tools = [
        _encode_function_tool(tool, losses, index, strict_schema, reading) for index, tool in enumerate(definitions)
    ]
    if reading is not None and definitions and losses.count() == count:
        reading.remember_written_tools(definitions, key, tools, nested=_NESTED)
    return tools


_NESTED = "function"
"""The key of the object a written function tool holds its ``parameters`` in."""
_TOOL_KEYS = frozenset({"type", "name", "description", "parameters", "strict"})
_TOOL_KEYS_AND_BAGS = _TOOL_KEYS | {"provider_metadata"}


def _strict_function(
    function: dict[str, Any],
    losses: LossRecorder,
    at: Steps,
    strict_schema: object,
    as_sent: object = False,
    *,
    reading: Reading | None,
) -> None:
    """A function's ``parameters`` as JSON Schema, and as strict mode takes them when its
    ``strict`` is true (or ``strict: false`` by the ``strict_schema`` option): families/schema_writing.py."""
    parameters, strict = function["parameters"], function.get("strict")
    schema, strict = openai_strict_schema(
        parameters, strict, losses, at, strict_schema, as_sent=as_sent, reading=reading
    )
    function["parameters"] = schema
    if strict is not None:
        function["strict"] = strict


def _encode_function_tool(
    tool: Mapping[str, Any], losses: LossRecorder, index: int, strict_schema: object, reading: Reading | None
) -> dict[str, Any]:
    if (
        tool.keys() <= _TOOL_KEYS
        or (
            tool.keys() <= _TOOL_KEYS_AND_BAGS
            and tool.get("parameters") is not None
            and KIT.spelling_only(tool.get("provider_metadata"))
        )
    ) and (tool["name"] in _TAKEN or _TAKES(tool["name"])):
        # nothing kept, nothing to report (another format's spelling: a Responses tool's
        # "strict": null): what the steps below give it, at a fraction of the cost
        plain = {key: tool[key] for key in _FUNCTION_KEYS if tool.get(key) is not None}
        if "parameters" not in plain:
            plain["parameters"] = _default_parameters()
        else:
            _strict_function(plain, losses, ("tools", index, "parameters"), strict_schema, reading=reading)
        return {"type": "function", "function": plain}
    metadata = tool.get("provider_metadata")
    KIT.report_foreign(losses, metadata, ("tools", index))
    bag = KIT.own(metadata)
    function_rest = as_dict(bag.pop("function", None)) or {}
    function: dict[str, Any] = {**function_rest, "name": tool_name(tool["name"], losses, ("tools", index), PROVIDER)}
    description = tool.get("description")
    if description is not None:
        function["description"] = description
    parameters = tool.get("parameters")
    if parameters is None:
        parameters = _default_parameters()
    left_out = "parameters" in absent_keys(bag) or "parameters" in function_rest  # absent, or a kept null
    if not (left_out and parameters == _default_parameters()):
        function["parameters"] = parameters
    strict = tool.get("strict")
    if strict is not None:
        function["strict"] = strict
    if "parameters" in function:
        _strict_function(
            function, losses, ("tools", index, "parameters"), strict_schema, bag.get(AS_SENT), reading=reading
        )
    wire = {**wire_fields(bag), "type": "function", "function": function}
    why = "OpenAI tools take no cache breakpoint"
    cache_control.write(wire, tool.get("cache_control"), metadata, losses, ("tools", index), why=why)
    return wire
