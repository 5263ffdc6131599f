"""The schema memory's rewrites that change a schema (issue 107: an agent's strict tools are closed
for OpenAI's strict mode every request): the second rewrite of the same value at the same place is
answered from memory, a new object equal to what the rewrite gives with the same changes, and the
rewrite is not called; another place, another value, or a value its text does not name (a NaN) is
rewritten again."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from chatcodec._losses import Steps
from chatcodec._providers.families.openai.strict_schema import to_openai_strict
from chatcodec._providers.kit import schema_memory
from chatcodec._providers.kit.schema_memory import cached_rewrite
from chatcodec._providers.kit.schema_walk import SchemaChange

_OPEN = {"type": "object", "properties": {"path": {"type": "string"}, "limit": {"type": "integer", "minimum": 1}}}


Counted = tuple[list[Any], Callable[[Any, Steps], tuple[Any, list[SchemaChange]]]]


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counted:
    """The strict rewrite, counted: the schemas it was called on, and it; the memories empty."""
    monkeypatch.setattr(schema_memory, "_UNCHANGED", {})
    monkeypatch.setattr(schema_memory, "_CHANGED", {})
    calls: list[Any] = []

    def rewrite(schema: Any, at: Steps) -> tuple[Any, list[SchemaChange]]:
        calls.append(schema)
        return to_openai_strict(schema, at)

    return calls, rewrite


def test_a_changed_schema_is_rewritten_once_at_its_place(counted: Counted) -> None:
    calls, rewrite = counted
    at = ("tools", 0, "parameters")
    first, changes = cached_rewrite(rewrite, copy.deepcopy(_OPEN), at)
    assert first != _OPEN
    assert changes  # (strict mode: every property required, no other property)
    assert all(change.at[:3] == at for change in changes)
    again, changes_again = cached_rewrite(rewrite, copy.deepcopy(_OPEN), at)
    assert len(calls) == 1  # answered from memory
    assert again == first
    assert again is not first  # a new object each time: a writer's output is its caller's to change
    assert changes_again == changes
    cached_rewrite(rewrite, copy.deepcopy(_OPEN), ("tools", 1, "parameters"))  # another place
    other = {**_OPEN, "required": ["path"]}
    cached_rewrite(rewrite, other, at)  # another value
    assert len(calls) == 3


def test_a_schema_its_text_does_not_name_is_rewritten_each_time(counted: Counted) -> None:
    calls, rewrite = counted
    odd = {**_OPEN, "properties": {"limit": {"type": "number", "maximum": float("nan")}}}
    for _ in range(2):
        cached_rewrite(rewrite, odd, ("tools", 0, "parameters"))
    assert len(calls) == 2
