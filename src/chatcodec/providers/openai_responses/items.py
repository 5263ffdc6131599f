"""The assistant side of a Responses conversation: items <-> one canonical assistant turn.

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

Rules on encode, from the API's errors:

* "Item 'rs_...' of type 'reasoning' was provided without its required following item":
  a reasoning item is only sent with the item that followed it, so one left last in a
  turn (its follower was dropped or never came) is dropped, and reported;
* reasoning produced elsewhere (an Anthropic signature, Gemini thoughts) means nothing to
  OpenAI and is never sent as a ``reasoning`` item: it is dropped and reported (an error
  under ``on_loss="error"``), never turned into text silently. Unsigned plain reasoning
  text (a compatible server's ``reasoning_content``, an interrupted stream) has no id and
  no ``encrypted_content``, which a replayed reasoning item needs, so it is dropped and
  reported the same way.
* in a response or stream (``output``, what a proxy hands its client), reasoning produced
  elsewhere is shown as what it is: a ``reasoning`` item whose ``summary_text`` is its
  text (the SDK's ``ResponseReasoningItem``: ``summary`` is required, ``encrypted_content``
  optional), as an OpenAI-compatible gateway in front of Claude or Gemini returns it. The
  signature or encrypted reasoning OpenAI cannot carry is reported; reasoning with no
  text (Anthropic's redacted thinking) is dropped and reported as before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, assert_never

from chatcodec._narrow import as_dict, as_list
from chatcodec.content import AudioPart, ImagePart, OpaquePart, RefusalPart, TextPart, ThinkingPart, ToolUsePart
from chatcodec.losses import LossRecorder
from chatcodec.messages import AssistantMessage
from chatcodec.providers.kit import Steps, kept_object, restore_fields, split_fields, unmapped
from chatcodec.providers.kit.tool_names import tool_name
from chatcodec.providers.openai_responses.markers import CONTENT, CUSTOM, ITEM, KIND, KIT, PROVIDER, STRING
from chatcodec.providers.openai_responses.parts import (
    ASSISTANT_KINDS,
    decode_parts,
    encode_opaque,
    encode_output_part,
    opaque,
    part_bag,
)
from chatcodec.providers.openai_responses.plain_rules import another_assistant_text, call_arguments, foreign_thinking

AssistantPart = TextPart | ThinkingPart | ToolUsePart | RefusalPart | ImagePart | AudioPart | OpaquePart
"""What an assistant message may hold."""

ASSISTANT_ITEMS = frozenset(
    {"reasoning", "function_call", "custom_tool_call", "mcp_list_tools", "mcp_approval_request", "compaction"}
)
"""Item kinds the model produces besides messages and ``*_call`` items."""

_MESSAGE_FIELDS = ("type", "role", "content")
_REASONING_FIELDS = ("type", "summary", "content", "encrypted_content")
_CALL_FIELDS = ("type", "call_id", "name", "arguments")
_CUSTOM_FIELDS = ("type", "call_id", "name", "input")


def is_assistant_item(item: Mapping[str, Any]) -> bool:
    """Whether an input item belongs to the model's turn (what it produced)."""
    kind = item.get("type")
    if kind is None or kind == "message":
        return item.get("role") == "assistant"
    return isinstance(kind, str) and (kind in ASSISTANT_ITEMS or kind.endswith("_call"))


# --- decode ------------------------------------------------------------------------------


