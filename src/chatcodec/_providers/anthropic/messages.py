"""Anthropic turns <-> canonical messages.

Decoding splits a user turn holding ``tool_result`` blocks into a tool message (the
results) and a user message (the other blocks), as :mod:`chatcodec._dialects.reader` does for
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

A wire turn that followed tool results without joining them (two user turns in a row) decodes
with a ``_separate`` marker, so encoding keeps it apart and the round trip is exact.

Both directions read and write canonical message *data* (dicts, as ``model_dump()`` gives
them). The plain shapes (a turn of its role and content; a text block of its type and
text; a tool result of its id and string content) are the first branch of each
function, read or written as they are, with no loss path built; a name, a cache marker,
a bag or a rule that fires takes the branches after them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from sys import get_int_max_str_digits, maxsize
from typing import Any

from chatcodec._providers.anthropic import wire
from chatcodec._providers.anthropic.encode_context import AnthropicContext
from chatcodec._providers.anthropic.markers import KIT, PROVIDER
from chatcodec._providers.anthropic.parts import (
    ASSISTANT_KINDS,
    SYSTEM_KINDS,
    USER_KINDS,
    decode_part,
    decode_parts,
    decode_tool_result,
    encode_part,
    encode_tool_use,
    result_id,
)
from chatcodec._providers.anthropic.thinking import encode_thinking
from chatcodec._providers.anthropic.tool_ids import MAPPING
from chatcodec._providers.families.claude.prefill import trimmed_prefill
from chatcodec.codec_kit import (
    NULLS_MARKER,
    PLAIN_TEXT,
    PLAIN_TOOL_RESULT,
    as_list,
    encode_cache_control,
    is_marker,
    restore_fields,
    shape_fields,
    split_fields,
)
from chatcodec.contract import DecodeContext, LossRecorder, Steps

Message = Mapping[str, Any]
"""A canonical message as data (a key holding its default may be absent)."""

SEPARATE = "_separate"
IN_MESSAGES = "_in_messages"
_MESSAGE_FIELDS = frozenset(shape_fields(wire.Message))
"""The fields a message shape types (``wire.py``), all read here: any other is kept."""
_SANITIZE = MAPPING.sanitize

# --- decoding ----------------------------------------------------------------------------


def decode_system(system: str | list[Any]) -> dict[str, Any]:
    """The canonical system message for the top-level ``system`` (string or blocks)."""
    if isinstance(system, str):
        return {"role": "system", "content": system}
    return {"role": "system", "content": decode_parts(system, SYSTEM_KINDS)}


def decode_messages(wire_messages: list[Any], context: DecodeContext) -> list[dict[str, Any]]:
    """Canonical message data for the wire ``messages`` list (validated copies, taken over:
    a turn of its role and string content is its canonical message)."""
    canonical: list[dict[str, Any]] = []
    append = canonical.append
    after_results = False
    digits = (get_int_max_str_digits() or maxsize) if context.closed else 0  # parts.decode_parts
    for message in wire_messages:
        role, content = message["role"], message["content"]
        first = len(canonical)
        if len(message) != 2 or role == "system":  # a bag, or a system turn
            canonical.extend(_decode_message(message))
        elif content.__class__ is str:
            append(message)
        elif role == "assistant":
            append({"role": "assistant", "content": decode_parts(content, ASSISTANT_KINDS, digits=digits)})
        else:
            decode_user_turn(content, append)
        if after_results and role == "user":  # a user turn that followed results without joining them
            metadata = canonical[first].setdefault("provider_metadata", {PROVIDER: {}})
            metadata[PROVIDER][SEPARATE] = True
        after_results = canonical[-1]["role"] == "tool"
    return canonical


def decode_user_turn(content: list[Any], append: Any) -> None:
    """The tool message (the turn's results) and the user message (its other blocks) a
    user turn of blocks decodes to, each appended."""
    results: list[dict[str, Any]] = []
    rest: list[dict[str, Any]] = []
    for block in content:
        kind = block["type"]
        if kind == "tool_result":
            results.append(decode_tool_result(block))
        elif kind == "text" and len(block) == 2:
            rest.append(block)
        else:
            rest.append(decode_part(block, USER_KINDS))
    if results:
        append({"role": "tool", "content": results})
    if rest or not results:
        append({"role": "user", "content": rest})


def _decode_message(message: dict[str, Any]) -> list[dict[str, Any]]:
    role, content = message["role"], message["content"]
    bag = split_fields(message, _MESSAGE_FIELDS)
    if role == "system":
        decoded = decode_system(content)
        return [KIT.attach(decoded, {**bag, IN_MESSAGES: True})]
    if role == "assistant":
        blocks = content if isinstance(content, str) else decode_parts(content, ASSISTANT_KINDS)
        return [KIT.attach({"role": "assistant", "content": blocks}, bag)]
    if isinstance(content, str):
        return [KIT.attach({"role": "user", "content": content}, bag)]
    produced: list[dict[str, Any]] = []
    decode_user_turn(content, produced.append)
    KIT.attach(produced[0], bag)
    return produced


# --- encoding ----------------------------------------------------------------------------

_SYSTEM_ROLES = ("system", "developer")
_EMPTY = "Anthropic rejects empty messages"
_WIRE_ROLES = {"user": "user", "text": "user", "assistant": "assistant", "system": "system", "developer": "system"}
_CLIENT_BLOCKS = frozenset({"text", "thinking", "redacted_thinking", "tool_use", "image", "document"})


def leading_system_count(messages: list[Message]) -> int:
    """How many leading system messages go to the top-level ``system``."""
    count = 0
    for message in messages:
        if message["role"] not in _SYSTEM_ROLES or _marker(message, IN_MESSAGES):
            break
        count += 1
    return count


def encode_system(messages: list[Message], context: AnthropicContext) -> str | list[dict[str, Any]] | None:
    """The top-level ``system``: one message's string as is, else all their blocks in order."""
    if not messages:
        return None
    for index, message in enumerate(messages):
        metadata = message.get("provider_metadata")
        if metadata and any(not is_marker(key) for key in KIT.claim(context.losses, metadata, ("messages", index))):
            context.losses.add(("messages", index), "anthropic message fields", "the system prompt has no message")
    first = messages[0]
    if len(messages) == 1 and isinstance(first["content"], str) and first.get("cache_control") is None:
        report_name(first, context, ("messages", 0))
        return first["content"]
    writer = _Writer(context)
    turn = writer.open("system", 0)
    for index, message in enumerate(messages):
        writer.contribute(turn, message, index, system=True)
        if message["content"] == [] and len(messages) > 1:
            context.losses.add(("messages", index), "empty system message", "joined with the others, it is gone")
    writer.finish()
    blocks: list[dict[str, Any]] = turn["content"]
    return blocks


def encode_messages(messages: list[Message], start: int, context: AnthropicContext) -> list[dict[str, Any]]:
    """The wire ``messages`` for ``messages[start:]``: a turn per message, except that tool
    messages and a user message right after them share one user turn, results first."""
    writer = _Writer(context)
    turns = writer.turns
    results: dict[str, Any] | None = None  # the user turn holding tool results, open to more
    for index in range(start, len(messages)):
        message = messages[index]
        role = message["role"]
        rest = len(message) != 2 or "content" not in message  # a name, a cache marker, a bag (a default content)
        if rest and _foreign_bag_only(message, role):
            KIT.report_foreign(context.losses, message["provider_metadata"], ("messages", index))
            rest = False  # reported first, as the bag is on the general branch: nothing else to write
        if not rest and (role == "assistant" or (role == "user" and results is None)):
            turn: dict[str, Any] = {"role": role, "content": []}  # the common turn, opened inline (_Writer.open)
            turns.append(turn)
            writer.last = index
            writer.alone(turn, message, index, rest=False)
            results = None
            continue
        if rest and _marker(message, SEPARATE):
            results = None  # a turn that followed results without joining them
        if role == "tool":
            if results is None:
                results = {"role": "user", "content": []}  # opened inline too
                turns.append(results)
                writer.last = index
            if rest:
                writer.contribute(results, message, index)
            else:
                writer.blocks(results, message["content"], index)  # the common results
            continue
        if role == "text":
            context.losses.add(("messages", index), "text message", "Anthropic has no raw-text turn; sent as user text")
        if results is not None and role in ("user", "text"):
            writer.contribute(results, message, index, rest=rest)  # joins the results, behind them
        else:
            wire_role = _WIRE_ROLES[role]
            if wire_role == "system":
                context.holding("system turn")
            writer.alone(writer.open(wire_role, index), message, index, rest=rest)
        results = None
    return writer.finish(prefill=True)


def contribute_message(turn: dict[str, Any], message: Message, index: int, context: AnthropicContext) -> bool:
    """Add ``message`` (more than a role and content: a name, a cache marker, a bag) to the
    wire ``turn`` as :func:`encode_messages` writes such a message, alone or behind tool
    results (its bag, its blocks, a message-level cache marker on the last of them): the
    OpenAI Chat direct path's user message with a cache marker (``chatcodec._direct``).
    False when the turn would need finishing (a blank text, a part that gave no block),
    which only the whole writer does: the caller then hands the conversion back."""
    writer = _Writer(context)
    writer.contribute(turn, message, index)
    return not writer.notes and not writer.dropped


class AssistantTurns:
    """Assistant turns written as :func:`encode_messages` writes each, finished together as it
    finishes its turns (an empty text dropped, a loss, each after every turn's own): the OpenAI
    Chat direct path's turns of reasoning details (``chatcodec._direct``)."""

    __slots__ = ("_writer",)

    def __init__(self, context: AnthropicContext) -> None:
        self._writer = _Writer(context)

    def write(self, message: Message, index: int) -> dict[str, Any]:
        """The turn of ``message`` (the canonical message ``index``), finished by :meth:`finish`."""
        writer = self._writer
        rest = len(message) != 2 or "content" not in message
        if rest and _foreign_bag_only(message, "assistant"):
            KIT.report_foreign(writer.context.losses, message["provider_metadata"], ("messages", index))
            rest = False
        turn = writer.open("assistant", index)
        writer.alone(turn, message, index, rest=rest)
        return turn

    def finish(self) -> list[dict[str, Any]] | None:
        """The turns written, finished, in their order; None when one was left empty."""
        finished = self._writer.finish()
        return finished if len(finished) == len(self._writer.turns) else None


def plain_result(content: Any) -> bool:
    """Whether result content is written as it is (as ``encode_part`` would): a string, or plain text parts alone."""
    if content.__class__ is not list:  # Any, no typing.cast per result: a Python call each (the direct paths ask too)
        return type(content) is str
    for item in content:  # noqa: SIM110 - a loop: a generator's frame per result cost more than its few parts
        if item["type"] != "text" or len(item) != PLAIN_TEXT or not item["text"]:
            return False
    return True


def _foreign_bag_only(message: Message, role: str) -> bool:
    """Whether a user, assistant or tool message holds its content and other providers'
    bags alone (an OpenAI SDK dump's ``null`` fields, kept as spelling): nothing of it is
    written but the content, and the bags' report is the first loss of such a message."""
    metadata = message.get("provider_metadata")
    return (
        len(message) == 3
        and metadata is not None
        and PROVIDER not in metadata
        and "content" in message
        and role in _BAGGED_ROLES
    )


_BAGGED_ROLES = frozenset({"user", "assistant", "tool"})


def report_name(message: Mapping[str, Any], context: AnthropicContext, at: Steps) -> None:
    """The participant's ``name`` of a message reported: no Anthropic message has one."""
    if message.get("name") is not None:
        context.losses.add((*at, "name"), "participant name", "Anthropic messages have no name")


def _marker(message: Message, key: str) -> bool:
    return KIT.marker(message.get("provider_metadata"), key) is True


class _Notes:
    """What finishing one wire turn needs beyond its content, kept only for a turn that
    needs it: its messages' bags, its blank text blocks (with their paths), a blank string
    content, a server-tool block."""

    __slots__ = ("at", "bag", "blank", "blanks", "server", "whole")

    def __init__(self, at: Steps) -> None:
        self.at = at
        """The path of the message that noted it first (the turn's own, for a turn of one)."""
        self.bag: dict[str, Any] = {}
        self.blanks: dict[int, Steps] = {}
        """The blank text blocks, ``id(block)`` -> the block's canonical path."""
        self.blank = False
        self.server = False
        self.whole = False
        """An assistant turn's one block holds its string content (a cache marker sits on it)."""

    def merge_bag(self, own: Mapping[str, Any]) -> None:
        """A message's bag into its turn's: the wire fields, and the keys that were ``null``
        (an unknown message key sent as ``null`` comes back)."""
        for key, value in own.items():
            if not is_marker(key):
                self.bag.setdefault(key, value)
        nulls = {*(as_list(self.bag.get(NULLS_MARKER)) or ()), *(as_list(own.get(NULLS_MARKER)) or ())}
        if nulls:
            self.bag[NULLS_MARKER] = sorted(key for key in nulls if isinstance(key, str))


class _Writer:
    """The wire turns being written, and the notes of the few turns that need finishing."""

    __slots__ = ("context", "dropped", "last", "notes", "turns")

    def __init__(self, context: AnthropicContext) -> None:
        self.context = context
        self.turns: list[dict[str, Any]] = []
        self.notes: dict[int, _Notes] = {}
        """``id(turn)`` -> its notes."""
        self.dropped: dict[int, list[int]] = {}
        """``id(turn)`` -> the positions of the parts that gave no block (a turn needs
        nothing finished for them: kept apart from the notes, as every assistant turn of
        another provider's reasoning has one)."""
        self.last = 0
        """The index of the message that opened the last turn."""

    def open(self, role: str, index: int) -> dict[str, Any]:
        turn: dict[str, Any] = {"role": role, "content": []}
        self.turns.append(turn)
        self.last = index
        return turn

    def note(self, turn: dict[str, Any], index: int) -> _Notes:
        notes = self.notes.get(id(turn))
        if notes is None:
            notes = self.notes[id(turn)] = _Notes(("messages", index))
        return notes

    def alone(self, turn: dict[str, Any], message: Message, index: int, *, rest: bool) -> None:
        """A turn of one message: its string content stays a string (unless a marker needs a block)."""
        content: str | list[Mapping[str, Any]] = message.get("content", "") if rest else message["content"]
        if not rest and type(content) is list:  # the common turn of blocks
            self.blocks(turn, content, index)
            if not content:
                self.context.losses.add(("messages", index), "message with no content", _EMPTY)
            return
        if type(content) is not str or (rest and message.get("cache_control") is not None):
            self.contribute(turn, message, index, rest=rest)
            return
        if rest:
            self.bag(turn, message, index)
            report_name(message, self.context, ("messages", index))
        turn["content"] = content
        if not content or content.isspace():
            self.note(turn, index).blank = True

    def bag(self, turn: dict[str, Any], message: Message, index: int) -> None:
        """The message's bag: another provider's reported, this one's fields for the turn."""
        metadata = message.get("provider_metadata")
        if metadata is not None:
            own = KIT.claim(self.context.losses, metadata, ("messages", index))
            if any(not is_marker(key) or key == NULLS_MARKER for key in own):
                self.note(turn, index).merge_bag(own)

    def contribute(
        self, turn: dict[str, Any], message: Message, index: int, *, rest: bool = True, system: bool = False
    ) -> None:
        """Add the message's blocks to the turn (``rest``: the message has more than its
        role and content); a message-level cache marker lands on the last of them.
        ``system``: a message of the top-level system, whose bags and emptiness
        :func:`encode_system` reports itself."""
        if rest:
            if not system:
                self.bag(turn, message, index)
            report_name(message, self.context, ("messages", index))
            content = message.get("content", "")
        else:
            content = message["content"]
        last = self.blocks(turn, content, index)
        cache_control = message.get("cache_control") if rest else None
        if cache_control is not None:
            self.cache_last(turn["content"], cache_control, index, last)
        if content == [] and not system:
            self.context.losses.add(("messages", index), "message with no content", _EMPTY)

    def blocks(self, turn: dict[str, Any], content: str | list[Mapping[str, Any]], index: int) -> int | None:
        """Append the blocks of one message's content to the turn; the position of the last
        part written (-1: the string content itself), None when none was."""
        into: list[dict[str, Any]] = turn["content"]
        if isinstance(content, str):
            block = {"type": "text", "text": content}
            into.append(block)
            if not content or content.isspace():
                self.note(turn, index).blanks[id(block)] = ("messages", index)
            if turn["role"] == "assistant":
                self.note(turn, index).whole = True
            return -1
        last = None
        context = self.context  # its written call ids filled as calls are written, read by the results after them
        for position, part in enumerate(content):
            kind = part["type"]
            if kind == "text" and len(part) == PLAIN_TEXT:
                text = part["text"]
                block = {"type": "text", "text": text}
            elif (
                kind == "tool_result"
                and (len(part) == PLAIN_TOOL_RESULT or KIT.bare(part, PLAIN_TOOL_RESULT))
                and (type(result := part.get("content")) is str or plain_result(result))
            ):
                written_content = result if type(result) is str else list(result or ())  # as they are
                tool_use_id = part["tool_use_id"]
                into.append(
                    {
                        "type": "tool_result",
                        # the id its call was written with (a signature in it, a repeat renamed)
                        "tool_use_id": result_id(tool_use_id, context) or _SANITIZE(tool_use_id),
                        "content": written_content,
                    }
                )
                last = position
                continue
            else:
                at = ("messages", index, "content", position)
                # a call, then reasoning: the most frequent parts an agent's turn gives the general branch
                written = (
                    encode_tool_use(part, self.context, at)
                    if kind == "tool_use"
                    else encode_thinking(part, self.context, at)
                    if kind == "thinking"
                    else encode_part(part, self.context, at)
                )
                if written is None:
                    self.dropped.setdefault(id(turn), []).append(position)
                    continue
                block = written
                kind = block["type"]
                if kind != "text":
                    if kind not in _CLIENT_BLOCKS:
                        self.note(turn, index).server = True
                    into.append(block)
                    last = position
                    continue
                text = block.get("text")
            into.append(block)
            last = position
            if type(text) is str and (not text or text.isspace()):
                self.note(turn, index).blanks[id(block)] = ("messages", index, "content", position)
        return last

    def cache_last(self, blocks: list[dict[str, Any]], marker: Mapping[str, Any], index: int, last: int | None) -> None:
        """The message's cache marker on the last block it wrote (never a thinking block)."""
        at = ("messages", index)
        if last is None or blocks[-1]["type"] in ("thinking", "redacted_thinking"):
            why = "no block at the end of the message can carry it"
            self.context.losses.add((*at, "cache_control"), "cache_control", why, "setting")
            return
        block = blocks[-1]
        if "cache_control" not in block:
            self.context.cache(block, marker, at if last == -1 else (*at, "content", last))
        elif block["cache_control"] != encode_cache_control(marker):
            why = "its last block has a different marker, kept"
            self.context.losses.add((*at, "cache_control"), "cache_control", why, "setting")

    def finish(self, *, prefill: bool = False) -> list[dict[str, Any]]:
        """The turns as sent: the final assistant turn's trailing whitespace trimmed (a
        prefill), then each noted turn finished; a turn left empty is not sent."""
        turns = self.turns
        if prefill and turns and turns[-1]["role"] == "assistant":
            self.trim(turns[-1])
        if not self.notes:
            return [turn for turn in turns if turn["content"]]
        finished: list[dict[str, Any]] = []
        for turn in turns:
            notes = self.notes.get(id(turn))
            done = turn if notes is None else self.finished(turn, notes)
            if done is not None and done["content"]:
                finished.append(done)
        return finished

    def trim(self, turn: dict[str, Any]) -> None:
        """Trim the trailing whitespace Claude rejects at the end of a final assistant turn
        (:mod:`chatcodec._providers.families.claude.prefill`, shared with Bedrock)."""
        at = ("messages", self.last)
        content = turn["content"]
        if isinstance(content, str):
            turn["content"] = trimmed_prefill(content, at, self.context.losses)
        elif content and content[-1].get("type") == "text" and isinstance(content[-1].get("text"), str):
            notes = self.notes.get(id(turn))
            whole = notes is not None and notes.whole
            block_at: Steps = at if whole else (*at, "content", self.place(turn, len(content) - 1))
            block = content[-1]
            block["text"] = trimmed_prefill(block["text"], block_at, self.context.losses)

    def place(self, turn: dict[str, Any], block: int) -> int:
        """The part position of block ``block`` of a turn of one message (the parts that
        gave no block counted back in)."""
        for dropped in self.dropped.get(id(turn), ()):
            if dropped <= block:
                block += 1
        return block

    def finished(self, turn: dict[str, Any], notes: _Notes) -> dict[str, Any] | None:
        content = turn["content"]
        losses = self.context.losses
        if isinstance(content, str):
            if notes.blank:
                losses.add(notes.at, "empty message", "Anthropic rejects empty or whitespace-only text")
                return None
        else:
            if notes.server and turn["role"] == "assistant":
                content = _calls_after_server_blocks(content, notes.at, lambda block: self.place(turn, block), losses)
            if notes.blanks:
                content = _drop_empty(content, notes.blanks, losses)
            turn["content"] = content
            if not content:
                return None  # every block it had was dropped and reported
        if notes.bag:
            return {**restore_fields(notes.bag), "role": turn["role"], "content": content}
        return turn


def _is_server_tool_block(block: Mapping[str, Any]) -> bool:
    kind = block.get("type")
    if not isinstance(kind, str):
        return False
    return kind in ("server_tool_use", "mcp_tool_use") or (kind.endswith("_tool_result") and kind != "tool_result")


def _calls_after_server_blocks(
    blocks: list[dict[str, Any]], at: Steps, place: Callable[[int], int], losses: LossRecorder
) -> list[dict[str, Any]]:
    """The turn's blocks with every client ``tool_use`` that stood before a server-tool
    block moved right after the last of them (in their order); ``at``: the turn's
    message, ``place``: a block's part position in it."""
    last_server = max((index for index, block in enumerate(blocks) if _is_server_tool_block(block)), default=-1)
    early = [index for index in range(last_server) if blocks[index].get("type") == "tool_use"]
    if not early:
        return blocks
    why = "Anthropic needs a client tool_use after the turn's server-tool blocks; moved after them"
    for index in early:
        losses.add((*at, "content", place(index)), "order of a tool_use block", why)
    rest = [block for index, block in enumerate(blocks) if index not in early]
    position = last_server + 1 - len(early)
    return [*rest[:position], *(blocks[index] for index in early), *rest[position:]]


def _drop_empty(
    blocks: list[dict[str, Any]], blanks: Mapping[int, Steps], losses: LossRecorder
) -> list[dict[str, Any]]:
    """Drop empty text blocks; whitespace-only ones too when no other text is left (every
    blank block is in ``blanks``, with its path)."""
    kept: list[dict[str, Any]] = []
    has_text = False
    for block in blocks:
        text = block.get("text") if block["type"] == "text" else None
        if not isinstance(text, str):
            kept.append(block)
        elif text == "":
            losses.add(blanks[id(block)], "empty text block", "Anthropic rejects empty text blocks")
        else:
            kept.append(block)
            has_text = has_text or not text.isspace()
    if has_text:
        return kept
    for block in kept:
        if id(block) in blanks and block["type"] == "text":
            losses.add(blanks[id(block)], "whitespace-only text block", "Anthropic rejects a turn with no other text")
    return [block for block in kept if not (id(block) in blanks and block["type"] == "text")]
