"""Nova's ``messages`` (and ``system``) <-> canonical messages.

Nova alternates ``user`` and ``assistant`` turns, the first a user's (the family's
structure, ``families/aws/structure.py``). A wire user turn holding ``toolResult`` blocks
becomes canonical ``tool`` messages for each run of results and ``user`` messages for the
rest, in order; the writer merges consecutive canonical messages of one wire role back
into one turn, unless the wire had them apart (``_separate`` on the first message of a turn
that followed a turn of the same role). A ``cachePoint`` block marks the part before it:
its ``cache_control`` (``{"type": "ephemeral"}``; a cache point with nothing before it, or
with fields canonical has no word for, is kept opaque).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._errors import rule_error
from chatcodec._losses import Steps
from chatcodec._narrow import is_dict
from chatcodec._providers.bedrock_nova.markers import BODY, KIT
from chatcodec._providers.contract.context import DecodeContext
from chatcodec._providers.families.aws.context import BedrockContext
from chatcodec._providers.families.aws.parts import decode_block, decode_tool_result, encode_part, last_result_marker
from chatcodec._providers.kit import leftovers, restore_fields

SEPARATE = "_separate"
CACHE_POINT = {"cachePoint": {"type": "default"}}
"""The block a cache breakpoint is written as."""
_WIRE_ROLES = {"user": "user", "tool": "user", "assistant": "assistant"}


USER_MEMBERS = frozenset({"text", "image", "video", "toolResult"})
"""Members a user turn's blocks are read from (a ``toolResult`` becomes a tool message)."""
ASSISTANT_MEMBERS = frozenset({"text", "image", "toolUse", "reasoningContent"})
"""Members an assistant turn's blocks are read from: a ``toolResult`` there (Nova's
server-tool result beside its ``server_tool_use`` call) is kept whole, as Converse keeps it."""
SYSTEM_MEMBERS = frozenset({"text"})
"""Members ``system`` blocks are read from."""


def decode_parts(blocks: Sequence[Mapping[str, Any]], members: frozenset[str]) -> list[dict[str, Any]]:
    """Canonical parts for a block list, each ``cachePoint`` folded into the part before it;
    a block of a member the role's canonical message cannot hold (``members``) is kept whole."""
    parts: list[dict[str, Any]] = []
    for block in blocks:
        point = len(block) == 1 and "cachePoint" in block
        if point and block["cachePoint"] == {"type": "default"} and parts and "cache_control" not in parts[-1]:
            parts[-1]["cache_control"] = {"type": "ephemeral"}
            continue
        result = block.get("toolResult") if len(block) == 1 and "toolResult" in members else None
        parts.append(decode_tool_result(BODY, result) if is_dict(result) else decode_block(BODY, block, members))
    return parts


def decode_messages(wire: list[Any], context: DecodeContext) -> list[dict[str, Any]]:
    """Wire messages (validated) as canonical message dicts."""
    del context
    decoded: list[dict[str, Any]] = []
    previous: str | None = None
    for index, message in enumerate(wire):
        role = message["role"]
        if role not in ("user", "assistant"):
            raise rule_error("Nova message", ("messages", index, "role"), "role", "user or assistant", role)
        parts = decode_parts(message["content"], USER_MEMBERS if role == "user" else ASSISTANT_MEMBERS)
        turn = _runs(parts) if role == "user" else [("assistant", parts)]
        bag = leftovers(message, ("role", "content"))
        if role == previous:
            bag[SEPARATE] = True
        previous = role
        first = len(decoded)
        decoded.extend({"role": kind, "content": parts} for kind, parts in turn)
        if bag:
            KIT.attach(decoded[first], bag)
    return decoded


