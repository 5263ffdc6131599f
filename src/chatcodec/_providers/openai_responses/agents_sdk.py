"""What the OpenAI Agents SDK keeps on the Responses items it stores, which OpenAI refuses.

The SDK (openai-agents 0.24.0) stores a Chat Completions model's reply as Responses items
(``agents/models/chatcmpl_converter.py``, ``Converter.message_to_output_items``): every item
gets the placeholder id ``__fake_id__`` (``agents/models/fake_id.py``) and a ``provider_data``
object of the SDK's own (the model, the response id, a Gemini call's thought signature). Those
items are what ``RunResult.to_input_list()`` and its session stores (``SQLiteSession.get_items()``)
hold, and the reader reads them as the Responses items they are, the two fields kept in the
items' bags. Neither is OpenAI's: before sending such a list to OpenAI the SDK takes out the
placeholder id and ``provider_data``, and leaves out a reasoning item that carries
``provider_data`` (a Chat Completions model's reasoning, which no Responses id stands for):
``OpenAIResponsesModel._clean_item_for_openai`` in ``agents/models/openai_responses.py``. This
writer does the same, reporting each (kind ``metadata``: the placeholder and the SDK's own
record carry nothing OpenAI reads), so a replayed Agents SDK session is a body OpenAI takes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.openai_responses.markers import PROVIDER
from chatcodec.codec_kit import as_dict
from chatcodec.contract import LossRecorder, Steps

FAKE_ID = "__fake_id__"
"""The Agents SDK's placeholder item id (``agents.models.fake_id.FAKE_RESPONSES_ID``)."""

_SDK_FIELD = "provider_data"
"""The Agents SDK's own record on an item (no field of the Responses API)."""

_NO_ID = "the OpenAI Agents SDK's placeholder, which OpenAI refuses as an item id; the SDK takes it out before sending"
_NO_SDK_FIELD = "the OpenAI Agents SDK's own record, no field of the Responses API; the SDK takes it out before sending"


def without_sdk_fields(bag: dict[str, Any], losses: LossRecorder, at: Steps) -> dict[str, Any]:
    """``bag`` (a part's own, claimed) without the placeholder id and ``provider_data``, on
    the item or on the message item kept under ``item``; each one taken out is reported."""
    item = as_dict(bag.get("item"))
    if not (_holds_sdk_fields(bag) or (item is not None and _holds_sdk_fields(item))):  # the common case
        return bag
    kept = _cleaned(bag, losses, at)
    if item is not None:
        kept["item"] = _cleaned(item, losses, at)
    return kept


def _holds_sdk_fields(fields: Mapping[str, Any]) -> bool:
    return fields.get("id") == FAKE_ID or _SDK_FIELD in fields


def _cleaned(fields: Mapping[str, Any], losses: LossRecorder, at: Steps) -> dict[str, Any]:
    kept = dict(fields)
    if kept.get("id") == FAKE_ID:
        del kept["id"]
        losses.add(at, "item id __fake_id__", _NO_ID, "metadata")
    if _SDK_FIELD in kept:
        del kept[_SDK_FIELD]
        losses.add(at, "the Agents SDK's provider_data", _NO_SDK_FIELD, "metadata")
    return kept


def is_placeholder_reasoning(part: Mapping[str, Any]) -> bool:
    """Whether a thinking part was read from a reasoning item the Agents SDK made of a Chat
    Completions model's reasoning (its placeholder id, or its ``provider_data`` with or without
    an id, which is what the SDK itself tests, ``item.get("provider_data")``): no Responses
    reasoning item stands for it, so it is never sent as one."""
    bags = as_dict(part.get("provider_metadata"))
    bag = None if bags is None else as_dict(bags.get(PROVIDER))
    return bag is not None and (bag.get("id") == FAKE_ID or bool(bag.get(_SDK_FIELD)))
