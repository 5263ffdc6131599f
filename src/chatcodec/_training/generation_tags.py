"""Where a template's ``{% generation %}`` tags put an answer's sampled text, looked up fast.

A rendering of thousands of answers asks, for each, which tag lies within its message; the tags
of a prefix-stable run come in order, so each lookup is a bisection, not a scan of every tag.
"""

from __future__ import annotations

import bisect
import itertools


class TagIndex:
    """The generation tags' spans, looked up by bisection where they come in order and
    apart (each tag after the last), else in order as :func:`tag_within` does."""

    def __init__(self, tags: list[tuple[int, int]]) -> None:
        self.tags = tags
        self.in_order = all(first[1] <= second[0] for first, second in itertools.pairwise(tags))
        self.starts = [start for start, _ in tags]

    def within(self, start: int | None, end: int | None) -> tuple[int, int] | None:
        if not self.in_order:
            return tag_within(self.tags, start, end)
        if start is None:
            return None
        index = bisect.bisect_left(self.starts, start)
        if index == len(self.tags):
            return None
        tag_start, tag_end = self.tags[index]
        return (tag_start, tag_end) if end is None or tag_end <= end else None


def tag_within(tags: list[tuple[int, int]], start: int | None, end: int | None) -> tuple[int, int] | None:
    if start is None:
        return None
    for tag_start, tag_end in tags:
        if tag_start >= start and (end is None or tag_end <= end):
            return tag_start, tag_end
    return None
