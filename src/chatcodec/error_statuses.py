"""The HTTP status an error type stands for, read from every registered provider's edge.

Which types a provider writes by status, and which other types and codes it sends, are
its own facts, in its edge (``Edge.errors.types`` and ``Edge.errors.reads``,
``providers/<name>/edge.py``, each with its documented error list). This module reads a
type in *any* of those vocabularies, so one provider's ``overloaded_error`` read by
another provider's decoder is still a 529, and a codec registered with an edge brings its
vocabulary with it. No two edges may give one type two statuses (a law in
``tests/conformance/test_edges.py``).

It imports nothing at module level, so the error classes (:mod:`chatcodec.errors`) and
the error shapes (:mod:`chatcodec.error_shapes`) both read it without an import circle;
the edges are read on the first status asked for (an error is the rare path).
"""

from __future__ import annotations

__all__ = ["error_status", "error_statuses"]

_last: list[tuple[int, dict[str, int]]] = []
"""The registry's generation the table was built at, and the table."""


def error_statuses() -> dict[str, int]:
    """Error type -> HTTP status, over every registered provider's edge (in registry
    order; a codec without an edge adds none)."""
    from chatcodec.errors import ProviderLookupError
    from chatcodec.registry import generation, get_edge, registered_providers

    if _last and _last[0][0] == generation():
        return _last[0][1]
    table: dict[str, int] = {}
    for name in registered_providers():
        try:
            statuses = get_edge(name).errors.statuses()
        except ProviderLookupError:
            continue
        for kind, status in statuses.items():
            table.setdefault(kind, status)
    _last[:] = [(generation(), table)]
    return table


def error_status(error_type: str | None, default: int = 500) -> int:
    """The HTTP status an error type stands for, in any registered provider's vocabulary
    (``default`` for a type none of them names)."""
    if error_type is None:
        return default
    return error_statuses().get(error_type, default)
