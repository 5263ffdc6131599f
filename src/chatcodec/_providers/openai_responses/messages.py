"""Responses ``input`` items <-> canonical messages (as data).

Items map to messages where they stand, so order is kept exactly:

* a ``message`` item with role ``user``, ``system`` or ``developer`` is one canonical
  message of that role (``developer`` is kept distinct, as canonical allows);
* a run of assistant-side items is one assistant message (:mod:`.items`), except that a
  ``message`` item right after another one starts a new assistant message: each is a
  message the model reads as such, and one canonical message would reach another
  provider as one turn with both texts in it;
* a run of ``function_call_output`` (or ``custom_tool_call_output``) items is one tool
  message holding their results in order, as openai-chat groups consecutive ``tool``
  messages (the results of parallel calls); each result is one output item on the way out;
* anything else on the caller's side (``item_reference``, ``computer_call_output``,
  ``mcp_approval_response``, kinds added later) is kept whole, as opaque parts of a user
  message marked ``_items``, and goes back out as the same items.

Function outputs have no error flag, so a canonical ``is_error`` result is a loss; a
``function_call_output``'s ``name`` is the canonical result's ``name``, and a
``custom_tool_call_output`` has none (the SDK's ``ResponseCustomToolCallOutputParam``: its
call id, output, type, id and caller), so a result's name there is a loss. The plain shapes an agent session is made of
(a message of one string, an output of one string) are read and written by the first
branch of each function, with no bag built.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from chatcodec._providers.families.openai.cache_breakpoint import encode_prompt_cache_breakpoint
from chatcodec._providers.openai_responses import wire as shapes
from chatcodec._providers.openai_responses.carried_reasoning import SealedCalls
from chatcodec._providers.openai_responses.item_reading import decode_item, is_assistant_kind
from chatcodec._providers.openai_responses.items import encode_assistant, request_turn
from chatcodec._providers.openai_responses.markers import (
    CUSTOM,
    EMPTY_OUTPUT,
    ITEM,
    ITEMS,
    KIT,
    PROVIDER,
    STRING,
    TYPED,
)
from chatcodec._providers.openai_responses.parts import (
    RESULT_KINDS,
    SYSTEM_KINDS,
    USER_KINDS,
    decode_parts,
    encode_opaque,
    encode_part,
    opaque,
)
from chatcodec._providers.openai_responses.rules import CALL_ID_MAX_LENGTH, LONG_CALL_ID, note_call_ids
from chatcodec.codec_kit import PLAIN_MESSAGE, PLAIN_TEXT, PLAIN_TOOL_RESULT, restore_fields, shape_fields, split_fields
from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder, Steps

_MESSAGE_FIELDS = frozenset(shape_fields(shapes.Message))
_OUTPUT_FIELDS = frozenset(shape_fields(shapes.CallOutput))
"""The fields each item's shape types (``wire.py``), all read here: any other is kept (sets:
:func:`~chatcodec._providers.kit.split_fields` asks each key of every item)."""
OUTPUT_KINDS = ("function_call_output", "custom_tool_call_output")
_noted = SealedCalls.noted  # bound once: a class attribute is looked up per call
Parts = list[Mapping[str, Any]]
_INPUT_ROLES = ("user", "system", "developer")
_NO_BREAKPOINT = "function call outputs carry no breakpoint"

# --- decode ------------------------------------------------------------------------------


def decode_messages(
    items: Sequence[Mapping[str, Any]], context: DecodeContext, calls: SealedCalls | None = None
) -> list[dict[str, Any]]:
    """Canonical messages (as data) for a (validated) ``input`` item list (``calls``: what
    the reading learns of its reasoning items, :class:`.SealedCalls`)."""
    canonical: list[dict[str, Any]] = []
    turn: list[dict[str, Any]] | None = None  # the parts of the open assistant message
    results: list[dict[str, Any]] | None = None  # the results of the open tool message
    carried: list[dict[str, Any]] | None = None  # the opaque items of the open ``_items`` message
    after_message = False  # whether the last item was an assistant message item
    called: list[dict[str, Any]] | None = None  # the last turn given a call (calls.ruled: what follows it)
    custom: set[str] = set()  # the call ids of the custom_tool_call items so far
    calls = calls or SealedCalls()  # call bags sealed into reasoning items (carried_reasoning.py)
    for position, item in enumerate(items):
        kind = item.get("type")
        if kind == "function_call" and len(item) == 4 and not calls.pending:  # the plain call, read here:
            results = carried = None  # what the branch of assistant kinds, decode_item and SealedCalls.apply
            if turn is None:  # give it with no bag sealed (the plain output's is decode_output's first)
                turn = []
                canonical.append({"role": "assistant", "content": turn})
            turn.append(
                {"type": "tool_use", "id": item["call_id"], "name": item["name"], "arguments": item["arguments"]}
            )
            called = turn
            after_message = False
            continue
        role = item.get("role") if kind is None or kind == "message" else None
        if role is not None and role != "assistant":
            calls.ruled = calls.ruled or (turn is not None and turn is called)  # a message right after calls
            turn = results = carried = None
            canonical.append(decode_message(item, calls))
        elif kind in OUTPUT_KINDS:  # (no assistant kind)
            turn = carried = None
            if results is None:
                results = []
                canonical.append({"role": "tool", "content": results})
            results.append(decode_output(item, custom, calls))
        elif role is not None or is_assistant_kind(kind):
            results = carried = None
            if turn is None or (after_message and role is not None):
                turn = []
                canonical.append({"role": "assistant", "content": turn})
            turn += _turn_parts(item, ("input", position), calls, custom)
            called = turn if kind == "function_call" else called
        else:
            calls.ruled = calls.ruled or (turn is not None and turn is called)
            turn = results = None
            if carried is None:
                carried = []
                canonical.append({"role": "user", "content": carried, "provider_metadata": {PROVIDER: {ITEMS: True}}})
            carried.append(opaque(item))
        after_message = role == "assistant"
    _to_string_forms(canonical)
    return canonical


def _turn_parts(item: Mapping[str, Any], at: Steps, calls: SealedCalls, custom: set[str]) -> list[dict[str, Any]]:
    """An assistant-side item's parts (:func:`.decode_item`), a custom call's id noted in
    ``custom``; ``calls.ruled`` when they give the turn what the shared history rules act on
    (:attr:`.SealedCalls.ruled`: no part, an opaque part or a custom call)."""
    parts = decode_item(item, at, calls)
    custom_call = item.get("type") == "custom_tool_call"
    if custom_call:
        custom.add(item["call_id"])
    if custom_call or not parts or any(part["type"] == "opaque" for part in parts):
        calls.ruled = True
    return parts


def decode_message(item: Mapping[str, Any], calls: SealedCalls | None = None) -> dict[str, Any]:
    """A user, system or developer message item as a canonical message (``calls``: what a
    request's reading learns, each bag noted as written, :attr:`.SealedCalls.deep`)."""
    role, content = item["role"], item["content"]
    if type(content) is str:
        canonical: dict[str, Any] = {"role": role, "content": content}
        if len(item) == 2:  # the plain shape: nothing else to keep
            return canonical
    else:
        canonical = {
            "role": role,
            "content": decode_parts(content, USER_KINDS if role == "user" else SYSTEM_KINDS, calls),
        }
        if not canonical["content"] and calls is not None:  # content [] (history_for's empty instruction)
            calls.ruled = True
    bag = split_fields(item, _MESSAGE_FIELDS)
    if "type" in item:
        bag[TYPED] = True
    return KIT.attach(canonical, _noted(calls, bag))


def decode_output(
    item: Mapping[str, Any], custom: Collection[str] = (), calls: SealedCalls | None = None
) -> dict[str, Any]:
    """A function (or custom tool) call output item as a canonical tool-result part. A
    ``custom_tool_call_output`` answering a call in ``custom`` (the custom calls read
    before it) needs no marker: the writer gives the output of a custom call that type."""
    output = item["output"]
    if len(item) == 3 and output.__class__ is str and item["type"] == "function_call_output":  # the plain shape
        return {"type": "tool_result", "tool_use_id": item["call_id"], "content": output}
    canonical: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": item["call_id"],
        "content": output if type(output) is str else decode_parts(output, RESULT_KINDS, calls) if output else "",
    }  # no parts is no output: the empty text every format takes (OpenAI Chat refuses content [])
    if len(item) == 3 and output != [] and item["type"] == "function_call_output":  # parts, and nothing else
        return canonical
    if item.get("name") is not None:
        canonical["name"] = item["name"]
    bag = split_fields(item, _OUTPUT_FIELDS)
    if output == []:
        bag[EMPTY_OUTPUT] = True
    if item["type"] == "custom_tool_call_output" and item["call_id"] not in custom:
        bag[CUSTOM] = True
    return KIT.attach(canonical, _noted(calls, bag))


