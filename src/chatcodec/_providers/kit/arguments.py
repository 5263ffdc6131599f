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


def _c_encoder(settings: json.JSONEncoder) -> Callable[[object], str]:
    """``settings.encode`` with the C encoder it makes on every call made once.

    ``JSONEncoder.encode`` builds a new ``c_make_encoder`` per call (with a new dict of
    markers for its circular-reference check), about a quarter of an
    anthropic -> openai-chat conversion. This one has no
    markers (shared, they would be left behind by an error and could be read by another
    thread): the values given are JSON trees, and a cycle, which ends in a
    ``RecursionError`` here, is written again by ``settings.encode`` for its own error.
    ``settings.encode`` itself where the C encoder is missing or takes other arguments
    (another Python). Byte for byte what ``settings.encode`` writes."""
    strings = json_encoder.encode_basestring_ascii if settings.ensure_ascii else json_encoder.encode_basestring
    try:
        from _json import make_encoder

        encoder = make_encoder(
            None, settings.default, strings, None, settings.key_separator, settings.item_separator, False, False,
            settings.allow_nan,
        )  # fmt: skip
    except (ImportError, TypeError):  # pragma: no cover - CPython has it, with this signature
        return settings.encode

    def encode(value: object) -> str:
        if isinstance(value, str):
            return strings(value)  # as JSONEncoder.encode writes a lone string
        try:
            return "".join(encoder(value, 0))
        except RecursionError:
            return settings.encode(value)  # a cycle: its ValueError; or as deep: the same RecursionError

    return encode


_COMPACT = _c_encoder(json.JSONEncoder(ensure_ascii=False, separators=(",", ":")))


def compact_json(value: object) -> str:
    """``value`` as compact JSON text, non-ASCII kept: the argument text for a tool call
    whose wire gives its arguments as a JSON value (parsing it back gives the same value).

    Byte for byte ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``."""
    return _COMPACT(value)


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

    The common cases are proved by pydantic-core and the C encoder, with no walk in
    Python: a flat object (strings, integers, booleans, nulls: the usual call) must hold
    as many key ends (``"`` then ``:``) as keys, which a repeated key would break (first
    counted as colons, a cheaper count that strings can only add to); any other value
    must be spelled exactly as a native serialiser writes the parsed value
    (:func:`_written_back`), which a repeated key (written once), a rounded number (written
    shortest) or ``NaN`` (refused) can never be. Anything else is read again, carefully,
    by ``json.loads``.
    """
    try:
        parsed: Any = _from_json(arguments)
    except (ValueError, TypeError):  # TypeError: a str pydantic-core cannot take (a lone surrogate)
        return _careful_arguments(arguments)
    if parsed.__class__ is dict and _FLAT.issuperset(map(type, parsed.values())):  # the usual call, inline
        keys = len(parsed)
        if arguments.count(":") == keys or _key_ends(arguments) == keys:
            return parsed, True
    elif _written_back(parsed, arguments):
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


_PYTHON_SPELLINGS = (
    _c_encoder(json.JSONEncoder(allow_nan=False)),
    _c_encoder(json.JSONEncoder(allow_nan=False, ensure_ascii=False)),
    _c_encoder(json.JSONEncoder(allow_nan=False, separators=(",", ":"))),
)
"""``json.dumps``'s spellings beside pydantic-core's compact one, ``NaN`` and ``Infinity``
refused (JSON has no such value, the careful reading reports them)."""


def _written_back(parsed: object, arguments: str) -> bool:
    """Whether ``arguments`` is exactly a native serialiser's text of ``parsed``: compact
    with non-ASCII kept (pydantic-core, as models write), or ``json.dumps`` with its
    default separators, with and without ``ensure_ascii``, or compact with it.

    Equal text proves the reading exact: the text is then a function of the value, so it
    said nothing the value does not hold (a repeated key is written once, a number with
    more digits than its double is written shorter, ``NaN`` is written ``null`` or refused)."""
    written = pydantic_core.to_json(parsed)
    if written == arguments.encode("utf-8", "surrogatepass"):
        return b"NaN" not in written and b"Infinity" not in written  # pydantic-core writes them as null: never equal
    for spelling in _PYTHON_SPELLINGS:
        try:
            if spelling(parsed) == arguments:
                return True
        except (ValueError, RecursionError):
            return False
    return False


_FLAT = frozenset({str, int, bool, type(None)})
"""Value types that hold no key and no float: an object of only these (the usual tool
call) is counted by its length."""


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
