"""Where this repository's recordings live: ``tests/fixtures/<folder>/`` (``request/``,
``response/``, ``stream/``, each file with its provenance). A provider's conformance entry
states its folder (``ProviderEntry.fixtures``), as an outside codec's entry states its own."""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def recordings_of(folder: str) -> Path:
    """The recordings folder of a provider (its registry name, or the folder it shares)."""
    return FIXTURES / folder