def _to_string_forms(messages: list[dict[str, Any]]) -> None:
    """A turn that is one bare ``{"role": "assistant", "content": "..."}`` item is the
    canonical string form (what a canonical string encodes to)."""
    for message in messages:
        if message["role"] != "assistant":
            continue
        parts = message["content"]
        if len(parts) == 1 and parts[0]["type"] == "text":
            bag = KIT.own(parts[0].get("provider_metadata"))
            if bag == {ITEM: "bare", STRING: True}:
                message["content"] = parts[0]["text"]


# --- encode ------------------------------------------------------------------------------


def encode_messages(
    messages: Sequence[Mapping[str, Any]], start: int, context: EncodeContext, *, custom_calls: bool = True
) -> list[dict[str, Any]]:
    """The ``input`` items for ``messages[start:]`` (``custom_calls`` false: no turn holds a
    custom call, so none is looked for, :func:`~.request.survey`)."""
    losses, holds = context.losses, context.holds
    items: list[dict[str, Any]] = []
    custom: set[str] = set()  # the ids of the custom calls so far: their outputs are custom too
    for index in range(start, len(messages)):
        message = messages[index]
        role = message["role"]
        content = message.get("content")
        if (
            type(content) is str
            and role != "text"
            and (len(message) == PLAIN_MESSAGE or KIT.bare(message, PLAIN_MESSAGE))
        ):
            items.append({"role": role, "content": content})
            continue
        at: Steps = ("messages", index)
        if role == "assistant":
            parts: Any = content  # its parts (or a string the first branch did not take)
            if parts.__class__ is list and parts and len(message) == 2:  # a turn of its parts alone
                items += request_turn(parts, losses, at, holds)  # (what encode_assistant calls for it)
            else:
                items += encode_assistant(message, losses, at, holds=holds)
            if custom_calls and parts.__class__ is list:  # a plain loop: a methodcaller map cost twice as much
                for part in parts:
                    if part.get("kind") == "custom":
                        custom.add(part["id"])
        elif role == "tool":
            items += _encode_tool_message(message, context, at, custom)
        elif role == "user" and KIT.marker(message.get("provider_metadata"), ITEMS):
            items += note_call_ids(_encode_carried_items(message, context, at), holds)
        elif role in _INPUT_ROLES:
            items.append(encode_message(message, context, at))
        else:  # a raw-text message
            losses.add(at, "text message", "Responses has no raw-text item; sent as user text")
            items.append({"role": "user", "content": message["content"]})
    return items


