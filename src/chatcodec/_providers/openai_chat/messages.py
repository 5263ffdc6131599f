"""The ``messages`` list of a request, both ways.

Two rewrites keep OpenAI's rules:

- **Tool results are grouped** (no loss: nothing changes but the grouping). OpenAI sends
  one ``role: tool`` message per result; consecutive ones decode into a single canonical
  tool message (as Anthropic, Gemini and Bedrock send them), and a tool message with N
  results encodes as N ``tool`` messages. Two canonical tool messages in a row therefore
  read back as one.
- **Media in tool results move to a user message** (a loss: the result no longer holds
  them). OpenAI ``tool`` messages hold text only, so the images, audio and files of a
  result are sent in a ``user`` message right after the group of ``tool`` messages (tool
  messages must directly follow the assistant turn), and a result left with no text is
  sent as ``""``. Decoding gives that user message back as a user message.

OpenAI rejects ``content: []`` on a system or user message, and an assistant message
with neither content nor tool calls: one whose parts were all dropped (each a loss) is
left out, with a loss; one that was empty at the source is written as it was.

A tool message's own leftovers (keys OpenAI adds in future, or a compatible server's
``name``) live on its result part, since grouping makes the result the unit.

Both ways work on canonical message data. Each function reads the plain shape first (a
message of a role and a string, a text part, a tool result of text): the wire and the
canonical objects are then the same but for the tool result's names, so nothing else is
looked at; anything more goes through the general reading or writing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from chatcodec._providers.openai_chat import assistant, cache_control, functions, parts, reasoning
from chatcodec._providers.openai_chat.markers import KIT, PROVIDER
from chatcodec._providers.openai_chat.null_spelling import (
    message_fields,
    nulls_as_spelling,
    spelled_nulls,
    with_own_fields,
)
from chatcodec._providers.openai_chat.plain_turn import name_null, read_plain_turn
from chatcodec.codec_kit import NULLS_MARKER, PLAIN_MESSAGE, leftovers, present_keys

if TYPE_CHECKING:
    from chatcodec.contract import DecodeContext, EncodeContext, LossRecorder, Reading, Steps

Message = Mapping[str, Any]
"""A canonical message's data (as a message model dumps it; a key holding its default may be absent)."""

# --- decode --------------------------------------------------------------------------

_RESULT_ROLES = frozenset({"tool", "function"})
_ROLE = itemgetter("role")


def decode_messages(messages: list[dict[str, Any]], context: DecodeContext) -> list[dict[str, Any]]:
    """Validated wire messages as canonical message dicts (tool results grouped).

    The validated copy belongs to the reader: a system, developer or user message of a
    role and content is the canonical message once its content is read, so it is taken
    over, not rebuilt (as its text parts are by :func:`~.parts.decode_parts`)."""
    noted = context.reading  # a conversion's: an SDK dump's nulls kept there, for this format's writer
    if not messages:  # a direct path's top level (``chatcodec._direct``): nothing to read or rule on
        decoded: list[dict[str, Any]] = []
        if noted is not None:
            noted.plain_history = noted.unsealed_history = decoded
        return decoded
    decoded, ruled, sealed = _read_messages(messages, context.closed, noted)
    if noted is not None:  # what the writer would look for, learnt in the pass
        noted.plain_history = None if ruled else decoded
        noted.unsealed_history = None if sealed else decoded
    return decoded


