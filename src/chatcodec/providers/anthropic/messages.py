"""Anthropic turns <-> canonical messages.

Decoding splits a user turn holding ``tool_result`` blocks into a tool message (the
results) and a user message (the other blocks), as :mod:`chatcodec.dialects` does for
stored histories.

Encoding follows the API's rules for tool results, which are where conversions fail:

* every result of one assistant turn goes in the *one* user message right after it
  (results sent as separate user messages get 400 "tool_use ids were found without
  tool_result blocks immediately after"), so consecutive tool messages merge;
* results come first in that message, so a user message right after tool results joins
  their turn behind them (text before ``tool_result`` blocks is rejected);
* other consecutive same-role messages stay separate: the API itself combines them;
* a system message after the conversation started becomes a ``role: "system"`` turn
  (the API's ``SystemMessageParam``), the leading ones the top-level ``system``;
* empty text blocks are dropped, and whitespace-only ones too when their turn has no
  other text (the API rejects both); a turn left empty is dropped. Each is a loss;
* a final assistant turn (a prefill) must not end in whitespace (400 "final assistant
  content cannot end with trailing whitespace"): its trailing whitespace is trimmed, a loss;
* in an assistant turn, a client ``tool_use`` must come after the server-tool blocks
  (``server_tool_use``, ``web_search_tool_result``, ...), as its result can only follow
  the turn: one placed before them is moved after the last of them, a loss.

A wire turn that followed tool results without joining them (two user turns in a row)
decodes with a ``_separate`` marker, so encoding keeps it apart and the round trip is
exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, assert_never

from chatcodec._narrow import as_list
from chatcodec.content import AnyPart
from chatcodec.messages import AnyMessage, AssistantMessage, SystemMessage, TextMessage, ToolMessage, UserMessage
from chatcodec.providers.anthropic.markers import KIT, PROVIDER
from chatcodec.providers.anthropic.parts import (
    ASSISTANT_KINDS,
    SYSTEM_KINDS,
    USER_KINDS,
    AnthropicContext,
    decode_part,
    decode_tool_result,
    encode_part,
    is_tool_result,
)
from chatcodec.providers.kit import NULLS, Steps, encode_cache_control, is_marker, restore_fields, split_fields
from chatcodec.providers.kit.context import DecodeContext
from chatcodec.providers.prefill import trim_prefill_block, trimmed_prefill

Block = tuple[dict[str, Any], Steps]
"""A wire block with the canonical path it came from (for loss reports)."""

SEPARATE = "_separate"
IN_MESSAGES = "_in_messages"
_MESSAGE_FIELDS = frozenset({"role", "content"})

# --- decoding ----------------------------------------------------------------------------


def decode_system(system: str | list[Any]) -> dict[str, Any]:
    """The canonical system message for the top-level ``system`` (string or blocks)."""
    if isinstance(system, str):
        return {"role": "system", "content": system}
    return {"role": "system", "content": [decode_part(block, SYSTEM_KINDS) for block in system]}


def decode_messages(wire_messages: list[Any], context: DecodeContext) -> list[dict[str, Any]]:
    """Canonical messages (as dicts) for the wire ``messages`` list."""
    canonical: list[dict[str, Any]] = []
    after_results = False
    for message in wire_messages:
        produced = _decode_message(message)
        if after_results and message["role"] == "user":
            metadata = produced[0].setdefault("provider_metadata", {PROVIDER: {}})
            metadata[PROVIDER][SEPARATE] = True
        after_results = produced[-1]["role"] == "tool"
        canonical.extend(produced)
    return canonical


def _decode_message(message: dict[str, Any]) -> list[dict[str, Any]]:
    role, content = message["role"], message["content"]
    bag = split_fields(message, _MESSAGE_FIELDS)
    if role == "system":
        decoded = decode_system(content)
        return [KIT.attach(decoded, {**bag, IN_MESSAGES: True})]
    if role == "assistant":
        blocks = content if isinstance(content, str) else [decode_part(block, ASSISTANT_KINDS) for block in content]
        return [KIT.attach({"role": "assistant", "content": blocks}, bag)]
    if isinstance(content, str):
        return [KIT.attach({"role": "user", "content": content}, bag)]
    produced: list[dict[str, Any]] = []
    results = [decode_tool_result(block) for block in content if is_tool_result(block)]
    if results:
        produced.append({"role": "tool", "content": results})
    rest = [decode_part(block, USER_KINDS) for block in content if not is_tool_result(block)]
    if rest or not results:
        produced.append({"role": "user", "content": rest})
    KIT.attach(produced[0], bag)
    return produced


# --- encoding ----------------------------------------------------------------------------

WireRole = Literal["user", "assistant", "system"]


@dataclass
class _Turn:
    """One wire message being built from one or more canonical messages."""

    role: WireRole
    at: Steps
    results: list[Block] = field(default_factory=list[Block])
    blocks: list[Block] = field(default_factory=list[Block])
    string: str | None = None
    bag: dict[str, Any] = field(default_factory=dict[str, Any])
    open_to_results: bool = False
    contributions: int = 0


def leading_system_count(messages: list[AnyMessage]) -> int:
    """How many leading system messages go to the top-level ``system``."""
    count = 0
    for message in messages:
        if not isinstance(message, SystemMessage) or _marker(message, IN_MESSAGES):
            break
        count += 1
    return count


def encode_system(messages: list[AnyMessage], context: AnthropicContext) -> str | list[dict[str, Any]] | None:
    """The top-level ``system``: one message's string as is, else all their blocks in order."""
    if not messages:
        return None
    for index, message in enumerate(messages):
        own = KIT.claim(context.losses, message.provider_metadata, ("messages", index))
        if any(not is_marker(key) for key in own):  # the top-level system has no fields of its own
            context.losses.add(("messages", index), "anthropic message fields", "the system prompt has no message")
    first = messages[0]
    if len(messages) == 1 and isinstance(first.content, str) and first.cache_control is None:
        _message_losses(first, context, ("messages", 0))
        return first.content
    blocks: list[Block] = []
    for index, message in enumerate(messages):
        blocks.extend(_contribution(message, context, ("messages", index)))
        if message.content == [] and len(messages) > 1:
            context.losses.add(("messages", index), "empty system message", "joined with the others, it is gone")
    kept = _drop_empty(blocks, context)
    return [block for block, _ in kept]


