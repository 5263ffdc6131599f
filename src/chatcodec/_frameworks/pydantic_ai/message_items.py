"""A Responses message item's id held in a text part's ``openai-responses`` bag, which
pydantic-ai's ``TextPart.id`` carries, and a ``function_call`` item's, which its
``ToolCallPart.id`` carries (as :mod:`.reasoning_items` does for reasoning items).

pydantic-ai reads each ``output_text`` of a Responses ``message`` item as a ``TextPart`` with
the item's ``id`` (``msg_...``) and ``provider_name="openai"``, and sends the text parts of one
id back as one message item with that id and ``status: "completed"``
(``pydantic_ai.models.openai._responses_model``: ``TextPart(content.text, id=item.id,
provider_name=self.system, ...)`` and ``_map_response_text_part``). The Responses reader keeps
a message item's own fields on its first part, under ``item`` in that part's bag, marked as an
item's start (``_item: "message"``). So the first ``TextPart`` of a run of one id starts that
item here, the others continue it (written with the id again), a ``provider_name`` of
``"openai"`` beside the id is the item's (implied) and ``status: "completed"`` is the one
pydantic-ai sends: a history recorded against Responses replays with its ids either way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._frameworks.pydantic_ai.markers import KIT, PROVIDER
from chatcodec._frameworks.pydantic_ai.reasoning_items import ITEM_ID, ITEM_START, RESPONSES
from chatcodec.codec_kit import as_dict

MESSAGE = "message"
"""The ``_item`` marker's value for a message item (``"type": "message"`` spelled)."""
ITEM = "item"
"""The key of a message item's own fields in its first part's ``openai-responses`` bag."""
OPENAI = "openai"
"""pydantic-ai's ``provider_name`` for OpenAI (its ``OpenAIResponsesModel.system``)."""
STATUS = {"status": "completed"}
"""The status pydantic-ai gives a message item it sends."""
NO_ID = "_no_id"
"""Marker: a text part right after a run of one id had no ``id`` key (it does not continue it)."""
NO_PROVIDER = "_no_provider_name"
"""Marker: a text part or call with an item id had no ``provider_name`` key (not the implied one)."""


def read_message_ids(parts: Sequence[Mapping[str, Any]], content: list[dict[str, Any]]) -> None:
    """Move the ids of text parts (``content``, read from the response ``parts``) where the
    Responses writer reads a message item's id: only the first of a run of one id starts an
    item; the rest continue it and are given the id again on writing (:func:`write_message_ids`)."""
    run: str | None = None
    for wire, part in zip(parts, content, strict=True):
        item_id = wire.get("id")
        if part["type"] != "text" or not isinstance(item_id, str):
            if part["type"] == "text" and run is not None and "id" not in wire:
                _mark(part, NO_ID)
            run = None
            continue
        _take_id(wire, part)
        if item_id != run:
            metadata: dict[str, Any] = part.setdefault("provider_metadata", {})
            item = {ITEM_ID: item_id, **STATUS}
            metadata[RESPONSES] = {**metadata.get(RESPONSES, {}), ITEM_START: MESSAGE, ITEM: item}
            run = item_id


def _take_id(wire: Mapping[str, Any], part: dict[str, Any]) -> None:
    """Take the item ``id`` out of ``part``'s own bag (the Responses bag takes it), with the
    ``provider_name`` it implies (``"openai"``), marking one the wire did not write."""
    bag = part["provider_metadata"][PROVIDER]
    del bag["id"]
    if bag.get("provider_name") == OPENAI:
        del bag["provider_name"]
    elif "provider_name" not in wire:
        bag[NO_PROVIDER] = True
    if not bag:
        del part["provider_metadata"][PROVIDER]


def _mark(part: dict[str, Any], marker: str) -> None:
    metadata: dict[str, Any] = part.setdefault("provider_metadata", {})
    metadata[PROVIDER] = {**metadata.get(PROVIDER, {}), marker: True}


def split_message_id(metadata: Mapping[str, Any] | None) -> tuple[str | None, Mapping[str, Any] | None]:
    """The message item id a text part's ``openai-responses`` bag starts, and the metadata
    without it (the item's ``status`` taken too when ``"completed"``, the one pydantic-ai
    sends; what is left of that bag is reported as usual)."""
    bag = (metadata or {}).get(RESPONSES)
    item = as_dict(bag.get(ITEM)) if bag is not None else None
    item_id = item.get(ITEM_ID) if item is not None else None
    if (
        metadata is None
        or bag is None
        or item is None
        or bag.get(ITEM_START) != MESSAGE
        or not isinstance(item_id, str)
    ):
        return None, metadata
    own = {key: value for key, value in item.items() if key != ITEM_ID and STATUS.get(key) != value}
    rest = {key: value for key, value in bag.items() if key not in (ITEM_START, ITEM)}
    if own:
        rest[ITEM] = own
    others = {name: value for name, value in metadata.items() if name != RESPONSES}
    return item_id, {**others, RESPONSES: rest} if rest else others


def write_message_ids(content: Sequence[Mapping[str, Any]], written: Sequence[dict[str, Any] | None]) -> None:
    """Each text part's id: the message item it starts, or continues, with the implied
    ``provider_name`` (the reverse of :func:`read_message_ids`; a part whose id was ``null``
    keeps it)."""
    run: str | None = None
    for part, wire in zip(content, written, strict=True):
        if wire is None or part["type"] != "text":
            run = None
            continue
        metadata = part.get("provider_metadata")
        item_id, _ = split_message_id(metadata)
        if item_id is not None:
            wire["id"] = run = item_id
        elif run is not None and "id" not in wire and not KIT.marker(metadata, NO_ID):
            wire["id"] = run
        else:
            run = None
            continue
        if not KIT.marker(metadata, NO_PROVIDER):
            wire.setdefault("provider_name", OPENAI)


def read_call_id(wire: Mapping[str, Any], call: dict[str, Any]) -> None:
    """Move a ``ToolCallPart``'s ``id`` (read from ``wire`` into ``call``'s bag) where the
    Responses reader keeps a ``function_call`` item's."""
    item_id = wire.get("id")
    if not isinstance(item_id, str):
        return
    _take_id(wire, call)
    metadata: dict[str, Any] = call["provider_metadata"]
    metadata[RESPONSES] = {**metadata.get(RESPONSES, {}), ITEM_ID: item_id}


def split_call_id(metadata: Mapping[str, Any] | None) -> tuple[str | None, Mapping[str, Any] | None]:
    """The ``function_call`` item id in a call's ``openai-responses`` bag, and the metadata
    without it (what is left of that bag is reported as usual)."""
    bag = (metadata or {}).get(RESPONSES)
    item_id = bag.get(ITEM_ID) if bag is not None else None
    if metadata is None or bag is None or not isinstance(item_id, str):
        return None, metadata
    rest = {key: value for key, value in bag.items() if key != ITEM_ID}
    others = {name: value for name, value in metadata.items() if name != RESPONSES}
    return item_id, {**others, RESPONSES: rest} if rest else others


def write_call_id(part: Mapping[str, Any], wire: dict[str, Any]) -> None:
    """A call's ``function_call`` item id on its ``ToolCallPart``, with the implied
    ``provider_name`` (the reverse of :func:`read_call_id`)."""
    metadata = part.get("provider_metadata")
    item_id, _ = split_call_id(metadata)
    if item_id is None:
        return
    wire["id"] = item_id
    if not KIT.marker(metadata, NO_PROVIDER):
        wire.setdefault("provider_name", OPENAI)