def decode_item(item: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The canonical parts for one (validated) assistant-side item, in order."""
    match item.get("type"):
        case "message" | None if item.get("role") == "assistant":
            return _decode_message(item)
        case "reasoning":
            return _decode_reasoning(item)
        case "function_call":
            canonical = {
                "type": "tool_use",
                "id": item["call_id"],
                "name": item["name"],
                "arguments": item["arguments"],
            }
            return [KIT.attach(canonical, split_fields(item, _CALL_FIELDS))]
        case "custom_tool_call":
            canonical = {"type": "tool_use", "id": item["call_id"], "name": item["name"], "arguments": item["input"]}
            return [KIT.attach(canonical, {**split_fields(item, _CUSTOM_FIELDS), CUSTOM: True})]
        case _:
            return [opaque(item)]


def _decode_message(item: Mapping[str, Any]) -> list[dict[str, Any]]:
    content: object = item["content"]
    listed = as_list(content)
    if listed is not None and not listed:
        return [opaque(item)]  # no part to carry the item's fields
    if isinstance(content, str):
        parts = [{"type": "text", "text": content}]
    else:
        parts = [_in_message(part) for part in decode_parts(listed or [], ASSISTANT_KINDS)]
    first = parts[0]
    metadata = as_dict(first.get("provider_metadata")) or {}
    bag: dict[str, Any] = dict(as_dict(metadata.get(PROVIDER)) or {})
    bag[ITEM] = "message" if "type" in item else "bare"
    if isinstance(content, str):
        bag[STRING] = True
    rest = split_fields(item, _MESSAGE_FIELDS)
    if rest:
        bag["item"] = rest
    KIT.attach(first, bag)
    return parts


def _in_message(part: dict[str, Any]) -> dict[str, Any]:
    """A message item's part; one of a kind added later (opaque) is marked as content."""
    if part["type"] == "opaque":
        metadata = as_dict(part.get("provider_metadata")) or {}
        bag = as_dict(metadata.get(PROVIDER)) or {}
        KIT.attach(part, {**bag, CONTENT: True})
    return part


def _decode_reasoning(item: Mapping[str, Any]) -> list[dict[str, Any]]:
    entries: list[tuple[dict[str, Any], str]] = [(entry, "summary") for entry in as_list(item["summary"]) or []]
    entries += [(entry, "content") for entry in as_list(item.get("content")) or []]
    parts: list[dict[str, Any]] = []
    for entry, kind in entries or [({"text": ""}, "empty")]:
        bag: dict[str, Any] = {}
        if kind != "summary":
            bag[KIND] = kind
        default_type = "reasoning_text" if kind == "content" else "summary_text"
        entry_rest = unmapped(entry, ("text", "type") if entry.get("type") == default_type else ("text",))
        if entry_rest:
            bag["entry"] = entry_rest
        parts.append({"type": "thinking", "text": entry["text"], "provider": PROVIDER, "bag": bag})
    item_bag = split_fields(item, _REASONING_FIELDS)
    if item.get("content") == []:
        item_bag["_empty_content"] = True
    parts[0]["bag"] = {**item_bag, **parts[0]["bag"], ITEM: "reasoning"}
    if item.get("encrypted_content") is not None:
        parts[-1]["encrypted"] = item["encrypted_content"]
    return [KIT.attach(part, part.pop("bag")) for part in parts]


# --- encode ------------------------------------------------------------------------------


@dataclass
class ItemWriter:
    """The items of one assistant turn being written, part by part (the stream encoder
    drives one too, so streamed items are grouped exactly as a response's output)."""

    losses: LossRecorder
    for_request: bool
    items: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    steps: list[Steps] = field(default_factory=list[Steps])
    open_message: dict[str, Any] | None = None
    open_reasoning: dict[str, Any] | None = None
    unnamed: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    """Output items built from another format, which have no id of their own."""

    def add_part(self, part: AssistantPart, at: Steps) -> None:
        """Write one part: into the open item it continues, or as a new item."""
        _encode_part(part, self, at)

    def is_unnamed(self, item: dict[str, Any]) -> bool:
        """Whether ``item`` was built from another format (it has no id of its own)."""
        return any(item is unnamed for unnamed in self.unnamed)

    def add(self, item: dict[str, Any], at: Steps) -> dict[str, Any]:
        self.items.append(item)
        self.steps.append(at)
        self.open_message = self.open_reasoning = None
        return item


def encode_assistant(
    message: AssistantMessage,
    losses: LossRecorder,
    at: Steps,
    *,
    for_request: bool = True,
    response_id: str | None = None,
) -> list[dict[str, Any]]:
    """The items for one canonical assistant turn (a request's history, or a response's output)."""
    # A turn is a run of items, each carrying its own fields (on its parts' bags): the
    # decoder keeps no bag on the turn itself, so one there (a caller's) has no place.
    KIT.report_unplaced(losses, message.provider_metadata, at, "a Responses turn is items; the turn has no fields")
    if message.name is not None:
        losses.add((*at, "name"), "participant name", "Responses items have no name")
    if message.cache_control is not None:
        losses.add(
            (*at, "cache_control"), "cache_control", "Responses output items carry no cache breakpoint", "setting"
        )
    content = message.content
    if isinstance(content, str) and for_request:
        return [{"role": "assistant", "content": content}]
    parts: list[AssistantPart] = list(content) if not isinstance(content, str) else [TextPart(text=content)]
    if not content and for_request:  # a response's output may be empty
        losses.add((*at, "content"), "empty assistant turn", "Responses has no item for a turn with nothing in it")
        return []
    state = ItemWriter(losses, for_request)
    for index, part in enumerate(parts if content else []):  # a response's output is output messages
        state.add_part(part, (*at, "content", index))
    if for_request:
        _drop_unfollowed_reasoning(state)
    else:
        _name_items(state, response_id)
    return state.items


_ID_PREFIXES = {"message": "msg", "function_call": "fc", "custom_tool_call": "ctc", "reasoning": "rs"}
"""The prefix of each output item kind's id, as OpenAI spells them (``msg_...``, ``fc_...``)."""


def _name_items(state: ItemWriter, response_id: str | None) -> None:
    """Give each output item built from another format an id (a response's output items
    have one; ``""`` is none, issue 24 item 2): see :func:`name_item`. Ids read from a
    Responses payload are kept as they were."""
    for position, item in enumerate(state.items):
        if state.is_unnamed(item):
            name_item(item, response_id, position)


def name_item(item: dict[str, Any], response_id: str | None, position: int) -> None:
    """Name an output item built from another format: the kind's prefix and a digest of
    the response id and the item's position, so the same conversion always gives the same
    ids, streamed or not (the stream encoder names an item when it is added), and two
    answers' ids differ."""
    prefix = _ID_PREFIXES.get(str(item.get("type")))
    if prefix is not None:
        # surrogatepass: an id read from JSON may hold a lone surrogate, and it must still
        # name the item (the fuzz run found it: UnicodeEncodeError from here)
        seed = f"{response_id or ''}/{position}".encode("utf-8", "surrogatepass")
        item["id"] = f"{prefix}_{hashlib.sha256(seed).hexdigest()[:48]}"


def _encode_part(
    part: AssistantPart,
    state: ItemWriter,
    at: Steps,
) -> None:
    match part:
        case TextPart() | RefusalPart():
            _encode_output(part, state, at)
        case ThinkingPart():
            _encode_thinking(part, state, at)
        case ToolUsePart():
            call = state.add(encode_tool_use(part, state.losses, at, for_request=state.for_request), at)
            if "id" not in call and not state.for_request:
                state.unnamed.append(call)
        case OpaquePart() if _message_content(part):
            _encode_output(part, state, at)
        case OpaquePart():
            wire = encode_opaque(part, state.losses, at)
            if wire is not None:
                state.add(wire, at)
        case ImagePart() | AudioPart():
            state.losses.add(at, f"assistant {part.type} part", "Responses assistant items hold no media")
        case _:
            assert_never(part)


def _encode_output(part: TextPart | RefusalPart | OpaquePart, state: ItemWriter, at: Steps) -> None:
    bag = part_bag(part, state.losses, at)
    starts = ITEM in bag
    open_content = None if state.open_message is None else as_list(state.open_message.get("content"))
    if not starts and open_content is not None:  # a string-content item (live text ended as one) takes no more
        open_content.append(_content_part(part, bag, state.losses, at))
        return
    item = restore_fields(kept_object(bag, "item", (*at, "provider_metadata", PROVIDER), PROVIDER, take=True))
    if bag.get(ITEM) == "message" or not (starts or state.for_request):
        item["type"] = "message"
    if not (starts or state.for_request):  # a response's output message needs them (ResponseOutputMessage)
        item.update(id="", status="completed")
        state.unnamed.append(item)
    item["role"] = "assistant"
    plain = bag.get(STRING) or (state.for_request and not starts and not bag)  # another provider's: a plain item
    if plain and not isinstance(part, OpaquePart):
        if part.cache_control is not None:
            state.losses.add(
                (*at, "cache_control"), "cache_control", "Responses output items carry no breakpoint", "setting"
            )
        item["content"] = part.text
        if isinstance(part, RefusalPart):
            state.losses.add(at, "refusal", "a Responses input message holds no refusal; sent as text")
        if (
            state.items
            and state.items[-1].get("role") == "assistant"
            and isinstance(state.items[-1].get("content"), str)
        ):
            another_assistant_text(state.losses, at)
        state.add(item, at)
        return
    item["content"] = [_content_part(part, {k: v for k, v in bag.items() if k != ITEM}, state.losses, at)]
    state.open_message = item
    state.items.append(item)
    state.steps.append(at)


def _message_content(part: OpaquePart) -> bool:
    """Whether ``part`` is a message item's content part of a kind added later."""
    own = as_dict((part.provider_metadata or {}).get(PROVIDER)) or {}
    return part.provider == PROVIDER and own.get(CONTENT) is True


def _content_part(
    part: TextPart | RefusalPart | OpaquePart, bag: dict[str, Any], losses: LossRecorder, at: Steps
) -> dict[str, Any]:
    """A message item's content part: ``output_text``, ``refusal``, or one kept whole."""
    if isinstance(part, OpaquePart):
        if part.cache_control is not None:
            losses.add((*at, "cache_control"), "cache_control", "the part is sent verbatim, without a breakpoint")
        return dict(part.data)
    stripped = part.model_copy(update={"provider_metadata": {PROVIDER: bag} if bag else None})
    return encode_output_part(stripped, losses, at)


def _encode_thinking(part: ThinkingPart, state: ItemWriter, at: Steps) -> None:
    if part.cache_control is not None:
        state.losses.add(
            (*at, "cache_control"), "cache_control on reasoning", "Responses reasoning has no breakpoint", "setting"
        )
    bag = part_bag(part, state.losses, at)
    if part.provider != PROVIDER and not (part.provider is None and "id" in bag):
        if not state.for_request and part.text:
            _foreign_reasoning_item(part, state, at)
            return
        _foreign_thinking(part, state.losses, at)
        return
    item: dict[str, Any] | None = state.open_reasoning
    if item is None or ITEM in bag:
        item = {**restore_fields({k: v for k, v in bag.items() if k != "entry"}), "type": "reasoning", "summary": []}
        if bag.get("_empty_content"):
            item["content"] = []
        state.add(item, at)
        state.open_reasoning = item
    entry = kept_object(bag, "entry", (*at, "provider_metadata", PROVIDER), PROVIDER)
    kind = bag.get(KIND)
    if kind == "content":
        content = as_list(item.get("content"))
        if content is None:
            content = item["content"] = []
        content.append({"type": "reasoning_text", **entry, "text": part.text})
    elif kind != "empty" or part.text:
        summary = as_list(item.get("summary"))
        if summary is None:
            summary = item["summary"] = []
        summary.append({"type": "summary_text", **entry, "text": part.text})
    if part.encrypted is not None:
        item["encrypted_content"] = part.encrypted


def _foreign_reasoning_item(part: ThinkingPart, state: ItemWriter, at: Steps) -> None:
    """Another provider's reasoning in a response's output: a reasoning item with its text
    as the summary (its id made up like a message item's)."""
    if part.signature or part.encrypted:
        why = "a Responses reasoning item carries OpenAI's encrypted_content only"
        state.losses.add(at, f"signature of reasoning from {part.provider or 'another provider'}", why)
    item = {"type": "reasoning", "id": "", "summary": [{"type": "summary_text", "text": part.text}]}
    state.add(item, at)
    state.unnamed.append(item)  # named ``rs_...`` with the response's other items
    state.open_reasoning = None  # a following part of its own starts its own item


def _foreign_thinking(part: ThinkingPart, losses: LossRecorder, at: Steps) -> None:
    foreign_thinking(part.provider, bool(part.signature or part.encrypted), losses, at)


def encode_tool_use(part: ToolUsePart, losses: LossRecorder, at: Steps, *, for_request: bool = True) -> dict[str, Any]:
    """A ``function_call`` (or ``custom_tool_call``) item; the bag's ``id`` echoed verbatim.
    In a request the name follows OpenAI's rule (a response says what the model called)."""
    bag = part_bag(part, losses, at)
    name = tool_name(part.name, losses, at, PROVIDER) if for_request else part.name
    if not (for_request or name.strip()):  # a request refuses it (tool_names); what a model called is kept
        losses.add((*at, "name"), "blank tool name", "OpenAI clients cannot dispatch a call without a name")
    if part.cache_control is not None:
        losses.add((*at, "cache_control"), "cache_control", "Responses function calls carry no breakpoint", "setting")
    if bag.get(CUSTOM):
        return {
            **restore_fields(bag),
            "type": "custom_tool_call",
            "call_id": part.id,
            "name": name,
            "input": part.arguments,
        }
    arguments = call_arguments(part.arguments, losses, at)
    return {**restore_fields(bag), "type": "function_call", "call_id": part.id, "name": name, "arguments": arguments}


def _drop_unfollowed_reasoning(state: ItemWriter) -> None:
    """A reasoning item last in the turn has lost the item that must follow it."""
    while state.items and state.items[-1].get("type") == "reasoning":
        state.items.pop()
        why = "the API rejects a reasoning item without its required following item"
        state.losses.add(state.steps.pop(), "reasoning item with nothing after it", why)
