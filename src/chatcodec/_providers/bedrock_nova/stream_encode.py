"""Encoding a Nova stream: canonical events -> the JSON events inside
InvokeModelWithResponseStream's chunks (``stream_decode.py``), pushed one at a time.

Text, reasoning text and tool calls stream as block deltas; a whole part (``PartEvent``) of
one of those kinds is written as its deltas, another kind is reported. The finish writes
``messageStop``, and the end the ``metadata`` event with the usage and what the decoder
kept of the finish (``metrics``, the invocation metrics).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, assert_never

from chatcodec._losses import Steps
from chatcodec._model.stream_events import (
    AnyStreamEvent,
    ChoiceMetadataEvent,
    ErrorEvent,
    FinishEvent,
    PartEvent,
    RefusalDeltaEvent,
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
from chatcodec._providers.bedrock_nova.markers import KIT, PROVIDER
from chatcodec._providers.bedrock_nova.stream_decode import INVOCATION_METRICS
from chatcodec._providers.bedrock_nova.usage import encode_usage
from chatcodec._providers.contract.context import EncodeContext
from chatcodec._providers.families.aws.finish_reason import encode_finish_reason
from chatcodec._providers.families.aws.tool_ids import tool_name, tool_use_id
from chatcodec._providers.families.claude.wire_rules import FINISH_MARKER
from chatcodec._providers.kit import restore_fields

_BlockEvent = (
    TextStartEvent
    | TextDeltaEvent
    | TextEndEvent
    | RefusalDeltaEvent
    | ThinkingStartEvent
    | ThinkingDeltaEvent
    | ThinkingSignatureDeltaEvent
    | ThinkingEndEvent
    | ToolCallStartEvent
    | ToolCallDeltaEvent
    | ToolCallEndEvent
)
"""The events of one content block."""


def _delta(index: int, member: str, value: object) -> dict[str, Any]:
    return {"contentBlockDelta": {"delta": {member: value}, "contentBlockIndex": index}}


def _stop(index: int) -> dict[str, Any]:
    return {"contentBlockStop": {"contentBlockIndex": index}}


class StreamEncoder:
    """Feed canonical events with :meth:`feed`, then :meth:`close` for the ``metadata`` event."""

    def __init__(self, context: EncodeContext) -> None:
        self.context = context
        self.position: int = 0
        self.started: bool = False
        self.usage: dict[str, Any] | None = None
        self.tail: dict[str, Any] = {}
        self.metadata: bool = False
        self.tail_metrics: object = None
        self.opened: set[int] = set()
        """The blocks a delta or a start was written for (a stop needs one before it)."""
        self.other_choices: set[int] = set()
        self.finish_word: dict[str, Any] = {}
        """An unknown ``stopReason`` the start's bag recorded (:data:`FINISH_MARKER`)."""

    def feed(self, event: AnyStreamEvent) -> Iterator[dict[str, Any]]:
        """The events ``event`` completes (possibly none yet)."""
        at: Steps = ("events", self.position)
        self.position += 1
        choice = getattr(event, "choice", 0)
        if choice != 0:  # Nova answers once: another choice's events are reported, once each
            if choice not in self.other_choices:
                self.other_choices.add(choice)
                self.context.losses.add(at, f"answer {choice}", "Nova answers hold one message")
            return
        if not self.started and not isinstance(event, ResponseStartEvent | ErrorEvent):
            self.started = True
            yield {"messageStart": {"role": "assistant"}}
        match event:
            case ResponseStartEvent():
                yield from self._start(event, at)
            case PartEvent():
                yield from self._whole(event, at)
            case FinishEvent():
                yield from self._finish(event, at)
            case UsageEvent():
                self.usage = event.usage.model_dump(exclude_none=True)
            case ErrorEvent():
                kind = event.error_type if event.error_type and event.error_type.endswith("Exception") else None
                name = (kind[:1].lower() + kind[1:]) if kind else "internalServerException"
                yield {name: {"message": event.message}}
            case ChoiceMetadataEvent():
                why = "Nova's stream has no place for an answer's data"
                KIT.report_unplaced(self.context.losses, event.choice_metadata, (*at, "choice_metadata"), why)
                KIT.report_unplaced(self.context.losses, event.message_metadata, (*at, "message_metadata"), why)
            case _:
                yield from self._block_event(event, at)

    def _block_event(self, event: _BlockEvent, at: Steps) -> Iterator[dict[str, Any]]:
        match event:
            case TextDeltaEvent():
                self.opened.add(event.index)
                yield _delta(event.index, "text", event.delta)
            case RefusalDeltaEvent():
                if event.index not in self.opened:
                    self.context.losses.add(at, "refusal", "Nova has no refusal block: sent as text")
                self.opened.add(event.index)
                yield _delta(event.index, "text", event.delta)
            case ThinkingDeltaEvent():
                self.opened.add(event.index)
                yield _delta(event.index, "reasoningContent", {"text": event.delta})
            case ToolCallStartEvent():
                self.opened.add(event.index)
                yield self._tool_start(event.index, event.id, event.name, at)
            case ToolCallDeltaEvent():
                yield _delta(event.index, "toolUse", {"input": event.delta})
            case TextEndEvent() | ThinkingEndEvent() | ToolCallEndEvent():
                if isinstance(event, ThinkingEndEvent) and event.encrypted:
                    self.context.losses.add(at, "encrypted thinking", "Nova streams no encrypted reasoning")
                if event.index not in self.opened:  # an empty block: its one delta is empty
                    member, value = (
                        ("text", "") if isinstance(event, TextEndEvent) else ("reasoningContent", {"text": ""})
                    )
                    yield _delta(event.index, member, value)
                self.opened.discard(event.index)
                yield _stop(event.index)
            case ThinkingSignatureDeltaEvent():
                self.context.losses.add(at, "thinking signature", "Nova's reasoning carries no signature")
            case TextStartEvent() | ThinkingStartEvent():
                pass  # a text or reasoning block starts with its first delta
            case _:
                assert_never(event)

    def _tool_start(self, index: int, tool_id: str, name: str, at: Steps) -> dict[str, Any]:
        call = {
            "toolUseId": tool_use_id(tool_id, self.context.losses, at),
            "name": tool_name(name, self.context, at, PROVIDER),
        }
        return {"contentBlockStart": {"start": {"toolUse": call}, "contentBlockIndex": index}}

    def _start(self, event: ResponseStartEvent, at: Steps) -> Iterator[dict[str, Any]]:
        bag = KIT.claim(self.context.losses, event.provider_metadata, at) if event.provider_metadata else {}
        for key in ("id", "model"):
            if getattr(event, key) is not None:
                self.context.losses.add((*at, key), key, "Nova's stream has no such field", "metadata")
        self.started = True
        if FINISH_MARKER in bag:  # a stopReason the response's reader recorded (a response replayed)
            self.finish_word = {FINISH_MARKER: bag[FINISH_MARKER]}
        yield {"messageStart": {"role": "assistant", **restore_fields(bag)}}

    def _whole(self, event: PartEvent, at: Steps) -> Iterator[dict[str, Any]]:
        part = event.part.model_dump(exclude_none=True)
        if part["type"] == "text":
            yield _delta(event.index, "text", part["text"])
        elif part["type"] == "thinking" and part.get("provider") in (None, KIT.name):
            yield _delta(event.index, "reasoningContent", {"text": part["text"]})
        elif part["type"] == "tool_use":
            call = {
                "toolUseId": tool_use_id(part["id"], self.context.losses, at),
                "name": tool_name(part["name"], self.context, at, PROVIDER),
            }
            yield {"contentBlockStart": {"start": {"toolUse": call}, "contentBlockIndex": event.index}}
            yield _delta(event.index, "toolUse", {"input": part["arguments"]})
        else:
            self.context.losses.add(at, f"{part['type']} part", "Nova streams text, reasoning and tool calls only")
            return
        yield _stop(event.index)

    def _finish(self, event: FinishEvent, at: Steps) -> Iterator[dict[str, Any]]:
        bag = KIT.claim(self.context.losses, event.provider_metadata, at) if event.provider_metadata else {}
        why = "Nova's stream has no place for an answer's data"
        KIT.report_unplaced(self.context.losses, event.choice_metadata, (*at, "choice_metadata"), why)
        reason = event.finish_reason.model_dump(exclude_none=True)
        word = encode_finish_reason(reason, {**self.finish_word, **bag}, self.context, (*at, "finish_reason"))
        metadata = bag.pop("_metadata", None)
        self.metadata = metadata is not None
        self.tail = {**(metadata if isinstance(metadata, dict) else {})}
        metrics = bag.pop(INVOCATION_METRICS, None)
        stop = {**restore_fields(bag), "stopReason": word or "end_turn"}
        if metrics is not None and not self.metadata:
            yield {"messageStop": stop, INVOCATION_METRICS: metrics}
        else:
            self.tail_metrics = metrics
            yield {"messageStop": stop}

    def close(self) -> Iterator[dict[str, Any]]:
        """The ``metadata`` event, with the usage (none when neither came)."""
        if self.usage is None and not self.metadata:
            return
        metadata: dict[str, Any] = {}
        if self.usage is not None:
            metadata["usage"] = encode_usage(self.usage, self.context, ("usage",))
        metadata.update(restore_fields(self.tail))
        metrics = self.tail_metrics
        yield {"metadata": metadata, **({INVOCATION_METRICS: metrics} if metrics is not None else {})}