def _read_messages(
    messages: list[dict[str, Any]], closed: bool, noted: Reading | None
) -> tuple[list[dict[str, Any]], bool, bool]:
    """:func:`decode_messages`' pass (``closed``: the closed front's copy, whose calls are of the
    plain shape), with whether it read what the shared history rules act on
    (:attr:`~chatcodec.contract.Reading.plain_history`) and encrypted reasoning
    (:attr:`~chatcodec.contract.Reading.unsealed_history`). The shapes of most messages (a tool
    result of text, a plain agent turn) are read in the loop, not by a function of their own."""
    decoded: list[dict[str, Any]] = []
    ids = functions.CallIds()
    # ``function`` results pair with calls by name (functions.py): only then are calls noted
    pairs = "function" in map(_ROLE, messages)  # looked for in C: every message of every conversion
    group: list[dict[str, Any]] | None = None  # the results of the open tool message
    ruled = sealed = False  # what the shared history rules act on, encrypted reasoning: read
    called: dict[str, Any] | None = None  # the last turn read with a call (ruled: what follows it)
    for message in messages:
        role = message["role"]
        if role in _RESULT_ROLES:
            if role == "function":
                result = functions.decode_function_message(message, ids)
            else:
                result = (  # role, tool_call_id and text (most results): nothing for a bag
                    {"type": "tool_result", "tool_use_id": message["tool_call_id"], "content": content}
                    if len(message) == 3 and type(content := message["content"]) is str
                    else decode_tool_result(message, noted)
                )
                if pairs:
                    ids.answered(result["tool_use_id"])
            if group is None:
                group = []
                decoded.append({"role": "tool", "content": group})
            group.append(result)
            continue
        group = None
        if role == "assistant":
            bare = len(message) == 2 and type(message.get("content")) is str  # a role and a content string
            turn = None if bare else read_plain_turn(message, closed, noted)
            if turn is None:  # bare, or a shape beyond a plain turn's
                turn, acted_on, with_call, with_seal = _read_turn(message, ids, pairs)
                ruled, sealed = ruled or acted_on, sealed or with_seal
                called = turn if with_call else called
                decoded.append(turn)
                continue
            if pairs:  # text, reasoning text and function calls: its reasoning is text
                ids.calls(turn)
            ruled = ruled or not turn["content"]
            called = turn if "tool_calls" in message else called
            decoded.append(turn)
            continue
        ruled = ruled or (called is not None and called is decoded[-1])  # a message right after calls
        if len(message) == 2:  # system, developer, user: the wire types allow no other role
            if type(content := message["content"]) is not str:
                content = message["content"] = parts.decode_parts(content)
                ruled = ruled or not content  # content [] (history_for's empty instruction)
            decoded.append(message)
        else:
            read = decode_plain(message, noted)
            ruled = ruled or not read["content"]
            decoded.append(read)
    return decoded, ruled, sealed


def _read_turn(message: dict[str, Any], ids: functions.CallIds, pairs: bool) -> tuple[dict[str, Any], bool, bool, bool]:
    """An assistant message :func:`decode_messages` does not read itself (a bare content
    string, or neither it nor a plain turn: :func:`~.plain_turn.read_plain_turn`), read as
    :func:`.assistant.decode_assistant` reads it (its calls noted in ``ids`` with ``pairs``:
    the conversation's ``function`` results pair by name), with whether it holds what the
    shared history rules act on (no part, an opaque part or a custom call:
    :func:`~chatcodec.codec_kit.history_for`), whether it holds a call (whose results must
    come next) and whether a thinking part carries ``encrypted`` reasoning."""
    content = message.get("content")
    if len(message) == 2 and type(content) is str:  # a role and a content string: nothing else
        return {"role": "assistant", "content": content}, False, False, False
    turn = assistant.decode_general(message, ids=ids)
    if pairs:
        ids.calls(turn)
    read: Any = turn["content"]
    if type(read) is str:
        return turn, False, False, False
    kinds = [part["type"] for part in read]
    custom = any(part.get("kind") == "custom" for part in read)
    sealed = any(part["type"] == "thinking" and part.get("encrypted") is not None for part in read)
    return turn, not read or custom or "opaque" in kinds, "tool_use" in kinds, sealed


def decode_plain(message: dict[str, Any], noted: Reading | None = None, *, split: bool = True) -> dict[str, Any]:
    """A system, developer or user message with more than a role and content (an SDK dump's
    ``null`` is marked for this format's writer: in ``noted``, a conversion's, when given);
    also the OpenAI Chat direct paths' reading of a user message with a cache marker
    (``chatcodec._direct``; ``split``: :func:`~.parts.decode_parts`')."""
    content = parts.decode_parts(message["content"], split=split)
    canonical: dict[str, Any] = {"role": message["role"], "content": content}
    if len(message) == 3 and "name" in message and message["name"] is None:  # an SDK dump's
        if noted is None:
            canonical["provider_metadata"] = {PROVIDER: {NULLS_MARKER: ["name"]}}
        else:
            noted.own.append((canonical, PROVIDER, name_null, None))
        return canonical
    if isinstance(message.get("name"), str):
        canonical["name"] = message["name"]
    bag = nulls_as_spelling(leftovers(message, ("role", "content", *present_keys(message, "name"))))
    cache_control.take(bag, canonical)
    return KIT.attach(canonical, bag)


EMPTY_RESULT = "_empty_result"
"""Marker: a tool message's ``content`` was ``[]`` (read as the empty text), written back so."""


def decode_tool_result(message: dict[str, Any], noted: Reading | None = None) -> dict[str, Any]:
    """A ``tool`` message beyond a role, a call id and a text (:func:`decode_messages` reads
    those) as its result part (also the OpenAI Chat direct paths' reading of one, ``chatcodec._direct``)."""
    content = message["content"]
    if len(message) == 4 and "name" in message and message["name"] is None:  # an SDK dump's
        read = content if type(content) is str else parts.decode_parts(content)
        result = {"type": "tool_result", "tool_use_id": message["tool_call_id"], "content": read}
        if noted is None:
            result["provider_metadata"] = {PROVIDER: {NULLS_MARKER: ["name"]}}
        else:
            noted.own.append((result, PROVIDER, name_null, None))
        return result
    result = {"type": "tool_result", "tool_use_id": message["tool_call_id"], "content": parts.decode_parts(content)}
    bag = result_fields(message)
    if content == []:  # no parts is no output: the empty text, as Responses' "output": [] reads
        result["content"] = ""
        bag[EMPTY_RESULT] = True
    cache_control.take(bag, result)
    return KIT.attach(result, bag)


