"""``accumulate_stream`` for Anthropic event streams, without an event model per delta.

The general path (``stream.decode_stream``, then :class:`~chatcodec.StreamAccumulator`)
validates every event with a pydantic adapter and builds a validated event model for
every delta, tens of times the cost of appending the delta strings to a list. Here the
common events are read straight from the parsed dicts, with the type of every value read
checked inline as the adapter's strict rules would, and delta text goes to plain lists.
Only what shapes the response (its start, a block's start and stop, the message delta)
becomes a canonical event, built as ``stream.py`` builds it and fed to a real
accumulator, which also builds and validates the final response; a block's buffered
deltas reach it as one delta before the block's end.

Handled: ``message_start`` with no content, ``text``, ``thinking`` (with
``signature_delta``) and client ``tool_use`` blocks, ``message_delta``, ``message_stop``
and ``ping``. Anything else falls back: an ``error`` event, server-tool and other blocks
kept whole, citations, a ``tool_use`` block with its input already in the start, unknown
event or delta types, a value of another type, or anything the general path would
reject. Every event seen so far and the rest of the stream are then replayed through the
general path, so the result, or the error with its message and path, is exactly the
general path's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pydantic_core
from typing_extensions import TypeIs

from chatcodec.accumulator import StreamAccumulator
from chatcodec.errors import StreamError
from chatcodec.providers._fast_accumulation import UnhandledError, accumulate_or_replay
from chatcodec.providers.anthropic.finish_reason import decode_finish_reason
from chatcodec.providers.anthropic.markers import PROVIDER
from chatcodec.providers.anthropic.response import MESSAGE_MAPPED, message_bag
from chatcodec.providers.anthropic.stream import DELTA_FIELDS, decode_stream
from chatcodec.providers.anthropic.tool_ids import restore_tool_use_id
from chatcodec.providers.anthropic.usage import decode_usage, merge_wire_usage
from chatcodec.providers.kit import split_fields
from chatcodec.response import ChatResponse, FinishReason, Usage
from chatcodec.stream_events import (
    AnyStreamEvent,
    FinishEvent,
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

_Json = dict[str, Any] | list[Any] | str | int | float | bool | None
"""A value read from a parsed event, before its type is checked."""

_START_DEFAULTS = {"type": "message", "role": "assistant"}
_MESSAGE_TEXT = ("id", "model", "stop_reason", "stop_sequence")
"""``Message`` fields the wire adapter types as text or ``null``."""
_MESSAGE_WORDS = ("type", "role")
"""``Message`` fields the wire adapter types as text (``null`` is refused)."""
_USAGE_COUNTS = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


@dataclass(frozen=True, slots=True)
class _Kind:
    """How one streamed block kind is read and handed to the accumulator."""

    delta_type: str
    text_key: str
    mapped: frozenset[str]
    delta_event: type[TextDeltaEvent] | type[ThinkingDeltaEvent] | type[ToolCallDeltaEvent]
    end_event: type[TextEndEvent] | type[ThinkingEndEvent] | type[ToolCallEndEvent]


_KINDS = {
    "text": _Kind("text_delta", "text", frozenset({"type", "text"}), TextDeltaEvent, TextEndEvent),
    "thinking": _Kind(
        "thinking_delta", "thinking", frozenset({"type", "thinking", "signature"}), ThinkingDeltaEvent, ThinkingEndEvent
    ),
    "tool_use": _Kind(
        "input_json_delta",
        "partial_json",
        frozenset({"type", "id", "name", "input"}),
        ToolCallDeltaEvent,
        ToolCallEndEvent,
    ),
}


def accumulate_stream(payloads: Iterable[dict[str, Any]]) -> ChatResponse:
    """The response the events accumulate to: what ``decode_stream`` followed by
    :class:`~chatcodec.StreamAccumulator` gives (or raises), in a fraction of the time."""
    return accumulate_or_replay(payloads, _Walker(), decode_stream)


@dataclass(slots=True)
class _Block:
    """A streamed block between its start and stop: how to read it (the delta type and text
    key copied out of ``kind``, one lookup less per delta), its buffered text."""

    kind: _Kind
    delta_type: str
    text_key: str
    fragments: list[str] = field(default_factory=list[str])


class _Walker:
    """Reads events into an accumulator: :meth:`continues` takes a text delta, :meth:`feed`
    any other event."""

    def __init__(self) -> None:
        self.accumulator = StreamAccumulator()
        self.model: str | None = None
        self.fields: dict[str, Any] = {}
        self.usage: dict[str, Any] = {}
        self.blocks: dict[int, _Block] = {}

    def feed(self, event: dict[str, Any]) -> bool:
        """Take any event, strictly; False when the stream needs the general path."""
        try:
            self._event(event)
        except (UnhandledError, StreamError, pydantic_core.ValidationError):
            return False
        return True

    def response(self) -> ChatResponse:
        """Hand over the text of blocks never stopped, then build and validate the response."""
        for index, block in self.blocks.items():
            self._flush(index, block)
        return self.accumulator.response()

    def continues(self, event: dict[str, Any]) -> bool:
        """Append the text of a delta for an open block; False, changing nothing, for any
        other event. Never raises: this runs for nearly every event.

        The general path reads nothing but ``index`` and ``delta`` from the event, and the
        delta must hold exactly its type and its text (any other field the wire adapter
        types, such as ``signature`` on a text delta, is left to :meth:`feed`).
        """
        if type(event) is not dict or event.get("type") != "content_block_delta":
            return False
        index: _Json = event.get("index")
        delta: _Json = event.get("delta")
        block = self.blocks.get(index) if type(index) is int else None
        if block is None or type(delta) is not dict or len(delta) != 2 or delta.get("type") != block.delta_type:
            return False
        text: _Json = delta.get(block.text_key)
        if type(text) is not str:
            return False
        block.fragments.append(text)
        return True

    # --- every other event, read strictly --------------------------------------------------

    def _event(self, event: _Json) -> None:
        if type(event) is not dict:
            raise UnhandledError
        kind: _Json = event.get("type")
        keys = event.keys()
        if kind == "message_start" and keys == {"type", "message"}:
            self._message_start(event["message"])
        elif kind == "content_block_start" and keys == {"type", "index", "content_block"}:
            self._block_start(event["index"], event["content_block"])
        elif kind == "content_block_delta" and keys == {"type", "index", "delta"}:
            self._signature(event["index"], event["delta"])
        elif kind == "content_block_stop" and keys == {"type", "index"}:
            self._block_stop(event["index"])
        elif kind == "message_delta" and keys <= {"type", "delta", "usage"}:
            self._message_delta(event.get("delta"), event.get("usage"))
        elif kind not in ("ping", "message_stop"):  # which carry nothing the general path reads
            raise UnhandledError

    def _message_start(self, message: _Json) -> None:
        """What ``StreamDecoder._message_start`` does, for a message with no content yet."""
        if (
            type(message) is not dict
            or message.get("content") != []
            or not all(_text_or_none(message.get(key)) for key in _MESSAGE_TEXT)
            or not all(type(message[key]) is str for key in _MESSAGE_WORDS if key in message)
        ):
            raise UnhandledError
        usage: _Json = message.get("usage")
        if not _valid_usage(usage):
            raise UnhandledError
        self.model = message.get("model") or None
        self.fields = dict(message)
        start_fields = {key: value for key, value in message.items() if key not in DELTA_FIELDS}
        bag = split_fields(start_fields, MESSAGE_MAPPED, _START_DEFAULTS)
        metadata = {PROVIDER: bag} if bag else None
        self._add(ResponseStartEvent(id=message.get("id"), model=message.get("model"), provider_metadata=metadata))
        if usage is not None:
            self._add_usage(usage)

    def _block_start(self, index: _Json, block: _Json) -> None:
        """What ``StreamDecoder._block_start`` does for a text, thinking or tool_use block."""
        if type(index) is not int or index in self.blocks or type(block) is not dict:
            raise UnhandledError
        kind_name: _Json = block.get("type")
        kind = _KINDS.get(kind_name) if type(kind_name) is str else None
        if kind is None or "cache_control" in block or "citations" in block:
            raise UnhandledError
        first = _first_text(block)
        bag = split_fields(block, kind.mapped)
        metadata = {PROVIDER: bag} if bag else None
        if kind.delta_type == "text_delta":
            self._add(TextStartEvent(index=index, provider_metadata=metadata))
        elif kind.delta_type == "thinking_delta":
            self._add(ThinkingStartEvent(index=index, provider=PROVIDER, model=self.model, provider_metadata=metadata))
        else:
            tool_id = restore_tool_use_id(block["id"])
            self._add(ToolCallStartEvent(index=index, id=tool_id, name=block["name"], provider_metadata=metadata))
        self.blocks[index] = _Block(kind, kind.delta_type, kind.text_key, [first] if first else [])
        signature: _Json = block.get("signature")
        if type(signature) is str:  # even "": the part then has a signature, as non-streamed
            self._add(ThinkingSignatureDeltaEvent(index=index, delta=signature))

    def _signature(self, index: _Json, delta: _Json) -> None:
        """A ``signature_delta`` for an open thinking block (other deltas are continuations)."""
        if type(index) is not int or type(delta) is not dict or index not in self.blocks:
            raise UnhandledError
        if self.blocks[index].delta_type != "thinking_delta":
            raise UnhandledError
        signature: _Json = delta.get("signature")
        if delta.keys() != {"type", "signature"} or delta["type"] != "signature_delta" or type(signature) is not str:
            raise UnhandledError
        self._add(ThinkingSignatureDeltaEvent(index=index, delta=signature))

    def _block_stop(self, index: _Json) -> None:
        if type(index) is not int or (block := self.blocks.pop(index, None)) is None:
            raise UnhandledError  # the general path's "never started"
        self._flush(index, block)
        self._add(block.kind.end_event(index=index))

    def _message_delta(self, delta: _Json, usage: _Json) -> None:
        """What ``StreamDecoder._message_delta`` does: fields update the message, usage replaces."""
        if (
            type(delta) is not dict
            or not _text_or_none(delta.get("stop_reason"))
            or not _text_or_none(delta.get("stop_sequence"))
            or not _valid_usage(usage)
        ):
            raise UnhandledError
        self.fields.update(delta)
        finish_reason = decode_finish_reason(delta.get("stop_reason"), {})
        if finish_reason is not None:
            bag = message_bag(self.fields)
            self._add(
                FinishEvent(
                    finish_reason=FinishReason(**finish_reason), provider_metadata={PROVIDER: bag} if bag else None
                )
            )
        if usage is not None:
            self._add_usage(usage)

    def _add_usage(self, usage: dict[str, Any]) -> None:
        merge_wire_usage(self.usage, usage)
        self._add(UsageEvent(usage=validate_model(Usage, decode_usage(self.usage))))

    def _flush(self, index: int, block: _Block) -> None:
        """Hand the block's buffered text to the accumulator as one delta."""
        if block.fragments:
            self._add(block.kind.delta_event(index=index, delta="".join(block.fragments)))
            block.fragments.clear()

    def _add(self, event: AnyStreamEvent) -> None:
        self.accumulator.add(event)


def _first_text(block: dict[str, Any]) -> str:
    """The text a streamed block starts with, its fields checked as the wire adapter checks them."""
    kind: str = block["type"]
    if kind == "tool_use":
        wire_input: _Json = block.get("input")
        if type(block.get("id")) is not str or type(block.get("name")) is not str or type(wire_input) is not dict:
            raise UnhandledError
        if wire_input:
            raise UnhandledError  # input given whole in the start is left to the general path
        return ""
    text: _Json = block.get(kind)
    if type(text) is not str or not _text_or_absent(block, "signature"):
        raise UnhandledError
    return text


def _valid_usage(usage: _Json) -> TypeIs[dict[str, Any] | None]:
    """Whether ``usage`` passes the wire adapter's ``Usage`` rules (or is absent)."""
    if usage is None:
        return True
    if type(usage) is not dict:
        return False
    details: _Json = usage.get("output_tokens_details")
    return (details is None or type(details) is dict) and all(
        usage.get(key) is None or type(usage[key]) is int for key in _USAGE_COUNTS
    )


def _text_or_absent(block: dict[str, Any], key: str) -> bool:
    return key not in block or type(block[key]) is str


def _text_or_none(value: _Json) -> bool:
    return value is None or type(value) is str
