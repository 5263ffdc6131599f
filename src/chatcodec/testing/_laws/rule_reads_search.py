"""A search for a body that a rule naming its keys (``TargetRule.reads``) would change although
it holds none of them: the fence around a hand-kept list.

``reads`` is a second list, beside the edit's code, of the top-level keys the edit acts on; the
writer passes a body holding none of them by the rule without running it. An edit changed to
act on a key it does not name would then be skipped without a word. Fixed bodies cannot catch
that (the new key is in none of them), so the bodies here are made from what the edit's own
code looks at, as it runs: every object of the body notes the keys the edit looks up in it, and
every text the body holds notes the texts the edit compares it with. A key looked up and absent
is then set, one at a time, to each of a few values (numbers in and out of any range, the texts
seen compared at that place, an object, a list of one object), and the search goes on from a
body that showed something new (a key or a text not seen before), a few steps deep. Nothing of
a rule is declared for it: what the edit reads is what it is tried on.

Run by the law ``law_rule_reads`` (so a codec written outside chatcodec is held to it too), never
per conversion.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, cast

from chatcodec._losses import LossRecorder
from chatcodec._narrow import as_dict, is_dict, is_list

Step = str | int
"""One step of a place in a body: a key, or a list index."""
Place = tuple[Step, ...]
"""Where an object sits in a body (``()``: the body itself)."""

MAX_STEPS = 4
"""How many absent keys one searched body sets at most (a thinking budget is three deep:
``thinking``, its ``type``, its ``budget_tokens``)."""
MAX_RUNS = 4000
"""How many bodies one search tries at most, so a rule that looks at everything still ends."""


def _no_lookups() -> set[tuple[Place, str]]:
    """An empty set of noted lookups, typed (a dataclass field made by a generic alias is refused:
    tests/test_dataclass_factories.py)."""
    return set()


@dataclass
class Notes:
    """What the edit looked at in one run, by place."""

    looked: set[tuple[Place, str]] = field(default_factory=_no_lookups)
    """Each key looked up (``get``, ``[]``, ``in``, ``pop``, ``setdefault``) in the object at a place."""
    compared: dict[Place, set[str]] = field(default_factory=lambda: {})
    """The texts a text at a place was compared with (``==``, ``!=``, ``in``, ``startswith``)."""


class _Watched(dict[str, Any]):
    """An object of a searched body, noting each key looked up in it."""

    __slots__ = ("notes", "place")

    def __init__(self, items: dict[str, Any], place: Place, notes: Notes) -> None:
        super().__init__(items)
        self.place = place
        self.notes = notes

    def _note(self, key: object) -> None:
        if isinstance(key, str):
            self.notes.looked.add((self.place, key))

    def __getitem__(self, key: str) -> Any:
        self._note(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self._note(key)
        return super().__contains__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self._note(key)
        return super().get(key, default)

    def pop(self, key: str, *default: Any) -> Any:
        self._note(key)
        return super().pop(key, *default)

    def setdefault(self, key: str, default: Any = None) -> Any:
        self._note(key)
        return super().setdefault(key, default)


class _Probe(str):
    """A text of a searched body, noting each text it is compared with (the values an edit
    acts on: ``type == "enabled"``, ``effort in ("xhigh", "max")``)."""

    place: Place
    notes: Notes

    def __new__(cls, text: str, place: Place, notes: Notes) -> _Probe:
        probe = super().__new__(cls, text)
        probe.place, probe.notes = place, notes
        return probe

    def _note(self, other: object) -> None:
        texts: tuple[object, ...] = cast("tuple[object, ...]", other) if isinstance(other, tuple) else (other,)
        for text in texts:
            if isinstance(text, str):
                self.notes.compared.setdefault(self.place, set()).add(str.__str__(text))

    def __eq__(self, other: object) -> bool:
        self._note(other)
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        self._note(other)
        return str.__ne__(self, other)

    __hash__ = str.__hash__

    def startswith(self, prefix: str | tuple[str, ...], *bounds: Any) -> bool:
        self._note(prefix)
        return str.startswith(self, prefix, *bounds)

    def endswith(self, suffix: str | tuple[str, ...], *bounds: Any) -> bool:
        self._note(suffix)
        return str.endswith(self, suffix, *bounds)


PROBE_TEXT = "?"
"""The text a probe holds before the texts it was compared with are tried in its place."""
SCALARS: tuple[object, ...] = (None, False, True, 0, 1, -1, 0.5, 1.5, 3.0, -3.0, 16, 2048, 10**9, "", [])
"""The values every absent key is tried with: no value, booleans, numbers inside and outside
any documented range (a budget, a limit), an empty text and list."""

Value = tuple[str, object]
"""A value to set, hashable: ``("scalar", index in SCALARS)`` (``0`` and ``False`` kept apart),
``("text", text)``, ``("probe", "")``, ``("object", "")`` or ``("list", "")`` (one object in it)."""
Assignment = tuple[Place, Value]


def _made(value: Value, place: Place, notes: Notes) -> object:
    kind, what = value
    if kind == "scalar":
        assert isinstance(what, int)
        scalar = SCALARS[what]
        return [] if isinstance(scalar, list) else scalar
    if kind == "text":
        return _Probe(str(what), place, notes)
    if kind == "probe":
        return _Probe(PROBE_TEXT, place, notes)
    if kind == "object":
        return _Watched({}, place, notes)
    return [_Watched({}, (*place, 0), notes)]


def _watched(data: object, place: Place, notes: Notes) -> object:
    """``data`` (JSON) with every object watched and every text a probe."""
    if is_dict(data):
        items: dict[str, Any] = {key: _watched(value, (*place, key), notes) for key, value in data.items()}
        return _Watched(items, place, notes)
    if is_list(data):
        return [_watched(value, (*place, index), notes) for index, value in enumerate(data)]
    if isinstance(data, str):
        return _Probe(data, place, notes)
    return data


def plain(data: object) -> object:
    """``data`` as plain JSON again (dicts, lists, texts): what a run is compared by."""
    if is_dict(data):
        return {str.__str__(key): plain(value) for key, value in data.items()}
    if is_list(data):
        return [plain(value) for value in data]
    if isinstance(data, str):
        return str.__str__(data)
    return data


def _built(seed: dict[str, Any], assignments: tuple[Assignment, ...], notes: Notes) -> _Watched:
    body = _watched(seed, (), notes)
    assert isinstance(body, _Watched)
    for place, value in assignments:
        holder = _at(body, place[:-1])
        assert is_dict(holder)
        holder[str(place[-1])] = _made(value, place, notes)
    return body


_ABSENT = object()
_UNWATCHED_HOLDS = cast("Callable[[dict[str, Any], str], bool]", dict[str, Any].__contains__)
_UNWATCHED_GET = dict[str, Any].__getitem__
"""Look-ups that note nothing, for the search's own walks."""


