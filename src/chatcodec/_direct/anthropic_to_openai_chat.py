"""Anthropic -> OpenAI Chat, direct: a Claude agent's history (Claude Code, the Agent SDK)
sent to an OpenAI-compatible model through a gateway.

The canonical path reads the whole ``messages`` list into canonical messages, surveys it for
the shared history rules, then the OpenAI Chat writer walks it again. Here the closed front's
validated copy of the messages (the reader's own front,
:data:`~chatcodec._providers.anthropic.wire.COMMON_MESSAGES`) is written as OpenAI messages in
one pass, for the shapes an agent's history is made of: a system prompt of text (or of text
blocks, a cache marker on one: the reader's canonical system message, written by the writer's
``encode_plain_message``), user text,
images and tool results (of text, images and documents), assistant text, thinking and tool
calls, and what an answer after the server's web search holds (a text's ``citations``, the
server's ``server_tool_use`` and ``web_search_tool_result``: the front refuses them, and they are
copied as the wire shapes copy them, :mod:`.anthropic_to_openai_chat_replayed`). Each turn is
read by the reader's own functions for it
(:func:`~chatcodec._providers.anthropic.parts.decode_parts` for an assistant's blocks,
:func:`~chatcodec._providers.anthropic.messages.decode_user_turn`, which splits a user turn
into its results and the rest) and written by the writer's own functions for each message it
gives (``encode_assistant_message``, ``encode_tool_message``, ``encode_plain_message`` of
:mod:`chatcodec._providers.openai_chat.messages`): the argument text and its proof, the
thinking's verdict, the tool-name rule, the data URL's text, the media moved out of results and
every loss are theirs. The top level (model, tools, settings) of the usual agent request is read
by the reader's functions and written by the writer's, field by field
(:mod:`.top_levels.anthropic_to_openai_chat`); any other is the canonical reader's and writer's,
run on the body without its turns, the OpenAI Chat writer taking the messages written here in
their place (:class:`DirectReading`).

A body of any other shape is handed back before anything is written (:func:`admitted`): the
canonical path converts it whole, and says what it refuses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from sys import get_int_max_str_digits, maxsize
from typing import TYPE_CHECKING, Any, cast

from chatcodec._conversion import read_request_data, trace_source, write_request_data
from chatcodec._direct.anthropic_to_openai_chat_replayed import (
    CALLERS,
    KEPT_DEPTH,
    TEXTS,
    called_by,
    json_objects,
    kept,
    replayed_block,
    unnamed,
)
from chatcodec._direct.top_levels.anthropic_to_openai_chat import KeptTools, read_usual, write_usual
from chatcodec._providers.anthropic.markers import PROVIDER
from chatcodec._providers.anthropic.messages import SEPARATE, decode_user_turn
from chatcodec._providers.anthropic.parts import ASSISTANT_KINDS, decode_parts, plain_call
from chatcodec._providers.anthropic.wire import COMMON_INPUTS, COMMON_MESSAGES
from chatcodec._providers.contract.context import Reading
from chatcodec._providers.openai_chat import reasoning
from chatcodec._providers.openai_chat.assistant import (
    foreign_bag_only,
    plain_text,
    plain_turn_wire,
    report_plain_turn,
)
from chatcodec._providers.openai_chat.messages import (
    encode_assistant_message,
    encode_plain_message,
    encode_tool_message,
)
from chatcodec._providers.openai_chat.reasoning import drop_loss
from chatcodec._providers.openai_chat.tool_calls import TAKEN, TAKES, plain_call_wire
from chatcodec.codec_kit import PLAIN_TEXT, deeper_than

if TYPE_CHECKING:
    from chatcodec._codec_protocols import Codec
    from chatcodec._direct.general_turns import Found
    from chatcodec._losses import LossRecorder
    from chatcodec._providers.contract.context import EncodeContext

SOURCE, TARGET = "anthropic", "openai-chat"


class DirectReading(Reading):
    """The conversion's record for the OpenAI Chat writer, carrying the turns this path
    writes (the writer takes its ``messages`` from :attr:`direct_messages`), and the
    canonical messages they were read as, for the losses' places in the input."""

    __slots__ = ("_system", "_turns", "canonical", "system_message")

    def __init__(self, system: str | None, turns: list[dict[str, Any]]) -> None:
        super().__init__()
        self._system = system
        self._turns = turns
        self.system_message: Mapping[str, Any] | None = None
        """A system prompt of blocks, as the reader read it (its canonical message)."""
        self.canonical: list[Mapping[str, Any]] = []
        """The canonical messages, filled as they are written (a loss's place is found
        from them when it is first named, after the writing)."""

    def direct_messages(self, context: EncodeContext) -> list[dict[str, Any]]:
        """The body's ``messages``, in the writer's place for them (:func:`write_messages`)."""
        return self.written(context)[0]

    def written(self, context: EncodeContext) -> tuple[list[dict[str, Any]], bool]:
        """The body's ``messages`` (:func:`write_messages`), and whether an assistant turn was
        written by the writer's general function for it."""
        system = self._system if self.system_message is None else self.system_message
        return write_messages(system, self._turns, context, self.canonical)


