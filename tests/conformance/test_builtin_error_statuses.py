"""The built-in codecs share one error vocabulary: a type two of them name means one HTTP
status in both (a codec's own types are read in its namespace first, so an outside codec may
give a shared type another status: ``tests/test_error_types.py``; the built-ins never do,
which the shared table a type read without its codec relies on)."""

from __future__ import annotations

from chatcodec._registry import PROVIDER_NAMES, get_edge


def test_no_two_built_in_edges_give_one_error_type_two_statuses() -> None:
    seen: dict[str, tuple[str, int]] = {}
    for name in PROVIDER_NAMES:
        for kind, status in get_edge(name).errors.statuses().items():
            first = seen.setdefault(kind, (name, status))
            assert first[1] == status, (kind, first, (name, status))
    assert len(seen) > 10
