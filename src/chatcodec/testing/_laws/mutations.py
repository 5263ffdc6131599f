"""Hypothesis mutations of recorded payloads: the inputs a codec must refuse politely.

A mutation picks a place in the JSON value (any object key, list item, or the whole
value) and drops it, replaces it with a value of another JSON type (huge numbers, deep
nesting, another tag from the same payload), inserts an unknown key beside it, or
duplicates a list item. One to three mutations per example.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from typing import Any

from hypothesis import strategies as st

from chatcodec.codec_kit import is_dict, is_list

Path = tuple[int | str, ...]

_DEEP = 200
"""Nesting depth of the deep values: far beyond any payload, far below the recursion limit."""


def _deep(kind: str) -> object:
    value: object = 1
    for _ in range(_DEEP):
        value = [value] if kind == "list" else {"a": value}
    return value


SHALLOW_VALUES: st.SearchStrategy[object] = st.one_of(
    st.sampled_from([None, True, False, 0, -1, 1.5, -0.0, "", "x", [], {}, [None], {"type": None}]).map(copy.deepcopy),
    st.sampled_from([2**64, -(2**63) - 1, 10**400, 1e308, -1e308, 5e-324]),
    st.text(max_size=8),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
)
"""Values of every JSON type, extremes included (no NaN or infinity: not JSON)."""

ODD_VALUES = st.one_of(SHALLOW_VALUES, st.sampled_from(["list", "object"]).map(_deep))
"""The same, and values nested 200 deep."""


def places(value: object, at: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every place in ``value`` with what it holds: the root, each object key, each list item."""
    yield at, value
    items: Iterable[tuple[int | str, Any]] = (
        value.items() if is_dict(value) else enumerate(value) if is_list(value) else ()
    )
    for step, item in items:
        yield from places(item, (*at, step))


def containers(value: object) -> list[tuple[Path, Any]]:
    """The places in ``value`` that hold an object or a list, with it."""
    return [(path, node) for path, node in places(value) if is_dict(node) or is_list(node)]


def _parent(root: Any, path: Path) -> Any:
    node = root
    for step in path[:-1]:
        node = node[step]
    return node


def _mutate(draw: st.DrawFn, root: Any, odd: st.SearchStrategy[object]) -> Any:
    path = draw(st.sampled_from([path for path, _ in places(root)]))
    action = draw(st.sampled_from(["drop", "replace", "retag", "insert", "duplicate"]))
    if not path:  # the whole value: only a replacement makes sense
        return draw(odd)
    parent = _parent(root, path)
    key = path[-1]
    if action == "drop":
        del parent[key]
    elif action == "retag" and (
        strings := [node for _, node in places(root) if isinstance(node, str) and len(node) < 40]
    ):
        parent[key] = draw(st.sampled_from(strings))
    elif action == "insert" and is_dict(parent):
        parent[draw(st.text(max_size=12))] = draw(odd)
    elif action == "duplicate" and is_list(parent):
        parent.insert(int(key), copy.deepcopy(parent[int(key)]))
    else:
        parent[key] = draw(odd)
    return root


@st.composite
def mutated(draw: st.DrawFn, original: object, *, deep: bool = True) -> Any:
    """``original`` (left untouched) with one to three mutations (``deep``: deeply nested
    values among the replacements)."""
    value = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        value = _mutate(draw, value, ODD_VALUES if deep else SHALLOW_VALUES)
    return value
