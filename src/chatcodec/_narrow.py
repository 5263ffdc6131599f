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
