"""Collection order of the conformance laws: every single-provider case before any pair case.

A bug in one codec's field fails the single-provider law of that field once, and every pair
law that crosses the codec once per other provider: a newcomer's first failure should be the
one that names the field and the codec alone. So the laws over one provider (or a provider
and itself) run first, then the laws over two, each group in file order; with ``-x``
(``pytest tests/conformance -x``) the run stops at the single law, before the pair laws
repeat it. Nothing is skipped: the pair laws still run, after.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chatcodec.testing import LawCase, ProviderEntry
from conformance.providers import PROVIDER

HERE = Path(__file__).resolve().parent


def providers_in(item: pytest.Item) -> int:
    """How many distinct providers a collected case is parametrized over (0 for a law over
    none, 1 for a single-provider case or a provider with itself, 2 for a pair)."""
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return 0
    names: set[str] = set()
    for value in callspec.params.values():
        for each in value if isinstance(value, tuple) else (value,):
            if isinstance(each, LawCase):
                names.update(each.codecs)
            elif isinstance(each, ProviderEntry):
                names.add(each.name)
            elif isinstance(each, str) and each in PROVIDER:
                names.add(each)
    return len(names)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Order this folder's cases by :func:`providers_in` (a stable sort: file order within a
    group); cases of other folders keep their places."""
    places = [index for index, item in enumerate(items) if HERE in Path(str(item.path)).resolve().parents]
    ordered = sorted((items[index] for index in places), key=lambda item: min(providers_in(item), 2))
    for index, item in zip(places, ordered, strict=True):
        items[index] = item
