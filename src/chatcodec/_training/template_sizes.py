"""How long a value a chat template's operation would build, read before it is built.

A template builds large values without writing them: a width (``'x'|center(10**9)``,
``'%0999999999d' % 1``, ``'{:>999999999}'.format(1)``), a separator or indent repeated per item
or line (``join``, ``indent``, ``replace``, ``tojson(indent=)``), or the text of a list whose items
are one long string shared many times (``[s] * 1000`` is small; its text is not). Each is
measured here from its inputs, so :mod:`.template_limits` refuses it unmade; what a value's text
would be is counted without making it.

The counts are close to the length, not exact where exactness is costly (the escapes of a string
inside a list's text or a JSON text, a format's conversions): a real template's values are far
below the bound, and a hostile one's far above it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from itertools import chain
from typing import Any, Final, cast

_NUMBER: Final = 32
"""The most characters a float's text takes (``-1.7976931348623157e+308``)."""
_SCALAR: Final = 8
"""What ``None``, ``True`` or an object without a text of its own counts for."""


def text_size(value: object, limit: int) -> int:
    """``len(str(value))``, counted without making the text; past ``limit`` the count stops there."""
    if isinstance(value, str):
        return len(value)
    return _items_size(value, limit)


def _items_size(value: object, limit: int) -> int:
    """The length of the text of ``value`` and what it holds (a list's, dict's or namespace's
    ``repr``, or its JSON), read without recursion: a string inside counts its length, its quotes
    and separator, not its escapes (a quote, backslash or line break is written as two
    characters, another control character as up to six: the count falls short by that much)."""
    size = 0
    pending: list[object] = [value]
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind is str:
            size += len(cast("str", item)) + 4
        elif kind is dict:
            size += 2
            pending.extend(chain.from_iterable(cast("dict[object, object]", item).items()))
        elif kind is list or kind is tuple:
            size += 2
            pending.extend(cast("Iterable[object]", item))
        else:
            size += _scalar_size(item, pending)
        if size > limit:
            break
    return size


def _scalar_size(value: object, pending: list[object]) -> int:
    """The text of a number or string subclass; a mapping, sequence or namespace's items put on
    ``pending`` (read past any ``__getattr__``: an undefined value's raises)."""
    if isinstance(value, str):
        return len(value) + 4
    if isinstance(value, bool) or value is None:
        return _SCALAR
    if isinstance(value, int):
        return value.bit_length() * 3 // 10 + 2
    if isinstance(value, float):
        return _NUMBER
    if isinstance(value, Mapping):
        pending.extend(chain.from_iterable(cast("Mapping[object, object]", value).items()))
        return 2
    if isinstance(value, list | tuple):
        pending.extend(cast("Iterable[object]", value))
        return 2
    try:
        attributes = object.__getattribute__(value, "_Namespace__attrs")  # Jinja's namespace() shows its values
    except AttributeError:
        return _SCALAR
    if isinstance(attributes, dict):
        pending.extend(chain.from_iterable(cast("dict[object, object]", attributes).items()))
    return _SCALAR + 12


def joined_size(items: Iterable[object], separator: object, limit: int) -> int:
    """The length of ``str(separator).join(map(str, items))``."""
    gap = text_size(separator, limit)
    size = 0
    for count, item in enumerate(items):
        size += text_size(item, limit - size) + (gap if count else 0)
        if size > limit:
            break
    return size


_PERCENT: Final = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?[-#0 +]*(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d*))?[hlL]?(.)?"
)


