"""Chat messages <-> canonical messages, role by role.

``system`` and ``user`` turns read as they stand (string content stays a string). An
``assistant`` turn's content blocks come first, then its ``tool_calls`` as ``tool_use`` parts
(``arguments`` the JSON text as the model wrote it); its ``tool_plan`` and ``citations`` ride
in the message's bag. A ``tool`` turn answers one call: a canonical ``tool`` message of one
``tool_result``; a canonical tool message of several results is written as one tool turn
each. The wire keeps an assistant turn's text before its calls, so text written after a call
is moved before it, reported."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.codec_kit import as_dict, leftovers, tool_name, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext, Steps
from chatcodec_cohere_chat.markers import CONTENT, DISPLAY, KIT, PROVIDER
from chatcodec_cohere_chat.parts import decode_block, encode_part

CALL_FIELDS = "function"
"""The bag key, on a ``tool_use`` part, of its ``function`` object's fields beside name and arguments."""


def decode_messages(wire: list[Any], context: DecodeContext) -> list[dict[str, Any]]:
    """Validated chat messages as canonical message dicts."""
    return [decode_message(message, context) for message in wire]


def decode_message(message: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    role = message["role"]
    if role == "assistant":
        return decode_assistant(message, context)
    if role == "tool":
        return _decode_tool(message, context)
    content = message["content"]
    parts: Any = content if isinstance(content, str) else [decode_block(block, context) for block in content]
    return KIT.attach({"role": role, "content": parts}, leftovers(message, ("role", "content")))


def decode_assistant(message: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    """An assistant turn (a request's, or a response's ``message``): content, then its calls."""
    bag = leftovers(message, ("role", "content", "tool_calls"))
    content: str | list[dict[str, Any]] | None = message.get("content")
    calls = [_decode_call(call) for call in message.get("tool_calls", [])]
    if isinstance(content, str):
        if not calls:
            return KIT.attach({"role": "assistant", "content": content}, bag)
        parts = [{"type": "text", "text": content}]
        bag[CONTENT] = "string"
    else:
        parts = [decode_block(block, context) for block in content or []]
        if content is None and not calls:
            bag[CONTENT] = "absent"
        elif content == [] and calls:
            bag[CONTENT] = "empty"
    return KIT.attach({"role": "assistant", "content": [*parts, *calls]}, bag)


def _decode_call(call: dict[str, Any]) -> dict[str, Any]:
    function = call["function"]
    part = {"type": "tool_use", "id": call["id"], "name": function["name"], "arguments": function["arguments"]}
    bag = leftovers(call, ("id", "type", "function"))
    extra = leftovers(function, ("name", "arguments"))
    if extra:
        bag[CALL_FIELDS] = extra
    return KIT.attach(part, bag)


def _decode_tool(message: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    content = message["content"]
    result: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": message["tool_call_id"],
        "content": content if isinstance(content, str) else [decode_block(block, context) for block in content],
    }
    return KIT.attach({"role": "tool", "content": [result]}, leftovers(message, ("role", "tool_call_id", "content")))


def encode_messages(messages: list[Mapping[str, Any]], start: int, context: EncodeContext) -> list[dict[str, Any]]:
    """``messages[start:]`` as chat messages (a tool message of several results is several turns)."""
    written: list[dict[str, Any]] = []
    for index in range(start, len(messages)):
        written.extend(encode_message(messages[index], context, ("messages", index)))
    return written


def encode_message(message: Mapping[str, Any], context: EncodeContext, at: Steps) -> list[dict[str, Any]]:
    """One canonical message as the chat messages it is (none for one the wire has no place for)."""
    role = message["role"]
    losses = context.losses
    own = KIT.claim(losses, message.get("provider_metadata"), at)
    if message.get("name") is not None:
        losses.add((*at, "name"), "participant name", f"{DISPLAY} messages name no participant")
    if message.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache marker", f"{DISPLAY} has no cache markers", "metadata")
    if role == "tool":
        return _encode_tool(message["content"], own, context, at)
    if role == "assistant":
        return [encode_assistant(message["content"], own, context, at)]
    if role not in ("system", "developer", "user"):
        losses.add(at, f"{role} message", f"{DISPLAY} has no {role} role")
        return []
    wire = wire_fields(own)
    wire["role"] = "system" if role == "developer" else role
    wire["content"] = _blocks(message["content"], _HOLDS[wire["role"]], context, at)
    return [wire]


_HOLDS = {"system": ("text",), "user": ("text", "image"), "tool": ("text",)}
"""The canonical parts each role's content blocks carry (a tool result's documents are text parts)."""


def _blocks(content: Any, holds: tuple[str, ...], context: EncodeContext, at: Steps) -> Any:
    if isinstance(content, str):
        return content
    blocks: list[dict[str, Any]] = []
    for index, part in enumerate(content):
        where = (*at, "content", index)
        if part["type"] not in holds:
            context.losses.add(where, f"{part['type']} part", f"{DISPLAY} has no {part['type']} content here")
            continue
        block = encode_part(part, context, where)
        if block is not None:
            blocks.append(block)
    return blocks


def encode_assistant(content: Any, own: dict[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    """An assistant turn: its text and thinking as ``content``, its calls as ``tool_calls``
    (a response's content is always a list of blocks; a request's may be one string)."""
    spelled = own.pop(CONTENT, None) if context.for_request else None
    wire = wire_fields(own)
    wire["role"] = "assistant"
    if isinstance(content, str):
        if context.for_request:
            wire["content"] = content
            return _ordered(wire)
        content = [{"type": "text", "text": content}]
    blocks: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []
    for index, part in enumerate(content):
        where = (*at, "content", index)
        if part["type"] == "tool_use":
            calls.append(_encode_call(part, context, where))
            continue
        if calls:
            context.losses.add(where, f"{part['type']} after a call", f"{DISPLAY} keeps a turn's text before its calls")
        if part["type"] not in ("text", "thinking"):
            context.losses.add(where, f"{part['type']} part", f"{DISPLAY} assistant turns hold text and thinking")
            continue
        block = encode_part(part, context, where)
        if block is not None:
            blocks.append(block)
    one_text = len(blocks) == 1 and blocks[0].get("type") == "text" and set(blocks[0]) == {"type", "text"}
    if spelled == "string" and one_text:
        wire["content"] = blocks[0]["text"]
    elif blocks or (not calls and spelled != "absent") or (calls and spelled == "empty"):
        wire["content"] = blocks
    if calls:
        wire["tool_calls"] = calls
    return _ordered(wire)


_ORDER = ("role", "content", "tool_plan", "tool_calls", "citations")


def _ordered(wire: dict[str, Any]) -> dict[str, Any]:
    return {key: wire[key] for key in (*_ORDER, *wire) if key in wire}


def _encode_call(part: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any]:
    if part.get("kind", "function") != "function":
        context.losses.add(at, f"{part.get('kind')} call", f"{DISPLAY} calls are function calls; sent as one")
    own = KIT.claim(context.losses, part.get("provider_metadata"), at)
    extra = as_dict(own.pop(CALL_FIELDS, None)) or {}
    name = tool_name(part["name"], context.losses, at, PROVIDER) if context.for_request else part["name"]
    call = wire_fields(own)
    call.update(id=part["id"], type="function", function={"name": name, "arguments": part["arguments"], **extra})
    return call


def _encode_tool(content: Any, own: dict[str, Any], context: EncodeContext, at: Steps) -> list[dict[str, Any]]:
    """A canonical tool message: one tool turn per result (the message's bag on each)."""
    if isinstance(content, str):
        context.losses.add(at, "tool message without a call id", f"{DISPLAY} tool turns answer a call by its id")
        return []
    turns: list[dict[str, Any]] = []
    for index, part in enumerate(content):
        where = (*at, "content", index)
        if part["type"] != "tool_result":
            context.losses.add(where, f"{part['type']} part", f"{DISPLAY} tool turns hold a call's result only")
            continue
        if part.get("is_error"):
            context.losses.add((*where, "is_error"), "error flag", f"{DISPLAY} tool results have no error flag")
        if part.get("name") is not None:
            context.losses.add((*where, "name"), "tool name of a result", f"{DISPLAY} results name only their call")
        turn = {**wire_fields(own), **wire_fields(KIT.claim(context.losses, part.get("provider_metadata"), where))}
        result = _blocks(part.get("content", []), _HOLDS["tool"], context, where)
        turn.update(role="tool", tool_call_id=part["tool_use_id"], content=result)
        turns.append(turn)
    return turns
