"""A JSON object's members as the text the model wrote, not as re-serialized values.

A hermes call ``{"name": "f", "arguments": {"a": 1.0}}`` has arguments ``{"a": 1.0}``:
parsing and dumping again would write ``1.0`` as the model did, but ``{"a":1}`` would come
back with a space and a reordered or re-escaped object would come back changed. The
canonical ``arguments`` is the model's own text, so the member is cut out of the text at the
span the JSON decoder read.
"""

from __future__ import annotations

import json
import re

_DECODER = json.JSONDecoder()
_SPACE = " \t\n\r"  # JSON's whitespace (RFC 8259)


def object_members(text: str, start: int = 0) -> tuple[dict[str, str], int] | None:
    """The members of the JSON object at ``text[start:]`` (after whitespace) as raw texts by
    key, and the index after the object; None when no valid JSON object starts there, or one
    nested deeper than Python's decoder goes (the caller keeps the text, never a
    ``RecursionError``)."""
    index = _skip(text, start)
    if not text.startswith("{", index):
        return None
    members: dict[str, str] = {}
    index = _skip(text, index + 1)
    if text.startswith("}", index):
        return members, index + 1
    while True:
        try:
            key, index = _DECODER.raw_decode(text, index)
            index = _skip(text, index)
            if not isinstance(key, str) or not text.startswith(":", index):
                return None
            value_start = _skip(text, index + 1)
            _, index = _DECODER.raw_decode(text, value_start)
        except (ValueError, RecursionError):  # RecursionError: nested past Python's decoder
            return None
        members[key] = text[value_start:index]
        index = _skip(text, index)
        if text.startswith(",", index):
            index = _skip(text, index + 1)
            continue
        if text.startswith("}", index):
            return members, index + 1
        return None


def _skip(text: str, index: int) -> int:
    """The index of the first character at or after ``index`` that is no JSON whitespace."""
    while index < len(text) and text[index] in _SPACE:
        index += 1
    return index


def string_value(raw: str | None) -> str | None:
    """A member's raw text read as a JSON string, or None when it is no string."""
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def object_in_string(raw: str) -> str | None:
    """The JSON object a member's raw text holds as a string (``"{\\"a\\": 1}"``: arguments
    written once as JSON and again as a string, as Granite 4 writes them), its text without
    the whitespace around it; None when the member is no string, or its string is not one
    whole object (``"hello"``, ``"{hello world}"``, ``"{\\"a\\": 1} tail"`` stay strings)."""
    if not raw.startswith('"'):  # the common case, an object: not decoded twice
        return None
    text = string_value(raw)
    if text is None:
        return None
    read = object_members(text)
    if read is None or _skip(text, read[1]) != len(text):
        return None
    return text.strip(_SPACE)


_NAME = re.compile(r'"name"\s*:\s*"((?:[^"\\]|\\.)*)"')
_ARGUMENTS = re.compile(r'"(?:arguments|parameters)"\s*:\s*')


def salvage_call(text: str) -> tuple[str, str, str] | None:
    """A call object that is not valid JSON (its arguments are broken: a trailing comma, a
    missing brace, a bare newline in a string), read as its name and the text after its
    ``"arguments":`` key up to the object's closing brace: the model's text, kept, as the
    canonical ``arguments`` keeps invalid JSON. The third text is what stood before the
    arguments beside the name and the object's punctuation (reported by the caller). None when
    no name is found before the arguments."""
    name = _NAME.search(text)
    arguments = _ARGUMENTS.search(text)
    if name is None or arguments is None or name.start() > arguments.start():
        return None
    unread = (text[: name.start()] + text[name.end() : arguments.start()]).strip(_PUNCTUATION)
    rest = text[arguments.end() :].rstrip()
    if rest.endswith("}") and rest.count("}") > rest.count("{"):  # the call object's own brace
        rest = rest[:-1].rstrip()
    decoded = string_value(f'"{name.group(1)}"')
    return (decoded if decoded is not None else name.group(1)), rest, unread


_PUNCTUATION = "{,: \t\n\r"
"""What a call object holds before its arguments beside its name: its brace, separators, space."""
