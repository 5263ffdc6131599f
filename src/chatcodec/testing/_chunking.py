"""Splitters that cut a text into stream deltas, for laws over every chunking of a stream.

A stream's accumulation must not depend on where its deltas were cut; a drawn splitter
replays a response (``chatcodec.streams.events_from_response``) cut one code point at a
time, all at once, or anything between.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import cycle

from hypothesis import strategies as st

from chatcodec._public_label import shown_as

Splitter = Callable[[str], list[str]]
"""Cuts a text into non-empty pieces that join back to it."""

_MAX_SIZES = 5
_MAX_PIECE = 21


@dataclass(frozen=True)
class _Chunker:
    """Cuts text into pieces whose lengths cycle through ``sizes``."""

    sizes: tuple[int, ...]

    def __call__(self, text: str) -> list[str]:
        pieces: list[str] = []
        start = 0
        sizes = cycle(self.sizes)
        while start < len(text):
            end = start + next(sizes)
            pieces.append(text[start:end])
            start = end
        return pieces


@cache
def chunkings() -> st.SearchStrategy[Splitter]:
    """Splitters cutting a text into non-empty pieces (joined, they give the text back).

    Each drawn splitter is deterministic: piece lengths cycle through a drawn list of sizes, from
    one code point at a time to everything at once (the strategies' texts are at most 20 code
    points). An empty text gives no pieces (no deltas).
    """
    sizes = st.lists(st.integers(min_value=1, max_value=_MAX_PIECE), min_size=1, max_size=_MAX_SIZES)
    return sizes.map(lambda drawn: _Chunker(tuple(drawn)))


shown_as("chatcodec.testing", chunkings)
