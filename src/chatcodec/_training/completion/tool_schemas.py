"""The tools offered to the model, as what a parser needs from them: each parameter's type.

Formats that write arguments as untyped text (XML parameters: Qwen3-Coder, MiniMax-M2,
GLM-4.5, DeepSeek's DSML) give ``<parameter=count>3</parameter>`` with no way to tell the
number 3 from the string ``"3"``; the tool's JSON Schema tells, as vLLM's parsers read it
from the request's tools. Tools are taken in the shapes users hold them: canonical
:class:`~chatcodec.ToolDefinition` objects or dicts, or OpenAI Chat's
``{"type": "function", "function": {...}}``.
"""

from __future__ import annotations

import json
import math
import reprlib
from collections.abc import Iterable, Mapping
from typing import Any, TypeAlias

from pydantic import BaseModel

from chatcodec._errors import PayloadError
from chatcodec._narrow import as_dict, as_list, is_dict, is_list

ToolSchemas: TypeAlias = Mapping[str, Mapping[str, Any]]
"""Each tool's name to its parameters' JSON Schema ``properties``."""


def read_tool_schemas(tools: Iterable[object] | None) -> ToolSchemas:
    """Each offered tool's parameter schemas by tool name; a tool in no shape known is refused
    with its path (``$.tools[2]``)."""
    if tools is None:
        return {}
    schemas: dict[str, Mapping[str, Any]] = {}
    for index, tool in enumerate(tools):
        found = as_dict(tool.model_dump() if isinstance(tool, BaseModel) else tool)
        if found is not None and as_dict(found.get("function")) is not None:
            found = as_dict(found["function"])
        name = None if found is None else found.get("name")
        if found is None or not isinstance(name, str):
            raise PayloadError(
                "a tool is a ToolDefinition or a dict with a name (OpenAI's function shape too)", f"$.tools[{index}]"
            )
        parameters = as_dict(found.get("parameters")) or {}
        schemas[name] = as_dict(parameters.get("properties")) or {}
    return schemas


def typed_value(raw: str, schema: object, *, untyped_as_json: bool = False) -> object:
    """``raw`` (a parameter's text) as the JSON value its schema says: a number, a boolean,
    null, an object or array parsed; the text itself for a string, or whenever it does not read
    as the type (the model's text is kept rather than guessed at). Without a schema, the
    text, or with ``untyped_as_json`` (GLM's rule) the JSON value it reads as."""
    kinds = _schema_types(schema)
    if not kinds:
        return _as_json(raw, raw) if untyped_as_json else raw
    if "string" in kinds and len(kinds) == 1:
        return raw
    text = raw.strip()
    if "null" in kinds and text in ("null", "None"):
        return None
    if _first_branch_type(schema) == "string":
        return raw
    if "boolean" in kinds and text.lower() in ("true", "false"):
        return text.lower() == "true"
    if "integer" in kinds or "number" in kinds:
        number = _as_json(text, None)
        if isinstance(number, (int, float)) and not isinstance(number, bool) and math.isfinite(number):
            return number
    if "object" in kinds or "array" in kinds:
        value = _as_json(text, None)
        if is_dict(value) or is_list(value):
            return value
    return raw


def string_only(schema: object) -> bool:
    """Whether ``schema`` types its value as a string and nothing else (no ``null`` beside it)."""
    return _schema_types(schema) == {"string"}


def _schema_types(schema: object) -> set[str]:
    found = as_dict(schema)
    if found is None:
        return set()
    kind = found.get("type")
    if isinstance(kind, str):
        return {_json_type(kind)}
    if is_list(kind):
        return {_json_type(item) for item in kind if isinstance(item, str)}
    kinds: set[str] = set()
    for key in ("anyOf", "oneOf"):
        branches = found.get(key)
        if is_list(branches):
            for branch in branches:
                kinds |= _schema_types(branch)
    if not kinds and "enum" in found:
        values = found["enum"]
        if is_list(values) and values and all(isinstance(value, str) for value in values):
            kinds.add("string")
    return kinds


def _first_branch_type(schema: object) -> str | None:
    """The type of a union's first branch that is not null (``anyOf``/``oneOf``), which decides a
    value's type as vLLM's Qwen3-Coder parser reads a union (``anyOf: [string, integer, null]``
    keeps ``7`` as the text ``"7"``: ``test_extract_tool_calls_anyof_type_conversion``,
    ``multi_non_null``); None for a schema that is no union."""
    found = as_dict(schema) or {}
    for key in ("anyOf", "oneOf"):
        for branch in as_list(found.get(key)) or ():
            kind = (as_dict(branch) or {}).get("type")
            if isinstance(kind, str) and _json_type(kind) != "null":
                return _json_type(kind)
    return None


def _json_type(name: str) -> str:
    """A schema's type name as JSON Schema spells it: tools written by hand (and by Python
    type hints) say ``int``, ``float``, ``bool``, ``dict``, ``list``, which vLLM's Qwen3-Coder
    parser reads as their JSON types (``vllm/tool_parsers/qwen3coder_tool_parser.py``,
    ``_convert_param_value``)."""
    lowered = name.strip().lower()
    if lowered in ("str", "text", "varchar", "char", "enum"):
        return "string"
    if lowered.startswith(("int", "uint", "long", "short", "unsigned")):
        return "integer"
    if lowered.startswith(("num", "float", "double")):
        return "number"
    if lowered in ("bool", "binary"):
        return "boolean"
    if lowered.startswith("dict"):
        return "object"
    if lowered.startswith(("list", "arr")):
        return "array"
    return lowered


def _as_json(text: str, default: object) -> object:
    try:
        return strict_json(text)
    except (ValueError, RecursionError):  # RecursionError: nested past Python's decoder
        return default


def strict_json(text: str) -> object:
    """``text`` read as JSON, refusing what Python's reader lets through and no JSON writer may
    write back: ``NaN`` and ``Infinity``, and a number beyond a float (``31e400``, which Python
    reads as infinity): a ``ValueError``, as for any text that is no JSON."""
    return json.loads(text, parse_constant=_no_constant, parse_float=_finite)


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is no JSON value")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is beyond a float")
    return value


def arguments_text(values: Mapping[str, object]) -> str:
    """The JSON text of arguments built from a format's own values (``ensure_ascii=False``:
    the model's characters, not escapes). A value JSON cannot hold (a Python ``1e999`` read as
    infinity) is a ``ValueError``: the arguments would be no JSON."""
    return json.dumps(values, ensure_ascii=False, allow_nan=False)


def repeated_values(values: Iterable[tuple[str, object]]) -> str:
    """The values a JSON object built from ``values`` drops: each parameter's earlier values
    where one is named more than once, as ``key=value`` text ('' where none is)."""
    last: dict[str, object] = {}
    dropped: list[str] = []
    for key, value in values:
        if key in last:
            dropped.append(f"{key}={reprlib.repr(last[key])}")
        last[key] = value
    return ", ".join(dropped)


def typed_arguments(
    tools: ToolSchemas, tool: str, values: list[tuple[str, str]], *, untyped_as_json: bool = False
) -> str:
    """The JSON arguments of a call to ``tool`` written as ``(parameter, text)`` pairs, each
    text typed by the tool's schema (:func:`typed_value`)."""
    properties = tools.get(tool, {})
    return arguments_text(
        {key: typed_value(raw, properties.get(key), untyped_as_json=untyped_as_json) for key, raw in values}
    )
