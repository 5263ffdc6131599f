"""Bedrock turns and ``system`` <-> canonical messages (canonical data, no model), for both
block bodies: Converse's and Amazon Nova's InvokeModel body, whose ``messages`` are
Converse's (the Nova user guide: "The request schema is nearly identical between the
Invoke API and Converse API", https://docs.aws.amazon.com/nova/latest/nova2-userguide/request-response-schema.html).
What one body does otherwise is its :class:`~.body.Body`'s (``system_turns``, ``cache_ttl``,
``claude``); readers take the body, writers read it from their :class:`~.context.BedrockContext`.

Decoding splits a user turn holding ``toolResult`` blocks into a tool message (the
results) and a user message (the other blocks), as the Anthropic codec does: Bedrock
puts results in user turns the same way. A wire turn that followed tool results without
joining them decodes with a ``_separate`` marker, so the round trip is exact. A body
without system turns (Nova's: its turns are ``user`` and ``assistant``) refuses any other
role at its path.

Encoding follows the API's rules:

* leading system messages are the top-level ``system`` list (text, ``cachePoint`` and
  ``guardContent`` blocks); a later one is a ``role: "system"`` turn on Converse
  (``ConversationRole`` has it) and, reported, a user turn on Nova ("system" is a
  top-level field there, the roles are ``user`` and ``assistant``);
* consecutive tool messages merge into one user turn, and a user message right after
  them joins it behind the results (results first, as with Claude);
* Bedrock requires alternating roles (ValidationException "A conversation must
  alternate between user and assistant roles"; litellm's ``_bedrock_converse_messages_pt``
  merges the same way; Nova's guide: "Amazon Nova models are trained to operate on
  alternating user and assistant conversational turns"): consecutive user or assistant
  turns are merged into one, each merge a loss. Turns a Bedrock request itself had apart
  decode with ``_separate`` and stay apart, so its own round trip is exact;
* Bedrock rejects blank text ("The text field in the ContentBlock object at
  messages.3.content.0 is blank": the Runtime's own ValidationException, worded as its
  other content checks are, not as a model's; Nova documents no exception): empty and
  whitespace-only text blocks are dropped, and a turn left empty is dropped; each is a
  loss. One exception: Claude may answer reasoning, an empty text, reasoning, and a
  replay without that text is "modified thinking" (400), so a blank text between two
  signed reasoning blocks is kept as it came;
* a final assistant turn (a prefill) ending in whitespace is trimmed for a Claude model
  or an unknown one on a body that serves Claude
  (:mod:`chatcodec._providers.families.claude.prefill`, the rule the Anthropic encoder
  applies); other models are sent it as it is;
* a message's ``cache_control`` is a ``cachePoint`` after its last block (its ``ttl``
  reported on a body whose cache point has none: :func:`~.parts.cache_point_for`), inside
  that block when it is text on a body that takes it there (Nova's: :mod:`.inner_cache_points`).
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter
from typing import Any

from chatcodec._errors import rule_error
from chatcodec._narrow import as_dict
from chatcodec._providers.families.aws import blocks
from chatcodec._providers.families.aws.body import Body
from chatcodec._providers.families.aws.context import BedrockContext
from chatcodec._providers.families.aws.inner_cache_points import joined
from chatcodec._providers.families.aws.parts import (
    ASSISTANT_KINDS,
    SYSTEM_KINDS,
    USER_KINDS,
    Blocks,
    body_marker,
    cache_point_for,
    decode_blocks,
    decode_tool_result,
    encode_blocks,
    encode_part,
    last_result_marker,
    marked,
)
from chatcodec._providers.families.claude.prefill import trim_prefill_block
from chatcodec._providers.families.claude.wire_rules import is_claude_model
from chatcodec._providers.kit.plain_shapes import PLAIN_MESSAGE, PLAIN_TEXT
from chatcodec.codec_kit import is_marker, leftovers, restore_fields, shape_fields
from chatcodec.contract import Steps

SEPARATE = "_separate"
IN_MESSAGES = "_in_messages"
_MESSAGE_FIELDS = shape_fields(blocks.Message)
"""The fields a message shape types (``wire.py``), both read here: any other is kept."""
_ALTERNATING = ("user", "assistant")
"""The roles Bedrock requires to alternate (and the only ones Nova's turns have)."""

# --- decoding ----------------------------------------------------------------------------


def decode_system(body: Body, system: list[Any], *, closed: bool = False) -> dict[str, Any]:
    """The canonical system message for the top-level ``system`` blocks."""
    return {"role": "system", "content": decode_blocks(body, system, SYSTEM_KINDS, closed=closed)}


def decode_messages(
    body: Body, wire_messages: list[Any], *, model: str | None = None, closed: bool = False
) -> list[dict[str, Any]]:
    """Canonical messages (as dicts) for the wire ``messages`` list (``closed``: it passed
    the closed schema, Converse's ``wire.py``)."""
    canonical: list[dict[str, Any]] = []
    previous_role = None
    provider = body.kit.name
    for index, message in enumerate(wire_messages):
        role = message["role"]
        first = len(canonical)
        if role == "assistant" and len(message) == 2:  # the plain turn
            canonical.append(
                {
                    "role": "assistant",
                    "content": decode_blocks(body, message["content"], ASSISTANT_KINDS, model, closed=closed),
                }
            )
        else:
            if not body.system_turns and role not in _ALTERNATING:
                raise rule_error(f"{body.name} message", ("messages", index, "role"), "role", "user or assistant", role)
            _decode_message(body, message, model, closed, canonical)
        if role == previous_role and role in _ALTERNATING:
            metadata = canonical[first].setdefault("provider_metadata", {provider: {}})
            metadata[provider][SEPARATE] = True
        previous_role = role
    return canonical


def _decode_message(
    body: Body, message: dict[str, Any], model: str | None, closed: bool, canonical: list[dict[str, Any]]
) -> None:
    role, content = message["role"], message["content"]
    bag = leftovers(message, _MESSAGE_FIELDS) if len(message) != 2 else {}
    kit = body.kit
    if role == "system":
        canonical.append(kit.attach(decode_system(body, content, closed=closed), {**bag, IN_MESSAGES: True}))
        return
    if role == "assistant":
        assistant = {
            "role": "assistant",
            "content": decode_blocks(body, content, ASSISTANT_KINDS, model, closed=closed),
        }
        canonical.append(kit.attach(assistant, bag))
        return
    if role != "user":
        bag["role"] = role  # a role added after this was written: kept, read as a user turn
    first = len(canonical)
    results, rest = _split_results(body, content, closed)
    if results:
        canonical.append({"role": "tool", "content": results})
    if rest or not results:
        canonical.append({"role": "user", "content": decode_blocks(body, rest, USER_KINDS, closed=closed)})
    kit.attach(canonical[first], bag)


def _split_results(body: Body, content: list[Any], closed: bool) -> tuple[list[dict[str, Any]], list[Any]]:
    """A user turn's tool results (with the cache point right after one) and its other blocks."""
    results: list[dict[str, Any]] = []
    rest: list[Any] = []
    previous_was_result = False
    for block in content:
        result: Any = block.get("toolResult") if len(block) == 1 else None
        if result.__class__ is dict:
            results.append(decode_tool_result(body, result, closed=closed))
            previous_was_result = True
            continue
        marker = body_marker(body, block) if previous_was_result else None
        if marker is not None and "cache_control" not in results[-1]:
            results[-1]["cache_control"] = marker
        else:
            rest.append(block)
        previous_was_result = False
    return results, rest


# --- encoding ----------------------------------------------------------------------------


Marks = dict[int, Steps]
"""Canonical paths of some of a turn's blocks, by position: blank text, a cache point, a
text block a part other than plain text gave (where the blank-text, cache-point and
prefill rules report); the other blocks, the common case, get no path built."""


class _Turns:
    """The wire turns being written and, beside them, what the rules applied once they are
    whole read: each turn's first message path, each block's canonical path (for the
    losses), and the turns with blank text, kept apart by the source, or with fields.
    Parallel lists and sets, not an object per turn (which costs more than the turn)."""

    __slots__ = ("ats", "blank", "fields", "marks", "separate", "wires")

    def __init__(self) -> None:
        self.wires: list[dict[str, Any]] = []
        """The turns, ``role`` and ``content`` (tool results first: a user message joins
        results after them)."""
        self.marks: list[Marks] = []
        """The paths the rules may need in each turn (:data:`Marks`)."""
        self.ats: list[Steps] = []
        """Each turn's first message path."""
        self.blank: set[int] = set()
        """Turns holding a blank text block (the blank-text rule runs on them)."""
        self.separate: set[int] = set()
        """Turns the source had apart from a same-role one before (``_separate``)."""
        self.fields: dict[int, dict[str, Any]] = {}
        """Wire fields of a turn's messages' bags."""


def leading_system_count(body: Body, messages: list[Mapping[str, Any]]) -> int:
    """How many leading system (or developer) messages go to the top-level ``system``."""
    count = 0
    for message in messages:
        if message["role"] not in ("system", "developer"):
            break
        if body.system_turns and body.kit.marker(message.get("provider_metadata"), IN_MESSAGES) is True:
            break
        count += 1
    return count


def encode_system(messages: list[Mapping[str, Any]], context: BedrockContext) -> Blocks:
    """The top-level ``system`` blocks for the leading system messages."""
    content: Blocks = []
    marks: Marks = {}
    blank = False
    for index, message in enumerate(messages):
        at: Steps = ("messages", index)
        metadata = message.get("provider_metadata")
        if metadata and restore_fields(context.body.kit.claim(context.losses, metadata, at)):
            context.losses.add(at, f"{context.body.kit.name} message fields", "the system prompt has no message")
        blank = _contribute(message, context, at, content, marks) or blank
    return _without_blank_text(content, marks, context) if blank else content


def encode_messages(messages: list[Mapping[str, Any]], start: int, context: BedrockContext) -> list[dict[str, Any]]:
    """The wire ``messages`` for ``messages[start:]`` (canonical message data). Each message
    adds to the turn it joins, or opens one; the rules that look at whole turns (blank text,
    empty turns, turns of one role in a row, a prefill) run once they are whole."""
    turns = _Turns()
    wires, all_marks = turns.wires, turns.marks
    body = context.body
    content: Blocks = []
    marks: Marks = {}
    role = previous = ""
    tidy = True  # no turn a later rule changes (fields, a role twice in a row)
    for index in range(start, len(messages)):
        message = messages[index]
        kind = message["role"]
        at: Steps = ("messages", index)
        metadata = None if len(message) == PLAIN_MESSAGE else message.get("provider_metadata")
        separate = body.kit.marker(metadata, SEPARATE) is True if metadata else False
        if kind == "text":
            context.losses.add(at, "text message", "Bedrock has no raw-text turn; sent as user text")
        if previous != "tool" or separate or kind not in _JOINS_RESULTS:
            opened = _WIRE_ROLES.get(kind) or _system_turn(body, kind, context, at)
            if opened == role:
                tidy = False  # two turns of one role in a row: merged, unless apart in the source
            role = opened
            if separate:
                turns.separate.add(len(wires))
            content, marks = [], {}
            wires.append({"role": role, "content": content})
            all_marks.append(marks)
            turns.ats.append(at)
        if metadata:
            tidy = _take_fields(turns, metadata, context, at) and tidy
        if _contribute(message, context, at, content, marks):
            turns.blank.add(len(wires) - 1)
        previous = kind
    if role == "assistant" and body.claude and (context.model is None or is_claude_model(context.model)):
        last = len(messages) - 1
        _trim_prefill(messages[last], ("messages", last), content, marks, context)
    if tidy and not turns.blank and all(map(_CONTENT, wires)):
        return wires
    return _alternating(turns, context)


_CONTENT = itemgetter("content")
_WIRE_ROLES = {"user": "user", "tool": "user", "text": "user", "assistant": "assistant"}
"""The wire role of a turn a canonical role opens (any other: :func:`_system_turn`)."""


def _system_turn(body: Body, kind: str, context: BedrockContext, at: Steps) -> str:
    """The role of a turn a system (or developer) message after the leading ones opens:
    ``system`` where the body has system turns, else a user turn (reported)."""
    if body.system_turns:
        return "system"
    why = f"{body.short} has system instructions only at the top; sent as a user turn"
    context.losses.add(at, f"{kind} message", why)
    return "user"


_JOINS_RESULTS = frozenset({"user", "tool", "text"})
"""Canonical roles sent as a user turn, which joins a turn of tool results before it."""


def _take_fields(turns: _Turns, metadata: Any, context: BedrockContext, at: Steps) -> bool:
    """Keep the wire fields of a message's bag on its turn (the last); whether there were none."""
    claimed = context.body.kit.claim(context.losses, metadata, at)
    fields = [(key, value) for key, value in claimed.items() if not is_marker(key)]
    if not fields:
        return True
    kept = turns.fields.setdefault(len(turns.wires) - 1, {})
    for key, value in fields:
        kept.setdefault(key, value)
    return False


def _trim_prefill(
    message: Mapping[str, Any], at: Steps, content: Blocks, marks: Marks, context: BedrockContext
) -> None:
    """Trim the final assistant turn's last text (before any cache point after it); the turn
    is the last message alone (assistant turns join nothing)."""
    for position in range(len(content) - 1, -1, -1):
        block = content[position]
        if "cachePoint" not in block:
            if block.keys() == {"text"} and block["text"] != block["text"].rstrip():
                place = marks.get(position) or _last_plain_text(message, at)
                trim_prefill_block(block, "text", place, context.losses)
            return


def _last_plain_text(message: Mapping[str, Any], at: Steps) -> Steps:
    """The path of a message's last block when it came from a plain text part (whose path
    :func:`_add_parts` does not note): its string content, or its last plain text part
    (a later part that gave a block would have given the last one)."""
    parts = message["content"]
    if isinstance(parts, str):
        return at
    for index in range(len(parts) - 1, -1, -1):
        if len(parts[index]) == 2 and parts[index]["type"] == "text":
            return (*at, "content", index)
    return at


def _alternating(turns: _Turns, context: BedrockContext) -> list[dict[str, Any]]:
    """The wire turns (a turn left empty dropped, a loss), with each user or assistant turn
    that follows one of its role merged into it (a loss), unless the source had them apart."""
    finished: list[tuple[dict[str, Any], int]] = []
    for index, wire in enumerate(turns.wires):
        content = wire["content"]
        if index in turns.blank:
            content = _without_blank_text(content, turns.marks[index], context)
        if not content:
            context.losses.add(turns.ats[index], "empty message", "Bedrock rejects a message with no content")
            continue
        fields = turns.fields.get(index)
        if fields:
            finished.append(({"role": wire["role"], **restore_fields(fields), "content": content}, index))
        else:
            finished.append(({"role": wire["role"], "content": content}, index))
    merged: list[dict[str, Any]] = []
    for wire, index in finished:
        previous = merged[-1] if merged else None
        role = wire["role"]
        if previous is None or previous["role"] != role or role not in _ALTERNATING or index in turns.separate:
            merged.append(wire)
            continue
        why = f"{context.body.name} requires alternating user and assistant turns; merged into the one before"
        context.losses.add(turns.ats[index], f"consecutive {role} message", why)
        for key, value in wire.items():
            previous.setdefault(key, value)
        previous["content"] = [*previous["content"], *wire["content"]]
    return merged


def _contribute(message: Mapping[str, Any], context: BedrockContext, at: Steps, content: Blocks, marks: Marks) -> bool:
    """Add the blocks ``message`` gives to ``content`` (noting in ``marks`` the paths the
    later rules may need); its ``cache_control`` is a ``cachePoint`` after the last one.
    Whether a blank text block was added."""
    plain = len(message) == PLAIN_MESSAGE
    if not plain and message.get("name") is not None:
        context.losses.add((*at, "name"), "participant name", f"{context.body.short} messages have no name")
    count = len(content)
    parts = message["content"]
    if type(parts) is str:
        blank = not parts or parts.isspace()
        if blank:
            marks[count] = at
        content.append({"text": parts})
    else:
        blank = _add_parts(parts, context, at, content, marks)
    marker = None if plain else message.get("cache_control")
    if marker is not None:
        _mark(marker, context, at, content, marks, count=count)
    return blank


def _add_parts(parts: list[Any], context: BedrockContext, at: Steps, content: Blocks, marks: Marks) -> bool:
    """The blocks of a list of parts (see :func:`_contribute`): a plain text part is written
    as it is, first; only blank text, a cache point and a text block another part gave get
    their path noted (no path is built for the others, the common case)."""
    blank = False
    for index, part in enumerate(parts):
        if len(part) == PLAIN_TEXT and part["type"] == "text":
            text = part["text"]
            if not text or text.isspace():
                blank = True
                marks[len(content)] = (*at, "content", index)
            content.append({"text": text})
            continue
        part_at = (*at, "content", index)
        block = encode_part(part, context, part_at)
        if block is None:
            continue
        if "text" in block or "cachePoint" in block:  # a later rule may report at it
            blank = blank or _blank(block.get("text"))
            marks[len(content)] = part_at
        content.append(block)
        marker = part.get("cache_control")
        if marker is None and "toolResult" in block:
            marker = last_result_marker(part)
        if marker is not None:
            for point in marked(block, marker, context, part_at)[1:]:
                if not joined(context.body, content, point, part):
                    marks[len(content)] = part_at
                    content.append(point)
    return blank


def _blank(text: object) -> bool:
    """Whether a block's ``text`` is blank (Bedrock rejects it)."""
    return type(text) is str and (not text or text.isspace())


def _mark(
    marker: Mapping[str, Any], context: BedrockContext, at: Steps, content: Blocks, marks: Marks, *, count: int
) -> None:
    """The ``cachePoint`` for a message's marker, after the blocks it added (from ``count``)."""
    if len(content) == count:
        context.losses.add((*at, "cache_control"), "cache_control", "the message has no block to cache", "setting")
    elif "cachePoint" not in content[-1]:
        point = cache_point_for(marker, context, (*at, "cache_control"))
        if not joined(context.body, content, point, None):
            marks[len(content)] = at
            content.append(point)
    elif content[-1]["cachePoint"] != cache_point_for(marker, context, (*at, "cache_control"))["cachePoint"]:
        # (on a body whose point has no ttl, the message's ttl is reported there, as on a part)
        context.losses.add(
            (*at, "cache_control"), "cache_control", "its last block has a different marker, kept", "setting"
        )


def _without_blank_text(blocks: Blocks, marks: Marks, context: BedrockContext) -> Blocks:
    """The blocks without blank text blocks (Bedrock rejects them), and without the cache
    point that marked one.

    A whitespace-only text block followed by a ``cachePoint`` is kept: Bedrock accepted
    such a recorded request, and dropping it changed a same-format
    round trip; an empty one is still dropped."""
    kept: Blocks = []
    dropped = False
    for index, block in enumerate(blocks):
        text = block.get("text")
        if isinstance(text, str) and len(block) == 1 and not text.strip() and not _kept_blank(blocks, index, text):
            context.losses.add(
                marks[index], "blank text block", "Bedrock rejects text without non-whitespace characters"
            )
            dropped = True
        elif dropped and block.keys() == {"cachePoint"}:  # the dropped block's own point (not one inside text)
            at = marks[index]
            context.losses.add((*at, "cache_control"), "cache_control", "the block it followed was dropped", "setting")
        else:
            kept.append(block)
            dropped = False
    return kept


def _kept_blank(blocks: Blocks, index: int, text: str) -> bool:
    """Whether the blank text block at ``index`` is sent anyway: whitespace marked by a cache
    point, or any blank text between two signed reasoning blocks."""
    if text and index + 1 < len(blocks) and "cachePoint" in blocks[index + 1]:
        return True
    return 0 < index < len(blocks) - 1 and _signed_reasoning(blocks[index - 1]) and _signed_reasoning(blocks[index + 1])


def _signed_reasoning(block: dict[str, Any]) -> bool:
    reasoning = as_dict(block.get("reasoningContent"))
    if reasoning is None:
        return False
    text = as_dict(reasoning.get("reasoningText"))
    return "redactedContent" in reasoning or (text is not None and bool(text.get("signature")))


# --- an answer's message -----------------------------------------------------------------

_RESPONSE_PARTS = frozenset({"text", "thinking", "tool_use", "opaque", "refusal", "image"})
"""The parts an answer can hold (an assistant turn's blocks)."""


def encode_answer(message: Mapping[str, Any], context: BedrockContext, at: Steps) -> dict[str, Any]:
    """A response's ``output.message`` for an assistant message (canonical data); parts an
    answer cannot hold, a name and a cache marker are losses (an answer holds no cache
    points: a cache point marks a prompt's prefix)."""
    body = context.body
    bag = body.kit.claim(context.losses, message.get("provider_metadata"), at)
    if message.get("name") is not None:
        context.losses.add((*at, "name"), "participant name", f"{body.short} messages have no name")
    if message.get("cache_control") is not None:
        context.losses.add(
            (*at, "cache_control"), "cache_control", "Bedrock responses carry no cache points", "setting"
        )
    content = message.get("content", "")
    parts: list[Mapping[str, Any]] = (
        content if not isinstance(content, str) else [{"type": "text", "text": content}] if content else []
    )
    blocks: Blocks = []
    for index, part in enumerate(parts):
        part_at = (*at, "content", index)
        if part["type"] not in _RESPONSE_PARTS:
            context.losses.add(part_at, f"{part['type']} part", f"{body.response} cannot contain it")
            continue
        blocks.extend(encode_blocks(part, context, part_at))
    return {"role": "assistant", **restore_fields(bag), "content": blocks}
