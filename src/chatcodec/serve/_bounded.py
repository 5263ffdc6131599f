"""Caller input echoed in an error body or a log line, cut to a bounded length.

An error names what was wrong, and what was wrong is often the caller's own text: an
unknown field's name, a model name, a value out of range. A caller choosing that text
chooses the size of the answer and of the log line: a 200 kB field name was a 400 kB
error body and a 400 kB log line. Each run of text with no space longer than
:data:`PIECE_LIMIT` characters (a name, a value, a path: what a caller can make long) is
cut there and its length said, so the message keeps its shape and says what it named;
a text still longer than :data:`TEXT_LIMIT` is cut at that, its length said too.
"""

from __future__ import annotations

import re

__all__ = ["PIECE_LIMIT", "TEXT_LIMIT", "bounded"]

PIECE_LIMIT = 200
"""The longest run of non-space characters kept whole."""
TEXT_LIMIT = 4000
"""The longest text kept whole (a message listing many long pieces)."""

_LONG_PIECE = re.compile(rf"\S{{{PIECE_LIMIT + 1},}}")


def bounded(text: str) -> str:
    """``text`` with each long piece cut and the whole within :data:`TEXT_LIMIT`, each cut
    saying how long the text was; a short text as it is. Bounding a bounded text changes
    nothing (a message is bounded when refused, and its log line again)."""
    if len(text) <= PIECE_LIMIT:
        return text
    text = _LONG_PIECE.sub(lambda found: f"{found[0][: PIECE_LIMIT - 3]}... ({len(found[0])} characters)", text)
    if len(text) > TEXT_LIMIT:
        note = f"... ({len(text)} characters in all)"
        text = text[: TEXT_LIMIT - len(note)] + note
    return text
