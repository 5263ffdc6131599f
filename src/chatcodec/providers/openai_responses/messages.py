"""Responses ``input`` items <-> canonical messages.

Items map to messages where they stand, so order is kept exactly:

* a ``message`` item with role ``user``, ``system`` or ``developer`` is one canonical
  message of that role (``developer`` is kept distinct, as canonical allows);
* a run of assistant-side items is one assistant message (:mod:`.items`), except that a
  ``message`` item right after another one starts a new assistant message: each is a
  message the model reads as such, and one canonical message would reach another
  provider as one turn with both texts in it (issue 24 item 15);
* a run of ``function_call_output`` (or ``custom_tool_call_output``) items is one tool
  message holding their results in order, as openai-chat groups consecutive ``tool``
  messages (the results of parallel calls); each result is one output item on the way out;
* anything else on the caller's side (``item_reference``, ``computer_call_output``,
  ``mcp_approval_response``, kinds added later) is kept whole, as opaque parts of a user
  message marked ``_items``, and goes back out as the same items.

Function outputs have no error flag, so a canonical ``is_error`` result is a loss; their
``name`` is the canonical result's ``name``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, assert_never

from chatcodec.content import AnyPart, OpaquePart, ToolResultPart
from chatcodec.losses import LossRecorder
from chatcodec.messages import AnyMessage, AssistantMessage, SystemMessage, TextMessage, ToolMessage, UserMessage
from chatcodec.providers.kit import Steps, encode_prompt_cache_breakpoint, restore_fields, split_fields
from chatcodec.providers.kit.context import DecodeContext, EncodeContext
from chatcodec.providers.openai_responses.items import decode_item, encode_assistant, is_assistant_item
from chatcodec.providers.openai_responses.markers import CUSTOM, ITEM, ITEMS, KIT, STRING, TYPED
from chatcodec.providers.openai_responses.parts import (
    RESULT_KINDS,
    SYSTEM_KINDS,
    USER_KINDS,
    decode_parts,
    encode_opaque,
    encode_part,
    opaque,
)

_MESSAGE_FIELDS = ("type", "role", "content")
_OUTPUT_FIELDS = ("type", "call_id", "output", "name")
_OUTPUT_KINDS = ("function_call_output", "custom_tool_call_output")

# --- decode ------------------------------------------------------------------------------


def decode_messages(items: Sequence[Mapping[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Canonical messages (as dicts) for a (validated) ``input`` item list."""
    canonical: list[dict[str, Any]] = []
    open_kind: str | None = None  # the kind of the run the last message stands for
    previous: Mapping[str, Any] | None = None
    for item in items:
        kind = _kind(item)
        if kind in _RUNS and kind == open_kind and not _another_message(previous, item):
            canonical[-1]["content"].extend(_RUNS[kind](item))
        else:
            canonical.append(_decode_item(item, kind))
            open_kind = kind
        previous = item
    for message in canonical:
        if message["role"] == "assistant":
            _to_string_form(message)
    return canonical


def _another_message(previous: Mapping[str, Any] | None, item: Mapping[str, Any]) -> bool:
    """Whether ``item`` is an assistant message item right after another one."""
    return previous is not None and _is_message(previous) and _is_message(item)


def _is_message(item: Mapping[str, Any]) -> bool:
    return item.get("type") in (None, "message") and item.get("role") == "assistant"


