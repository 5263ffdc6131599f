"""Strict checking of payloads against the official SDKs' request TypedDicts.

The SDKs type request lists as ``Iterable[...]``, which pydantic validates lazily (it never
looks inside), and their TypedDicts let extra keys through. This walker checks the
payload against the type tree itself: every list element, every nested object, and no key
the SDK does not declare. It is a test oracle, not library code.
"""

from __future__ import annotations

import collections.abc
import types
import typing
from dataclasses import dataclass, field
from typing import Any, NotRequired, Required

from typing_extensions import is_typeddict

_LIST_ORIGINS = {list, collections.abc.Iterable, collections.abc.Sequence, typing.Iterable, typing.Sequence}
_MAP_ORIGINS = {dict, collections.abc.Mapping, typing.Mapping}


@dataclass
class OracleReport:
    """Problems found, each as ``path: what``."""

    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check(payload: object, expected: object) -> OracleReport:
    """Check ``payload`` against the SDK type ``expected`` (usually a TypedDict)."""
    report = OracleReport()
    report.problems.extend(_problems(payload, expected, "$"))
    return report


def assert_matches(payload: object, expected: object) -> None:
    """Fail with every problem listed when ``payload`` does not match ``expected``."""
    report = check(payload, expected)
    assert report.ok, "payload does not match the SDK type:\n" + "\n".join(report.problems)


def _problems(value: object, expected: Any, at: str) -> list[str]:
    origin = typing.get_origin(expected)
    arguments = typing.get_args(expected)
    if origin in (typing.Annotated, Required, NotRequired):
        return _problems(value, arguments[0], at)
    if expected in (Any, object):
        return []
    if origin in (typing.Union, types.UnionType):
        return _union_problems(value, arguments, at)
    if origin is typing.Literal:
        return [] if value in arguments else [f"{at}: {value!r} is not one of {arguments}"]
    if is_typeddict(expected):
        return _typeddict_problems(value, expected, at)
    if origin in _LIST_ORIGINS:
        return _list_problems(value, arguments, at)
    if origin in _MAP_ORIGINS or expected is dict:
        return [] if isinstance(value, dict) else [f"{at}: expected an object, got {type(value).__name__}"]
    return _scalar_problems(value, expected, at)


def _union_problems(value: object, members: tuple[Any, ...], at: str) -> list[str]:
    attempts = [_problems(value, member, at) for member in members]
    if any(not attempt for attempt in attempts):
        return []
    return min(attempts, key=len)


def _typeddict_problems(value: object, expected: Any, at: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{at}: expected an object ({expected.__name__}), got {type(value).__name__}"]
    hints = typing.get_type_hints(expected, include_extras=True)
    problems = [f"{at}.{key}: not a field of {expected.__name__}" for key in value if key not in hints]
    missing = [key for key in expected.__required_keys__ if key not in value]
    problems += [f"{at}.{key}: required by {expected.__name__}" for key in missing]
    for key, item in value.items():
        if key in hints:
            problems += _problems(item, hints[key], f"{at}.{key}")
    return problems


def _list_problems(value: object, arguments: tuple[Any, ...], at: str) -> list[str]:
    if not isinstance(value, list):
        return [f"{at}: expected a list, got {type(value).__name__}"]
    element = arguments[0] if arguments else Any
    return [problem for index, item in enumerate(value) for problem in _problems(item, element, f"{at}[{index}]")]


def _scalar_problems(value: object, expected: Any, at: str) -> list[str]:
    if expected is type(None):
        return [] if value is None else [f"{at}: expected null"]
    if expected is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif expected is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(expected, type):
        ok = isinstance(value, expected)
    else:
        ok = True  # exotic SDK aliases (file uploads): not part of a JSON payload check
    return [] if ok else [f"{at}: expected {getattr(expected, '__name__', expected)}, got {type(value).__name__}"]
