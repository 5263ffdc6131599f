"""Typed empty containers, for a dataclass field's ``default_factory``.

``field(default_factory=list[Part])`` spells the element type for a strict type checker,
but the factory is then a generic alias, whose call makes the list and then tries to set
``__orig_class__`` on it, and catches the ``AttributeError``: about 5 k instructions a field
each time an object is made (an encode context every request, a state every stream block),
where ``list()`` costs a few hundred. A bare ``list`` leaves the element type unknown to
pyright; these say ``Any``, which the field's own annotation narrows.
"""

from __future__ import annotations

from typing import Any


def empty_list() -> list[Any]:
    """A new empty list."""
    return []


def empty_dict() -> dict[Any, Any]:
    """A new empty dict."""
    return {}


def empty_set() -> set[Any]:
    """A new empty set."""
    return set()
