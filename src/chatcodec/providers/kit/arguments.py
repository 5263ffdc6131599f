"""Tool-argument JSON: the compact text of an argument value, and argument text parsed for
a provider that takes an object, with whether writing it back says exactly what it said."""

from __future__ import annotations

import json
import json.encoder as json_encoder
import math
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pydantic_core

from chatcodec._narrow import is_dict, is_list

_COMPACT_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _c_encoder() -> Callable[[object, int], Any] | None:
    """The C encoder ``_COMPACT_JSON.encode`` makes on every call, made once.

    ``JSONEncoder.encode`` builds a new ``c_make_encoder`` per call (with a new dict of
    markers for its circular-reference check), about a quarter of an
    anthropic -> openai-chat conversion. This one has no
    markers (shared, they would be left behind by an error and could be read by another
    thread): the values given are JSON trees, and a cycle, which ends in a
    ``RecursionError`` here, is written again by ``_COMPACT_JSON`` for its own error.
    ``None`` where the C encoder is missing or takes other arguments (another Python)."""
    try:
        from _json import make_encoder
    except ImportError:  # pragma: no cover - CPython has it
        return None
    try:
        return make_encoder(
            None, _COMPACT_JSON.default, json_encoder.encode_basestring, None, ":", ",", False, False, True
        )
    except TypeError:  # pragma: no cover - another signature: JSONEncoder.encode, as before
        return None


_ENCODE = _c_encoder()
_ENCODE_STRING = json_encoder.encode_basestring


def compact_json(value: object) -> str:
    """``value`` as compact JSON text, non-ASCII kept: the argument text for a tool call
    whose wire gives its arguments as a JSON value (parsing it back gives the same value).

    Byte for byte ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``."""
    if isinstance(value, str):
        return _ENCODE_STRING(value)  # as JSONEncoder.encode writes a lone string
    if _ENCODE is None:
        return _COMPACT_JSON.encode(value)
    try:
        return "".join(_ENCODE(value, 0))
    except RecursionError:
        return _COMPACT_JSON.encode(value)  # a cycle: its ValueError; or as deep: the same RecursionError


class _Reading:
    """What parsing argument text dropped: a repeated key, or a number changed."""

    __slots__ = ("changed",)

    def __init__(self) -> None:
        self.changed = False

    def pairs(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        built = dict(pairs)
        if len(built) != len(pairs):
            self.changed = True  # json.loads keeps the last value of a repeated key
        return built

    def number(self, text: str) -> float:
        if not _exact(text):
            self.changed = True  # more digits than a double holds, or past its range
        return float(text)

    def constant(self, text: str) -> float:
        self.changed = True  # NaN / Infinity: Python reads them, JSON has no such value
        return float(text)


def arguments_object(arguments: str) -> tuple[object, bool]:
    """The argument text parsed (``None`` when it is not JSON), and whether the parsed
    value, written back as JSON, says exactly what the text said.

    For providers that take tool input as an object (Anthropic ``tool_use.input``): the
    text is parsed and re-serialised there, which silently keeps only the last of
    repeated keys and rounds a number to the nearest double, so a
    caller reports the difference rather than sending it unsaid. Whitespace and number
    spelling (``1.50``, ``2e3``) carry no information and are not differences.

    The common cases are read by pydantic-core alone: with no float, the text must hold
    as many key ends (``"`` then ``:``) as the value holds keys, which a repeated key
    would break (first counted as colons, a cheaper count that strings can only add to,
    which settles the usual flat object of strings and integers); with floats, the text
    must be exactly the value's compact JSON (what models write) or Python's default
    ``json.dumps`` of it. Anything else is read again, carefully, by ``json.loads``.
    """
    try:
        parsed: object = _from_json(arguments)
    except (ValueError, TypeError):  # TypeError: a str pydantic-core cannot take (a lone surrogate)
        return _careful_arguments(arguments)
    if is_dict(parsed) and _FLAT.issuperset(map(type, parsed.values())):  # the usual call, inline
        keys = len(parsed)
        if arguments.count(":") == keys or _key_ends(arguments) == keys:
            return parsed, True
        return _careful_arguments(arguments)
    keys, has_float = _census(parsed)
    if not has_float:
        return (parsed, True) if _key_ends(arguments) == keys else _careful_arguments(arguments)
    written = pydantic_core.to_json(parsed)
    finite = b"NaN" not in written and b"Infinity" not in written
    if finite and (written == arguments.encode("utf-8", "surrogatepass") or _python_spelling(parsed) == arguments):
        return parsed, True
    return _careful_arguments(arguments)


_from_json = pydantic_core.from_json

_KEY_ENDS = re.compile(r'"\s*:')
"""Where an object key ends; a string value holding ``":`` only adds to the count, so an
equal count proves there is no repeated key."""

_QUOTE_GAP = re.compile('"[ \n\t\r]')
"""Whitespace after a quote: only then can a key end be spelled other than ``":``."""


def _key_ends(arguments: str) -> int:
    """How many key ends the text holds (string values can add to it, never take away)."""
    if _QUOTE_GAP.search(arguments) is not None:
        return len(_KEY_ENDS.findall(arguments))
    return arguments.count('":')


_PYTHON_JSON = json.JSONEncoder(allow_nan=False)
"""``json.dumps`` with its defaults (how Python tools write arguments), NaN refused."""


def _python_spelling(value: object) -> str | None:
    try:
        return _PYTHON_JSON.encode(value)
    except (ValueError, RecursionError):
        return None


_FLAT = frozenset({str, int, bool, type(None)})
"""Value types that hold no key and no float: an object of only these (the usual tool
call) is counted by its length."""


def _census(value: object) -> tuple[int, bool]:
    """How many object keys ``value`` holds, and whether it holds a float (whose text
    may have had more digits than a double keeps)."""
    if is_dict(value) and _FLAT.issuperset(map(type, value.values())):
        return len(value), False
    keys = 0
    pending: list[object] = [value]
    while pending:
        item = pending.pop()
        if is_dict(item):
            keys += len(item)
            pending.extend(item.values())
        elif is_list(item):
            pending.extend(item)
        elif isinstance(item, float):
            return keys, True
    return keys, False


def _exact(spelling: str) -> bool:
    """Whether a JSON number's spelling says no more than the double it is read as."""
    value = float(spelling)
    return math.isfinite(value) and Decimal(repr(value)) == Decimal(spelling)


def _careful_arguments(arguments: str) -> tuple[object, bool]:
    reading = _Reading()
    try:
        parsed: object = json.loads(
            arguments, object_pairs_hook=reading.pairs, parse_float=reading.number, parse_constant=reading.constant
        )
    except (ValueError, RecursionError):
        return None, False
    return parsed, not reading.changed