def encode_message(message: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """A user, system or developer message item."""
    content = message["content"]
    if len(message) == PLAIN_MESSAGE or KIT.bare(
        message, PLAIN_MESSAGE
    ):  # the plain shape: role and content (and another provider's spelling)
        return {
            "role": message["role"],
            "content": content if type(content) is str else encode_parts(content, context, at),
        }
    losses = context.losses
    bag = KIT.claim(losses, message.get("provider_metadata"), at)
    report_name(message, losses, at)
    item = restore_fields(bag)
    if "call_id" in item:  # a wire field the bag kept
        note_call_ids([item], context.holds)
    if bag.get(TYPED):
        item["type"] = "message"
    item["role"] = message["role"]
    cache_control = message.get("cache_control")
    if isinstance(content, str) and cache_control is None:
        item["content"] = content
        return item
    if isinstance(content, str):  # the marker needs a part: the string as one input_text
        item["content"] = [{"type": "input_text", "text": content}]
    else:
        item["content"] = encode_parts(content, context, at)
    if cache_control is not None:
        _cache_last(item["content"], cache_control, losses, at)
    return item


def report_name(message: Mapping[str, Any], losses: LossRecorder, at: Steps) -> None:
    """The participant's ``name`` of a message item (at ``at``) reported: no Responses message
    has one (the OpenAI Chat direct path asks it of a named user's text, written as it is)."""
    if message.get("name") is not None:
        losses.add((*at, "name"), "participant name", "Responses messages have no name")


def encode_parts(parts: Sequence[Mapping[str, Any]], context: EncodeContext, at: Steps) -> list[dict[str, Any]]:
    """Input parts for canonical parts; those with no input part are reported and left out."""
    encoded: list[dict[str, Any]] = []
    for index, part in enumerate(parts):
        if len(part) == PLAIN_TEXT and part["type"] == "text":
            encoded.append({"type": "input_text", "text": part["text"]})
            continue
        wire = encode_part(part, context, (*at, "content", index))
        if wire is not None:
            encoded.append(wire)
    return encoded


def _cache_last(parts: list[dict[str, Any]], cache_control: Mapping[str, Any], losses: LossRecorder, at: Steps) -> None:
    """Message-level ``cache_control`` goes on the last part, as a breakpoint (a string
    message is sent as one ``input_text`` part to carry it, as Anthropic's encoder makes a
    string a text block for its marker)."""
    if not parts or parts[-1].get("type") not in ("input_text", "input_image", "input_file"):
        losses.add((*at, "cache_control"), "cache_control", "no part at the end of the message can carry it", "setting")
        return
    breakpoint = encode_prompt_cache_breakpoint(cache_control, losses, at)
    if parts[-1].setdefault("prompt_cache_breakpoint", breakpoint) != breakpoint:
        losses.add((*at, "cache_control"), "cache_control", "its last part has a different breakpoint, kept", "setting")


def _encode_tool_message(
    message: Mapping[str, Any], context: EncodeContext, at: Steps, custom: Collection[str] = ()
) -> list[dict[str, Any]]:
    """An output item per result (a ``custom_tool_call_output`` for a result answering a
    call in ``custom``); a result of its id and text alone is written here."""
    if len(message) != 2 and not KIT.bare(message, 2):  # more than its role and content
        losses = context.losses
        KIT.claim(losses, message.get("provider_metadata"), at)
        if message.get("name") is not None:
            losses.add((*at, "name"), "participant name", "Responses items have no name")
        if message.get("cache_control") is not None:
            losses.add((*at, "cache_control"), "cache_control", _NO_BREAKPOINT, "setting")
    items: list[dict[str, Any]] = []
    holds = context.holds
    for index, result in enumerate(message["content"]):
        call_id = result["tool_use_id"]
        content = result.get("content")
        if type(content) is str and (
            len(result) == PLAIN_TOOL_RESULT or KIT.bare(result, PLAIN_TOOL_RESULT)
        ):  # the plain shape: type, tool_use_id, content
            items.append(plain_output(call_id, content, holds, custom=call_id in custom))
        else:
            note_long_call_id(call_id, holds)  # the item's call_id is this id
            answers_custom = call_id in custom
            items.append(encode_result(result, context, (*at, "content", index), custom=answers_custom))
    return items


def note_long_call_id(call_id: str, holds: set[str] | None) -> None:
    """Note in ``holds`` an output's ``call_id`` over 64 characters (:data:`~.rules.LONG_CALL_ID`:
    the target rule that shortens it reads the note)."""
    if len(call_id) > CALL_ID_MAX_LENGTH and holds is not None:
        holds.add(LONG_CALL_ID)


def plain_output(
    call_id: str, output: str | list[dict[str, Any]], holds: set[str] | None, *, custom: bool = False
) -> dict[str, Any]:
    """The output item of a result of its call's id and a text alone (a ``custom_tool_call_output``
    answering a custom call), a ``call_id`` over 64 characters noted in ``holds``
    (:data:`~.rules.LONG_CALL_ID`): the request writer's, and a direct path's from OpenAI Chat
    (:mod:`chatcodec._direct`), whose tool messages are this shape; there also of its call's id
    and parts alone (``output``: :func:`encode_parts`' input parts, not empty), as
    :func:`encode_result` writes a result with no bag."""
    note_long_call_id(call_id, holds)
    return {
        "type": "custom_tool_call_output" if custom else "function_call_output",
        "call_id": call_id,
        "output": output,
    }


def output_or_empty(output: str | list[dict[str, Any]], bag: Mapping[str, Any]) -> str | list[dict[str, Any]]:
    """A result's ``output`` as written: none (no text, or no part Responses holds) is the empty
    text, as canonical holds it (a Converse or Anthropic result with no content), unless the
    body's own ``[]`` is marked in the result's ``bag`` (a direct path's result of parts, which has
    none, calls it too: ``chatcodec._direct``)."""
    return [] if not output and bag.get(EMPTY_OUTPUT) else output or ""


def encode_result(
    result: Mapping[str, Any], context: EncodeContext, at: Steps, *, custom: bool = False
) -> dict[str, Any]:
    """A ``function_call_output`` item, or a ``custom_tool_call_output`` answering a custom
    call (``custom``, or the result's marker when its call is not in the request)."""
    content = result.get("content", "")
    losses = context.losses
    bag = KIT.claim(losses, result.get("provider_metadata"), at)
    kind = "custom_tool_call_output" if custom or bag.get(CUSTOM) else "function_call_output"
    item = {**restore_fields(bag), "type": kind, "call_id": result["tool_use_id"]}
    output = content if isinstance(content, str) else encode_parts(content, context, at)
    item["output"] = output_or_empty(output, bag)
    if result.get("name") is not None and kind == "function_call_output":
        item["name"] = result["name"]
    elif result.get("name") is not None:
        losses.add((*at, "name"), "tool name", "Responses custom tool call outputs have no name")
    if result.get("is_error"):
        losses.add((*at, "is_error"), "error flag", "Responses function call outputs have no error flag")
    if result.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache_control", _NO_BREAKPOINT, "setting")
    return item


def _encode_carried_items(message: Mapping[str, Any], context: EncodeContext, at: Steps) -> list[dict[str, Any]]:
    """The items a ``_items`` user message carries, back as they were."""
    losses = context.losses
    KIT.claim(losses, message.get("provider_metadata"), at)
    items: list[dict[str, Any]] = []
    content = message["content"]
    parts = ([{"type": "text", "text": content}] if content else []) if isinstance(content, str) else content
    for index, part in enumerate(parts):
        part_at = (*at, "content", index)
        if part["type"] == "opaque":
            wire = encode_opaque(part, losses, part_at)
        else:
            wire = encode_part(part, context, part_at)
            wire = None if wire is None else {"role": "user", "content": [wire]}
        if wire is not None:
            items.append(wire)
    return items
