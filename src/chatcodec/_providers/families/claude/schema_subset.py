"""JSON Schema -> the subset Anthropic's strict tools and ``output_config.format`` take.

Structured outputs (a tool with ``strict: true``, ``output_config.format``; the same on
Claude on Bedrock, ``toolSpec.strict`` and ``outputConfig.textFormat``) compile the
schema into a grammar, and the API refuses a keyword it cannot compile ("property
'minimum' is not supported"; https://platform.claude.com/docs/en/build-with-claude/structured-outputs,
"JSON Schema limitations"). The Anthropic SDK rewrites every schema it sends that way
(``anthropic.lib._parse._transform.transform_schema``, read for its behaviour in
anthropic 2.12.0); this module does the same, node by node:

* kept: ``type``, ``anyOf``, ``allOf``, ``enum`` and ``const`` of JSON scalars,
  ``description``, ``title``, ``$defs`` (and ``definitions``), ``$ref``; on an object
  ``properties`` and ``required``; on a string a ``format`` of :data:`STRING_FORMATS`;
  on an array ``items``, and ``minItems`` of 0 or 1;
* ``oneOf`` -> ``anyOf`` (the grammar cannot hold "exactly one"; any one is what the model
  writes anyway);
* every object gets ``additionalProperties: false`` (the API requires it);
* any other keyword (``minimum``, ``maxLength``, ``pattern``, ``default``, ``examples``,
  another ``format``...) is moved into the ``description`` as ``{minimum: 1, maximum: 10}``
  after a blank line, so the model may still follow it;
* beside ``$ref`` only ``$defs`` stays (the SDK keeps nothing else there): the rest is
  dropped.

A schema already in the subset comes back as the same object, with no change.
"""

from __future__ import annotations

from typing import Any

from chatcodec._losses import Steps
from chatcodec._narrow import is_list
from chatcodec._providers.kit.arguments import compact_json
from chatcodec._providers.kit.schema_walk import SchemaChange, SchemaWalk, rewrite_schema, type_names

STRING_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
)
"""The string formats structured outputs take (the SDK's ``SupportedStringFormats``)."""

_EVERY_NODE = frozenset({"type", "anyOf", "allOf", "description", "title", "$defs", "definitions"})
_OBJECT = frozenset({"properties", "required", "additionalProperties"})
_WHY = "Anthropic's structured outputs take a subset of JSON Schema"


def to_anthropic_subset(schema: Any, at: Steps = ()) -> tuple[Any, list[SchemaChange]]:
    """``schema`` in the subset, and what changed (``at``: the schema's path)."""
    return rewrite_schema(schema, _node, at)


_PLAIN = frozenset({"type", "description", "title", "anyOf", "allOf", "$defs", "definitions"})
"""Keywords every node may hold whatever its value (but a description that is no text)."""


def _node(node: dict[str, Any], walk: SchemaWalk) -> dict[str, Any]:
    kind = node.get("type")
    scalar = kind is None or (kind.__class__ is str and kind != "object")
    if scalar and node.keys() <= _PLAIN and isinstance(node.get("description", ""), str):
        return node  # most nodes: a scalar with a description
    if "$ref" in node:
        return _reference(node, walk)
    names = type_names(node)
    is_object = "object" in names or (not names and "properties" in node)
    unsupported = [key for key in node if not _kept(node, key, names, is_object)]
    one_of = "oneOf" in node and "anyOf" not in node
    closes = is_object and node.get("additionalProperties") is not False
    if not unsupported and not closes:
        return node
    rewritten = {key: value for key, value in node.items() if key not in unsupported}
    if one_of:
        rewritten["anyOf"] = node["oneOf"]
        unsupported.remove("oneOf")
        walk.record(("oneOf",), "oneOf written as anyOf", _WHY)
    if closes:
        rewritten["additionalProperties"] = False
        what = "additionalProperties set to false"
        walk.record(("additionalProperties",), what, f"{_WHY}: objects must be closed")
    if unsupported:
        moved = ", ".join(f"{key}: {_text(node[key])}" for key in unsupported)
        description = rewritten.get("description")
        prefix = f"{description}\n\n" if isinstance(description, str) else ""
        rewritten["description"] = f"{prefix}{{{moved}}}"
        for key in unsupported:
            walk.record((key,), f"{key} moved into the description", _WHY)
    return rewritten


def _kept(node: dict[str, Any], key: str, names: tuple[str, ...], is_object: bool) -> bool:
    """Whether ``key`` of ``node`` is in the subset (``oneOf`` is not: it becomes ``anyOf``)."""
    value = node[key]
    if key in _EVERY_NODE:
        return key != "description" or isinstance(value, str)
    if key in _OBJECT:
        return is_object  # a schema or ``true`` under additionalProperties is closed below
    if key == "enum":
        return is_list(value) and bool(value) and all(_scalar(item) for item in value)
    if key == "const":
        return _scalar(value)
    if key == "format":
        return "string" in names and value in STRING_FORMATS
    if key == "items":
        return "array" in names
    if key == "minItems":
        return "array" in names and value in (0, 1) and value.__class__ is int
    return False


def _reference(node: dict[str, Any], walk: SchemaWalk) -> dict[str, Any]:
    dropped = [key for key in node if key not in ("$ref", "$defs", "definitions")]
    if not dropped:
        return node
    for key in dropped:
        walk.record((key,), f"{key} beside $ref dropped", f"{_WHY}: $ref stands alone")
    return {key: value for key, value in node.items() if key not in dropped}


def _scalar(value: object) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _text(value: object) -> str:
    """A moved keyword's value as the description shows it (compact JSON; a string as is)."""
    return value if isinstance(value, str) else compact_json(value)
