"""A process's bounded memory of texts already proved: a check that is a function of the
text alone (exact tool-argument JSON) need not run again on an equal text.

An agent sends its whole history every turn, so each request repeats the calls
of the one before: a set of the texts proved, looked up by value (hashing a text costs a
fraction of checking it, and nothing for the same object again). Bounded by characters and
forgotten all at once when full (a new session's texts), as the schema rewrites' memory is
(:mod:`chatcodec._providers.families.schema_writing`). Only texts that passed are kept.
"""

from __future__ import annotations


class TextMemory:
    """Texts proved, by value, at most ``limit`` characters of them."""

    __slots__ = ("characters", "limit", "texts")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.texts: set[str] = set()
        """Look a text up here (``text in memory.texts``: no Python call on the hot path)."""
        self.characters = 0

    def add(self, text: str) -> None:
        characters = self.characters + len(text)
        if characters > self.limit:
            self.texts = set()  # a new set replaces the old: a reader on another thread keeps its own
            characters = len(text)
        self.texts.add(text)
        self.characters = characters


class Held:
    """The size (characters or bytes) of what a memory kept by another key holds, so that
    it is bounded by size as well as by count: a few huge entries (a schema of megabytes, a
    thousand tools) cannot keep more alive than :attr:`limit`."""

    __slots__ = ("limit", "size")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0

    def over(self, more: int) -> bool:
        """Whether holding ``more`` would pass the limit (the memory is then forgotten whole
        and :attr:`size` set to 0 by its owner)."""
        return self.size + more > self.limit