def convert(payload: dict[str, Any], recorder: LossRecorder, writer: Codec) -> dict[str, Any] | None:
    """``payload`` written for OpenAI Chat, its losses in ``recorder``; None when it is not
    of the shapes admitted (``recorder`` is then the caller's to drop)."""
    messages: Any = payload.get("messages")
    system: Any = payload.get("system")
    blocks = system.__class__ is list  # text blocks (a cache marker on one): read by the top level's reading
    if (
        messages.__class__ is not list
        or not (system is None or type(system) is str or blocks)
        or not admitted(messages)
    ):
        return None
    if (system is None and "system" in payload) or (blocks and not system):
        return None  # a null system prompt, or one of no blocks (the history rules drop its empty message)
    beyond: list[dict[str, Any]] = []
    turns = proved(messages, beyond)
    if beyond and (turns is None or not unnamed(turns)):
        return None  # (a server call whose id a call or result names: the history rules drop them)
    if turns is None:  # a block of another shape: the front's own copy
        validated = COMMON_MESSAGES.validate({"messages": messages})
        if validated is None:
            return None
        turns = validated["messages"]
    noted = DirectReading(None if blocks else system, turns)
    try:  # the system prompt read there too (its message goes unwritten: the turns here are the writer's)
        kept = KeptTools.of(writer)  # for the built-in writer: the tools as it wrote them before
        canonical = read_usual(payload, noted, kept)  # the usual agent request: its top level read directly
        usual = canonical is not None
        if canonical is None:
            canonical = read_request_data({**payload, "messages": []}, SOURCE, noted=noted)
        if blocks:  # the reader's canonical system message (decode_system, from the front's copy), written here
            noted.system_message = canonical["messages"][0]
        trace_source(recorder, payload, SOURCE, canonical, messages=noted.canonical)
        if usual and kept is not None:  # and written directly, field by field
            written = write_usual(canonical, recorder, noted, kept, messages=noted.written)
            if written is not None:
                return written
        return write_request_data(canonical, TARGET, recorder, noted=noted, writer=writer)
    except Exception:  # whatever a rule raised: the canonical path raises it, in its own words
        return None


def _report(losses: LossRecorder, at: int, dropped: list[int], called: Iterable[tuple[int, Found]]) -> None:
    """A plain turn's losses (its canonical message ``at``), in the order of the writer's
    ``report_plain_turn``: each thinking block ``dropped`` (the writer's ``drop_loss``), then what
    it reported of each call's caller (``called``: a position and its report,
    :meth:`_Writer.called`), repeated at the call's place."""
    for position in dropped:
        drop_loss(PROVIDER, losses, ("messages", at, "content", position))
    for position, found in called:
        losses.repeat(found, ("messages", at, "content", position))


_CALL_PLACE = ("messages", 0, "content", 0)
"""Where a caller's report is read (:meth:`_Writer.reported`), repeated at each call's place."""


class UnadmittedError(Exception):
    """A turn the write found outside the shapes this path writes: the canonical path converts the body."""


