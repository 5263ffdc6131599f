"""Every setting of ``chatcodec serve`` checked against its declared type.

A TOML file is typed data, and a value of the wrong type must be refused, never read for
its truthiness: ``allow_anonymous = "false"`` is a non-empty string, so a check written
``if config.allow_anonymous`` would open the operator's key to anyone (an open relay
from a typo). :func:`check_fields` walks a dataclass's fields and their annotations
(``bool`` takes only ``true``/``false``, ``int`` no ``bool``, ``float`` an ``int`` too,
``X | None``, ``Literal``, ``tuple[X, ...]``, ``frozenset[X]``, ``Mapping[K, V]``), so a
new setting is checked the day it is declared, with no table to keep up.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import fields
from typing import TYPE_CHECKING, Any, Literal, cast, get_args, get_origin

from chatcodec._public_label import type_hints

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = ["check_fields"]

_MISSING = object()
"""Stands for a collection of the wrong kind: no member of it fits."""


def check_fields(instance: DataclassInstance, where: str = "") -> None:
    """Raise ``ValueError`` naming the first field of the dataclass ``instance`` whose
    value does not have its declared type (``where`` prefixes the name: ``[[route]] ``)."""
    hints = type_hints(type(instance))  # resolved where the class is defined, not its public module
    for item in fields(instance):
        value = getattr(instance, item.name)
        hint = hints[item.name]
        if not _fits(value, hint):
            raise ValueError(f"{where}{item.name} must be {_described(hint)}, not {value!r} ({type(value).__name__})")


def _fits(value: object, hint: Any) -> bool:
    if hint is Any or hint is object:
        return True
    if hint is type(None):
        return value is None
    if hint is bool:
        return type(value) is bool
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    origin = get_origin(hint)
    arguments = get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return any(_fits(value, arm) for arm in arguments)
    if origin is Literal:
        return value in arguments
    if origin in (tuple, frozenset):
        members: Iterable[object] = cast("Iterable[object]", value) if isinstance(value, origin) else [_MISSING]
        return all(member is not _MISSING and _fits(member, arguments[0]) for member in members)
    if origin is not None and issubclass(origin, Mapping):
        table = cast("Mapping[object, object]", value) if isinstance(value, Mapping) else None
        return table is not None and all(
            _fits(key, arguments[0]) and _fits(member, arguments[1]) for key, member in table.items()
        )
    return isinstance(value, hint)


def _described(hint: Any) -> str:
    if hint is bool:
        return "true or false"
    if hint is int:
        return "a whole number"
    if hint is float:
        return "a number"
    if hint is str:
        return "a string"
    if hint is type(None):
        return "left out"
    origin = get_origin(hint)
    arguments = get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return " or ".join(_described(arm) for arm in arguments)
    if origin is Literal:
        return "one of " + ", ".join(repr(argument) for argument in arguments)
    if origin in (tuple, frozenset):
        return f"a list of {_plural(arguments[0])}"
    if origin is not None and issubclass(origin, Mapping):
        return f"a table of {_plural(arguments[1])}"
    return getattr(hint, "__name__", str(hint))


def _plural(hint: Any) -> str:
    named = {str: "strings", int: "whole numbers", float: "numbers", bool: "true/false values", object: "values"}
    return named.get(hint) or f"values that are {_described(hint)}"
