"""No dataclass in chatcodec makes a field's empty default by calling a generic alias
(``field(default_factory=list[Part])``): the alias tries to set ``__orig_class__`` on the new
list and catches the ``AttributeError``, 2.3 k instructions a field each time an object is
made (encode contexts, stream states: every request and stream). ``lambda: []`` (typed by
pyright and mypy from the field's annotation) or a named typed factory makes the same
empty value for a tenth of the cost (docs/performance.md)."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import types
import typing

import chatcodec


def _modules() -> list[types.ModuleType]:
    names = [
        found.name
        for found in pkgutil.walk_packages(chatcodec.__path__, "chatcodec.")
        if not found.name.endswith("__main__") and "._template" not in found.name
    ]
    return [importlib.import_module(name) for name in names]


def _alias_factories() -> list[str]:
    found: list[str] = []
    for module in _modules():
        for value in vars(module).values():
            if not isinstance(value, type) or value.__module__ != module.__name__:
                continue
            name = f"{module.__name__}.{value.__qualname__}"
            if not dataclasses.is_dataclass(value):
                continue
            for each in dataclasses.fields(value):
                factory = each.default_factory
                if isinstance(factory, types.GenericAlias) or typing.get_origin(factory) is not None:
                    found.append(f"{name}.{each.name}: {factory}")
    return found


def test_no_dataclass_field_is_made_by_calling_a_generic_alias() -> None:
    assert _alias_factories() == []


def test_the_look_finds_a_generic_alias_factory() -> None:
    """The check itself: a dataclass like the ones it refuses is found."""

    @dataclasses.dataclass
    class Refused:
        parts: list[int] = dataclasses.field(default_factory=list[int])

    factory = dataclasses.fields(Refused)[0].default_factory
    assert isinstance(factory, types.GenericAlias)
    assert typing.get_origin(factory) is list
