"""The provider table of the conformance suite: one entry per registered codec, collected.

Every law in ``tests/conformance`` is parametrized over :data:`PROVIDERS`. The entries are
not written here: each registered provider ``<name>`` exports its own as ``ENTRY`` from
``tests/providers/<name with underscores>/conformance.py`` (a :class:`ProviderEntry`), so a
new codec gets the whole suite from its own folder (its fixtures in ``tests/fixtures/<name>/``
with their provenance). A registered provider without an entry fails collection; a codec
another distribution installs (a ``chatcodec.codecs`` entry point: ``examples/``' Cohere Chat
codec, once ``make test`` installed its wheel) is checked by its own distribution's laws
(``chatcodec check-codec NAME``, ``tests/test_outside_codec_cohere.py``), not here. The laws
use only the public API (``chatcodec``, ``chatcodec.testing``, ``chatcodec.streams._replay``),
so refactors of the codecs' internals cannot break them.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

import chatcodec
from chatcodec.testing import ProviderEntry
from chatcodec.testing._laws.suite import streams


def entry_module(name: str) -> str:
    """The module holding a registered provider's entry."""
    return f"providers.{name.replace('-', '_')}.conformance"


def _entry(name: str) -> ProviderEntry:
    entry = importlib.import_module(entry_module(name)).ENTRY
    assert isinstance(entry, ProviderEntry), f"{entry_module(name)}.ENTRY is not a ProviderEntry"
    assert entry.name == name, f"{entry_module(name)}.ENTRY is named {entry.name!r}, not {name!r}"
    return entry


_INSTALLED = frozenset(point.name for point in entry_points(group="chatcodec.codecs"))
"""The codecs other distributions install: each checked by its own laws."""

PROVIDERS: tuple[ProviderEntry, ...] = tuple(
    _entry(name) for name in chatcodec.registered_providers() if name not in _INSTALLED
)

PROVIDER = {provider.name: provider for provider in PROVIDERS}
PROVIDER_NAMES = list(PROVIDER)
"""Hypothesis tests take the name (it prints a falsifying example's dataclass in full)."""


STREAMING = [provider for provider in PROVIDERS if streams(provider.name)]
"""The entries whose codecs stream: what every stream law is parametrized over."""

STREAMING_NAMES = [provider.name for provider in STREAMING]


def one_wire(first: str, second: str) -> bool:
    """Whether two registered names read one wire: their entries read one fixture folder (a
    folder's codec registered twice, as the session's streamless twin is). Converting
    between them keeps what a conversion to another wire drops by design (the spelling
    markers their bags share), so a law about crossing to another wire takes pairs of two."""
    return PROVIDER[first].folder == PROVIDER[second].folder


def by_name(provider: ProviderEntry) -> str:
    """Test ids: the registry name."""
    return provider.name


def fixture_cases(kind: str) -> list[tuple[ProviderEntry, str]]:
    """``(provider, file name)`` for every recorded fixture of ``kind`` (``request`` or
    ``response``), every provider."""
    return [(provider, name) for provider in PROVIDERS for name in provider.recorded[kind]]


def stream_fixture_cases() -> list[tuple[ProviderEntry, str]]:
    """``(provider, file name)`` for every recorded stream of the providers whose codecs
    stream (:data:`STREAMING`)."""
    return [(provider, name) for provider in STREAMING for name in provider.recorded["stream"]]


def case_id(case: object) -> str:
    return case.name if isinstance(case, ProviderEntry) else str(case)
