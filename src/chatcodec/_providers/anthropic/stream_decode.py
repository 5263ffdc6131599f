"""Decoding Anthropic server-sent events: the one path, driving the shared stream builder.

:class:`StreamDecoder` reads each event and tells a
:class:`~chatcodec.streams._builder.StreamBuilder` what it means; the builder emits canonical
events (``decode_stream``) or builds the response (``accumulate_stream``). Text, thinking
and client ``tool_use`` blocks stream as parts that open, grow and close
(``partial_json`` is passed through as argument text); any other block (server-tool calls
and results, redacted thinking, future types) is gathered until its
``content_block_stop`` and given whole, as the same opaque part the non-streamed response
has (``input_json_delta`` fragments become its ``input``; an unknown delta type replaces
the fields it names, as ``compaction_delta`` does). ``citations_delta`` entries are
gathered and given with the block's end. State is a few dicts and lists of fragments, so
the work is linear in the stream (the anthropic SDK's accumulator re-parses a tool's
whole JSON on every fragment).

Usage in ``message_delta`` repeats totals (input and cache counts included, sometimes
differing from ``message_start``): later values replace earlier ones, never add.

Validation is strict and per event. Nearly every event of a stream is a
``content_block_delta`` whose delta holds only its type and its text, for a block that is
streaming that kind of delta: :meth:`StreamDecoder._read_batch` checks that shape by hand, each
value of exactly the type the wire adapter requires, and appends the text, which is all
the general reading below would do with it (a ``tool_use`` block whose start ``input`` is
empty streams so from its first fragment; ``message_stop`` and ``ping`` are passed over
there too). Any other event is checked by the closed schema of the common events
(:mod:`~chatcodec._providers.anthropic.stream_shapes`), and when it refuses, by the wire
adapter, whose errors name the event (``$[n]``) and the path.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

import pydantic_core

from chatcodec import StreamError
from chatcodec._providers.anthropic import wire
from chatcodec._providers.anthropic.finish_reason import decode_finish_reason
from chatcodec._providers.anthropic.markers import PROVIDER
from chatcodec._providers.anthropic.parts import ASSISTANT_KINDS, TEXT_KINDS, arguments_text, decode_part
from chatcodec._providers.anthropic.response import MESSAGE_MAPPED, message_bag
from chatcodec._providers.anthropic.stream_shapes import COMMON_EVENT
from chatcodec._providers.anthropic.tool_ids import restore_tool_use_id, split_signed_id
from chatcodec._providers.anthropic.usage import decode_usage, merge_wire_usage
from chatcodec._providers.families.google.thought_signatures import GEMINI, GEMINI_KEY
from chatcodec.codec_kit import (
    FeedByReading,
    as_chatcodec_error,
    json_path,
    read_event,
    read_in_batches,
    read_json_text,
    read_one_event,
    split_fields,
    with_unknown_nulls,
)
from chatcodec.contract import AnyStreamRecord, DecodeContext, ErrorRecord, PartBuilder, StreamBuilder

if TYPE_CHECKING:
    from chatcodec import PartEvent

DELTA_FIELDS = frozenset({"stop_reason", "stop_sequence", "stop_details", "container"})
"""``Message`` fields a ``message_delta`` may update."""

_EVENT_SHAPES: dict[str, Any] = {
    "message_start": wire.MessageStart,
    "content_block_start": wire.BlockStart,
    "content_block_delta": wire.BlockDelta,
    "content_block_stop": wire.BlockStop,
    "message_delta": wire.MessageDelta,
    "error": wire.ErrorBody,
}
_EVENT_ADAPTERS: dict[str, Any] = {}
"""Each shape's adapter, made when an event the closed schema refuses first needs it (a
stream of common events imports no pydantic)."""


def _event_adapter(kind: str) -> Any:
    adapter = _EVENT_ADAPTERS.get(kind)
    if adapter is None and kind in _EVENT_SHAPES:
        adapter = _EVENT_ADAPTERS[kind] = wire.adapter(_EVENT_SHAPES[kind])
    return adapter


"""Each member of ``wire.StreamEvent`` by its tag: an event of a known type validates as
the union would validate it, minus the call that picks the member."""
_STREAMED = {"text": "text_delta", "thinking": "thinking_delta", "tool_use": "input_json_delta"}
_TEXT_KEYS = {"text_delta": "text", "thinking_delta": "thinking", "input_json_delta": "partial_json"}
_KNOWN_DELTAS = frozenset({"text_delta", "thinking_delta", "signature_delta", "input_json_delta", "citations_delta"})
_NOTHING_TO_MAP = ("message_stop", "ping")
"""Events whose type is all the wire adapter checks and that carry nothing to read (a
tuple: a type of any value, a list too, can be looked for in it); ``message_stop`` still
says the stream is whole."""
STREAM_END = "its message_stop event"
"""What ends every Messages stream ("a final ``message_stop`` event",
platform.claude.com/docs/en/build-with-claude/streaming#event-types): without it the
stream was cut, even after a ``message_delta`` with its ``stop_reason``."""
_MAPPED_BLOCK_FIELDS = {
    "text": frozenset({"type", "text"}),
    "thinking": frozenset({"type", "thinking", "signature"}),
    "tool_use": frozenset({"type", "id", "name", "input"}),
}
_TEXT_KEPT_WHOLE = frozenset({"citations"})
"""The field of a text block's start that its deltas fill (``citations``), left out of its bag."""
_NOTHING_KEPT_WHOLE: frozenset[str] = frozenset()
"""(``frozenset[str]()`` per block calls a generic alias, which raises and clears an error inside.)"""


class _Block:
    """A content block between its start and stop."""

    __slots__ = ("citations", "delta_type", "fragments", "kind", "part", "start", "streamed", "text_key")

    def __init__(self, kind: str, start: dict[str, Any]) -> None:
        self.kind = kind
        self.start = start
        self.part: PartBuilder | None = None  # None for a block given whole at its stop
        self.delta_type = _STREAMED.get(kind)  # the delta that only appends text, if any
        self.text_key = _TEXT_KEYS.get(self.delta_type or "", "")
        self.fragments: list[str] = []  # a whole block's input_json_delta fragments
        self.streamed = False  # whether a tool call's input arrived as fragments
        self.citations: list[Any] | None = None


class StreamDecoder(FeedByReading):
    """Push-style decoding: :meth:`feed` each wire event as it arrives, then :meth:`close`.

    ``builder`` receives what the events mean; by default one that emits canonical events,
    which :meth:`feed` returns.
    """

    def __init__(self, builder: StreamBuilder | None = None, context: DecodeContext | None = None) -> None:
        self.builder: StreamBuilder = builder if builder is not None else StreamBuilder(emit=True)
        self.context: DecodeContext = context if context is not None else DecodeContext(PROVIDER)
        """The decode's shared state (:class:`~chatcodec._providers.contract.context.DecodeContext`)."""
        self.model: str | None = None
        self.fields: dict[str, Any] = {}
        self.usage: dict[str, Any] = {}
        self.blocks: dict[int, _Block] = {}
        self.streaming: dict[int, tuple[str, str, Callable[[str], None]]] = {}
        """Blocks whose deltas only append: index -> (delta type, text key, the part's ``append``)."""
        self.position: int = -1

    def close(self) -> list[AnyStreamRecord]:
        """What a cut-off stream left open: a streamed block has streamed what it had; a
        gathered block (server-tool call or result, redacted thinking, a newer type) is
        given whole as far as it came, with ``input`` from its fragments when they parse,
        so the response keeps it as the blocks before it are kept."""
        for index in sorted(self.blocks):
            state = self.blocks[index]
            if state.part is None:
                try:
                    block = self._finished_whole(state)
                except StreamError:
                    block = state.start  # fragments cut mid-JSON: the block as it started
                self.builder.whole(self._part_event(index, block))
        self.blocks = {}
        self.streaming = {}
        self.builder.stream_closed(STREAM_END)
        return self.builder.take_events()

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        """Read wire events into the builder (the whole stream, for ``accumulate_stream``),
        a batch at a time up to the next compaction, so no event pays for the count."""
        read_in_batches(events, lambda: self.position, self._read_batch, self.builder)

    def feed(self, event: dict[str, Any]) -> list[AnyStreamRecord]:
        """The canonical events for one wire event (:meth:`read` of it, without the batching)."""
        read_one_event(event, self.position + 1, self._read_batch, self.builder)
        return self.builder.take_events()

    def _read_batch(self, events: Iterable[dict[str, Any]], first: int) -> int:
        """Read ``events``, the first at position ``first``; how many there were.

        A delta that only appends text (see the module docstring) is read here, flat, as it
        is nearly every event: ``self.streaming`` holds, for each block whose deltas only
        append, the delta type it takes, where that type keeps its text and the part's
        ``append``, so such a delta costs a few dict reads. Any other event, or one that
        fails a check, is read by :meth:`_read`.
        """
        streaming, position = self.streaming, first - 1  # locals: this loop runs per delta
        for position, event in enumerate(events, first):
            try:
                if event["type"] == "content_block_delta" and event.__class__ is dict:
                    index, delta = event["index"], event["delta"]
                    entry = streaming.get(index)
                    if (
                        entry is not None
                        and index.__class__ is int
                        and delta.__class__ is dict  # type(delta), leaving it Any for the checkers
                        and len(delta) == 2
                        and delta["type"] == entry[0]
                    ):
                        text = delta[entry[1]]
                        if text.__class__ is str:
                            entry[2](text)
                            continue
                elif event["type"] in _NOTHING_TO_MAP and event.__class__ is dict:
                    if event["type"] == "message_stop":
                        self.builder.end()
                    continue  # all the wire adapter checks of it, and nothing to read
            except (KeyError, TypeError):
                pass
            self.position = position
            read_event(self._read, event, position)
        self.position = position
        return position - first + 1

    # --- any event -----------------------------------------------------------------------

    def _read(self, event: dict[str, Any]) -> None:
        if not _checked_by_hand(event):
            self._validate(event)
        kind = event["type"]
        if kind == "message_start":
            self._message_start(event["message"])
        elif kind == "content_block_start":
            self._block_start(event["index"], event["content_block"])
        elif kind == "content_block_delta":
            self._block_delta(event["index"], event["delta"])
        elif kind == "content_block_stop":
            self._block_stop(event["index"])
        elif kind == "message_delta":
            self._message_delta(event)
        elif kind == "message_stop":
            self.builder.end()
        elif kind == "error":
            error = event["error"]
            self.builder.error(ErrorRecord(message=error.get("message", ""), error_type=error.get("type"), body=event))
        # ping and event types added later carry nothing to map

    def _validate(self, event: Any) -> None:
        if COMMON_EVENT.validate(event) is not None:  # a common shape: what the adapters accept
            return
        kind = cast("dict[str, Any]", event).get("type") if event.__class__ is dict else None
        adapter = _event_adapter(kind) if isinstance(kind, str) else None
        if adapter is not None:  # the union's member for this type, without its discriminator call
            try:
                adapter.validator.validate_python(event)
                return
            except pydantic_core.ValidationError:
                pass  # validated again by the union, for its error
        try:
            wire.adapter(wire.StreamEvent).validate_python(event)
        except pydantic_core.ValidationError as error:
            detail = as_chatcodec_error(error, "Anthropic stream event", event)
            first = detail.errors(include_url=False)[0]
            raise StreamError(first["msg"], json_path(first["loc"]), self.position) from None

    def _error(self, message: str, at: str = "$.index") -> StreamError:
        return StreamError(message, at, self.position)

    def _message_start(self, message: dict[str, Any]) -> None:
        self.model = message.get("model") or None
        self.fields = dict(message)
        start_fields = {key: value for key, value in message.items() if key not in DELTA_FIELDS}
        bag = split_fields(start_fields, MESSAGE_MAPPED, {"type": "message", "role": "assistant"})
        self.builder.start(id=message.get("id"), model=message.get("model"), metadata={PROVIDER: bag} if bag else None)
        for index, block in enumerate(message.get("content") or []):
            self.builder.whole(self._part_event(index, block))
        usage = message.get("usage")
        if usage is not None:
            merge_wire_usage(self.usage, usage)
            self.builder.usage(decode_usage(self.usage))  # validated as Usage unless plain counts

    def _block_start(self, index: int, block: dict[str, Any]) -> None:
        if index in self.blocks:
            raise self._error(f"content block {index} started again before it stopped")
        kind = block["type"] if block["type"] in _STREAMED else "whole"
        state = self.blocks[index] = _Block(kind, block)
        if kind == "whole":
            return
        plain = block.keys() <= _MAPPED_BLOCK_FIELDS[kind] and None not in block.values()
        metadata = None if plain else self._block_metadata(kind, block)
        if kind == "text":
            state.citations = block.get("citations")
            state.part = self.builder.open_text(0, index, metadata)
            if block["text"]:
                state.part.append(block["text"])
        elif kind == "thinking":
            state.part = self.builder.open_thinking(0, index, provider=PROVIDER, model=self.model, metadata=metadata)
            if block["thinking"]:
                state.part.append(block["thinking"])
            if isinstance(block.get("signature"), str):
                # Even "": the part then has a signature (empty), as the non-streamed block does.
                self.builder.signature(state.part, block["signature"])
        else:
            wire_id, signature = split_signed_id(block["id"])  # a Gemini signature it carries (tool_ids.py)
            if signature is not None:
                metadata = {**(metadata or {}), GEMINI: {GEMINI_KEY: signature}}
            tool_id = restore_tool_use_id(wire_id)
            state.part = self.builder.open_tool_call(0, index, id=tool_id, name=block["name"], metadata=metadata)
            if block["input"]:  # streams by the fast path from its first input_json_delta on (see _block_delta)
                return
            # An empty start ``input`` (as always when the input streams) is never written
            # at the stop, so whether fragments came does not matter: stream from the start.
        self.streaming[index] = (_STREAMED[kind], state.text_key, state.part.append)

    def _block_metadata(self, kind: str, block: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
        """The bag of a streamed block's start with fields beyond those mapped or a
        ``null`` (a block with only its mapped fields, none null, nearly every one, has none)."""
        mutable = _TEXT_KEPT_WHOLE if kind == "text" else _NOTHING_KEPT_WHOLE
        bag = split_fields(
            {key: value for key, value in block.items() if key not in mutable}, _MAPPED_BLOCK_FIELDS[kind]
        )
        if kind == "text" and None in block.values():  # an unknown null is data, as in a response
            with_unknown_nulls(bag, __package__, TEXT_KINDS)
        return {PROVIDER: bag} if bag else None

    def _block_delta(self, index: int, delta: dict[str, Any]) -> None:
        state = self._open(index, "content_block_delta")
        kind = delta["type"]
        if state.part is None:
            self._whole_delta(state, delta)
        elif kind == "citations_delta" and state.kind == "text":
            state.citations = [*(state.citations or []), delta.get("citation")]
        elif kind == "signature_delta" and state.kind == "thinking":
            self.builder.signature(state.part, self._text(delta, "signature"))
        elif kind != state.delta_type:
            raise self._error(f"{kind} for content block {index}, a {state.kind} block", "$.delta.type")
        else:
            state.streamed = True
            state.part.append(self._text(delta, _TEXT_KEYS[kind]))
            self.streaming[index] = (kind, state.text_key, state.part.append)

    def _text(self, delta: dict[str, Any], key: str) -> str:
        value = delta.get(key)
        if not isinstance(value, str):
            raise self._error(f"{delta['type']} without a {key} string", f"$.delta.{key}")
        return value

    def _whole_delta(self, state: _Block, delta: dict[str, Any]) -> None:
        kind = delta["type"]
        if kind == "input_json_delta":
            state.fragments.append(self._text(delta, "partial_json"))
        elif kind in _KNOWN_DELTAS:
            raise self._error(f"{kind} for a {state.start['type']} block", "$.delta.type")
        else:  # a newer delta kind (compaction_delta): its fields replace the block's
            state.start = {**state.start, **{key: value for key, value in delta.items() if key != "type"}}

    def _open(self, index: int, event: str) -> _Block:
        state = self.blocks.get(index)
        if state is None:
            raise self._error(f"{event} for content block {index}, which was never started")
        return state

    def _block_stop(self, index: int) -> None:
        state = self._open(index, "content_block_stop")
        del self.blocks[index]
        self.streaming.pop(index, None)
        part = state.part
        if part is None:
            self.builder.whole(self._part_event(index, self._finished_whole(state)))
        elif state.kind == "text":
            if state.citations is None and "citations" not in state.start:  # nearly every text block
                self.builder.close(part)
                return
            final = {**state.start, "citations": state.citations}
            bag = with_unknown_nulls(split_fields(final, _MAPPED_BLOCK_FIELDS["text"]), __package__, TEXT_KINDS)
            self.builder.close(part, metadata={PROVIDER: bag})
        elif state.kind == "thinking":
            self.builder.close(part)
        else:
            if not state.streamed and state.start["input"]:
                part.append(arguments_text(state.start["input"]))
            self.builder.close(part)

    def _finished_whole(self, state: _Block) -> dict[str, Any]:
        joined = "".join(state.fragments)
        if not joined:
            return state.start
        try:
            return {**state.start, "input": read_json_text(joined)}
        except json.JSONDecodeError as error:
            raise self._error(f"input_json_delta fragments are not JSON: {error}", "$.delta.partial_json") from None

    def _part_event(self, index: int, block: dict[str, Any]) -> PartEvent:
        """A part that arrives whole, checked by its model where it arrives (as rare as
        such parts are, the one place this decoder loads the event models)."""
        from chatcodec import PartEvent
        from chatcodec.codec_kit import validate_canonical

        return validate_canonical(PartEvent, {"index": index, "part": decode_part(block, ASSISTANT_KINDS, self.model)})

    def _message_delta(self, event: dict[str, Any]) -> None:
        """The message's late fields, with its finish; a ``stop_reason`` of ``null`` (the
        message goes on, or the stream was cut) still updates the other fields
        (``stop_sequence``, ``stop_details``, ``container``), which then ride on the usage
        event as response-level data, so the response keeps them as the non-streamed
        message would."""
        delta = event["delta"]
        self.fields.update(delta)
        bag = message_bag(self.fields)
        finish_reason = decode_finish_reason(delta.get("stop_reason"), bag)
        if finish_reason is not None:
            self.builder.finish(0, finish_reason, {PROVIDER: bag} if bag else None)  # one of the table's words
        usage = event.get("usage")
        if usage is not None:
            merge_wire_usage(self.usage, usage)
            late = {PROVIDER: bag} if finish_reason is None and bag else None
            self.builder.usage(decode_usage(self.usage), late)


def _checked_by_hand(event: object) -> bool:
    """Whether ``event`` is a ``content_block_stop``, ``message_stop`` or ``ping`` whose
    every typed value is of its type: all the wire adapter would check of it."""
    if not isinstance(event, dict):
        return False
    fields = cast("dict[str, Any]", event)
    kind = fields.get("type")
    if kind == "content_block_stop":
        return type(fields.get("index")) is int
    return kind in _NOTHING_TO_MAP
