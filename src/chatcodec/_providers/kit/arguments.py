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

from chatcodec._text_memory import TextMemory


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

    A text seen for the first time is read once by :data:`_CHECKING`, Python's JSON scanner
    in C with a check at each object and at each number spelled with a fraction or an
    exponent: the reading and its proof in one pass over the text (parsing with
    pydantic-core and then proving the value by counts, :func:`_counted`, took several
    passes and a walk of the value). A reading it stops (a repeated key, an inexact number)
    is read again, carefully, by ``json.loads``, which says what changed; JSON it refuses
    is read as before it was used (:func:`_counted`).

    An agent sends its whole history every turn, so a text proved exact is remembered
    (:data:`_PROVED`) and the next request's copy of it is only parsed, by pydantic-core.
    """
    return read_arguments(arguments)


def read_arguments(arguments: str) -> tuple[Any, bool]:
    """:func:`arguments_object`, its value typed as the JSON it is for the kit's own caller
    (:func:`~chatcodec._providers.kit.tool_arguments.input_object`, which tests its type)."""
    if arguments in _PROVED.texts:
        try:
            return _from_json(arguments), True
        except (ValueError, TypeError):  # proved by the scanner, which takes what pydantic-core may not
            pass
    try:
        try:  # _CHECKING's C scanner at the text's start, as json.loads calls it without its whitespace matches
            parsed, end = _SCAN_CHECKING(arguments, 0)
        except StopIteration:  # no value at the start: whitespace first, or not JSON
            parsed, end = None, -1
        if end != len(arguments):  # (or whitespace after the value, more than one value): the decoder reads it
            parsed = _CHECKING.decode(arguments)
    except _InexactError:  # what the counts could not prove either: the careful reading says what changed
        return _careful_arguments(arguments)
    except (ValueError, RecursionError):
        return _counted(arguments)
    _PROVED.add(arguments)
    return parsed, True


def _counted(arguments: str) -> tuple[object, bool]:
    """:func:`arguments_object` for a text the checking scanner did not take: parsed by
    pydantic-core, proved exact by two counts (:func:`_proved`: the text holds no more key
    ends than the parsed value holds keys, :func:`_no_repeated_key`; every number spelled
    with a fraction or an exponent is one a double holds, :func:`_floats_exact`); what the
    counts cannot prove (a key end inside a string, a rounded number) read again,
    carefully, by ``json.loads``."""
    try:
        parsed: Any = _from_json(arguments)
    except (ValueError, TypeError):  # TypeError: a str pydantic-core cannot take (a lone surrogate)
        return _careful_arguments(arguments)
    if _proved(arguments, parsed):
        _PROVED.add(arguments)
        return parsed, True
    return _careful_arguments(arguments)


_PROVED = TextMemory(1 << 21)
"""Argument texts proved exact (2 Mi characters: the calls of about thirty 50-step sessions,
``docs/performance.md`` "Memories"), by value:
exactness is a function of the text (:mod:`chatcodec._text_memory`)."""


def _proved(arguments: str, parsed: Any) -> bool:
    """Whether the counts prove the parsed value says exactly what ``arguments`` says."""
    if parsed.__class__ is dict and _FLAT.issuperset(map(type, parsed.values())):  # the usual call, inline
        keys, floats = len(parsed), False
    else:
        keys, floats = _keys_and_floats(parsed)
    # every key ends in a colon and a string can only add one: no string holding a colon
    # proves it in one count; else the key ends are counted (:func:`_no_repeated_key`)
    return (arguments.count(":") == keys or _no_repeated_key(arguments, keys)) and (
        not floats or _floats_exact(arguments)
    )


_from_json = pydantic_core.from_json


def _keys_and_floats(value: Any) -> tuple[int, bool]:
    """How many keys the parsed value's objects hold, all depths, and whether it holds a
    float (``NaN`` and ``Infinity``, which pydantic-core reads, are floats). A container of
    scalars that are neither (the usual one) is passed by one type test in C."""
    kind = value.__class__
    if kind is not dict and kind is not list:
        return 0, kind is float
    keys = 0
    floats = False
    pending: list[Any] = [value]
    while pending:
        item = pending.pop()
        children: Any
        if item.__class__ is dict:
            keys += len(item)
            children = item.values()
        else:
            children = item
        if _FLAT.issuperset(map(type, children)):
            continue
        for child in children:
            kind = child.__class__
            if kind is dict or kind is list:
                pending.append(child)
            elif kind is float:
                floats = True
    return keys, floats


_KEY_ENDS = re.compile(r'"\s*:')
"""Where an object key ends: a closing quote, then a colon. Every key end is one; a string
can only add (an escaped quote then a colon, or a string opening on a colon)."""

_ESCAPED_KEY_ENDS = re.compile(r'\\"\s*:')
"""The ends :data:`_KEY_ENDS` finds after an escaped quote: inside a string, never a key's."""

