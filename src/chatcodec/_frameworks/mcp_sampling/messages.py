"""Sampling messages <-> canonical messages.

A ``SamplingMessage`` is a ``user`` or ``assistant`` turn whose ``content`` is one block or
a list of blocks. A user turn of tool results only is a canonical ``tool`` turn (the spec:
"a user message containing tool results MUST contain ONLY tool results"), and a canonical
tool turn is written back as that user turn. The system prompt is no message here: the
request writes it as ``systemPrompt`` and passes the count of those messages as ``start``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.mcp_sampling.markers import DISPLAY, KIT, LIST
from chatcodec._frameworks.mcp_sampling.parts import decode_block, encode_part
from chatcodec.codec_kit import Problem, leftovers, wire_fields
from chatcodec.contract import DecodeContext, EncodeContext, Steps


def decode_messages(wire: list[Any], context: DecodeContext) -> list[dict[str, Any]]:
    """Validated sampling messages as canonical message dicts."""
    return [decode_message(message, context) for message in wire]


def decode_message(message: dict[str, Any], context: DecodeContext) -> dict[str, Any]:
    content: dict[str, Any] | list[dict[str, Any]] = message["content"]
    blocks = content if isinstance(content, list) else [content]
    parts = [decode_block(block, context) for block in blocks]
    role = message["role"]
    if role == "user" and parts and all(part["type"] == "tool_result" for part in parts):
        role = "tool"
    bag = leftovers(message, ("role", "content"))
    if isinstance(content, list) and len(content) == 1:
        bag[LIST] = True
    return KIT.attach({"role": role, "content": parts}, bag)


def misplaced(role: str, content: dict[str, Any] | list[dict[str, Any]]) -> list[Problem]:
    """The blocks a turn of ``role`` cannot hold, each a problem at its place in the message:
    a call in a user turn, a result in an assistant turn, a result beside other blocks (the
    spec: "a user message containing tool results MUST contain ONLY tool results"). Refused
    here, at the wire's path, before the canonical model refuses the part at its own."""
    blocks = content if isinstance(content, list) else [content]
    results = [block["type"] == "tool_result" for block in blocks]
    problems: list[Problem] = []
    for index, block in enumerate(blocks):
        at: tuple[str | int, ...] = ("content", index) if isinstance(content, list) else ("content",)
        kind = block["type"]
        if (role, kind) in (("user", "tool_use"), ("assistant", "tool_result")):
            problems.append(Problem(at, "misplaced_block", f"a {kind} block is no {role} turn's", kind))
        elif kind == "tool_result" and not all(results):
            problems.append(Problem(at, "mixed_tool_results", "a turn of tool results holds only tool results", kind))
    return problems


def encode_messages(messages: list[Mapping[str, Any]], start: int, context: EncodeContext) -> list[dict[str, Any]]:
    """``messages[start:]`` as sampling messages (system turns before ``start`` are the
    request's ``systemPrompt``; one later is reported, as the wire has no place for it)."""
    written: list[dict[str, Any]] = []
    for index in range(start, len(messages)):
        message = encode_message(messages[index], context, ("messages", index))
        if message is not None:
            written.append(message)
    return written


def encode_message(message: Mapping[str, Any], context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """One canonical message as a sampling message (None for one the wire has no role for)."""
    role = message["role"]
    losses = context.losses
    if role not in ("user", "assistant", "tool"):
        losses.add(at, f"{role} message", f"{DISPLAY} has one system prompt, before the conversation")
        return None
    metadata = message.get("provider_metadata")
    wire = wire_fields(KIT.claim(losses, metadata, at))
    if message.get("name") is not None:
        losses.add((*at, "name"), "participant name", f"{DISPLAY} messages name no participant")
    if message.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache marker", f"{DISPLAY} has no cache markers", "metadata")
    content = message["content"]
    blocks: list[dict[str, Any]] = []
    if isinstance(content, str):
        blocks.append({"type": "text", "text": content})
    else:
        for index, part in enumerate(content):
            block = encode_part(part, context, (*at, "content", index))
            if block is not None:
                blocks.append(block)
    wire["role"] = "user" if role == "tool" else role
    wire["content"] = blocks[0] if len(blocks) == 1 and KIT.marker(metadata, LIST) is not True else blocks
    return wire
