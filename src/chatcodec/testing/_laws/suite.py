"""The codecs a run of the laws is over: :class:`Suite`, one :class:`ProviderEntry` each.

A law is written over a suite, never over a list of names: the repository's suite is every
registered provider's entry, ``chatcodec check-codec NAME``'s is the one installed codec it
checks. Which codecs stream is read from each codec's capabilities (streams are optional in
the contract), so a stream law has no case for a codec that says it does not stream.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import chatcodec
from chatcodec.contract import Capabilities
from chatcodec.testing._laws.entry import ProviderEntry


def streams(name: str) -> bool:
    """Whether the codec ``name`` reads and writes streams, as its capabilities say
    (``decodes_streams`` and ``encodes_streams``; a codec without them refuses every stream
    entry point at the call)."""
    codec = chatcodec.get_codec(name)
    return bool(getattr(codec, "decodes_streams", True) and getattr(codec, "encodes_streams", True))


def capabilities(name: str) -> Capabilities | None:
    """What the codec ``name`` says its wire carries (None: a codec that says nothing,
    which every law assumes carries everything)."""
    found = getattr(chatcodec.get_codec(name), "capabilities", None)
    return found if isinstance(found, Capabilities) else None


def carries_tool_definitions(name: str) -> bool:
    """Whether the codec's requests carry tool definitions (its capabilities say)."""
    found = capabilities(name)
    return found is None or found.tool_definitions


@dataclass(frozen=True)
class Suite:
    """The entries a run of the laws is over, in order."""

    entries: tuple[ProviderEntry, ...]
    by_name: dict[str, ProviderEntry] = field(init=False, repr=False, compare=False)
    streaming: tuple[ProviderEntry, ...] = field(init=False, repr=False, compare=False)
    """The entries whose codecs stream: what every stream law is over."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_name", {entry.name: entry for entry in self.entries})
        object.__setattr__(self, "streaming", tuple(entry for entry in self.entries if streams(entry.name)))

    @classmethod
    def of(cls, entries: Sequence[ProviderEntry]) -> Suite:
        return cls(tuple(entries))

    def __getitem__(self, name: str) -> ProviderEntry:
        return self.by_name[name]

    @property
    def names(self) -> list[str]:
        return list(self.by_name)

    def one_wire(self, first: ProviderEntry, second: ProviderEntry) -> bool:
        """Whether two entries read one wire: one recordings folder (a folder's codec registered
        twice, as a streamless twin is), or one name. Converting between them keeps what a
        conversion to another wire drops by design, so a law about crossing to another wire
        takes pairs of two."""
        return first.name == second.name or (first.folder is not None and first.folder == second.folder)

    def pairs(self) -> list[tuple[ProviderEntry, ProviderEntry]]:
        """Ordered pairs of two wires."""
        return [
            (first, second) for first in self.entries for second in self.entries if not self.one_wire(first, second)
        ]

    def recorded(self, kind: str) -> list[tuple[ProviderEntry, str]]:
        """``(entry, file name)`` for every recording of ``kind`` (``request``, ``response``)."""
        return [(entry, name) for entry in self.entries for name in entry.recorded[kind]]

    def recorded_streams(self) -> list[tuple[ProviderEntry, str]]:
        """``(entry, file name)`` for every recorded stream of the codecs that stream."""
        return [(entry, name) for entry in self.streaming for name in entry.recorded["stream"]]
