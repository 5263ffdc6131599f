"""Structure-aware mutations, driven by any source of choices.

One mutation engine serves three drivers: Hypothesis in the test suite (shrinkable
examples), a seeded ``random.Random`` for the long run (fast, reproducible from its seed)
and atheris (coverage-guided, when installed). Each only has to answer
:meth:`Chooser.below`; every decision here is made through it.

A JSON mutation picks a place in the value (the root, any object key, any list item)
and drops it, replaces it with an odd value (every JSON type, extremes, deep nesting,
another string from the same payload), inserts an unknown key beside it (``_``-prefixed
keys among them: they once collided with chatcodec's markers), or duplicates a list item.
A text mutation works on the serialized bytes: truncation, a flipped or inserted byte,
a spliced-in fragment, a lone surrogate escape, a huge number.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

Path = tuple[int | str, ...]
ItemT = TypeVar("ItemT")


class Chooser(Protocol):
    """A source of decisions: a whole number in ``range(count)`` (``count`` >= 1)."""

    def below(self, count: int) -> int: ...


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value, without recursion (``copy.deepcopy`` recurses, and a
    mutated value may be nested past the recursion limit)."""
    if not isinstance(value, dict | list):
        return value
    root: Any = {} if isinstance(value, dict) else []
    stack: list[tuple[Any, Any]] = [(value, root)]
    while stack:
        source, target = stack.pop()
        items = source.items() if isinstance(source, dict) else enumerate(source)
        for key, item in items:
            copied = {} if isinstance(item, dict) else [] if isinstance(item, list) else item
            if isinstance(target, dict):
                target[key] = copied
            else:
                target.append(copied)
            if copied is not item:
                stack.append((item, copied))
    return root


def pick(chooser: Chooser, items: Sequence[ItemT]) -> ItemT:
    """One of ``items`` (not empty)."""
    return items[chooser.below(len(items))]


def _nested(kind: int, depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value] if kind == 0 else {"a": value}
    return value


_FIXED: tuple[object, ...] = (
    None,
    True,
    False,
    0,
    -1,
    1.5,
    -0.0,
    "",
    "x",
    [],
    {},
    [None],
    {"type": None},
    {"type": "text"},
    2**53 + 1,
    2**64,
    -(2**63) - 1,
    10**400,
    1e308,
    -1e308,
    5e-324,
    float("nan"),  # no JSON holds these: a dict may; JSON text gets "NaN"
    float("inf"),
    float("-inf"),
    "\U0001f600",
    "\x00",
    "a\ud800b",
    "{",
    '{"a": 1}',
    "[]",
    "data: [DONE]",
    " \n\t",
)
"""Values of every JSON type and the edges that broke codecs before, and the floats JSON
cannot hold, which a dict can (written into JSON text as ``NaN``/``Infinity``)."""

_ALPHABET = "ab_ -.:/\"'\\{}[]\x00\u00e9\u4e16\U0001f600\ud800\udfff0123456789"
_KEYS = ("", "_", "_x", "__x", "_nulls", "_absent", "__nulls", "type", "role", "content", "id", "x", "\ud800")


def _text(chooser: Chooser, limit: int = 8) -> str:
    return "".join(pick(chooser, _ALPHABET) for _ in range(chooser.below(limit + 1)))


def odd_value(chooser: Chooser, strings: Sequence[str] = ()) -> object:
    """A value to put where another was: fixed edges, generated text and numbers, deep
    nesting (50 to 1,200 levels), or a string found elsewhere in the payload."""
    kind = chooser.below(6)
    if kind == 0:
        return copy_json(pick(chooser, _FIXED))
    if kind == 1:
        return _text(chooser)
    if kind == 2:
        return (chooser.below(2**16) - 2**15) * pick(chooser, (1, 1000, 2**40, 2**70))
    if kind == 3:
        return _nested(chooser.below(2), pick(chooser, (50, 250, 1200)))
    if kind == 4 and strings:
        return pick(chooser, strings)
    return copy_json(pick(chooser, _FIXED))


def places(value: object, at: Path = ()) -> list[Path]:
    """Every place in ``value``: the root, each object key, each list item (iteratively:
    a mutated value may be nested deeper than the recursion limit)."""
    found: list[Path] = []
    stack: list[tuple[object, Path]] = [(value, at)]
    while stack and len(found) < 5000:
        node, steps = stack.pop()
        found.append(steps)
        if len(steps) > 60:
            continue  # inside a deep value: mutating further down adds nothing
        if isinstance(node, dict):
            stack.extend((item, (*steps, key)) for key, item in node.items())
        elif isinstance(node, list):
            stack.extend((item, (*steps, index)) for index, item in enumerate(node))
    return found


