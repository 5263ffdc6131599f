"""Reading payloads given as dicts, JSON text or bytes.

Every public entry point accepts all three, because callers hold whatever their HTTP
client or dataset gave them; the JSON is parsed once, here, with a clear error.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Collection, Mapping
from typing import Any, cast

import pydantic_core

from chatcodec._errors import PayloadError, json_path
from chatcodec._narrow import as_dict
from chatcodec._public_label import shown_as
from chatcodec._text_memory import TextMemory

Payload = Mapping[str, Any] | str | bytes | bytearray
"""A JSON object as a dict, or as JSON text or bytes."""


class JSONValueError(json.JSONDecodeError):
    """JSON text that cannot be read into a value chatcodec keeps exactly, at a JSON path.

    It is a ``json.JSONDecodeError`` so every caller that handles bad JSON handles it; the
    readers turn it into a :class:`PayloadError` or :class:`StreamError` with :attr:`path`.
    """

    def __init__(self, reason: str, text: str | bytes | bytearray, path: str = "$") -> None:
        document = text if isinstance(text, str) else bytes(text).decode("utf-8", "replace")
        super().__init__(f"{reason} at {path}", document, 0)
        self.reason = reason
        """What is wrong with the value, without the path."""
        self.path = path
        """JSON path of the value."""

    def __str__(self) -> str:
        return self.msg  # the reason and the path: a position in the text says nothing more


def read_json_text(text: str | bytes | bytearray) -> Any:
    """``json.loads``, five times faster, and never a value JSON cannot hold.

    pydantic-core's parser reads what it can; ``json.loads`` reads the rest (nesting past
    pydantic-core's limit). Either way the result is refused, with the JSON
    path, as a :class:`JSONValueError` (a ``json.JSONDecodeError``) when it holds what no
    encoder could write back exactly: an integer over Python's 4,300-digit conversion
    limit, a number that overflows to infinity (``1e400``), ``NaN`` or ``Infinity`` (not
    JSON), a lone surrogate escape (``"\\ud800"``), or nesting past Python's recursion
    limit. Other errors are ``json.loads``'s.
    """
    try:
        value = pydantic_core.from_json(text, allow_inf_nan=False)
    except (ValueError, TypeError):  # TypeError: a str holding a lone surrogate is not UTF-8
        return _loads_slowly(text)
    return checked_json_value(value, text)


def checked_json_value(value: Any, text: str | bytes | bytearray, *, remember: bool = False) -> Any:
    """``value``, ``text`` as ``pydantic_core.from_json(text, allow_inf_nan=False)`` parsed
    it, as :func:`read_json_text` returns it (or refuses it): for a reader that parsed the text so
    already, which need not parse it again. ``remember``: a text found to hold no
    overflowed number is remembered (:data:`_NO_OVERFLOW`) and not looked at again: for a
    tool call's argument text, which an agent's history repeats in every request (Gemini's
    writer parses each; the look was a third of its nested arguments' cost). Not for every
    text: a stream's events would fill the memory with what passes once."""
    if remember and type(text) is str and text in _NO_OVERFLOW.texts:
        return value
    if _overflowed(value, 8 + len(text) // 27):
        _refuse_unkept(value, text)
    if remember and type(text) is str:
        _NO_OVERFLOW.add(text)
    return value


_NO_OVERFLOW = TextMemory(1 << 21)
"""Tool-call argument texts whose parse holds no number that overflowed to infinity (2 Mi
characters: a long agent session's calls, as :mod:`chatcodec._providers.kit.arguments` keeps)."""


def _overflowed(value: Any, budget: int) -> bool:
    """Whether ``value`` (parsed JSON: dicts, lists and scalars) may hold a float that
    overflowed to infinity: walked while it holds at most ``budget`` values, else written back
    in Rust and looked at (:data:`_INFINITY`: a string saying it is a yes too, cleared by the
    caller's walk). The caller's budget is its text's length over 27: a value walked costs about
    what writing costs a value and 27 characters of strings, so a body of long texts in few
    values (an agent's) is walked at up to a fifth of its writing's cost, one of short values
    is written after a walk of at most its writing's cost. A regular expression over the text
    cost ten parses (counts: ``docs/performance-history.md``)."""
    stack: list[Any] = [value]
    while stack:
        node = stack.pop()
        kind = node.__class__
        items: Collection[Any]
        if kind is dict:
            items = node.values()
        elif kind is list:
            items = node
        else:
            return kind is float and node - node != 0.0  # (the top value a scalar)
        budget -= len(items)
        if budget < 0:
            return _INFINITY in pydantic_core.to_json(value)
        for item in items:
            kind = item.__class__
            if kind is str:
                continue
            if kind is dict or kind is list:
                stack.append(item)
            elif kind is float and item - item != 0.0:  # inf - inf is NaN (from_json reads no NaN)
                return True
    return False


_INFINITY = b"Infinity"
"""How pydantic-core writes a float that overflowed (``1e400``). Only when found (or a
string holds the word) is the value walked for the place."""


class _Unkept:
    """What the slow reader's hooks put in place of a number no encoder could write back."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _parse_int(digits: str) -> int | _Unkept:
    try:
        return int(digits)
    except ValueError:  # over sys.get_int_max_str_digits(): str() of it would fail too
        count = len(digits.lstrip("-"))
        return _Unkept(f"an integer of {count} digits is over Python's {sys.get_int_max_str_digits()}-digit limit")


def _parse_float(number: str) -> float | _Unkept:
    parsed = float(number)
    return parsed if math.isfinite(parsed) else _Unkept(f"the number {number[:20]} is out of range")


def _parse_constant(name: str) -> _Unkept:
    return _Unkept(f"{name} is not JSON")


def _loads_slowly(text: str | bytes | bytearray) -> Any:
    try:
        value = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except RecursionError:
        raise JSONValueError("JSON nested too deeply to read", text) from None
    _refuse_unkept(value, text, strings=True)
    return value


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""A UTF-16 surrogate on its own: ``json.loads`` reads the escape ``"\\ud800"`` into one."""


def _refuse_unkept(value: object, text: str | bytes | bytearray, *, strings: bool = False) -> None:
    """Raise :class:`JSONValueError` at the first value in ``value`` no encoder could write
    back exactly: an unkept number, and (``strings``, after ``json.loads``) a string or key
    holding a lone surrogate. pydantic-core refuses those escapes and cannot write such a
    string as JSON, so one rule holds at every reader: JSON text with a lone surrogate is
    refused at its path.

    Walked with an explicit stack: the value may be nested past the recursion limit."""
    stack: list[tuple[object, tuple[int | str, ...]]] = [(value, ())]
    while stack:
        node, steps = stack.pop()
        if isinstance(node, dict):
            items = cast("dict[str, object]", node)
            for key in items if strings else ():
                if _LONE_SURROGATE.search(key):
                    raise JSONValueError("a key holds a lone UTF-16 surrogate", text, json_path((*steps, key)))
            stack.extend((item, (*steps, key)) for key, item in reversed(items.items()))
        elif strings and isinstance(node, str) and _LONE_SURROGATE.search(node):
            raise JSONValueError("a string holds a lone UTF-16 surrogate", text, json_path(steps))
        elif isinstance(node, list):
            entries = cast("list[object]", node)
            stack.extend((item, (*steps, index)) for index, item in reversed(list(enumerate(entries))))
        elif isinstance(node, _Unkept):
            raise JSONValueError(node.reason, text, json_path(steps))
        elif isinstance(node, float) and not math.isfinite(node):
            raise JSONValueError(_unwritable(node), text, json_path(steps))


def _unwritable(number: float) -> str:
    if math.isnan(number):
        return "NaN is not JSON"
    return "a number is out of range (it would be read as infinity; Infinity is not JSON)"


def refuse_unwritable_numbers(value: object) -> None:
    """Raise :class:`PayloadError` at the first ``NaN`` or infinite float in ``value``
    (Python data: a dict given as a payload): JSON has no such number (RFC 8259 section 6:
    "Numeric values that cannot be represented ... such as Infinity and NaN are not
    permitted"), so chatcodec never writes one; JSON text holding one is refused by
    :func:`read_json_text` the same way."""
    found = unwritable_number(value)
    if found is not None:
        raise PayloadError(*found)


def unwritable_number(value: object) -> tuple[str, str] | None:
    """The reason and JSON path of the first ``NaN`` or infinite float in ``value``, or
    None. Written in Rust first, walked only when the text shows one (or a string holds
    the word)."""
    try:
        written = pydantic_core.to_json(value)
    except (pydantic_core.PydanticSerializationError, ValueError, RecursionError):
        cycle = cycle_path(value)  # a walk below would never end on a value that holds itself
        if cycle is not None:
            return _CYCLE_REASON, json_path(cycle)
        written = _INFINITY  # not writable for another reason (a lone surrogate): walked
    if _INFINITY not in written and b"NaN" not in written:
        return None
    try:
        _refuse_unkept(value, "")
    except JSONValueError as error:
        return error.reason, error.path
    return None


def parse_json(text: str | bytes | bytearray) -> Any:
    """Parse JSON text, raising :class:`PayloadError` with the line and column (or the
    JSON path of a value that cannot be kept)."""
    try:
        return read_json_text(text)
    except JSONValueError as error:
        raise PayloadError(error.reason, error.path) from None
    except json.JSONDecodeError as error:
        raise PayloadError(f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})") from None
    except UnicodeDecodeError as error:
        raise PayloadError(f"not UTF-8 text: {error.reason} at byte {error.start}") from None


def load_object(payload: object, what: str = "payload") -> dict[str, Any]:
    """The payload as a dict; JSON text and bytes are parsed.

    A mapping that is not a dict is copied into one; anything else is a
    :class:`PayloadError` saying what was expected.
    """
    if isinstance(payload, str | bytes | bytearray):
        payload = parse_json(payload)
    fields = as_dict(payload)
    if fields is not None:
        return fields
    if isinstance(payload, Mapping):
        return dict(cast("Mapping[str, Any]", payload))
    raise PayloadError(f"the {what} must be a JSON object, got {type(payload).__name__}")


def load_value(payload: object) -> Any:
    """The payload as Python data; JSON text and bytes are parsed, the rest passes."""
    if isinstance(payload, str | bytes | bytearray):
        return parse_json(payload)
    return payload


_PATH_STEPS_SHOWN = 32
"""How much of the route to a too-deep value an error names (the rest is repetition)."""


def too_deep(value: object = None) -> PayloadError:
    """The error for a value nested past Python's recursion limit.

    A codec reads nested values with recursive code (pydantic, ``json``, the wire
    decoders), so a value a thousand levels deep raises ``RecursionError`` somewhere
    inside; the codec entry points turn it into this error, naming the route into the
    deepest value (its first steps) and how deep it goes.
    """
    cycle = cycle_path(value)  # a value that holds itself recurses without end: no deepest value
    if cycle is not None:
        return cyclic(cycle)
    depth, steps = _deepest(value)
    if not depth:  # a canonical object being written: its path is not the input's
        return PayloadError("a value is nested too deeply for chatcodec to write")
    return PayloadError(
        f"nested {depth} levels deep, past what chatcodec can read (the path shows its first steps)"
        " [rule: recursion_depth_exceeded]",
        json_path(steps[:_PATH_STEPS_SHOWN]),
    )


_CYCLE_REASON = (
    "the payload holds itself: the value here is one of the values it is inside (JSON cannot nest a value"
    " in itself) [rule: cyclic_value]"
)


def cyclic(location: tuple[int | str, ...]) -> PayloadError:
    """The error for a payload that holds itself (``items.append(items)``), at the place
    where a value that holds it appears again."""
    return PayloadError(_CYCLE_REASON, json_path(location))


def cycle_path(value: object) -> tuple[int | str, ...] | None:
    """The route to the first place in ``value`` holding a dict or list that also holds it
    (a cycle, which only data built in Python can have), or ``None``.

    A depth-first walk without recursion that keeps the ids of the containers on the
    route: asked only on the rare branch (a ``RecursionError``, a value pydantic-core could
    not write), so the common path pays nothing. Each container is walked once, so a value
    sharing one list in many places stays linear."""
    on_route: set[int] = set()
    done: set[int] = set()
    stack: list[tuple[object, tuple[int | str, ...], bool]] = [(value, (), False)]
    while stack:
        node, steps, leaving = stack.pop()
        if leaving:
            on_route.discard(id(node))
            done.add(id(node))
            continue
        items = as_dict(node)
        children = list(items.items()) if items is not None else list(enumerate(_as_items(node)))
        if not children or id(node) in done:
            continue
        if id(node) in on_route:
            return steps
        on_route.add(id(node))
        stack.append((node, steps, True))
        stack.extend((child, (*steps, step), False) for step, child in reversed(children))
    return None


def deeper_than(value: object, limit: int) -> bool:
    """Whether ``value`` nests objects and lists more than ``limit`` levels deep (as
    :func:`too_deep` counts them), walked a level at a time without recursion, and stopped
    at the first level past it: a reader that keeps wire values whole checks them with it
    where no canonical model is built to refuse them."""
    level: list[object] = [value]
    for depth in range(limit + 1):
        below: list[object] = []
        for node in level:
            children = _children(node)
            if children and depth == limit:
                return True
            for child in children:
                kind = type(child)
                if kind in _CONTAINERS or (kind not in _LEAVES and issubclass(kind, dict | list | tuple)):
                    below.append(child)
        if not below:
            return False
        level = below
    return False


_CONTAINERS = frozenset({dict, list, tuple})
_LEAVES = frozenset({str, int, float, bool, type(None)})


def _children(node: object) -> Collection[object]:
    if type(node) is dict:
        return cast("dict[object, object]", node).values()
    if type(node) is list:
        return cast("list[object]", node)
    items = as_dict(node)
    return items.values() if items is not None else _as_items(node)


def _deepest(value: object) -> tuple[int, tuple[int | str, ...]]:
    """The depth of the most nested value and the route to it, walked without recursion
    (each place remembers its parent, so the walk stays linear however deep it goes)."""
    places: list[tuple[int | str, int]] = [("$", -1)]  # (step, index of the parent place)
    stack: list[tuple[object, int, int]] = [(value, 0, 0)]  # (node, depth, place)
    deepest, deepest_place = 0, 0
    while stack:
        node, depth, place = stack.pop()
        if depth > deepest:
            deepest, deepest_place = depth, place
        items = as_dict(node)
        children = items.items() if items is not None else enumerate(_as_items(node))
        for step, child in children:
            places.append((step, place))
            stack.append((child, depth + 1, len(places) - 1))
    route: list[int | str] = []
    while deepest_place > 0:
        step, deepest_place = places[deepest_place]
        route.append(step)
    return deepest, tuple(reversed(route))


def _as_items(node: object) -> list[object]:
    return cast("list[object]", node) if isinstance(node, list | tuple) else []


shown_as(
    "chatcodec.codec_kit",
    deeper_than,
    load_object,
    checked_json_value,
    read_json_text,
    refuse_unwritable_numbers,
    too_deep,
    unwritable_number,
)
