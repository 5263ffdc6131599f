"""A public name says where a user imports it from, not the private module that defines it.

``chatcodec.ChatRequest`` is defined in ``chatcodec._model.request``; left alone, tracebacks,
reprs and pickles would show that path, which may move in any release. Each defining module
ends with :func:`shown_as`, giving its public classes and functions the public module's name
as ``__module__`` (httpx does the same for every name it re-exports), so ``repr(ChatRequest)``
is ``<class 'chatcodec.ChatRequest'>`` and a pickle names ``chatcodec.ChatRequest``, which
the public module's lazy loader finds again.

Python resolves a class's string annotations in the module its ``__module__`` names, so
anything that reads them (``typing.get_type_hints``, a model's field docstrings, the
generators in ``tools/``) asks :func:`defined_in` for the module that holds the source, or
calls :func:`type_hints`. pydantic resolves a model's field annotations when the class is
created, before it is labelled (its schema is built on first use, from those); :func:`shown_as`
refuses a model with an annotation still unresolved, whose later resolution would look in
the public module and fail.
"""

from __future__ import annotations

import sys
import typing
from typing import Any

_DEFINED_IN: dict[object, str] = {}
"""Each labelled object -> the module that defines it (its ``__module__`` before)."""


def shown_as(public_module: str, *objects: Any) -> None:
    """Give each of ``objects`` (classes and functions) ``public_module`` as ``__module__``."""
    for value in objects:
        if getattr(value, "__pydantic_fields_complete__", True) is False:
            raise RuntimeError(f"{value.__qualname__} has annotations pydantic has not resolved yet")
        _DEFINED_IN.setdefault(value, value.__module__)
        value.__module__ = public_module


def defined_in(value: object) -> str:
    """The module whose source defines ``value`` (its ``__module__`` unless it was labelled)."""
    found = _DEFINED_IN.get(value)
    if found is not None:
        return found
    module: str = getattr(value, "__module__", "")
    return module


def type_hints(cls: type[Any]) -> dict[str, Any]:
    """``typing.get_type_hints(cls)`` with string annotations resolved in the modules that
    define ``cls`` and its bases, labelled or not (the class's own module wins a clash)."""
    namespace: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        namespace.update(vars(sys.modules[defined_in(base)]))
    return typing.get_type_hints(cls, globalns=namespace)
