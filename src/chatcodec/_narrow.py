"""Narrowing untyped JSON data without losing static types.

``isinstance(data, dict)`` tells a type checker nothing about keys and values; these
helpers say "string-keyed JSON object" once, so the code that reads payloads stays
strictly typed.
"""

from __future__ import annotations

from typing import Any, cast


def as_dict(data: object) -> dict[str, Any] | None:
    """``data`` as a JSON object, or ``None`` when it is not a dict."""
    if not isinstance(data, dict):
        return None
    return cast(dict[str, Any], data)


def as_list(data: object) -> list[Any] | None:
    """``data`` as a JSON array, or ``None`` when it is not a list."""
    if not isinstance(data, list):
        return None
    return cast(list[Any], data)  # type: ignore[redundant-cast]  # mypy knows list[Any]; pyright does not


def as_count(data: object, minimum: int = 0) -> int | None:
    """``data`` as a whole number of at least ``minimum`` (a token count, a budget), or
    ``None``: ``True`` and ``False`` are not counts, though Python's ``bool`` is an ``int``
    (a decoder that took ``false`` as 0 handed the strict canonical model a bool, refused
    at a canonical path the input does not have)."""
    if type(data) is not int or data < minimum:
        return None
    return data
