"""One part of a streamed answer under construction: what
:class:`~chatcodec.streams._builder.StreamBuilder` keeps per part in building mode (and
hands a decoder in emitting mode, its ``append`` then emitting the delta). Canonical: no
provider code."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chatcodec._public_label import shown_as

FOLD_AT = 256
"""Fragments a growing part holds before ``StreamBuilder.compact`` folds them."""


class PartBuilder:
    """One part of the answer under construction: fixed fields plus growing text.

    ``append(text)`` adds a delta: in building mode it is the fragment list's own
    ``append`` (the cheapest call Python has), in emitting mode it emits the delta event.
    """

    __slots__ = (
        "append",
        "choice",
        "closed",
        "fields",
        "folded",
        "folded_count",
        "fragments",
        "index",
        "kind",
        "signature",
        "whole",
    )

    def __init__(self, kind: str, choice: int, index: int, fields: dict[str, Any]) -> None:
        self.kind: str = kind
        self.choice: int = choice
        self.index: int = index
        self.fields: dict[str, Any] = fields
        self.fragments: list[str] = []
        self.folded: list[str] = []  # earlier fragments, joined a batch at a time
        self.folded_count: int = 0  # how many fragments ``folded`` holds (each was one delta event)
        self.signature: list[str] | None = None
        self.closed: bool = False
        self.whole: dict[str, Any] | None = None
        self.append: Callable[[str], None] = self.fragments.append

    def fold(self) -> None:
        """Join the fragments so far into one string: a fragment is a string object of
        its own (~50 bytes plus its text), so a stream of a million one-token deltas kept
        as fragments costs some 60 MB for a 1 MB answer; folded, memory follows the text.
        The list is emptied in place, as ``append`` is bound to it."""
        if len(self.fragments) > 1:
            self.folded.append("".join(self.fragments))
            self.folded_count += len(self.fragments)
            self.fragments.clear()

    def deltas(self) -> int:
        """How many deltas (text and signature) this part has taken."""
        return len(self.fragments) + self.folded_count + len(self.signature or ())

    def build(self) -> dict[str, Any]:
        """The part as canonical JSON, its text joined once."""
        if self.whole is not None:
            return self.whole
        built = {"type": self.kind, **self.fields}
        joined = "".join(self.folded + self.fragments if self.folded else self.fragments)
        if self.kind == "tool_use":
            built["arguments"] = joined
        else:
            built["text"] = joined
        if self.signature is not None:
            built["signature"] = "".join(self.signature)
        return built


shown_as("chatcodec.contract", PartBuilder)