def _decode_items(item: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [opaque(item)]


def _decode_outputs(item: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [decode_output(item)]


_RUNS = {"assistant": decode_item, "items": _decode_items, "output": _decode_outputs}
"""Item kinds whose runs are one canonical message: the assistant's turn, the results of
its calls (as openai-chat groups consecutive ``tool`` messages), carried items."""


def _kind(item: Mapping[str, Any]) -> str:
    if is_assistant_item(item):
        return "assistant"
    if item.get("type") in _OUTPUT_KINDS:
        return "output"
    if item.get("type") in (None, "message") and "role" in item:
        return "message"
    return "items"


def _decode_item(item: Mapping[str, Any], kind: str) -> dict[str, Any]:
    match kind:
        case "assistant":
            return {"role": "assistant", "content": decode_item(item)}
        case "output":
            return {"role": "tool", "content": [decode_output(item)]}
        case "message":
            return decode_message(item)
        case _:
            return {"role": "user", "content": [opaque(item)], "provider_metadata": {KIT.name: {ITEMS: True}}}


def decode_message(item: Mapping[str, Any]) -> dict[str, Any]:
    """A user, system or developer message item as a canonical message dict."""
    role, content = item["role"], item["content"]
    allowed = USER_KINDS if role == "user" else SYSTEM_KINDS
    canonical = {"role": role, "content": content if isinstance(content, str) else decode_parts(content, allowed)}
    bag = split_fields(item, _MESSAGE_FIELDS)
    if "type" in item:
        bag[TYPED] = True
    return KIT.attach(canonical, bag)


def decode_output(item: Mapping[str, Any]) -> dict[str, Any]:
    """A function (or custom tool) call output item as a canonical tool-result part."""
    output = item["output"]
    canonical: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": item["call_id"],
        "content": output if isinstance(output, str) else decode_parts(output, RESULT_KINDS),
    }
    if item.get("name") is not None:
        canonical["name"] = item["name"]
    bag = split_fields(item, _OUTPUT_FIELDS)
    if item["type"] == "custom_tool_call_output":
        bag[CUSTOM] = True
    return KIT.attach(canonical, bag)


def _to_string_form(message: dict[str, Any]) -> None:
    """A turn that is one bare ``{"role": "assistant", "content": "..."}`` item is the
    canonical string form (what a canonical string encodes to)."""
    parts = message["content"]
    if len(parts) == 1 and parts[0]["type"] == "text":
        bag = KIT.own(parts[0].get("provider_metadata"))
        if bag == {ITEM: "bare", STRING: True}:
            message["content"] = parts[0]["text"]


# --- encode ------------------------------------------------------------------------------


def encode_messages(messages: Sequence[AnyMessage], start: int, context: EncodeContext) -> list[dict[str, Any]]:
    """The ``input`` items for ``messages[start:]``."""
    losses = context.losses
    items: list[dict[str, Any]] = []
    for index in range(start, len(messages)):
        message = messages[index]
        at: Steps = ("messages", index)
        match message:
            case AssistantMessage():
                items.extend(encode_assistant(message, losses, at))
            case ToolMessage():
                items.extend(_encode_tool_message(message, context, at))
            case UserMessage() if KIT.marker(message.provider_metadata, ITEMS):
                items.extend(_encode_carried_items(message, context, at))
            case SystemMessage() | UserMessage():
                items.append(encode_message(message, context, at))
            case TextMessage():
                losses.add(at, "text message", "Responses has no raw-text item; sent as user text")
                items.append({"role": "user", "content": message.content})
            case _:
                assert_never(message)
    return items


def encode_message(message: SystemMessage | UserMessage, context: EncodeContext, at: Steps) -> dict[str, Any]:
    """A user, system or developer message item."""
    losses = context.losses
    bag = KIT.claim(losses, message.provider_metadata, at)
    if message.name is not None:
        losses.add((*at, "name"), "participant name", "Responses messages have no name")
    item = restore_fields(bag)
    if bag.get(TYPED):
        item["type"] = "message"
    item["role"] = message.role
    if isinstance(message.content, str) and message.cache_control is None:
        item["content"] = message.content
        return item
    if isinstance(message.content, str):  # the marker needs a part: the string as one input_text
        item["content"] = [{"type": "input_text", "text": message.content}]
    else:
        item["content"] = encode_parts(message.content, context, at)
    if message.cache_control is not None:
        _cache_last(item["content"], message, losses, at)
    return item


def encode_parts(parts: Sequence[AnyPart], context: EncodeContext, at: Steps) -> list[dict[str, Any]]:
    """Input parts for canonical parts; those with no input part are reported and left out."""
    encoded = [encode_part(part, context, (*at, "content", index)) for index, part in enumerate(parts)]
    return [part for part in encoded if part is not None]


def _cache_last(parts: list[dict[str, Any]], message: AnyMessage, losses: LossRecorder, at: Steps) -> None:
    """Message-level ``cache_control`` goes on the last part, as a breakpoint (a string
    message is sent as one ``input_text`` part to carry it, as Anthropic's encoder makes a
    string a text block for its marker)."""
    if not parts or parts[-1].get("type") not in ("input_text", "input_image", "input_file"):
        losses.add((*at, "cache_control"), "cache_control", "no part at the end of the message can carry it", "setting")
        return
    assert message.cache_control is not None
    breakpoint = encode_prompt_cache_breakpoint(message.cache_control, losses, at)
    if parts[-1].setdefault("prompt_cache_breakpoint", breakpoint) != breakpoint:
        losses.add((*at, "cache_control"), "cache_control", "its last part has a different breakpoint, kept", "setting")


def _encode_tool_message(message: ToolMessage, context: EncodeContext, at: Steps) -> list[dict[str, Any]]:
    losses = context.losses
    KIT.claim(losses, message.provider_metadata, at)
    if message.name is not None:
        losses.add((*at, "name"), "participant name", "Responses items have no name")
    if message.cache_control is not None:
        losses.add((*at, "cache_control"), "cache_control", "function call outputs carry no breakpoint", "setting")
    return [encode_result(result, context, (*at, "content", index)) for index, result in enumerate(message.content)]


def encode_result(result: ToolResultPart, context: EncodeContext, at: Steps) -> dict[str, Any]:
    """A ``function_call_output`` (or ``custom_tool_call_output``) item."""
    losses = context.losses
    bag = KIT.claim(losses, result.provider_metadata, at)
    kind = "custom_tool_call_output" if bag.get(CUSTOM) else "function_call_output"
    item = {**restore_fields(bag), "type": kind, "call_id": result.tool_use_id}
    item["output"] = result.content if isinstance(result.content, str) else encode_parts(result.content, context, at)
    if result.name is not None:
        item["name"] = result.name
    if result.is_error:
        losses.add((*at, "is_error"), "error flag", "Responses function call outputs have no error flag")
    if result.cache_control is not None:
        losses.add((*at, "cache_control"), "cache_control", "function call outputs carry no breakpoint", "setting")
    return item


def _encode_carried_items(message: UserMessage, context: EncodeContext, at: Steps) -> list[dict[str, Any]]:
    """The items a ``_items`` user message carries, back as they were."""
    losses = context.losses
    KIT.claim(losses, message.provider_metadata, at)
    items: list[dict[str, Any]] = []
    for index, part in enumerate(message.parts):
        part_at = (*at, "content", index)
        if isinstance(part, OpaquePart):
            wire = encode_opaque(part, losses, part_at)
        else:
            wire = encode_part(part, context, part_at)
            wire = None if wire is None else {"role": "user", "content": [wire]}
        if wire is not None:
            items.append(wire)
    return items
