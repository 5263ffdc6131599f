"""Walking a JSON Schema: where its subschemas sit, copy on write, a depth guard.

Every schema rewrite of this package is a rule for one schema object (a *node*) that
returns the node itself when it changes nothing, or a new dict; :func:`rewrite_schema`
applies it to the root and to every subschema below, copying only the containers on
the way to a change, so a schema the rule leaves alone comes back as the same object
(the writer sends the caller's own dict, and keeps nothing extra).

A schema is the caller's data: it may be nested past any sensible depth, or (built in
Python, not read from JSON) hold itself. ``$ref`` is never followed, so a reference
cycle costs nothing; nesting past :data:`MAX_DEPTH` subschemas is refused with a
:class:`~chatcodec.errors.ValidationError` naming the JSON path where it went too deep,
never a ``RecursionError``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chatcodec._narrow import is_list
from chatcodec.errors import ValidationError, rule_error
from chatcodec.losses import Steps

MAX_DEPTH = 64
"""Subschemas nested deeper than this are refused: no tool schema a model can fill needs
more, and the walk stays far from Python's recursion limit whatever called it."""

MAP_KEYWORDS = frozenset({"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"})
"""Keywords whose value maps names to subschemas."""
LIST_KEYWORDS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
"""Keywords whose value is a list of subschemas."""
ONE_KEYWORDS = frozenset(
    {
        "items",  # a list of subschemas in drafts before 2020-12: walked as one
        "additionalProperties",
        "additionalItems",
        "unevaluatedProperties",
        "unevaluatedItems",
        "propertyNames",
        "contains",
        "not",
        "if",
        "then",
        "else",
    }
)
"""Keywords whose value is one subschema."""


@dataclass(frozen=True, slots=True)
class SchemaChange:
    """One change a rewrite made, at a JSON path of the request (the schema's own path
    given by the caller, then the steps inside it)."""

    at: Steps
    """Where: ``("tools", 0, "parameters", "properties", "age", "minimum")``."""
    what: str
    """What changed (``minimum moved into the description``)."""
    why: str
    """Why the target needs it changed."""


NodeRule = Callable[[dict[str, Any], Steps, list[SchemaChange]], dict[str, Any]]
"""A rewrite of one node: the node itself when nothing changes, else a new dict; it
records each change it makes (at the node's path) in the list it is given."""


def rewrite_schema(schema: Any, rule: NodeRule, at: Steps) -> tuple[Any, list[SchemaChange]]:
    """``schema`` with ``rule`` applied to every node (the root first, then the subschemas
    the rewritten node holds), and the changes made; ``at`` is the schema's path in the
    request. A schema the rule leaves alone is returned as the same object."""
    walk = _Walk(rule)
    return walk.visit(schema, at, 0), walk.changes


def too_deep(at: Steps) -> ValidationError:
    """The error for a schema nested past :data:`MAX_DEPTH` (or holding itself)."""
    why = f"a schema is nested deeper than {MAX_DEPTH} subschemas (or holds itself)"
    return rule_error("tool or output schema", at, "schema_too_deep", why, "...")


class _Walk:
    """One rewrite under way: its rule and the changes recorded so far."""

    __slots__ = ("changes", "rule")

    def __init__(self, rule: NodeRule) -> None:
        self.rule = rule
        self.changes: list[SchemaChange] = []

    def visit(self, node: Any, at: Steps, depth: int) -> Any:
        if node.__class__ is not dict:
            return node  # a boolean schema, or a value no rule reads
        if depth > MAX_DEPTH:
            raise too_deep(at)
        rewritten = self.rule(node, at, self.changes)
        copied = rewritten is not node
        for keyword, value in rewritten.items():
            new_value = self.children(keyword, value, (*at, keyword), depth + 1)
            if new_value is not value:
                if not copied:
                    rewritten, copied = dict(rewritten), True
                rewritten[keyword] = new_value
        return rewritten

    def children(self, keyword: str, value: Any, at: Steps, depth: int) -> Any:
        """``value`` (what ``keyword`` holds) with its subschemas rewritten; the same
        object when none changed."""
        if keyword in ONE_KEYWORDS and value.__class__ is not list:
            return self.visit(value, at, depth)
        if keyword in MAP_KEYWORDS and value.__class__ is dict:
            mapped = {name: self.visit(child, (*at, name), depth) for name, child in value.items()}
            return value if all(mapped[name] is child for name, child in value.items()) else mapped
        if (keyword in LIST_KEYWORDS or keyword == "items") and value.__class__ is list:
            listed = [self.visit(child, (*at, index), depth) for index, child in enumerate(value)]
            return value if all(new is old for new, old in zip(listed, value, strict=True)) else listed
        return value


def type_names(node: dict[str, Any]) -> tuple[str, ...]:
    """The types a node names (``type`` as one string or a list), as it spells them;
    ``()`` when it names none."""
    kind = node.get("type")
    if isinstance(kind, str):
        return (kind,)
    if is_list(kind):
        return tuple(name for name in kind if isinstance(name, str))
    return ()