def strings_in(value: object) -> list[str]:
    """Short strings of ``value`` (tags, roles, ids): the likeliest confusions."""
    found: list[str] = []
    stack = [value]
    while stack and len(found) < 500:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str) and len(node) < 40:
            found.append(node)
    return found


def _parent(root: Any, path: Path) -> Any:
    node = root
    for step in path[:-1]:
        node = node[step]
    return node


def mutate_once(chooser: Chooser, root: Any, known: tuple[list[Path], list[str]] | None = None) -> Any:
    """``root`` with one mutation, in place where it can be (the new root is returned).

    ``known``: the places and strings of the seed ``root`` was copied from, so a mutation
    need not walk the whole value again (the walk cost more than most targets' run). A
    place the seed has that ``root`` no longer has (a dropped subtree) is looked for again
    in ``root`` itself."""
    if known is None:
        known = (places(root), strings_in(root))
    seed_places, strings = known
    path = pick(chooser, seed_places)
    if not _has(root, path):
        path = pick(chooser, places(root))
    action = chooser.below(5)
    if not path:
        return odd_value(chooser, strings)
    parent = _parent(root, path)
    key = path[-1]
    if action == 0:
        del parent[key]
    elif action == 1 and isinstance(parent, dict):
        new_key = pick(chooser, _KEYS) if chooser.below(2) else _text(chooser, 6)
        parent[new_key] = odd_value(chooser, strings)
    elif action == 2 and isinstance(parent, list):
        parent.insert(int(key), copy_json(parent[int(key)]))
    elif action == 3 and isinstance(parent, dict) and isinstance(key, str) and key in parent:
        parent["_" + key] = parent.pop(key)  # the same value under an underscored name
    else:
        parent[key] = odd_value(chooser, strings)
    return root


def _has(root: Any, path: Path) -> bool:
    node = root
    for step in path:
        if isinstance(node, dict) and isinstance(step, str) and step in node:
            node = node[step]
            continue
        if not (isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)):
            return False
        node = node[step]
    return True


_SEED_FACTS: dict[int, tuple[object, list[Path], list[str]]] = {}
"""Places and strings of each seed, by identity (the seed is held, so its id stays its own)."""


def seed_facts(original: object) -> tuple[list[Path], list[str]]:
    """The places and strings of ``original``, walked once per seed."""
    found = _SEED_FACTS.get(id(original))
    if found is None or found[0] is not original:
        if len(_SEED_FACTS) > 10_000:  # seeds are few; a caller making new ones each time
            _SEED_FACTS.clear()
        found = (original, places(original), strings_in(original))
        _SEED_FACTS[id(original)] = found
    return found[1], found[2]


def mutated(chooser: Chooser, original: object) -> Any:
    """A deep copy of ``original`` with one to three mutations (a later one may land in
    what an earlier one put in: every fourth walks the mutated value again)."""
    known = seed_facts(original)
    value = copy_json(original)
    for count in range(1 + chooser.below(3)):
        fresh = count > 0 and chooser.below(4) == 0
        value = mutate_once(chooser, value, None if fresh else known)
    return value


_FRAGMENTS = (b'"', b"{", b"}", b"[", b"]", b",", b":", b"\\ud800", b"1e400", b"9" * 5000, b"\xff", b"\n\n", b"\r")


def mutated_bytes(chooser: Chooser, data: bytes) -> bytes:
    """``data`` with one to three byte-level changes."""
    for _ in range(1 + chooser.below(3)):
        at = chooser.below(len(data) + 1)
        kind = chooser.below(4)
        if kind == 0:
            data = data[:at]
        elif kind == 1:
            data = data[:at] + bytes([chooser.below(256)]) + data[at + 1 :]
        elif kind == 2:
            data = data[:at] + pick(chooser, _FRAGMENTS) + data[at:]
        else:
            data = data[:at] + data[at + 1 :]
    return data


def mutated_json_text(chooser: Chooser, original: object) -> bytes:
    """The value mutated as a structure and serialized, sometimes mutated again as bytes."""
    value = mutated(chooser, original)
    text = dumps(value, ascii_only=chooser.below(2) == 0)
    return mutated_bytes(chooser, text) if chooser.below(3) == 0 else text


def dumps(value: object, *, ascii_only: bool = True) -> bytes:
    """``value`` as JSON bytes; a lone surrogate is an escape (``ascii_only``) or its raw
    bytes, which are not UTF-8; a value ``json`` cannot write stands for a too-deep text."""
    try:
        return json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    except (RecursionError, ValueError):
        return b"[" * 5000