def _at(body: object, place: Place) -> object:
    """What ``body`` holds at ``place`` (looked up unwatched), or :data:`_ABSENT`."""
    for step in place:
        if isinstance(step, str) and is_dict(body) and _UNWATCHED_HOLDS(body, step):
            body = _UNWATCHED_GET(body, step)
        elif isinstance(step, int) and is_list(body) and step < len(body):
            body = body[step]
        else:
            return _ABSENT
    return body


Edit = Callable[[dict[str, Any], LossRecorder], None]
"""The rule's edit run on one body (the law makes its ``RuleCall``)."""


@dataclass(frozen=True)
class Changed:
    """A body the edit changed (or reported on) though it holds none of the rule's keys."""

    body: dict[str, Any]
    """The body as it was before the edit."""
    outside: tuple[str, ...]
    """The top-level keys the edit looked up that the rule does not name."""


def _changed(edit: Edit, body: dict[str, Any]) -> bool:
    before = plain(body)
    losses = LossRecorder()
    try:
        edit(body, losses)
    except Exception:  # a value no writer writes (a text where a number goes): nothing to learn
        return False
    return bool(losses.losses) or plain(body) != before


def changed_body(edit: Edit, seed: dict[str, Any], reads: frozenset[str]) -> Changed | None:
    """A body ``edit`` changes though it holds none of ``reads`` at its top level, made from
    ``seed`` (which holds none of them) by setting keys the edit looks up; ``None`` when
    none was found within :data:`MAX_STEPS` keys and :data:`MAX_RUNS` bodies. Each body is
    run watched (to learn what the edit looks at) and plain (an edit may test
    ``value.__class__ is dict``)."""
    queue: deque[tuple[Assignment, ...]] = deque([()])
    tried: set[tuple[Assignment, ...]] = set()
    seen: set[tuple[Place, str]] = set()
    texts: dict[Place, set[str]] = {}
    while queue and len(tried) < MAX_RUNS:
        assignments = queue.popleft()
        if assignments in tried:
            continue
        tried.add(assignments)
        notes = Notes()
        body = _built(seed, assignments, notes)
        before = _plain_dict(body)
        if _changed(edit, body) or _changed(edit, _plain_dict(before)):
            outside = sorted({key for place, key in notes.looked if not place and key not in reads})
            return Changed(before, tuple(outside))
        news = notes.looked - seen
        new_texts = {(place, text) for place, found in notes.compared.items() for text in found} - {
            (place, text) for place, found in texts.items() for text in found
        }
        if assignments and not news and not new_texts:
            continue
        seen |= notes.looked
        for place, text in new_texts:
            texts.setdefault(place, set()).add(text)
        queue.extend(_children(assignments, notes, before, reads, texts))
    return None


def _plain_dict(data: dict[str, Any]) -> dict[str, Any]:
    copied = as_dict(plain(data))
    assert copied is not None
    return copied


def _children(
    assignments: tuple[Assignment, ...],
    notes: Notes,
    before: dict[str, Any],
    reads: frozenset[str],
    texts: dict[Place, set[str]],
) -> Iterator[tuple[Assignment, ...]]:
    """The bodies to try next: a probe replaced by each text it was compared with, and (up to
    :data:`MAX_STEPS` keys) each absent key looked up set to each value."""
    for index, (place, value) in enumerate(assignments):
        if value[0] == "probe":
            for text in sorted(texts.get(place, ())):
                yield (*assignments[:index], (place, ("text", text)), *assignments[index + 1 :])
    if len(assignments) >= MAX_STEPS:
        return
    for place, key in sorted(notes.looked, key=repr):
        target = (*place, key)
        if (not place and key in reads) or _at(before, target) is not _ABSENT:
            continue
        values: list[Value] = [("scalar", index) for index in range(len(SCALARS))]
        values += [("probe", ""), ("object", ""), ("list", "")]
        values += [("text", text) for text in sorted(texts.get(target, ()))]
        for value in values:
            yield (*assignments, (target, value))