def encode_messages(messages: list[AnyMessage], start: int, context: AnthropicContext) -> list[dict[str, Any]]:
    """The wire ``messages`` for ``messages[start:]``."""
    turns: list[_Turn] = []
    for index in range(start, len(messages)):
        message = messages[index]
        at = ("messages", index)
        match message:
            case SystemMessage():
                _add(turns, _Turn("system", at), message, context, at)
            case AssistantMessage():
                _add(turns, _Turn("assistant", at), message, context, at)
            case ToolMessage():
                turn = _joinable(turns, message) or _Turn("user", at)
                _add(turns, turn, message, context, at, results=True)
                turn.open_to_results = True
            case UserMessage() | TextMessage():
                if isinstance(message, TextMessage):
                    context.losses.add(at, "text message", "Anthropic has no raw-text turn; sent as user text")
                turn = _joinable(turns, message) or _Turn("user", at)
                _add(turns, turn, message, context, at)
                turn.open_to_results = False
            case _:
                assert_never(message)
    if turns and turns[-1].role == "assistant":
        _trim_prefill(turns[-1], context)
    return [wire for turn in turns if (wire := _finish(turn, context)) is not None]


def _trim_prefill(turn: _Turn, context: AnthropicContext) -> None:
    """Trim the trailing whitespace Claude rejects at the end of a final assistant turn
    (:mod:`chatcodec.providers.prefill`, shared with Bedrock)."""
    if turn.string is not None:
        turn.string = trimmed_prefill(turn.string, turn.at, context.losses)
    elif turn.blocks and turn.blocks[-1][0].get("type") == "text":
        block, at = turn.blocks[-1]
        trim_prefill_block(block, "text", at, context.losses)


_CLIENT_BLOCKS = frozenset({"text", "thinking", "redacted_thinking", "tool_use", "image", "document"})


def _is_server_tool_block(block: dict[str, Any]) -> bool:
    kind = block.get("type")
    if not isinstance(kind, str):
        return False
    return kind in ("server_tool_use", "mcp_tool_use") or (kind.endswith("_tool_result") and kind != "tool_result")


def _calls_after_server_blocks(blocks: list[Block], context: AnthropicContext) -> list[Block]:
    """The turn's blocks with every client ``tool_use`` that stood before a server-tool
    block moved right after the last of them (in their order)."""
    if all(block.get("type") in _CLIENT_BLOCKS for block, _ in blocks):
        return blocks  # the usual turn: no server-tool block at all
    last_server = max((index for index, (block, _) in enumerate(blocks) if _is_server_tool_block(block)), default=-1)
    early = [index for index in range(last_server) if blocks[index][0].get("type") == "tool_use"]
    if not early:
        return blocks
    why = "Anthropic needs a client tool_use after the turn's server-tool blocks; moved after them"
    for index in early:
        context.losses.add(blocks[index][1], "order of a tool_use block", why)
    rest = [block for index, block in enumerate(blocks) if index not in early]
    position = last_server + 1 - len(early)
    return [*rest[:position], *(blocks[index] for index in early), *rest[position:]]