def admitted(messages: list[Any]) -> bool:
    """Whether ``messages`` are user and assistant turns of their role and content alone
    (a user turn right after another one of blocks: Claude Code's task after its results,
    marked as the reader marks it, :meth:`_Writer.user`).

    Asked of the body as given, before the closed front validates it: a body handed back
    here costs this walk of roles, not a validation the canonical path then does again. The
    front checks every block after it (it takes the block types :func:`write_messages`
    writes, and no others), and the write hands back the rest (:class:`UnadmittedError`)."""
    if not messages:
        return False
    previous: object = None
    for message in messages:
        if message.__class__ is not dict or len(message) != 2:
            return False
        role = message.get("role")
        if role == "user":
            if previous == "user" and message.get("content").__class__ is not list:
                return False
        elif role != "assistant":
            return False
        previous = role
    return True


def proved(messages: list[dict[str, Any]], beyond: list[dict[str, Any]] | None = None) -> list[dict[str, Any]] | None:
    """The closed front's copy of admitted ``messages`` (:func:`admitted`), made here for the
    blocks an agent's history is made of: text, thinking, ``tool_use``, ``tool_result`` of text
    and base64 images, an image; None for any other block (a cache marker, a document, a URL
    source) or a value the front would refuse, and the front makes the copy. With ``beyond``,
    an assistant's blocks the front refuses and the wire shapes take (a text's ``citations``, a
    server tool's call and result: :func:`.replayed_block`, the canonical path's reading of such a
    body) are copied too, each noted there.

    The front (:data:`~chatcodec._providers.anthropic.wire.COMMON_MESSAGES`) builds a typed
    dict per object in Rust, which costs more than this walk proving the same rules of these
    few shapes (exact types, required keys, no other key, the keys in the wire shapes' order)
    as it copies them (``docs/performance-history.md``, "anthropic -> openai-chat"). The
    inputs of the calls, JSON values of any depth, are validated together by the front's own
    schema for them (:data:`~chatcodec._providers.anthropic.wire.COMMON_INPUTS`).
    ``tests/test_direct_anthropic_proof.py`` holds the copy equal to the front's, and
    ``tests/test_direct_paths.py`` the conversions to the canonical path's."""
    turns: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []  # the copied calls, each input put in after the one validation
    inputs: list[Any] = []
    values: list[Any] = []  # the JSON objects of the blocks beyond the front's (``beyond``), checked with the inputs
    for message in messages:
        role, content = message["role"], cast("Any", message.get("content"))
        if type(role) is not str:
            return None
        if type(content) is str:
            turns.append({"role": role, "content": content})
            continue
        if content.__class__ is not list:
            return None
        assistant = role == "assistant"
        blocks = _copied_blocks(content, assistant, calls, inputs, beyond if assistant else None)
        if blocks is None:
            return None
        turns.append({"role": role, "content": blocks})
    if beyond:
        values = [value for block in beyond for value in json_objects(block)]
        if any(deeper_than(value, KEPT_DEPTH) for value in values):
            return None
    if inputs or values:
        validated = COMMON_INPUTS.validate({"inputs": inputs + values if values else inputs})
        if validated is None:
            return None
        for call, value in zip(calls, validated["inputs"], strict=False):  # (the values after: checked, kept)
            call["input"] = value
    return turns


def _copied_blocks(
    content: list[Any],
    assistant: bool,
    calls: list[dict[str, Any]],
    inputs: list[Any],
    beyond: list[dict[str, Any]] | None,
) -> list[dict[str, Any]] | None:
    """A turn's blocks copied (:func:`proved`), each call's copy added to ``calls`` and its
    input to ``inputs``, a block beyond the front's to ``beyond`` (an assistant's, when given);
    None for a block of another shape."""
    blocks: list[dict[str, Any]] = []
    for block in content:
        if block.__class__ is not dict:
            return None
        kind = block.get("type")
        copied: dict[str, Any] | None
        if kind == "tool_use" and assistant:  # the commonest blocks inline: a call, a result of text
            call_id, name = block.get("id"), block.get("name")
            call = {"type": "tool_use", "id": call_id, "name": name, "input": None}
            if (
                type(call_id) is not str
                or type(name) is not str
                or "input" not in block
                or (len(block) != 4 and not called_by(block, call, beyond))  # (the API's ``caller``, replayed)
            ):
                return None
            calls.append(call)
            inputs.append(block["input"])
            copied = call
        elif kind == "tool_result" and not assistant:
            tool_use_id, result = block.get("tool_use_id"), block.get("content")
            if len(block) == 3 and type(result) is str and type(tool_use_id) is str:
                copied = {"type": "tool_result", "tool_use_id": tool_use_id, "content": result}
            else:
                copied = _result(block)
        elif type(kind) is not str:
            return None
        elif kind == "text":
            copied = _text(block)
        elif assistant:
            copied = _thinking(block) if kind == "thinking" else None
        else:
            copied = _image(block) if kind == "image" else None
        copied = _beyond(block, kind, beyond) if copied is None else copied
        if copied is None:
            return None
        blocks.append(copied)
    return blocks