_QUOTE_GAP = re.compile('"[ \n\t\r]')
"""Whitespace after a quote: only then can a key end be spelled other than ``":``."""


def _no_repeated_key(arguments: str, keys: int) -> bool:
    """Whether the text holds no repeated key: its key ends, counted from above, are no
    more than the parsed value's ``keys`` (each repeat would be one more).

    The quotes a string escapes (a backslash, then a quote) are taken out of the count
    when the text holds no two backslashes before a quote: only then can a key's own
    closing quote follow a backslash (a key ending in one)."""
    if _QUOTE_GAP.search(arguments) is None:
        ends = arguments.count('":')
        if ends > keys and '\\\\"' not in arguments:
            ends -= arguments.count('\\":')
    else:
        ends = len(_KEY_ENDS.findall(arguments))
        if ends > keys and '\\\\"' not in arguments:
            ends -= len(_ESCAPED_KEY_ENDS.findall(arguments))
    return ends == keys


class _InexactError(Exception):
    """A number the text spells with more than its double holds, or a constant JSON lacks."""


def _exact_float(spelling: str) -> float:
    if repr(float(spelling)) != spelling and not _exact(spelling):
        raise _InexactError
    return 0.0  # the value read is not kept: pydantic-core's is


def _no_constant(spelling: str) -> float:
    raise _InexactError


_FLOAT_SPELLINGS = json.JSONDecoder(parse_float=_exact_float, parse_constant=_no_constant)
"""A reader that hands every number spelled with a fraction or an exponent (and ``NaN``,
``Infinity``) to a check, in C: the tokens are found by the scanner that parses JSON, so
digits inside strings are never taken for numbers. Stateless, so threads can share it."""


def _pairs_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    built = dict(pairs)
    if len(built) != len(pairs):
        raise _InexactError  # a repeated key: json.loads would keep its last value
    return built


def _float_read_exactly(spelling: str) -> float:
    value = float(spelling)
    if repr(value) != spelling and not _exact(spelling):
        raise _InexactError
    return value


_CHECKING = json.JSONDecoder(
    object_pairs_hook=_pairs_once, parse_float=_float_read_exactly, parse_constant=_no_constant
)
"""``json.loads``'s reading of an argument text that stops (:class:`_InexactError`) where writing
the value back would not say what the text said: a repeated key, a number with more digits
than its double holds, a constant JSON lacks. Stateless, so threads can share it."""
_SCAN_CHECKING: Callable[[str, int], tuple[Any, int]] = vars(_CHECKING)["scan_once"]
"""Its scanner, which ``JSONDecoder.decode`` calls after skipping whitespace (an attribute
every ``JSONDecoder`` sets, which the type stubs leave out)."""


def _floats_exact(arguments: str) -> bool:
    """Whether every number with a fraction or an exponent says no more than its double
    (``NaN`` and ``Infinity`` never do)."""
    try:
        _FLOAT_SPELLINGS.decode(arguments)
    except (_InexactError, ValueError, RecursionError):
        return False
    return True


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