def _joinable(turns: list[_Turn], message: AnyMessage) -> _Turn | None:
    """The previous turn when it holds tool results this message should join."""
    if not turns or not turns[-1].open_to_results or _marker(message, SEPARATE):
        return None
    return turns[-1]


def _merge_bag(turn_bag: dict[str, Any], own: dict[str, Any]) -> None:
    """A message's bag into its turn's: the wire fields, and the keys that were ``null``
    (an unknown message key sent as ``null`` comes back; issue 10, item 19)."""
    for key, value in own.items():
        if not is_marker(key):
            turn_bag.setdefault(key, value)
    nulls = {key for key in [*(as_list(turn_bag.get(NULLS)) or ()), *(as_list(own.get(NULLS)) or ())]}
    if nulls:
        turn_bag[NULLS] = sorted(key for key in nulls if isinstance(key, str))


def _add(
    turns: list[_Turn], turn: _Turn, message: AnyMessage, context: AnthropicContext, at: Steps, *, results: bool = False
) -> None:
    if not turns or turns[-1] is not turn:
        turns.append(turn)
    if message.provider_metadata is not None:
        _merge_bag(turn.bag, KIT.claim(context.losses, message.provider_metadata, at))
    # A turn of one string message keeps the string form; a turn never takes company
    # after that (only a turn holding tool results is joined).
    alone = turn.contributions == 0 and not results
    if alone and isinstance(message.content, str) and message.cache_control is None:
        _message_losses(message, context, at)
        turn.string = message.content
    else:
        target = turn.results if results else turn.blocks
        target.extend(_contribution(message, context, at))
        if message.content == []:
            context.losses.add(at, "message with no content", "Anthropic rejects empty messages")
    turn.contributions += 1


def _contribution(message: AnyMessage, context: AnthropicContext, at: Steps) -> list[Block]:
    """The blocks ``message`` adds, each with its canonical path; message-level
    ``cache_control`` lands on the last one."""
    _message_losses(message, context, at)
    blocks: list[Block] = []
    if isinstance(message.content, str):
        blocks.append(({"type": "text", "text": message.content}, at))
    else:
        parts: Sequence[AnyPart] = message.content
        for index, part in enumerate(parts):
            part_at = (*at, "content", index)
            block = encode_part(part, context, part_at)
            if block is not None:
                blocks.append((block, part_at))
    if message.cache_control is not None:
        _cache_last(blocks, message, context, at)
    return blocks


def _cache_last(blocks: list[Block], message: AnyMessage, context: AnthropicContext, at: Steps) -> None:
    marker = message.cache_control
    assert marker is not None
    if not blocks or blocks[-1][0]["type"] in ("thinking", "redacted_thinking"):
        context.losses.add(
            (*at, "cache_control"), "cache_control", "no block at the end of the message can carry it", "setting"
        )
        return
    block, block_at = blocks[-1]
    if "cache_control" not in block:
        context.cache(block, marker, block_at)
    elif block["cache_control"] != encode_cache_control(marker):
        context.losses.add(
            (*at, "cache_control"), "cache_control", "its last block has a different marker, kept", "setting"
        )


def _message_losses(message: AnyMessage, context: AnthropicContext, at: Steps) -> None:
    if message.name is not None:
        context.losses.add((*at, "name"), "participant name", "Anthropic messages have no name")


def _marker(message: AnyMessage, key: str) -> bool:
    return KIT.marker(message.provider_metadata, key) is True


def _drop_empty(blocks: list[Block], context: AnthropicContext) -> list[Block]:
    """Drop empty text blocks; whitespace-only ones too when no other text is left."""
    kept: list[Block] = []
    has_text = False
    for block, at in blocks:
        if block["type"] != "text":
            kept.append((block, at))
        elif block["text"] == "":
            context.losses.add(at, "empty text block", "Anthropic rejects empty text blocks")
        else:
            kept.append((block, at))
            has_text = has_text or not block["text"].isspace()
    if has_text:
        return kept
    for block, at in kept:
        if block["type"] == "text":
            context.losses.add(at, "whitespace-only text block", "Anthropic rejects a turn with no other text")
    return [(block, at) for block, at in kept if block["type"] != "text"]


def _finish(turn: _Turn, context: AnthropicContext) -> dict[str, Any] | None:
    wire = {**restore_fields(turn.bag), "role": turn.role}
    if turn.string is not None:
        if not turn.string.strip():
            context.losses.add(turn.at, "empty message", "Anthropic rejects empty or whitespace-only text")
            return None
        wire["content"] = turn.string
        return wire
    blocks = _calls_after_server_blocks(turn.blocks, context) if turn.role == "assistant" else turn.blocks
    kept = _drop_empty(turn.results + blocks, context)
    if not kept:
        return None  # every block it had was dropped and reported
    wire["content"] = [block for block, _ in kept]
    return wire
