"""Which reasoning parts of a turn are a summary beside the raw reasoning the model sampled.

OpenAI's Responses API gives a reasoning item a ``summary`` (OpenAI's account of the
reasoning, written after it) and, for open-weight models served through it (vLLM, gpt-oss),
its ``content``: the raw reasoning text the model sampled
(https://platform.openai.com/docs/api-reference/responses/object, ``reasoning.content``). Both
read as thinking parts; trained together they make ``<think>SUMMARY\\nRAW</think>``, text the
model never wrote. Where an item holds raw reasoning, its summary is left out of the render and
reported; an item with a summary alone keeps it (it is all there is).

The Responses reader marks the parts it read from ``content`` with ``_kind: "content"`` in its
bag, and the part opening each item with ``_item`` (``openai_responses/markers.py``); those two
markers are read here, by value, so no provider module is imported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from chatcodec import ThinkingPart

_RAW = ("_kind", "content")
"""The bag entry of a reasoning part read from a Responses item's ``content``."""
_OPENS_ITEM = "_item"
"""The bag key of a part that opened a new Responses item."""


def summaries_beside_raw(content: Sequence[Any]) -> set[int]:
    """The positions in ``content`` of the thinking parts that summarize an item whose raw
    reasoning is also there."""
    if sum(isinstance(part, ThinkingPart) for part in content) < 2:
        return set()  # a summary beside its raw reasoning takes two thinking parts
    items: list[list[tuple[int, bool]]] = []
    for position, part in enumerate(content):
        if not isinstance(part, ThinkingPart):
            items.append([])  # a text or a call between reasoning parts ends the item
            continue
        bag = _bag(part)
        if not items or _OPENS_ITEM in bag:
            items.append([])
        items[-1].append((position, bag.get(_RAW[0]) == _RAW[1]))
    summaries: set[int] = set()
    for item in items:
        if any(raw for _, raw in item):
            summaries.update(position for position, raw in item if not raw)
    return summaries


def _bag(part: ThinkingPart) -> dict[str, object]:
    """The entries of every provider's bag on ``part``, merged (one provider's in practice)."""
    merged: dict[str, object] = {}
    metadata: object = part.provider_metadata
    if isinstance(metadata, dict):
        for bag in cast("dict[str, object]", metadata).values():
            if isinstance(bag, dict):
                merged.update(cast("dict[str, object]", bag))
    return merged