def percent_size(template: str, values: object, limit: int) -> int:
    """The length of ``template % values``: its text, each conversion's width and precision, and
    each value's text."""
    positional: list[object] = list(cast("tuple[object, ...]", values)) if isinstance(values, tuple) else [values]
    mapping = cast("Mapping[str, object]", values) if isinstance(values, Mapping) else None
    size = len(template)
    for match in _PERCENT.finditer(template):
        for field in ("width", "precision"):
            number = match.group(field)
            if number == "*":
                taken = positional.pop(0) if positional else 0
                size += taken if isinstance(taken, int) else 0
            elif number:
                size += int(number)
        if match.group(4) == "%":
            continue
        if match.group("key") is not None and mapping is not None:
            size += text_size(mapping.get(match.group("key")), limit)
        elif positional:
            size += text_size(positional.pop(0), limit)
        if size > limit:
            break
    return size


_SPEC: Final = re.compile(r"(?:.?[<>=^])?[-+ ]?z?#?0?(?P<width>\d*)[,_]?(?:\.(?P<precision>\d+))?")


def format_size(template: str, args: tuple[Any, ...], kwargs: Mapping[str, Any], limit: int) -> int:
    """The length of ``template.format(*args, **kwargs)``: its text, each field's value and its
    width and precision (a width given by another field counts the largest number given)."""
    numbers = [value for value in (*args, *kwargs.values()) if isinstance(value, int)]
    largest = max(numbers, default=0)
    import string  # a template calling ``format`` only

    size, auto = 0, 0
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError:  # the format itself is wrong: str.format says so
        return 0
    for literal, name, spec, _conversion in fields:
        size += len(literal)
        if name is None:
            continue
        size += _field_value_size(name, args, kwargs, auto, limit)
        auto += name == ""
        if spec and "{" in spec:
            size += largest * 2
        elif spec and (found := _SPEC.match(spec)) is not None:
            size += int(found.group("width") or 0) + int(found.group("precision") or 0)
        if size > limit:
            break
    return size


def _field_value_size(name: str, args: tuple[Any, ...], kwargs: Mapping[str, Any], auto: int, limit: int) -> int:
    """The text of the value a replacement field names; the longest of all where it reads an
    attribute or item of one."""
    if name == "" and auto < len(args):
        return text_size(args[auto], limit)
    if name.isdigit() and int(name) < len(args):
        return text_size(args[int(name)], limit)
    if name in kwargs:
        return text_size(kwargs[name], limit)
    return max((text_size(value, limit) for value in (*args, *kwargs.values())), default=0)


def replaced_size(text: str, old: str, new: str, count: int = -1) -> int:
    """The length of ``text.replace(old, new, count)``."""
    found = len(text) + 1 if old == "" else text.count(old)
    if count >= 0:
        found = min(found, count)
    return len(text) + found * (len(new) - len(old))


def indented_size(text: str, unit: int, lines_only: bool = False) -> int:
    """The length of ``text`` with a ``unit``-character indent on every line (``lines_only``: a
    separator between lines, as ``wordwrap`` writes)."""
    lines = text.count("\n") + 1
    return len(text) + unit * (lines if not lines_only else len(text) + 1) + 1


def escaped_size(text: str) -> int:
    """The length of ``markupsafe.escape(text)``."""
    return (
        len(text) + 4 * (text.count("&") + text.count('"') + text.count("'")) + 3 * (text.count("<") + text.count(">"))
    )


def json_indent_size(value: object, unit: int, limit: int) -> int:
    """What ``json.dumps(value, indent=...)`` adds to the compact text of ``value``: a newline and
    ``unit`` characters per level before each item and each closing bracket of a non-empty list
    or object."""
    return _json_indent(value, unit, 0, limit)


def _json_indent(value: object, unit: int, level: int, limit: int) -> int:
    if isinstance(value, Mapping):
        items: Iterable[object] = cast("Mapping[object, object]", value).values()
    elif isinstance(value, list | tuple):
        items = cast("Iterable[object]", value)
    else:
        return 0
    size, count = 0, 0
    for item in items:
        size += 1 + unit * (level + 1) + _json_indent(item, unit, level + 1, limit - size)
        count += 1
        if size > limit:
            return size
    return size + 1 + unit * level if count else 0
