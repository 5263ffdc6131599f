"""The assistant side of a Responses conversation, read: items -> one canonical assistant turn.

The Responses API has no assistant *message*: a model turn is a run of flat items
(``reasoning``, ``message`` with ``output_text``, ``function_call``, ``custom_tool_call``,
built-in tool calls such as ``web_search_call``), in the order produced. Canonical keeps a
turn as one :class:`~chatcodec.AssistantMessage` whose parts are in that order:

* a ``message`` item gives one part per ``output_text`` / ``refusal``, and an opaque part
  (marked ``_content``) per part of a kind added later, which goes back into its message
  item, not out as an item of its own; the item's own fields (``role``, ``id``,
  ``status``, ``phase``) ride on its first part (markers in ``markers.py``);
* a ``reasoning`` item gives a thinking part per summary entry and per ``content`` entry
  (or one empty part), ``encrypted`` (``encrypted_content``) on the last one and ``id``
  on the first, so it is replayed whole and next to the item that followed it;
* a ``function_call`` is a tool-use part whose id is the ``call_id`` (what results answer)
  while the item ``id`` (``fc_...``) stays in the bag and is echoed back verbatim: the two
  are different ids, and confusing them is a known failure of bridges;
* a built-in tool call (or any item kind added later) is an opaque part, kept whole.

Writing a turn back as items, with the API's rules on what it refuses, is :mod:`.items`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._providers.openai_responses import wire as shapes
from chatcodec._providers.openai_responses.carried_reasoning import SealedCalls, is_sealed, unseal
from chatcodec._providers.openai_responses.markers import CONTENT, ITEM, KIND, KIT, PROVIDER, STRING
from chatcodec._providers.openai_responses.parts import ASSISTANT_KINDS, decode_parts, opaque
from chatcodec.codec_kit import json_path_of, shape_fields, split_fields, unmapped_fields
from chatcodec.contract import Steps

_noted = SealedCalls.noted  # bound once: a class attribute is looked up per call

ASSISTANT_ITEMS = frozenset(
    {"reasoning", "function_call", "custom_tool_call", "mcp_list_tools", "mcp_approval_request", "compaction"}
)
"""Item kinds the model produces besides messages and ``*_call`` items."""

_MESSAGE_FIELDS = frozenset(shape_fields(shapes.Message))
_REASONING_FIELDS = frozenset({"type", "summary", "content", "encrypted_content"})
_CALL_FIELDS = frozenset(shape_fields(shapes.FunctionCall))
_CUSTOM_FIELDS = frozenset(shape_fields(shapes.CustomToolCall))
"""The fields each item's shape types (``wire.py``), all read here: any other is kept (sets:
:func:`~chatcodec._providers.kit.split_fields` asks each key of every item)."""


def is_assistant_kind(kind: object) -> bool:
    """Whether an input item of this ``type`` (not a message) belongs to the model's turn
    (what it produced)."""
    return isinstance(kind, str) and (kind in ASSISTANT_ITEMS or kind.endswith("_call"))


def decode_item(item: Mapping[str, Any], at: Steps = (), calls: SealedCalls | None = None) -> list[dict[str, Any]]:
    """The canonical parts for one (validated) assistant-side item at ``at``, in order
    (``calls``: the call bags sealed in the turn so far, :mod:`.carried_reasoning`)."""
    match item.get("type"):
        case "message" | None if item.get("role") == "assistant":
            return _decode_message(item, calls)
        case "reasoning":
            encrypted = item.get("encrypted_content")
            if is_sealed(encrypted):
                sealed = unseal(item["encrypted_content"], json_path_of(*at, "encrypted_content"))
                return [] if (calls or SealedCalls()).take(sealed) else [sealed]
            if encrypted and calls is not None:
                calls.encrypted = True
            return _decode_reasoning(item, calls)
        case "function_call":
            canonical = {
                "type": "tool_use",
                "id": item["call_id"],
                "name": item["name"],
                "arguments": item["arguments"],
            }
            call = canonical if len(item) == 4 else KIT.attach(canonical, split_fields(item, _CALL_FIELDS))
            return [call if calls is None else calls.apply(call)]
        case "custom_tool_call":
            canonical = {
                "type": "tool_use",
                "id": item["call_id"],
                "name": item["name"],
                "arguments": item["input"],
                "kind": "custom",
            }
            return [KIT.attach(canonical, _noted(calls, split_fields(item, _CUSTOM_FIELDS)))]
        case _:
            return [opaque(item)]


def _decode_message(item: Mapping[str, Any], calls: SealedCalls | None) -> list[dict[str, Any]]:
    content = item["content"]
    if type(content) is str:
        first: dict[str, Any] = {"type": "text", "text": content}
        parts = [first]
        bag: dict[str, Any] = {ITEM: "message" if "type" in item else "bare", STRING: True}
    elif not content:
        return [opaque(item)]  # no part to carry the item's fields
    else:
        parts = decode_parts(content, ASSISTANT_KINDS, calls)
        for part in parts:
            if part["type"] == "opaque":  # a content part of a kind added later, marked as content
                KIT.attach(part, {**KIT.own(part.get("provider_metadata")), CONTENT: True})
        first = parts[0]
        bag = KIT.own(first.get("provider_metadata"))
        bag[ITEM] = "message" if "type" in item else "bare"
    rest = split_fields(item, _MESSAGE_FIELDS)
    KIT.attach(first, _noted(calls, {**bag, "item": rest}) if rest else bag)  # its parts' bags were noted
    return parts


def _decode_reasoning(item: Mapping[str, Any], calls: SealedCalls | None) -> list[dict[str, Any]]:
    content = item.get("content")
    entries: list[tuple[dict[str, Any], str]] = [(entry, "summary") for entry in item["summary"]]
    if content:
        entries += [(entry, "content") for entry in content]
    parts: list[dict[str, Any]] = []
    bags: list[dict[str, Any]] = []
    for entry, kind in entries or _NO_ENTRY:
        parts.append({"type": "thinking", "text": entry["text"], "provider": PROVIDER})
        bags.append(_entry_bag(entry, kind))
    first = split_fields(item, _REASONING_FIELDS)
    if content == []:
        first["_empty_content"] = True
    bags[0] = {**first, **bags[0], ITEM: "reasoning"}
    if item.get("encrypted_content") is not None:
        parts[-1]["encrypted"] = item["encrypted_content"]
    for part, bag in zip(parts, bags, strict=True):
        KIT.attach(part, _noted(calls, bag))
    return parts


_NO_ENTRY = (({"text": ""}, "empty"),)
"""A reasoning item with neither summary nor content: one empty part stands for it."""


def _entry_bag(entry: dict[str, Any], kind: str) -> dict[str, Any]:
    """What a summary or content entry keeps besides its text (its kind when not a summary)."""
    if kind == "summary" and len(entry) == 2 and entry["type"] == "summary_text":  # the plain shape
        return {}
    bag: dict[str, Any] = {} if kind == "summary" else {KIND: kind}
    default_type = "reasoning_text" if kind == "content" else "summary_text"
    rest = unmapped_fields(entry, ("text", "type") if entry.get("type") == default_type else ("text",))
    if rest:
        bag["entry"] = rest
    return bag