def _runs(parts: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """A user turn's parts as runs: tool results (a ``tool`` message) and the rest (``user``)."""
    runs: list[tuple[str, list[dict[str, Any]]]] = []
    for part in parts:
        kind = "tool" if part["type"] == "tool_result" else "user"
        if runs and runs[-1][0] == kind:
            runs[-1][1].append(part)
        else:
            runs.append((kind, [part]))
    return runs or [("user", [])]


def encode_system(messages: Sequence[Mapping[str, Any]], context: BedrockContext) -> list[dict[str, Any]]:
    """The leading system messages as Nova's top-level ``system`` blocks."""
    blocks: list[dict[str, Any]] = []
    for index, message in enumerate(messages):
        at: Steps = ("messages", index)
        _claim(message, context, at)
        blocks.extend(_blocks(message, context, at))
    return blocks


def encode_messages(messages: Sequence[Mapping[str, Any]], start: int, context: BedrockContext) -> list[dict[str, Any]]:
    """``messages[start:]`` as wire turns, consecutive messages of one wire role merged."""
    written: list[dict[str, Any]] = []
    for index, message in enumerate(messages[start:], start):
        at: Steps = ("messages", index)
        role = _WIRE_ROLES.get(message["role"])
        if role is None:  # a system turn after the first (the history rules report it)
            why = "Nova has system instructions only at the top; sent as a user turn"
            context.losses.add(at, f"{message['role']} message", why)
            role = "user"
        bag = _claim(message, context, at)
        blocks = _blocks(message, context, at)
        if not blocks:  # Bedrock's runtime refuses a turn of no blocks (Converse's rule too)
            context.losses.add(at, "empty message", "Bedrock rejects a message with no content")
            continue
        if written and written[-1]["role"] == role and not bag.get(SEPARATE):
            written[-1]["content"].extend(blocks)
            continue
        written.append({**_fields(bag), "role": role, "content": blocks})
    return written


def encode_message(message: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any]:
    """One canonical message as a wire turn (a response's, at its own path)."""
    bag = _claim(message, context, at)
    role = _WIRE_ROLES.get(message["role"], "user")
    return {**_fields(bag), "role": role, "content": _blocks(message, context, at, answer=True)}


def _fields(bag: Mapping[str, Any]) -> dict[str, Any]:
    """A turn's kept wire fields (the turn's own markers left out)."""
    return restore_fields({key: value for key, value in bag.items() if key != SEPARATE})


def _claim(message: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any]:
    if message.get("name") is not None:
        context.losses.add((*at, "name"), "message name", "Nova turns have no name", "metadata")
    metadata = message.get("provider_metadata")
    return KIT.claim(context.losses, metadata, at) if metadata else {}


def _blocks(
    message: Mapping[str, Any], context: BedrockContext, at: Steps, *, answer: bool = False
) -> list[dict[str, Any]]:
    """A message's blocks; an answer's cache markers are reported (a cache point marks a
    prompt's prefix: Nova's answers hold none)."""
    content = message["content"]
    blocks: list[dict[str, Any]] = [{"text": content}] if isinstance(content, str) and content else []
    for index, part in enumerate(content if not isinstance(content, str) else ()):
        part_at = (*at, "content", index)
        block = encode_part(part, context, part_at)
        if block is not None:
            blocks.append(block)
        marker = part.get("cache_control")
        if marker is None and part["type"] == "tool_result":  # a cache point after the result caches it
            marker = last_result_marker(part)
        if marker is not None:
            _cache_point(marker, blocks, context, (*part_at, "cache_control"), answer)
    if message.get("cache_control") is not None:
        _cache_point(message["cache_control"], blocks, context, (*at, "cache_control"), answer)
    return blocks


def _cache_point(
    marker: Mapping[str, Any], blocks: list[dict[str, Any]], context: BedrockContext, at: Steps, answer: bool
) -> None:
    if answer or not blocks:
        why = "Nova's answers hold no cache points" if answer else "a cache point needs a block before it"
        context.losses.add(at, "cache_control", why, "setting")
        return
    if marker.get("ttl") is not None:
        context.losses.add((*at, "ttl"), "cache ttl", "Nova's cache point has no ttl", "setting")
    if "cachePoint" not in blocks[-1]:  # a message's marker on a part already marked: one point (as Converse)
        blocks.append({key: dict(value) for key, value in CACHE_POINT.items()})
