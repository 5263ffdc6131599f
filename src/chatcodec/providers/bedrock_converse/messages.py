"""Bedrock Converse turns and ``system`` <-> canonical messages.

Decoding splits a user turn holding ``toolResult`` blocks into a tool message (the
results) and a user message (the other blocks), as the Anthropic codec does: Converse
puts results in user turns the same way. A wire turn that followed tool results without
joining them decodes with a ``_separate`` marker, so the round trip is exact.

Encoding follows the API's rules:

* leading system messages are the top-level ``system`` list (text, ``cachePoint`` and
  ``guardContent`` blocks); a later one is a ``role: "system"`` turn
  (``ConversationRole`` has it);
* consecutive tool messages merge into one user turn, and a user message right after
  them joins it behind the results (results first, as with Claude);
* Converse requires alternating roles (ValidationException "A conversation must
  alternate between user and assistant roles"; litellm's ``_bedrock_converse_messages_pt``
  merges the same way): consecutive user or assistant turns are merged into one, each
  merge a loss. Turns a Bedrock request itself had apart decode with ``_separate`` and
  stay apart, so its own round trip is exact;
* Bedrock rejects blank text ("text content blocks must contain non-whitespace text"):
  empty and whitespace-only text blocks are dropped, and a turn left empty is dropped;
  each is a loss. One exception: Claude may answer reasoning, an empty text, reasoning,
  and a replay without that text is "modified thinking" (400), so a blank text between
  two signed reasoning blocks is kept as it came;
* a final assistant turn (a prefill) ending in whitespace is trimmed for a Claude model
  or an unknown one (:mod:`chatcodec.providers.prefill`, the rule the Anthropic encoder
  applies); other Bedrock models are sent it as it is;
* a message's ``cache_control`` is a ``cachePoint`` after its last block.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, assert_never

from chatcodec._narrow import as_dict, is_dict
from chatcodec.messages import AnyMessage, AssistantMessage, SystemMessage, TextMessage, ToolMessage, UserMessage
from chatcodec.providers.bedrock_converse.context import BedrockContext
from chatcodec.providers.bedrock_converse.markers import KIT, PROVIDER
from chatcodec.providers.bedrock_converse.parts import (
    ASSISTANT_KINDS,
    SYSTEM_KINDS,
    USER_KINDS,
    Blocks,
    cache_marker,
    cache_point,
    decode_blocks,
    decode_tool_result,
    encode_blocks,
    member_of,
)
from chatcodec.providers.kit import Steps, is_claude_model, is_marker, leftovers, restore_fields
from chatcodec.providers.kit.context import DecodeContext
from chatcodec.providers.prefill import trim_prefill_block

SEPARATE = "_separate"
IN_MESSAGES = "_in_messages"
_MESSAGE_FIELDS = ("role", "content")
_ALTERNATING = ("user", "assistant")
"""The roles Converse requires to alternate."""

# --- decoding ----------------------------------------------------------------------------


def decode_system(system: list[Any]) -> dict[str, Any]:
    """The canonical system message for the top-level ``system`` blocks."""
    return {"role": "system", "content": decode_blocks(system, SYSTEM_KINDS)}


def _is_result(block: Any) -> bool:
    return is_dict(block) and member_of(block) == "toolResult"


def decode_messages(
    wire_messages: list[Any], context: DecodeContext, *, model: str | None = None
) -> list[dict[str, Any]]:
    """Canonical messages (as dicts) for the wire ``messages`` list."""
    canonical: list[dict[str, Any]] = []
    previous_role = None
    for message in wire_messages:
        produced = _decode_message(message, model)
        if message["role"] == previous_role and previous_role in _ALTERNATING:
            metadata = produced[0].setdefault("provider_metadata", {PROVIDER: {}})
            metadata[PROVIDER][SEPARATE] = True
        previous_role = message["role"]
        canonical.extend(produced)
    return canonical


def _decode_message(message: dict[str, Any], model: str | None) -> list[dict[str, Any]]:
    role, content = message["role"], message["content"]
    bag = leftovers(message, _MESSAGE_FIELDS)
    if role == "system":
        return [KIT.attach(decode_system(content), {**bag, IN_MESSAGES: True})]
    if role == "assistant":
        return [KIT.attach({"role": "assistant", "content": decode_blocks(content, ASSISTANT_KINDS, model)}, bag)]
    if role != "user":
        bag["role"] = role  # a role added after this was written: kept, read as a user turn
    produced: list[dict[str, Any]] = []
    results, rest = _split_results(content)
    if results:
        produced.append({"role": "tool", "content": results})
    if rest or not results:
        produced.append({"role": "user", "content": decode_blocks(rest, USER_KINDS)})
    KIT.attach(produced[0], bag)
    return produced


def _split_results(content: list[Any]) -> tuple[list[dict[str, Any]], list[Any]]:
    """A user turn's tool results (with the cache point right after one) and its other blocks."""
    results: list[dict[str, Any]] = []
    rest: list[Any] = []
    previous_was_result = False
    for block in content:
        marker = cache_marker(block) if previous_was_result else None
        if marker is not None and "cache_control" not in results[-1]:
            results[-1]["cache_control"] = marker
        elif _is_result(block):
            results.append(decode_tool_result(block["toolResult"]))
        else:
            rest.append(block)
        previous_was_result = _is_result(block)
    return results, rest


