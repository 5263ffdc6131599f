"""Walking a JSON Schema: where its subschemas sit, copy on write, a depth guard.

Every schema rewrite of this package is a rule for one schema object (a *node*) that
returns the node itself when it changes nothing, or a new dict; :func:`rewrite_schema`
applies it to the root and to every subschema below, copying only the containers on
the way to a change, so a schema the rule leaves alone comes back as the same object
(the writer sends the caller's own dict, and keeps nothing extra).

A schema is the caller's data: it may be nested past any sensible depth, or (built in
Python, not read from JSON) hold itself. ``$ref`` is never followed, so a reference
cycle costs nothing; nesting past :data:`MAX_DEPTH` subschemas is refused with a
:class:`~chatcodec._errors.ValidationError` naming the JSON path where it went too deep,
never a ``RecursionError``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chatcodec._errors import ValidationError, rule_error
from chatcodec._losses import Steps
from chatcodec._narrow import is_list

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


NodeRule = Callable[[dict[str, Any], "SchemaWalk"], dict[str, Any]]
"""A rewrite of one node: the node itself when nothing changes, else a new dict; it
records each change it makes with :meth:`SchemaWalk.record`."""

SUBSCHEMA_KEYWORDS = MAP_KEYWORDS | LIST_KEYWORDS | ONE_KEYWORDS
"""Every keyword that holds subschemas."""


def rewrite_schema(schema: Any, rule: NodeRule, at: Steps) -> tuple[Any, list[SchemaChange]]:
    """``schema`` with ``rule`` applied to every node (the root first, then the subschemas
    the rewritten node holds), and the changes made; ``at`` is the schema's path in the
    request. A schema the rule leaves alone is returned as the same object."""
    walk = SchemaWalk(rule, at)
    return walk.visit(schema, 0), walk.changes


def too_deep(at: Steps) -> ValidationError:
    """The error for a schema nested past :data:`MAX_DEPTH` (or holding itself)."""
    why = f"a schema is nested deeper than {MAX_DEPTH} subschemas (or holds itself)"
    return rule_error("tool or output schema", at, "schema_too_deep", why, "...")


class SchemaWalk:
    """One rewrite under way: its rule, where it is, and the changes recorded so far.

    The path of the node at hand is kept as a stack of steps and made into a tuple only
    when a change is recorded: a walk that changes nothing builds no path."""

    __slots__ = ("_root", "_steps", "changes", "rule")

    def __init__(self, rule: NodeRule, root: Steps) -> None:
        self.rule: NodeRule = rule
        self.changes: list[SchemaChange] = []
        """What the rule changed, in the order found."""
        self._root = root
        self._steps: list[int | str] = []

    def at(self, steps: Steps = ()) -> Steps:
        """The request path of the node at hand, then ``steps`` inside it."""
        return (*self._root, *self._steps, *steps)

    def record(self, steps: Steps, what: str, why: str) -> None:
        """Record a change at ``steps`` inside the node at hand."""
        self.changes.append(SchemaChange(self.at(steps), what, why))

    def visit(self, node: Any, depth: int) -> Any:
        """``node`` rewritten, and its subschemas below it (the same object when nothing changed)."""
        if node.__class__ is not dict:
            return node  # a boolean schema, or a value no rule reads
        if depth > MAX_DEPTH:
            raise too_deep(self.at())
        rewritten = self.rule(node, self)
        if SUBSCHEMA_KEYWORDS.isdisjoint(rewritten):
            return rewritten  # a leaf: most nodes
        copied = rewritten is not node
        steps = self._steps
        for keyword, value in rewritten.items():  # a copy made below keeps its keys: safe to go on
            if keyword not in SUBSCHEMA_KEYWORDS:
                continue
            steps.append(keyword)
            new_value = self._children(keyword, value, depth + 1)
            steps.pop()
            if new_value is not value:
                if not copied:
                    rewritten, copied = dict(rewritten), True
                rewritten[keyword] = new_value
        return rewritten

    def _children(self, keyword: str, value: Any, depth: int) -> Any:
        """``value`` (what ``keyword`` holds) with its subschemas rewritten; the same
        object when none changed."""
        if keyword in ONE_KEYWORDS and value.__class__ is not list:
            return self.visit(value, depth)
        kind = value.__class__
        if (kind is dict and keyword in MAP_KEYWORDS) or (kind is list and keyword not in MAP_KEYWORDS):
            pairs = value.items() if kind is dict else enumerate(value)
            changed: dict[int | str, Any] | None = None
            steps = self._steps
            for step, child in pairs:
                steps.append(step)
                new_child = self.visit(child, depth)
                steps.pop()
                if new_child is not child:
                    changed = changed or {}
                    changed[step] = new_child
            if changed is None:
                return value
            if kind is dict:
                return {name: changed.get(name, child) for name, child in value.items()}
            return [changed.get(index, child) for index, child in enumerate(value)]
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