def _beyond(block: dict[str, Any], kind: str, beyond: list[dict[str, Any]] | None) -> dict[str, Any] | None:
    """An assistant's block the front refuses, copied as the wire shapes copy it and noted in
    ``beyond`` (:func:`.replayed_block`); None for one of another shape, or with no ``beyond``
    (a user turn's block, or a walk held to the front's copy)."""
    if beyond is None:
        return None
    copied = replayed_block(block, kind)
    if copied is not None:
        beyond.append(copied)
    return copied


def _text(block: dict[str, Any]) -> dict[str, Any] | None:
    """A text block, with the cache marker Claude Code puts on a turn's last block or without."""
    text = block.get("text")
    if type(text) is not str:
        return None
    if len(block) == 2:
        return {"type": "text", "text": text}
    marker: Any = block.get("cache_control")
    if len(block) != 3 or marker.__class__ is not dict or len(marker) != 1:
        return None
    kind = marker.get("type")
    if type(kind) is not str or kind != "ephemeral":
        return None
    return {"type": "text", "text": text, "cache_control": {"type": "ephemeral"}}


def _thinking(block: dict[str, Any]) -> dict[str, Any] | None:
    thinking = block.get("thinking")
    if type(thinking) is not str:
        return None
    if len(block) == 2:
        return {"type": "thinking", "thinking": thinking}
    signature = block.get("signature")
    if len(block) != 3 or type(signature) is not str:
        return None
    return {"type": "thinking", "thinking": thinking, "signature": signature}


def _result(block: dict[str, Any]) -> dict[str, Any] | None:
    """A tool result of text or of text and image blocks, with its error flag or not."""
    tool_use_id = block.get("tool_use_id")
    if type(tool_use_id) is not str:
        return None
    copied: dict[str, Any] = {"type": "tool_result", "tool_use_id": tool_use_id}
    keys = 2
    if "content" in block:
        keys += 1
        content = block["content"]
        if type(content) is str:
            copied["content"] = content
        elif content.__class__ is list:
            parts: list[dict[str, Any]] = []
            for part in content:
                kind = part.get("type") if part.__class__ is dict else None
                made = _text(part) if kind == "text" and type(kind) is str else None
                if made is None and kind == "image" and type(kind) is str:
                    made = _image(part)
                if made is None:
                    return None
                parts.append(made)
            copied["content"] = parts
        else:
            return None
    if "is_error" in block:
        keys += 1
        flag = block["is_error"]
        if type(flag) is not bool:
            return None
        copied["is_error"] = flag
    return copied if len(block) == keys else None