# --- encoding ----------------------------------------------------------------------------

WireRole = Literal["user", "assistant", "system"]


@dataclass
class _Turn:
    role: WireRole
    at: Steps
    blocks: list[tuple[dict[str, Any], Steps]] = field(default_factory=list[tuple[dict[str, Any], Steps]])
    results: list[tuple[dict[str, Any], Steps]] = field(default_factory=list[tuple[dict[str, Any], Steps]])
    bag: dict[str, Any] = field(default_factory=dict[str, Any])
    open_to_results: bool = False
    separate: bool = False
    """The source had this turn apart from a same-role one before it (``_separate``)."""


def leading_system_count(messages: list[AnyMessage]) -> int:
    """How many leading system messages go to the top-level ``system``."""
    count = 0
    for message in messages:
        if not isinstance(message, SystemMessage) or KIT.marker(message.provider_metadata, IN_MESSAGES) is True:
            break
        count += 1
    return count


def encode_system(messages: list[AnyMessage], context: BedrockContext) -> Blocks:
    """The top-level ``system`` blocks for the leading system messages."""
    blocks: list[tuple[dict[str, Any], Steps]] = []
    for index, message in enumerate(messages):
        at: Steps = ("messages", index)
        own = KIT.claim(context.losses, message.provider_metadata, at)
        if restore_fields(own):
            context.losses.add(at, "bedrock-converse message fields", "the system prompt has no message")
        blocks.extend(_contribution(message, context, at))
    return [block for block, _ in _without_blank_text(blocks, context)]


def encode_messages(messages: list[AnyMessage], start: int, context: BedrockContext) -> list[dict[str, Any]]:
    """The wire ``messages`` for ``messages[start:]``."""
    turns: list[_Turn] = []
    for index in range(start, len(messages)):
        message = messages[index]
        at: Steps = ("messages", index)
        match message:
            case SystemMessage():
                turn = _Turn("system", at)
            case AssistantMessage():
                turn = _Turn("assistant", at)
            case ToolMessage():
                turn = _joinable(turns, message) or _Turn("user", at)
            case UserMessage() | TextMessage():
                if isinstance(message, TextMessage):
                    context.losses.add(at, "text message", "Bedrock has no raw-text turn; sent as user text")
                turn = _joinable(turns, message) or _Turn("user", at)
            case _:
                assert_never(message)
        if not turns or turns[-1] is not turn:
            turn.separate = KIT.marker(message.provider_metadata, SEPARATE) is True
            turns.append(turn)
        _add(turn, message, context, at)
    if turns and turns[-1].role == "assistant" and (context.model is None or is_claude_model(context.model)):
        _trim_prefill(turns[-1], context)
    finished = [(wire, turn) for turn in turns if (wire := _finish(turn, context)) is not None]
    return _alternating(finished, context)


def _trim_prefill(turn: _Turn, context: BedrockContext) -> None:
    """Trim the final assistant turn's last text (before any cache point after it)."""
    blocks = [block for block in turn.blocks if "cachePoint" not in block[0]]
    if blocks and set(blocks[-1][0]) == {"text"}:
        block, at = blocks[-1]
        trim_prefill_block(block, "text", at, context.losses)


def _alternating(finished: list[tuple[dict[str, Any], _Turn]], context: BedrockContext) -> list[dict[str, Any]]:
    """The wire turns with each user or assistant turn that follows one of its role merged
    into it (a loss), unless the source had them apart."""
    merged: list[dict[str, Any]] = []
    for wire, turn in finished:
        previous = merged[-1] if merged else None
        if previous is None or previous["role"] != wire["role"] or wire["role"] not in _ALTERNATING or turn.separate:
            merged.append(wire)
            continue
        why = "Bedrock Converse requires alternating user and assistant turns; merged into the one before"
        context.losses.add(turn.at, f"consecutive {wire['role']} message", why)
        for key, value in wire.items():
            previous.setdefault(key, value)
        previous["content"] = [*previous["content"], *wire["content"]]
    return merged


