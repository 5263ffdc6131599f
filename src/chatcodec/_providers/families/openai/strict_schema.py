"""JSON Schema -> what OpenAI's strict mode takes: every object closed, every property required.

A function with ``strict: true`` (Chat and Responses) and a ``json_schema`` response format
with ``strict: true`` are refused unless every object has ``additionalProperties: false``
and lists every property in ``required`` ("In addition, for strict mode, 'required' must
include every key in properties";
https://platform.openai.com/docs/guides/structured-outputs#supported-schemas, "All fields
must be required"). An optional property is written the way OpenAI's guide says to
emulate one: required, and nullable (``"null"`` added to its ``type``, a ``{"type":
"null"}`` branch added to its ``anyOf``, else the property wrapped as ``{"anyOf":
[property, {"type": "null"}]}``). The model then sends ``null`` where it would have left
the key out. The openai SDK's ``to_strict_json_schema`` closes objects and requires every
property the same way (its pydantic models already spell optional fields as nullable).

Which keywords strict mode takes beside these (OpenAI keeps a list) is not changed here.
A schema already strict comes back as the same object, with no change.
"""

from __future__ import annotations

from typing import Any

from chatcodec._losses import Steps
from chatcodec._narrow import is_dict, is_list
from chatcodec._providers.kit.schema_walk import SchemaChange, SchemaWalk, rewrite_schema, type_names

_WHY = "OpenAI's strict mode needs every object closed and every property required"


def to_openai_strict(schema: Any, at: Steps = ()) -> tuple[Any, list[SchemaChange]]:
    """``schema`` as strict mode takes it, and what changed (``at``: the schema's path)."""
    return rewrite_schema(schema, _node, at)


def _node(node: dict[str, Any], walk: SchemaWalk) -> dict[str, Any]:
    kind = node.get("type")
    if kind.__class__ is str and kind != "object":
        return node  # most nodes: a scalar
    names = type_names(node)
    if not ("object" in names or (not names and "properties" in node)):
        return node
    properties = node.get("properties")
    properties = properties if is_dict(properties) else {}
    required = node.get("required")
    listed = [name for name in required if isinstance(name, str)] if is_list(required) else []
    optional = [name for name in properties if name not in listed]
    closes = node.get("additionalProperties") is not False
    if not optional and not closes:
        return node
    rewritten = dict(node)
    if closes:
        rewritten["additionalProperties"] = False
        walk.record(("additionalProperties",), "additionalProperties set to false", _WHY)
    if optional:
        rewritten["required"] = [*listed, *optional]
        rewritten["properties"] = {
            name: nullable(value) if name in optional else value for name, value in properties.items()
        }
        for name in optional:
            what = f"optional property {name!r} made required and nullable"
            walk.record(
                (
                    "properties",
                    name,
                ),
                what,
                _WHY,
            )
    return rewritten


def nullable(schema: Any) -> Any:
    """``schema`` accepting ``null`` too (the same object when it already does, or takes
    anything)."""
    if schema.__class__ is not dict:
        return schema  # ``true`` takes null already; ``false`` stays refused
    kind = schema.get("type")
    enum = schema.get("enum")
    if (isinstance(kind, str) or is_list(kind)) and "const" not in schema and (enum is None or is_list(enum)):
        names = [kind] if isinstance(kind, str) else kind
        if "null" in names and (enum is None or None in enum):
            return schema
        widened = {**schema, "type": names if "null" in names else [*names, "null"]}
        if enum is not None and None not in enum:
            widened["enum"] = [*enum, None]
        return widened
    branches = schema.get("anyOf")
    if is_list(branches) and kind is None:
        if {"type": "null"} in branches:
            return schema
        return {**schema, "anyOf": [*branches, {"type": "null"}]}
    if not schema.keys() - {"description", "title", "default", "examples", "$comment"}:
        return schema  # takes any value
    return {"anyOf": [schema, {"type": "null"}]}
