"""Gemini's OpenAPI-subset schema -> JSON Schema, for every target that is not Gemini.

A Gemini function declaration's ``parameters`` and a request's ``responseSchema`` are
Google's ``Schema`` object (the OpenAPI 3.0 subset of
https://ai.google.dev/api/caching#Schema; google-genai's ``types.Schema``): upper-case
``type`` (``OBJECT``, ``STRING``, ``TYPE_UNSPECIFIED``), ``nullable``, ``format: "enum"``
beside a list of strings, ``propertyOrdering``, one ``example``, counts as int64 strings
(``"minItems": "1"``) and, in SDK dumps, snake_case keys (``any_of``, ``max_items``).
Gemini also takes plain JSON Schema (``parametersJsonSchema``, ``responseJsonSchema``),
which every other target reads: Anthropic answers an upper-case ``type`` with a 400,
OpenAI's strict mode refuses ``nullable``. So the schema is rewritten:

* ``type`` lower-cased (``TYPE_UNSPECIFIED``: no type); snake_case keys camelCased;
* ``nullable: true`` -> ``"null"`` added to ``type`` (a ``{"type": "null"}`` branch of
  ``anyOf``; ``null`` added to an ``enum``); ``nullable: false`` dropped;
* ``format: "enum"`` dropped (``enum`` says it); an ``INTEGER``/``NUMBER`` enum of
  numeric strings -> numbers;
* ``propertyOrdering`` dropped, ``properties`` written in its order;
* ``example`` -> ``examples: [example]``; int64 strings -> integers.

Spellings with the same meaning are reported once, at the schema's root; what cannot be
carried is reported where it was. A JSON Schema without these spellings comes back as
the same object, with no change (so it is safe on every schema: no detection step).
"""

from __future__ import annotations

from math import isfinite
from typing import Any

from chatcodec._losses import Steps
from chatcodec._narrow import is_dict, is_list
from chatcodec._providers.kit.schema_walk import SchemaChange, SchemaWalk, rewrite_schema

_SNAKE = {
    "any_of": "anyOf",
    "max_items": "maxItems",
    "min_items": "minItems",
    "max_length": "maxLength",
    "min_length": "minLength",
    "max_properties": "maxProperties",
    "min_properties": "minProperties",
    "property_ordering": "propertyOrdering",
    "additional_properties": "additionalProperties",
}
_COUNTS = frozenset({"maxItems", "minItems", "maxLength", "minLength", "maxProperties", "minProperties"})
_MARKS = frozenset({"nullable", "propertyOrdering", "example", *_SNAKE})
"""Keys only Gemini's spelling has."""
_NUMERIC = frozenset({"integer", "number"})
_TYPES = frozenset({"string", "number", "integer", "boolean", "array", "object", "null"})
"""Gemini's ``Type`` names, lower-cased (https://ai.google.dev/api/caching#Type): only
these are Gemini's spelling of a JSON Schema type; another name (``"A"``) is no type
either format knows, so it is left as it was, with no report."""
_UNSPECIFIED = "TYPE_UNSPECIFIED"
"""Gemini's "no type": the ``type`` is left out."""
_SPELLING = "spelling"
"""The ``what`` of a change that keeps the meaning (folded into one report)."""
_WHY = "the target reads JSON Schema, not Gemini's OpenAPI subset"


def from_openapi(schema: Any, at: Steps = ()) -> tuple[Any, list[SchemaChange]]:
    """``schema`` as JSON Schema, and what changed (``at``: the schema's path)."""
    rewritten, changes = rewrite_schema(schema, _node, at)
    if not changes:
        return rewritten, changes
    kept = [change for change in changes if change.what != _SPELLING]
    if len(kept) < len(changes):
        spelled = SchemaChange(at, "Gemini schema spellings (upper-case types, nullable, snake_case keys)", _WHY)
        kept.insert(0, spelled)
    return rewritten, kept


def _node(node: dict[str, Any], walk: SchemaWalk) -> dict[str, Any]:
    if not _has_openapi_keys(node):
        return node
    found = len(walk.changes)
    rewritten = _camel_cased(node, walk)
    _type(rewritten, walk)
    _nullable(rewritten, walk)
    _enum(rewritten, walk)
    _ordering(rewritten, walk)
    _example(rewritten, walk)
    for key in _COUNTS & rewritten.keys():
        value = rewritten[key]
        count = _count(value)
        if count is not None:
            rewritten[key] = count
            walk.record((key,), _SPELLING, _WHY)
    return rewritten if len(walk.changes) > found else node  # e.g. a count that is no number: as it was


def _camel_cased(node: dict[str, Any], walk: SchemaWalk) -> dict[str, Any]:
    """A copy of ``node`` with the SDK dumps' snake_case keys camelCased (one already in
    camelCase beside it wins)."""
    rewritten: dict[str, Any] = {}
    for key, value in node.items():
        camel = _SNAKE.get(key)
        if camel is None:
            rewritten[key] = value
            continue
        walk.record((key,), _SPELLING, _WHY)
        if camel not in node:
            rewritten[camel] = value
    return rewritten