def result_fields(message: Mapping[str, Any]) -> dict[str, Any]:
    """The bag :func:`decode_tool_result` keeps on a tool message's result part: its fields
    beyond a role, a call id and its content (the tool's ``name`` litellm's clients send, keys
    OpenAI adds in future), an SDK dump's ``null`` ones as spelling, a cache marker still in it
    (the reading takes that out). Also the OpenAI Chat direct paths' reading of a result's name
    (``chatcodec._direct``), which their writer's rule for another provider's bag then reports."""
    return nulls_as_spelling(leftovers(message, _RESULT_FIELDS))


_RESULT_FIELDS = ("role", "tool_call_id", "content")


# --- encode --------------------------------------------------------------------------

_ON_PARTS = "OpenAI cache breakpoints sit on content parts"
_PLAIN_ROLES = frozenset({"system", "developer", "user"})


def encode_messages(messages: Sequence[Message], start: int, context: EncodeContext) -> list[dict[str, Any]]:
    """``messages[start:]`` as wire messages (the whole list: OpenAI keeps system
    messages in it, so the request passes 0)."""
    losses = context.losses
    reasoning_field = reasoning.option(context, ("options", reasoning.PUBLIC_OPTION))
    wire: list[dict[str, Any]] = []
    append = wire.append
    moved: list[dict[str, Any]] = []  # media from tool results, sent after the tool group
    for index in range(start, len(messages)):
        message = messages[index]
        role = message["role"]
        if role == "tool":
            wire.extend(encode_tool_message(message, moved, context, index))
            continue
        if moved:
            append({"role": "user", "content": moved})
            moved = []
        if role in _PLAIN_ROLES:
            content = message["content"]
            if len(message) == PLAIN_MESSAGE and type(content) is str:  # a role and a string: the wire message as it is
                append({"role": role, "content": content})
                continue
            plain = encode_plain_message(message, context, ("messages", index))
            if plain is not None:
                append(plain)
        elif role == "assistant":
            encode_assistant_message(message, wire, reasoning_field, losses, ("messages", index))
        else:  # a text message
            losses.add(("messages", index), "text message", "OpenAI Chat has no raw-text role; sent as a user message")
            append({"role": "user", "content": message["content"]})
    if moved:
        append({"role": "user", "content": moved})
    return wire


def encode_assistant_message(
    message: Message, wire: list[dict[str, Any]], reasoning_field: str | None, losses: LossRecorder, at: Steps
) -> None:
    """Append the wire message of an assistant message to ``wire``, unless none of its parts
    can be carried (a loss: OpenAI rejects it empty). Called for each one by :func:`encode_messages`
    and by a direct path (:mod:`chatcodec._direct`)."""
    encoded = assistant.encode_assistant(message, reasoning_field, losses, at)
    if message.get("content") and set(encoded) <= {"role", "content"} and not encoded.get("content"):
        losses.add(at, "assistant message", "none of its parts can be carried; OpenAI rejects it empty")
    else:
        wire.append(encoded)


def encode_plain_message(message: Message, context: EncodeContext, at: Steps) -> dict[str, Any] | None:
    """The wire message of a system, developer or user message beyond a role and a string;
    None when none of its parts can be carried (a loss). :func:`encode_messages`' and a direct path's."""
    losses = context.losses
    if cache_control.KEY in message:  # a marker to move onto the last part (none on most messages)
        message = cache_control.onto_last_part(message, losses, at)
    metadata = message.get("provider_metadata")
    role = message["role"]
    own: dict[str, Any] = {}
    if metadata is None:
        wire: dict[str, Any] = {"role": role}
    else:
        KIT.report_foreign(losses, metadata, at)
        own = KIT.own(metadata)
        wire = {**spelled_nulls(own), "role": role}
    content = message["content"]
    if isinstance(content, str):
        wire["content"] = content
    else:
        kept: list[dict[str, Any]] = []  # one pass: each part written, the ones OpenAI cannot hold left out
        for index, part in enumerate(content):
            encoded = parts.encode_part(part, context, (*at, "content", index))
            if encoded is not None:
                kept.append(encoded)
        wire["content"] = kept
        if content and not wire["content"]:
            losses.add(at, f"{role} message", "none of its parts can be carried; OpenAI rejects empty content")
            return None
    if len(message) == PLAIN_MESSAGE:
        return wire
    name = message.get("name")
    if name is not None:
        wire["name"] = name
    cache_control.write(wire, message.get("cache_control"), metadata, losses, at, why=_ON_PARTS)
    return with_own_fields(wire, own) if own else wire


