"""JSON Schema ``type`` lists in Google's ``Schema`` spelling, for a Gemini that reads
only that: its OpenAI-compatible endpoint turns an OpenAI tool's ``parameters`` (and a
``json_schema`` response format) into Gemini's ``Schema``, whose ``type`` is one name
(https://ai.google.dev/api/caching#Schema), so ``"type": ["string", "null"]`` is a 400
("Proto field is not repeating, cannot start list"). Google's ``Schema`` says the same
with ``nullable`` and ``anyOf``:

* ``["string", "null"]`` -> ``"type": "string", "nullable": true``;
* ``["integer", "string"]`` -> ``anyOf: [{"type": "integer"}, {"type": "string"}]``
  (with ``nullable: true`` beside it when ``"null"`` is one of them);
* a list of one type -> that type.

A schema with no ``type`` list comes back as the same object (no walk result to copy).
"""

from __future__ import annotations

from typing import Any

from chatcodec._losses import Steps
from chatcodec._narrow import is_list
from chatcodec._providers.kit.schema_walk import SchemaChange, SchemaWalk, rewrite_schema

__all__ = ["single_types"]

_WHY = "Gemini's Schema takes one type name (nullable and anyOf say the rest)"


def single_types(schema: Any, at: Steps = ()) -> tuple[Any, list[SchemaChange]]:
    """``schema`` with every ``type`` list written as Google's ``Schema`` says it, and what changed."""
    return rewrite_schema(schema, _node, at)


def _node(node: dict[str, Any], walk: SchemaWalk) -> dict[str, Any]:
    types = node.get("type")
    if not is_list(types):
        return node
    names = [name for name in types if name != "null"]
    rewritten = {key: value for key, value in node.items() if key != "type"}
    if len(names) < len(types):
        rewritten["nullable"] = True
    if len(names) == 1:
        rewritten["type"] = names[0]
    elif names:
        rewritten["anyOf"] = [{"type": name} for name in names]
    walk.record(("type",), f"type list {types!r}", _WHY)
    return rewritten