def _image(block: dict[str, Any]) -> dict[str, Any] | None:
    """An image of base64 data (its media type ASCII and not empty: the front's rule reads
    any other as UTF-8, which this leaves to the front)."""
    source: Any = block.get("source")
    if len(block) != 2 or source.__class__ is not dict or len(source) != 3:
        return None
    kind, media_type, data = source.get("type"), source.get("media_type"), source.get("data")
    if type(kind) is not str or kind != "base64" or type(data) is not str:
        return None
    if type(media_type) is not str or not media_type or not media_type.isascii():
        return None
    return {"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}}


def write_messages(
    system: str | Mapping[str, Any] | None,
    turns: list[dict[str, Any]],
    context: EncodeContext,
    canonical: list[Mapping[str, Any]],
) -> tuple[list[dict[str, Any]], bool]:
    """The body's ``messages`` for admitted ``turns`` (:func:`admitted`) after the ``system``
    prompt (a text, or the canonical message the reader read its blocks as, written by the
    writer's ``encode_plain_message``), each loss at the place the canonical writer names (the
    canonical message's index: the system prompt is message 0, a user turn of results and
    other blocks two); ``canonical`` gets each canonical message as it is written. Second,
    whether an assistant turn was written by the writer's general ``encode_assistant_message``
    (whose calls may hold what the writer places for a server), not as a plain turn."""
    writer = _Writer(context, canonical)
    if isinstance(system, str):
        canonical.append({"role": "system", "content": system})
        writer.wire.append({"role": "system", "content": system})
    elif system is not None:
        canonical.append(system)
        written = encode_plain_message(system, context, ("messages", 0))
        if written is not None:
            writer.wire.append(written)
    called = False  # the turn before holds a call: the next must begin with its results
    for turn in turns:
        role, content = turn["role"], turn["content"]
        if type(content) is str:
            if called and role == "user":
                raise UnadmittedError  # moved after the results by history_for: the canonical path's
            writer.flush()
            canonical.append(turn)  # a role and a string: the canonical message, and the wire message as it is
            writer.wire.append({"role": role, "content": content})
            called = False
        elif not content:
            raise UnadmittedError  # content [] (history_for's): the canonical path's
        elif role == "assistant":
            called = writer.assistant(content)
        else:
            writer.user(content, called)
            called = False
    writer.flush()
    return writer.wire, writer.general


class _Writer:
    """The wire messages being written, the media moved out of tool results waiting for the
    user message after their group, and the canonical messages read so far."""

    __slots__ = ("canonical", "context", "digits", "general", "moved", "reasoning_field", "wire")

    def __init__(self, context: EncodeContext, canonical: list[Mapping[str, Any]]) -> None:
        self.context = context
        self.canonical = canonical
        self.wire: list[dict[str, Any]] = []
        self.moved: list[dict[str, Any]] = []
        self.reasoning_field = reasoning.option(context, ("options", reasoning.PUBLIC_OPTION))
        self.digits = get_int_max_str_digits() or maxsize  # the closed front's copy, as the reader reads it
        self.general = False
        """An assistant turn written by the writer's general function (:meth:`assistant`)."""

    def flush(self) -> None:
        """The media moved out of the results before, as the user message after their group."""
        if self.moved:
            self.wire.append({"role": "user", "content": self.moved})
            self.moved = []

    def assistant(self, content: list[dict[str, Any]]) -> bool:
        """An assistant turn of blocks, read and written; whether it holds a call."""
        self.flush()
        if self.reasoning_field is None:
            calls = self.plain_turn(content)
            if calls is not None:
                return calls
        parts = decode_parts(content, ASSISTANT_KINDS, digits=self.digits)
        message = {"role": "assistant", "content": parts}
        self.canonical.append(message)
        at = ("messages", len(self.canonical) - 1)
        encode_assistant_message(message, self.wire, self.reasoning_field, self.context.losses, at)
        self.general = True
        return any(part["type"] == "tool_use" for part in parts)

    def plain_turn(self, content: list[dict[str, Any]]) -> bool | None:
        """A plain agent turn (Claude's thinking, then text (an SDK dump's with ``null`` citations
        too), then common calls under names OpenAI takes, a call with the API's ``caller`` too:
        :meth:`called`) written as the
        writer's ``_write_plain_turn`` writes its canonical parts, with its losses (each thinking
        block dropped: no ``reasoning_field``; a caller reported, by the writer's
        ``report_plain_turn``), and whether it holds a call; None, with nothing written, for any
        other turn. The turn stands for its canonical message in :attr:`canonical` (a block a
        part: all a loss's place is found from)."""
        texts: list[dict[str, Any]] = []
        calls: list[dict[str, Any]] = []
        dropped: list[int] = []
        called: list[tuple[int, Found]] | None = None  # the calls with a caller: the writer's report of each
        digits = self.digits
        for position, block in enumerate(content):
            kind = block["type"]
            if kind == "thinking":
                dropped.append(position)
            elif kind == "text" and not calls and len(block) == PLAIN_TEXT:
                texts.append(block)
            elif kind == "text" and not calls and "citations" in block:  # (an SDK dump's null citations)
                if not self.cited(block):
                    return None
                texts.append(block)
            elif kind == "tool_use" and ((name := block["name"]) in TAKEN or TAKES(name)):
                if "caller" in block:  # (the proof copied it: a call of five keys, never the common call)
                    read = self.called(block)
                    if read is None:
                        return None
                    calls.append(plain_call_wire(read[0], name))
                    called = [(position, read[1])] if called is None else [*called, (position, read[1])]
                    continue
                call = plain_call(block, digits)
                if call is None:
                    return None
                calls.append(plain_call_wire(call, name))
            else:
                return None
        if not texts and not calls:
            return None  # none of its parts carried: the writer's loss
        canonical = self.canonical
        canonical.append({"role": "assistant", "content": content})
        if dropped or called is not None:
            _report(self.context.losses, len(canonical) - 1, dropped, called or ())
        self.wire.append(plain_turn_wire(texts, calls, None))
        return bool(calls)

    def called(self, block: dict[str, Any]) -> tuple[dict[str, Any], Found] | None:
        """A call with the API's ``caller`` (the proof copied it: :func:`.called_by`) as the reader
        reads it, and what the writer reports of the caller the reader keeps in its bag (below the
        call's place), when the writer writes it as a plain call and reports the bag
        (``foreign_bag_only``, ``report_plain_turn``); None for any other. A caller's shape is read
        by the reader's ``decode_parts`` and reported once (:data:`.CALLERS`), proved on a call the
        reader reads as the common call it is beside its caller (``plain_call``): a later call of
        the shape is read so, its report repeated."""
        shape = tuple(block["caller"])
        found = CALLERS.get(shape)
        common = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": block["input"]}
        plain = plain_call(common, self.digits)  # (the common call beside the caller: its id, name, arguments)
        if found is not None and plain is not None:
            return plain, found
        call = self.read(block)
        if not foreign_bag_only(call):
            return None
        found = self.reported(call)
        if found is None:
            return None
        if plain is not None and plain == {key: value for key, value in call.items() if key != "provider_metadata"}:
            kept(CALLERS, shape, found)
        return call, found

    def reported(self, call: dict[str, Any]) -> Found | None:
        """What the writer's ``report_plain_turn`` reports of ``call``'s bag, below its place (taken
        back: :meth:`plain_turn` repeats it); None when a loss is elsewhere (or renumbered)."""
        losses = self.context.losses
        count = losses.count()
        report_plain_turn({0: call}, [], [0], losses, ("messages", 0))
        found = losses.below(count, _CALL_PLACE)
        losses.take_back(count)
        return found

    def cited(self, block: dict[str, Any]) -> bool:
        """Whether a text with ``citations``, read by the reader's ``decode_parts``, is a text the
        writer's plain turn writes (``plain_text``: an SDK dump's null citations, a spelling); a
        null's reading asked once (:data:`.TEXTS`)."""
        shape = tuple(block) if block["citations"] is None else None
        known = TEXTS.get(shape) if shape is not None else None
        if known is not None:
            return known
        plain = plain_text(self.read(block))
        if shape is not None:
            kept(TEXTS, shape, plain)
        return plain

    def read(self, block: dict[str, Any]) -> dict[str, Any]:
        """``block``'s canonical part, read by the reader's ``decode_parts`` (what it keeps
        beside the wire fields in its bag)."""
        return decode_parts([block], ASSISTANT_KINDS, digits=self.digits)[0]

    def user(self, content: list[dict[str, Any]], called: bool) -> None:
        """A user turn of blocks: its tool message and its user message, read and written."""
        read: list[dict[str, Any]] = []
        decode_user_turn(content, read.append)
        if called and read[0]["role"] != "tool":
            raise UnadmittedError  # moved after the results by history_for: the canonical path's
        if self.canonical and self.canonical[-1]["role"] == "tool":  # a turn after results, not joining them
            if read[0]["role"] == "tool":
                raise UnadmittedError  # results after results: the canonical path's
            read[0]["provider_metadata"] = {PROVIDER: {SEPARATE: True}}  # the reader's marker (decode_messages)
        for message in read:
            self.canonical.append(message)
            index = len(self.canonical) - 1
            if message["role"] == "tool":
                self.wire.extend(encode_tool_message(message, self.moved, self.context, index))
                continue
            self.flush()
            written = encode_plain_message(message, self.context, ("messages", index))
            if written is not None:
                self.wire.append(written)