def encode_tool_message(
    message: Message, moved: list[dict[str, Any]], context: EncodeContext, index: int
) -> list[dict[str, Any]]:
    """The ``tool`` messages of a canonical tool message (one per result), the media of its
    results added to ``moved`` (sent in a user message after the group, a loss each).
    :func:`encode_messages`' and a direct path's."""
    results: list[Mapping[str, Any]] = message["content"]
    if len(message) == PLAIN_MESSAGE:
        shared: dict[str, Any] = {}
    else:
        losses = context.losses
        at: Steps = ("messages", index)
        metadata = message.get("provider_metadata")
        KIT.report_foreign(losses, metadata, at)
        if message.get("cache_control") is not None:
            losses.add((*at, "cache_control"), "cache_control", _ON_PARTS, "setting")
        if message.get("name") is not None:
            losses.add((*at, "name"), "tool message name", "OpenAI tool messages have no name")
        shared = message_fields(KIT.own(metadata))
    encoded: list[dict[str, Any]] = []
    for position, result in enumerate(results):
        content = result.get("content")
        size = len(result)
        if size == 3 and type(content) is str and not shared:  # type, tool_use_id and text: as it is
            encoded.append({"role": "tool", "tool_call_id": result["tool_use_id"], "content": content})
        elif content is None or shared or not (size == 3 or (size == 4 and "name" in result)):
            encoded.append(_encode_result(result, shared, moved, context, ("messages", index, "content", position)))
        else:  # parts (Bedrock results), or a tool name (Gemini's): no bag, flag or marker
            at = ("messages", index, "content", position)
            wire = content if isinstance(content, str) else result_content(content, moved, context, at)
            encoded.append({"role": "tool", "tool_call_id": result["tool_use_id"], "content": wire})
            _result_losses(result, context.losses, at, named=False)
    return encoded


def _encode_result(
    result: Mapping[str, Any], shared: dict[str, Any], moved: list[dict[str, Any]], context: EncodeContext, at: Steps
) -> dict[str, Any]:
    losses = context.losses
    metadata = result.get("provider_metadata")
    KIT.report_foreign(losses, metadata, at)
    own = {**shared, **message_fields(KIT.own(metadata))}
    function_message = functions.encode_function_message(result, own)
    if function_message is not None:
        _result_losses(result, losses, at, named=True)
        return function_message
    wire: dict[str, Any] = {**own, "role": "tool", "tool_call_id": result["tool_use_id"]}
    content = result.get("content", "")
    wire["content"] = content if isinstance(content, str) else result_content(content, moved, context, at)
    if content == "" and KIT.marker(metadata, EMPTY_RESULT) is True:
        wire["content"] = []
    _result_losses(result, losses, at, named=False)
    cache_control.write(wire, result.get("cache_control"), metadata, losses, at, why=_ON_PARTS)
    return wire


def _result_losses(result: Mapping[str, Any], losses: LossRecorder, at: Steps, *, named: bool) -> None:
    """What a ``tool`` message (or, ``named``, a ``function`` message) has no field for."""
    if result.get("is_error"):
        losses.add((*at, "is_error"), "tool error flag", "OpenAI tool messages cannot mark an error (content is sent)")
    if result.get("name") is not None and not named:
        losses.add((*at, "name"), "tool name on a result", "OpenAI tool messages have no name")
    if named and result.get("cache_control") is not None:
        losses.add((*at, "cache_control"), "cache_control", "a function message takes no cache breakpoint", "setting")


def result_content(
    content: Sequence[Mapping[str, Any]], moved: list[dict[str, Any]], context: EncodeContext, at: Steps
) -> list[dict[str, Any]] | str:
    """The text parts a ``tool`` message keeps; media go to ``moved`` (a loss each). No part
    kept is the empty text: OpenAI refuses ``content: []``, and ``""`` is how canonical holds no
    output (the reader reads a Chat body's own ``[]`` so, with its marker to write it back)."""
    losses = context.losses
    kept: list[dict[str, Any]] = []
    for index, part in enumerate(content):
        steps = (*at, "content", index)
        kind = part["type"]
        stays = kind == "text" or (kind == "opaque" and part["provider"] == PROVIDER)
        encoded = parts.encode_part(part, context, steps)
        if encoded is None:
            continue
        if stays:
            kept.append(encoded)
        else:
            why = "OpenAI tool messages hold text only; sent in a user message after the results"
            losses.add(steps, f"{kind} part in a tool result", why)
            moved.append(encoded)
    return kept or ""
