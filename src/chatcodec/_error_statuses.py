"""The HTTP status an error type stands for, read from every registered provider's edge.

Which types a provider writes by status, and which other types and codes it sends, are
its own facts, in its edge (``Edge.errors.types`` and ``Edge.errors.reads``,
``_providers/<name>/edge.py``, each with its documented error list). This module reads a
type in *any* of those vocabularies, so one provider's ``overloaded_error`` read by
another provider's decoder is still a 529, and a codec registered with an edge brings its
vocabulary with it. Types are namespaced per codec: asked with ``provider``, a type is
read in that codec's own vocabulary first, so a codec registered from outside may name a
type a built-in names with another status (Cohere's own ``bad_request``) without changing
what the built-in's type means; the shared table, for a type read without its codec, keeps
the first registered meaning (the built-ins'). No two built-in edges give one type two
statuses (a law in ``tests/conformance/test_edges.py``).

The error classes (:mod:`chatcodec._errors`) read it, and they sit below the registry, so
this module imports nothing: the registry hands it the table's source when it is imported
(:func:`read_statuses_from`). Every path that reads or writes a provider's body goes
through the registry; before anything has imported it (an error a caller builds in a
fresh process) no status is known (:func:`statuses_known`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

__all__ = ["error_status", "error_statuses", "read_statuses_from", "statuses_known"]

_source: list[Callable[[], Mapping[str, int]]] = []
"""What builds the table (the registry's reading of every edge), once it is imported."""
_own: list[Callable[[str], Mapping[str, int]]] = []
"""What gives one codec's own vocabulary (the registry's reading of its edge)."""


def read_statuses_from(source: Callable[[], Mapping[str, int]], own: Callable[[str], Mapping[str, int]]) -> None:
    """Read the shared table from ``source`` and a codec's own types from ``own`` from now on
    (the registry calls this on import)."""
    _source[:] = [source]
    _own[:] = [own]


def statuses_known() -> bool:
    """Whether the table has its source (the registry has been imported)."""
    return bool(_source)


def error_statuses() -> Mapping[str, int]:
    """Error type -> HTTP status, over every registered provider's edge."""
    return _source[0]() if _source else {}


def error_status(error_type: str | None, default: int = 500, *, provider: str | None = None) -> int:
    """The HTTP status an error type stands for: in ``provider``'s own vocabulary first
    (its namespace), else in any registered provider's (``default`` for a type none of
    them names)."""
    if error_type is None:
        return default
    if provider is not None and _own:
        own = _own[0](provider).get(error_type)
        if own is not None:
            return own
    return error_statuses().get(error_type, default)
