"""A Responses reasoning item's id held in a thinking part's ``openai-responses`` bag, which
pydantic-ai's ``ThinkingPart.id`` carries (here, as pydantic-ai is the one format that reads it).

The Responses API replays reasoning as ``reasoning`` input items, each with the ``id``
(``rs_...``) it came with beside its ``encrypted_content``
(https://platform.openai.com/docs/guides/reasoning#keeping-reasoning-items-in-context).
Canonical thinking has no field for a provider's item id: the Responses reader keeps it in
the bag of the item's first thinking part, marked as an item's start (``_item:
"reasoning"``), where the Responses writer finds it and starts a new item. A format with its
own place for the id (pydantic-ai's ``ThinkingPart.id``) takes it out of that bag on writing
and puts it back on reading, so a history recorded against Responses replays with its ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

RESPONSES = "openai-responses"
"""The Responses codec's bag name (its provider name)."""
ITEM_ID = "id"
"""The id's key in that bag, as the item spells it."""
ITEM_START = "_item"
"""The marker saying the part starts an item, and its value for a reasoning item."""
REASONING = "reasoning"


def attach_item_id(part: dict[str, Any], item_id: str) -> dict[str, Any]:
    """``part`` (a thinking part) marked as the start of the reasoning item ``item_id``."""
    metadata: dict[str, Any] = part.setdefault("provider_metadata", {})
    metadata[RESPONSES] = {**metadata.get(RESPONSES, {}), ITEM_ID: item_id, ITEM_START: REASONING}
    return part


def split_item_id(metadata: Mapping[str, Any] | None) -> tuple[str | None, Mapping[str, Any] | None]:
    """The reasoning item id a thinking part's ``openai-responses`` bag starts, and the
    metadata without it (what is left of that bag is reported as usual)."""
    bag = (metadata or {}).get(RESPONSES)
    if metadata is None or bag is None or bag.get(ITEM_START) != REASONING or not isinstance(bag.get(ITEM_ID), str):
        return None, metadata
    rest = {key: value for key, value in bag.items() if key not in (ITEM_ID, ITEM_START)}
    others = {name: value for name, value in metadata.items() if name != RESPONSES}
    return bag[ITEM_ID], {**others, RESPONSES: rest} if rest else others