def _joinable(turns: list[_Turn], message: AnyMessage) -> _Turn | None:
    if not turns or not turns[-1].open_to_results or KIT.marker(message.provider_metadata, SEPARATE) is True:
        return None
    return turns[-1]


def _add(turn: _Turn, message: AnyMessage, context: BedrockContext, at: Steps) -> None:
    for key, value in KIT.claim(context.losses, message.provider_metadata, at).items():
        if not is_marker(key):
            turn.bag.setdefault(key, value)
    contribution = _contribution(message, context, at)
    if isinstance(message, ToolMessage):
        turn.results.extend(contribution)
        turn.open_to_results = True
    else:
        turn.blocks.extend(contribution)
        turn.open_to_results = False


def _contribution(message: AnyMessage, context: BedrockContext, at: Steps) -> list[tuple[dict[str, Any], Steps]]:
    """The blocks ``message`` adds, each with its canonical path; its ``cache_control`` is a
    ``cachePoint`` after the last one."""
    if message.name is not None:
        context.losses.add((*at, "name"), "participant name", "Bedrock messages have no name")
    blocks: list[tuple[dict[str, Any], Steps]] = []
    if isinstance(message.content, str):
        blocks.append(({"text": message.content}, at))
    else:
        for index, part in enumerate(message.content):
            part_at = (*at, "content", index)
            blocks.extend((block, part_at) for block in encode_blocks(part, context, part_at))
    marker = message.cache_control
    if marker is not None:
        if not blocks:
            context.losses.add((*at, "cache_control"), "cache_control", "the message has no block to cache", "setting")
        elif "cachePoint" not in blocks[-1][0]:
            blocks.append((cache_point(marker), at))
        elif blocks[-1][0] != cache_point(marker):
            context.losses.add(
                (*at, "cache_control"), "cache_control", "its last block has a different marker, kept", "setting"
            )
    return blocks


def _without_blank_text(
    blocks: list[tuple[dict[str, Any], Steps]], context: BedrockContext
) -> list[tuple[dict[str, Any], Steps]]:
    """Drop blank text blocks (Bedrock rejects them), and the cache point that marked one.

    A whitespace-only text block followed by a ``cachePoint`` is kept: Bedrock accepted
    such a recorded request (issue 24 item 14), and dropping it changed a same-format
    round trip; an empty one is still dropped."""
    kept: list[tuple[dict[str, Any], Steps]] = []
    dropped = False
    for index, (block, at) in enumerate(blocks):
        text = block.get("text")
        cached = index + 1 < len(blocks) and "cachePoint" in blocks[index + 1][0]
        if (
            len(block) == 1
            and isinstance(text, str)
            and not text.strip()
            and not (text and cached)
            and not _between_reasoning(blocks, index)
        ):
            context.losses.add(at, "blank text block", "Bedrock rejects text without non-whitespace characters")
            dropped = True
        elif "cachePoint" in block and dropped:
            context.losses.add((*at, "cache_control"), "cache_control", "the block it followed was dropped", "setting")
        else:
            kept.append((block, at))
            dropped = False
    return kept


def _signed_reasoning(block: dict[str, Any]) -> bool:
    reasoning = as_dict(block.get("reasoningContent"))
    if reasoning is None:
        return False
    text = as_dict(reasoning.get("reasoningText"))
    return "redactedContent" in reasoning or (text is not None and bool(text.get("signature")))


def _between_reasoning(blocks: list[tuple[dict[str, Any], Steps]], index: int) -> bool:
    """Whether the block at ``index`` stands between two signed reasoning blocks."""
    return (
        0 < index < len(blocks) - 1
        and _signed_reasoning(blocks[index - 1][0])
        and _signed_reasoning(blocks[index + 1][0])
    )


def _finish(turn: _Turn, context: BedrockContext) -> dict[str, Any] | None:
    kept = _without_blank_text(turn.results + turn.blocks, context)
    if not kept:
        context.losses.add(turn.at, "empty message", "Bedrock rejects a message with no content")
        return None
    return {"role": turn.role, **restore_fields(turn.bag), "content": [block for block, _ in kept]}