def _example(node: dict[str, Any], walk: SchemaWalk) -> None:
    if "example" not in node:
        return
    example = node.pop("example")
    if "examples" not in node:
        node["examples"] = [example]
        walk.record(("example",), _SPELLING, _WHY)
    else:
        why = "JSON Schema has examples, which the schema holds already"
        walk.record(("example",), "example dropped", why)


def _has_openapi_keys(node: dict[str, Any]) -> bool:
    """Whether ``node`` holds anything this rewrite changes (most JSON Schema nodes do
    not: they are returned without a copy)."""
    kind = node.get("type")  # upper case is Gemini's ("STRING"); "" or "3" has no case to change
    if isinstance(kind, str):
        if _json_type(kind) != kind or kind == _UNSPECIFIED:
            return True
    elif is_list(kind) and any(
        isinstance(name, str) and (_json_type(name) != name or name == _UNSPECIFIED) for name in kind
    ):
        return True
    if not _MARKS.isdisjoint(node):
        return True
    if node.get("format") == "enum":
        return True
    return not _COUNTS.isdisjoint(node) and any(isinstance(node.get(key), str) for key in _COUNTS)


def _json_type(name: str) -> str:
    """A Gemini type name (any case) as JSON Schema spells it; any other name as it is
    (``TYPE_UNSPECIFIED``, no type at all, is handled by :func:`_type`)."""
    lower = name.lower()
    return lower if lower in _TYPES else name


def _type(node: dict[str, Any], walk: SchemaWalk) -> None:
    kind = node.get("type")
    if is_list(kind):
        names = [_json_type(name) if isinstance(name, str) else name for name in kind if name != _UNSPECIFIED]
    elif isinstance(kind, str):
        names = [] if kind == _UNSPECIFIED else [_json_type(kind)]
    else:
        return
    if names in (kind, [kind]):
        return
    walk.record(("type",), _SPELLING, _WHY)
    if not names:
        del node["type"]
    else:
        node["type"] = names if is_list(kind) else names[0]


def _nullable(node: dict[str, Any], walk: SchemaWalk) -> None:
    if "nullable" not in node:
        return
    nullable = node.pop("nullable")
    walk.record(("nullable",), _SPELLING, _WHY)
    if nullable is not True:
        return
    kind = node.get("type")
    if isinstance(kind, str) and kind != "null":
        node["type"] = [kind, "null"]
    elif is_list(kind) and "null" not in kind:
        node["type"] = [*kind, "null"]
    elif kind is None and is_list(node.get("anyOf")):
        node["anyOf"] = [*node["anyOf"], {"type": "null"}]
    enum = node.get("enum")
    if is_list(enum) and None not in enum:
        node["enum"] = [*enum, None]


def _enum(node: dict[str, Any], walk: SchemaWalk) -> None:
    if node.get("format") == "enum":
        del node["format"]
        walk.record(("format",), _SPELLING, _WHY)
    enum = node.get("enum")
    kind = node.get("type")
    names = kind if is_list(kind) else [kind]
    if not is_list(enum) or not _NUMERIC & set(names) or "string" in names:
        return
    numbers = [_number(value) for value in enum]
    converted = all(number is not None or value is None for number, value in zip(numbers, enum, strict=True))
    if converted and any(number.__class__ is not value.__class__ for number, value in zip(numbers, enum, strict=True)):
        node["enum"] = numbers
        walk.record(("enum",), _SPELLING, _WHY)


def _count(value: object) -> int | None:
    """A count Gemini spells as a string (``"5"``: int64 in its OpenAPI subset) as a number;
    None for any other string, and for one Python cannot parse as an int (a non-ASCII digit
    such as ``"\u00b2"``, which ``str.isdigit`` accepts; more than 4,300 digits), which stays
    as it was."""
    if not isinstance(value, str) or not (value.isascii() and value.isdigit()):
        return None
    try:
        return int(value)
    except ValueError:  # past the int parse's digit limit
        return None


def _number(value: object) -> int | float | None:
    """A numeric string of a Gemini enum (its values are strings) as a number; None for one
    no JSON number holds (``"1e400"`` reads as infinity, which is not JSON)."""
    if not isinstance(value, str):
        return value if isinstance(value, int | float) and not isinstance(value, bool) else None
    try:
        return int(value)
    except ValueError:
        try:
            number = float(value)
        except ValueError:
            return None
        return number if isfinite(number) else None


def _ordering(node: dict[str, Any], walk: SchemaWalk) -> None:
    if "propertyOrdering" not in node:
        return
    ordering = node.pop("propertyOrdering")
    properties = node.get("properties")
    names = [name for name in ordering if isinstance(name, str)] if is_list(ordering) else []
    if is_dict(properties):
        ordered = {name: properties[name] for name in names if name in properties}
        node["properties"] = {**ordered, **properties}
    why = "JSON Schema has no propertyOrdering; the properties are written in its order"
    walk.record(("propertyOrdering",), "propertyOrdering dropped", why)
