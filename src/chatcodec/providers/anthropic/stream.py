"""Anthropic server-sent events <-> canonical stream events.

Decoding only maps: text, thinking and client ``tool_use`` blocks stream as canonical
start/delta/end events (``partial_json`` is passed through as argument text); any other
block (server-tool calls and results, redacted thinking, future types) is gathered until
its ``content_block_stop`` and sent as one :class:`~chatcodec.PartEvent` holding the same
opaque part the non-streamed response has (``input_json_delta`` fragments become its
``input``; an unknown delta type replaces the fields it names, as ``compaction_delta``
does). ``citations_delta`` entries are gathered and given with the block's end. State is
a few dicts and lists of fragments, so the work is linear in the stream (the anthropic
SDK's accumulator re-parses a tool's whole JSON on every fragment).

Usage in ``message_delta`` repeats totals (input and cache counts included, sometimes
differing from ``message_start``): later values replace earlier ones, never add.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pydantic_core

from chatcodec.errors import StreamError, as_chatcodec_error, json_path
from chatcodec.losses import LossRecorder
from chatcodec.providers.anthropic.finish_reason import decode_finish_reason
from chatcodec.providers.anthropic.markers import PROVIDER
from chatcodec.providers.anthropic.parts import ASSISTANT_KINDS, arguments_text, decode_part
from chatcodec.providers.anthropic.response import MESSAGE_MAPPED, message_bag
from chatcodec.providers.anthropic.stream_encoder import StreamEncoder
from chatcodec.providers.anthropic.tool_ids import restore_tool_use_id
from chatcodec.providers.anthropic.usage import decode_usage, merge_wire_usage
from chatcodec.providers.anthropic.wire import STREAM_EVENT_ADAPTER
from chatcodec.providers.kit import split_fields
from chatcodec.response import FinishReason, Usage
from chatcodec.stream_events import (
    AnyStreamEvent,
    ErrorEvent,
    FinishEvent,
    PartEvent,
    ResponseStartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ThinkingDeltaEvent,
    ThinkingEndEvent,
    ThinkingSignatureDeltaEvent,
    ThinkingStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
    UsageEvent,
)
from chatcodec.validation import validate_model

DELTA_FIELDS = frozenset({"stop_reason", "stop_sequence", "stop_details", "container"})
"""``Message`` fields a ``message_delta`` may update."""

_STREAMED = {"text": "text_delta", "thinking": "thinking_delta", "tool_use": "input_json_delta"}
_KNOWN_DELTAS = frozenset({"text_delta", "thinking_delta", "signature_delta", "input_json_delta", "citations_delta"})
_MAPPED_BLOCK_FIELDS = {
    "text": frozenset({"type", "text"}),
    "thinking": frozenset({"type", "thinking", "signature"}),
    "tool_use": frozenset({"type", "id", "name", "input"}),
}


@dataclass
class _Block:
    """A content block between its start and stop."""

    kind: str
    start: dict[str, Any]
    fragments: list[str] = field(default_factory=list[str])
    citations: list[Any] | None = None


class StreamDecoder:
    """Push-style decoding: :meth:`feed` each wire event as it arrives, then :meth:`close`."""

    def __init__(self) -> None:
        self.model: str | None = None
        self.fields: dict[str, Any] = {}
        self.usage: dict[str, Any] = {}
        self.blocks: dict[int, _Block] = {}
        self.position = -1

    def feed(self, event: dict[str, Any]) -> list[AnyStreamEvent]:
        """The canonical events for one wire event (errors name its position in the stream)."""
        self.position += 1
        return list(self._map(event))

    def close(self) -> list[AnyStreamEvent]:
        """Nothing is owed at the end: a block that never stopped (an interrupted stream)
        has streamed what it had, and a gathered block with no stop is incomplete."""
        return []

    def _map(self, event: dict[str, Any]) -> Iterator[AnyStreamEvent]:
        self._validate(event)
        kind = event["type"]
        if kind == "message_start":
            yield from self._message_start(event["message"])
        elif kind == "content_block_start":
            yield from self._block_start(event["index"], event["content_block"])
        elif kind == "content_block_delta":
            yield from self._block_delta(event["index"], event["delta"])
        elif kind == "content_block_stop":
            yield from self._block_stop(event["index"])
        elif kind == "message_delta":
            yield from self._message_delta(event)
        elif kind == "error":
            error = event["error"]
            yield ErrorEvent(message=error.get("message", ""), error_type=error.get("type"), body=event)
        # ping, message_stop and event types added later carry nothing to map

    def _validate(self, event: dict[str, Any]) -> None:
        try:
            STREAM_EVENT_ADAPTER.validate_python(event)
        except pydantic_core.ValidationError as error:
            detail = as_chatcodec_error(error, "Anthropic stream event", event)
            first = detail.errors(include_url=False)[0]
            raise StreamError(first["msg"], json_path(first["loc"]), self.position) from None

    def _error(self, message: str, at: str = "$.index") -> StreamError:
        return StreamError(message, at, self.position)

    def _message_start(self, message: dict[str, Any]) -> Iterator[AnyStreamEvent]:
        self.model = message.get("model") or None
        self.fields = dict(message)
        start_fields = {key: value for key, value in message.items() if key not in DELTA_FIELDS}
        bag = split_fields(start_fields, MESSAGE_MAPPED, {"type": "message", "role": "assistant"})
        metadata = {PROVIDER: bag} if bag else None
        yield ResponseStartEvent(id=message.get("id"), model=message.get("model"), provider_metadata=metadata)
        for index, block in enumerate(message.get("content") or []):
            yield self._part_event(index, block)
        usage = message.get("usage")
        if usage is not None:
            merge_wire_usage(self.usage, usage)
            yield UsageEvent(usage=validate_model(Usage, decode_usage(self.usage)))

    def _block_start(self, index: int, block: dict[str, Any]) -> Iterator[AnyStreamEvent]:
        if index in self.blocks:
            raise self._error(f"content block {index} started again before it stopped")
        kind = block["type"] if block["type"] in _STREAMED else "whole"
        state = self.blocks[index] = _Block(kind, block)
        if kind == "whole":
            return
        mutable = frozenset({"citations"}) if kind == "text" else frozenset[str]()
        bag = split_fields(
            {key: value for key, value in block.items() if key not in mutable}, _MAPPED_BLOCK_FIELDS[kind]
        )
        metadata = {PROVIDER: bag} if bag else None
        if kind == "text":
            state.citations = block.get("citations")
            yield TextStartEvent(index=index, provider_metadata=metadata)
            if block["text"]:
                yield TextDeltaEvent(index=index, delta=block["text"])
        elif kind == "thinking":
            yield ThinkingStartEvent(index=index, provider=PROVIDER, model=self.model, provider_metadata=metadata)
            if block["thinking"]:
                yield ThinkingDeltaEvent(index=index, delta=block["thinking"])
            if isinstance(block.get("signature"), str):
                # Even "": the part then has a signature (empty), as the non-streamed block does.
                yield ThinkingSignatureDeltaEvent(index=index, delta=block["signature"])
        else:
            tool_id = restore_tool_use_id(block["id"])
            yield ToolCallStartEvent(index=index, id=tool_id, name=block["name"], provider_metadata=metadata)

    def _block_delta(self, index: int, delta: dict[str, Any]) -> Iterator[AnyStreamEvent]:
        state = self._open(index, "content_block_delta")
        kind = delta["type"]
        if state.kind == "whole":
            self._whole_delta(state, delta)
        elif kind == "citations_delta" and state.kind == "text":
            state.citations = [*(state.citations or []), delta.get("citation")]
        elif kind == "signature_delta" and state.kind == "thinking":
            yield ThinkingSignatureDeltaEvent(index=index, delta=self._text(delta, "signature"))
        elif kind != _STREAMED[state.kind]:
            raise self._error(f"{kind} for content block {index}, a {state.kind} block", "$.delta.type")
        elif kind == "text_delta":
            yield TextDeltaEvent(index=index, delta=self._text(delta, "text"))
        elif kind == "thinking_delta":
            yield ThinkingDeltaEvent(index=index, delta=self._text(delta, "thinking"))
        else:
            state.fragments.append(self._text(delta, "partial_json"))
            yield ToolCallDeltaEvent(index=index, delta=state.fragments[-1])

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

    def _block_stop(self, index: int) -> Iterator[AnyStreamEvent]:
        state = self._open(index, "content_block_stop")
        del self.blocks[index]
        if state.kind == "whole":
            yield self._part_event(index, self._finished_whole(state))
        elif state.kind == "text":
            final = dict(state.start)
            if state.citations is not None or "citations" in final:
                final["citations"] = state.citations
            bag = split_fields(final, _MAPPED_BLOCK_FIELDS["text"])
            yield TextEndEvent(index=index, provider_metadata={PROVIDER: bag} if "citations" in final else None)
        elif state.kind == "thinking":
            yield ThinkingEndEvent(index=index)
        else:
            if not state.fragments and state.start["input"]:
                yield ToolCallDeltaEvent(index=index, delta=arguments_text(state.start["input"]))
            yield ToolCallEndEvent(index=index)

    def _finished_whole(self, state: _Block) -> dict[str, Any]:
        joined = "".join(state.fragments)
        if not joined:
            return state.start
        try:
            return {**state.start, "input": json.loads(joined)}
        except json.JSONDecodeError as error:
            raise self._error(f"input_json_delta fragments are not JSON: {error}", "$.delta.partial_json") from None

    def _part_event(self, index: int, block: dict[str, Any]) -> PartEvent:
        return validate_model(PartEvent, {"index": index, "part": decode_part(block, ASSISTANT_KINDS, self.model)})

    def _message_delta(self, event: dict[str, Any]) -> Iterator[AnyStreamEvent]:
        delta = event["delta"]
        self.fields.update(delta)
        finish_reason = decode_finish_reason(delta.get("stop_reason"), {})
        if finish_reason is not None:
            bag = message_bag(self.fields)
            yield FinishEvent(
                finish_reason=FinishReason(**finish_reason), provider_metadata={PROVIDER: bag} if bag else None
            )
        usage = event.get("usage")
        if usage is not None:
            merge_wire_usage(self.usage, usage)
            yield UsageEvent(usage=validate_model(Usage, decode_usage(self.usage)))


def decode_stream(events: Iterable[dict[str, Any]]) -> Iterator[AnyStreamEvent]:
    """Map Anthropic stream events (parsed ``data:`` objects) to canonical events, lazily."""
    decoder = StreamDecoder()
    for event in events:
        yield from decoder.feed(event)
    yield from decoder.close()


def encode_stream(events: Iterable[AnyStreamEvent], losses: LossRecorder) -> Iterator[dict[str, Any]]:
    """Map canonical events to Anthropic stream events, so a proxy can serve the
    Anthropic streaming API from any upstream."""
    encoder = StreamEncoder(losses)
    for event in events:
        yield from encoder.feed(event)
    yield from encoder.close()


def to_sse(wire_events: Iterable[dict[str, Any]]) -> Iterator[str]:
    """SSE text as Anthropic sends it: ``event: <type>`` then ``data: <json>``, blank line."""
    for event in wire_events:
        data = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
        yield f"event: {event.get('type', 'message')}\ndata: {data}\n\n"
