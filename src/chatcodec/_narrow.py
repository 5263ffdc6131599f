"""Narrowing untyped JSON data without losing static types.

``isinstance(data, dict)`` tells a type checker nothing about keys and values; these
helpers say "string-keyed JSON object" once, so the code that reads payloads stays
strictly typed.
"""

from __future__ import annotations

from collections.abc import Callable
from math import isfinite
from typing import Any, TypeGuard, cast

from chatcodec._public_label import shown_as


def is_dict(data: object) -> TypeGuard[dict[str, Any]]:
    """Whether ``data`` is a JSON object (``isinstance(data, dict)``, said so that both
    type checkers know its keys and values: pyright would narrow to ``dict[Unknown, Unknown]``)."""
    return isinstance(data, dict)


def is_list(data: object) -> TypeGuard[list[Any]]:
    """Whether ``data`` is a JSON array (as :func:`is_dict`)."""
    return isinstance(data, list)


def as_dict(data: object) -> dict[str, Any] | None:
    """``data`` as a JSON object, or ``None`` when it is not a dict."""
    return data if is_dict(data) else None


DICT_GET = cast("Callable[[Any, str], Any]", dict[str, Any].get)
"""``dict.get`` unbound, typed: ``map(DICT_GET, dicts, repeat(key))`` looks ``key`` up in
each dict in C, through the method descriptor (``methodcaller("get", key)`` looks the method
up by name at each one, about twice the cost); a value that is no dict raises ``TypeError``."""

DICT_HOLDS = cast("Callable[[Any, str], bool]", dict[str, Any].__contains__)
"""``dict.__contains__`` unbound, typed, for ``map`` as :data:`DICT_GET` is."""


def as_list(data: object) -> list[Any] | None:
    """``data`` as a JSON array, or ``None`` when it is not a list."""
    return data if is_list(data) else None


def as_count(data: object, minimum: int = 0) -> int | None:
    """``data`` as a whole number of at least ``minimum`` (a token count, a budget), or
    ``None``: ``True`` and ``False`` are not counts, though Python's ``bool`` is an ``int``
    (a decoder that took ``false`` as 0 handed the strict canonical model a bool, refused
    at a canonical path the input does not have)."""
    if type(data) is not int or data < minimum:
        return None
    return data


def as_sampling_number(value: object) -> object:
    """A JSON number as canonical holds a sampling parameter (``request.SamplingNumber``):
    an integer a double holds exactly is a float (``1`` reads as ``1.0``, the same JSON
    number), one it cannot hold (``2**53 + 1``, ``10**400``) stays an exact ``int``; any
    other value is returned as it is. The one rule, for the canonical models and the one
    passes, which load no pydantic: ``2**60`` fits a double, though it is past ``2**53``."""
    if type(value) is int and fits_a_double(value):
        return float(value)
    return value


def is_a_double(value: object) -> TypeGuard[int | float]:
    """Whether ``value`` is a JSON number a finite double holds exactly, as the APIs' own
    ``double`` fields (a token's log probability) are: a finite float, or an integer
    :func:`fits_a_double` says holds (JSON numbers have no size limit: ``10**400`` or
    ``2**53 + 1`` would be rounded, or overflow). Not a bool."""
    if type(value) is float:
        return isfinite(value)
    return type(value) is int and fits_a_double(value)


def fits_a_double(value: int) -> bool:
    """Whether a double holds ``value`` exactly."""
    try:
        return int(float(value)) == value
    except OverflowError:
        return False


shown_as("chatcodec.codec_kit", as_count, as_dict, as_list, as_sampling_number, is_a_double, is_dict, is_list)
