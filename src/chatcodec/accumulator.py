"""Turning stream events into a :class:`ChatResponse`, in time linear in the stream.

Deltas are appended to lists and joined once at the end: never ``text += delta`` on a
model attribute, which copies the whole text on every event (the quadratic cost of the
anthropic SDK's accumulator). The finished response is validated once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, assert_never

from chatcodec.errors import ProviderAPIError, StreamError
from chatcodec.response import ChatResponse, FinishReason, Usage
from chatcodec.stream_events import (
    AnyStreamEvent,
    ErrorEvent,
    FinishEvent,
    PartEvent,
    PartLifecycleEvent,
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
from chatcodec.validation import validate_canonical


@dataclass
class _PartBuilder:
    """One part under construction: fixed fields plus growing text fragments."""

    kind: str
    fields: dict[str, Any]
    fragments: list[str] = field(default_factory=list[str])
    signature: list[str] | None = None
    closed: bool = False
    whole: dict[str, Any] | None = None

    def build(self) -> dict[str, Any]:
        if self.whole is not None:
            return self.whole
        built = {"type": self.kind, **self.fields}
        joined = "".join(self.fragments)
        if self.kind == "tool_use":
            built["arguments"] = joined
        else:
            built["text"] = joined
        if self.signature is not None:
            built["signature"] = "".join(self.signature)
        return built


_KIND_BY_EVENT = {
    "text_delta": "text",
    "thinking_delta": "thinking",
    "tool_call_delta": "tool_use",
    "text_end": "text",
    "thinking_end": "thinking",
    "tool_call_end": "tool_use",
}


class StreamAccumulator:
    """Collects :data:`~chatcodec.StreamEvent` values into a :class:`ChatResponse`.

    Feed events with :meth:`add` (or :meth:`extend`), then call :meth:`response`.
    Events out of order (a delta for a part never started, a part started twice) raise
    :class:`~chatcodec.StreamError` naming the event.
    """

    def __init__(self) -> None:
        self._response: dict[str, Any] = {}
        self._choices: dict[int, dict[int, _PartBuilder]] = {}
        self._finish: dict[int, FinishReason] = {}
        self._usage: dict[str, Any] | None = None
        self._count = 0
        self.errors: list[ErrorEvent] = []
        """Error events seen in the stream."""

    def extend(self, events: Iterable[AnyStreamEvent]) -> None:
        """Add every event of ``events``."""
        for event in events:
            self.add(event)

    def add(self, event: AnyStreamEvent) -> None:
        """Take one event into account."""
        match event:
            case ResponseStartEvent():
                self._start(event)
            case UsageEvent():
                self._add_usage(event.usage)
            case FinishEvent():
                self._finish[event.choice] = event.finish_reason
                self._merge_metadata(self._response, event.provider_metadata)
            case ErrorEvent():
                self.errors.append(event)
            case _:
                self._part_event(event)
        self._count += 1

    def _part_event(self, event: PartLifecycleEvent) -> None:
        match event:
            case TextStartEvent():
                self._open(event, "text", {})
            case ThinkingStartEvent():
                pairs = (("provider", event.provider), ("model", event.model))
                fields = {key: value for key, value in pairs if value is not None}
                self._open(event, "thinking", fields)
            case ToolCallStartEvent():
                self._open(event, "tool_use", {"id": event.id, "name": event.name})
            case TextDeltaEvent() | ThinkingDeltaEvent() | ToolCallDeltaEvent():
                self._growing(event, _KIND_BY_EVENT[event.type]).fragments.append(event.delta)
            case ThinkingSignatureDeltaEvent():
                builder = self._growing(event, "thinking")
                if builder.signature is None:
                    builder.signature = []
                builder.signature.append(event.delta)
            case RefusalDeltaEvent():
                self._refusal(event)
            case TextEndEvent() | ToolCallEndEvent() | ThinkingEndEvent():
                self._close(event)
            case PartEvent():
                self._whole(event)
            case _:
                assert_never(event)

    def response(self, *, allow_errors: bool = False) -> ChatResponse:
        """The response so far, validated.

        Parts never closed are included as they stand (an interrupted stream keeps what
        arrived). An error event in the stream raises :class:`~chatcodec.ProviderAPIError`
        unless ``allow_errors`` is true.
        """
        if self.errors and not allow_errors:
            first = self.errors[0]
            raise ProviderAPIError(first.message, first.error_type, first.body)
        choices: list[dict[str, Any]] = []
        for choice_index in sorted(self._choices.keys() | self._finish.keys() or {0}):
            builders = self._choices.get(choice_index, {})
            content = [builders[index].build() for index in sorted(builders)]
            choice: dict[str, Any] = {"index": choice_index, "message": {"role": "assistant", "content": content}}
            if choice_index in self._finish:
                choice["finish_reason"] = self._finish[choice_index]
            choices.append(choice)
        payload: dict[str, Any] = {**self._response, "choices": choices}
        if self._usage is not None:
            payload["usage"] = self._usage
        return validate_canonical(ChatResponse, payload)

    def part_so_far(self, choice: int, index: int) -> dict[str, Any]:
        """The part at ``index`` of ``choice`` as built so far (canonical JSON)."""
        builder = self._choices.get(choice, {}).get(index)
        if builder is None:
            raise StreamError(f"part {index} of choice {choice} was never started")
        return builder.build()

    # --- event handlers ---------------------------------------------------------------

    def _start(self, event: ResponseStartEvent) -> None:
        for key in ("id", "model", "created"):
            value = getattr(event, key)
            if value is not None:
                self._response[key] = value
        self._merge_metadata(self._response, event.provider_metadata)

    def _open(
        self, event: TextStartEvent | ThinkingStartEvent | ToolCallStartEvent, kind: str, fields: dict[str, Any]
    ) -> None:
        parts = self._choices.setdefault(event.choice, {})
        if event.index in parts:
            raise self._error(f"part {event.index} of choice {event.choice} was already started", event)
        builder = _PartBuilder(kind, fields)
        self._merge_metadata(builder.fields, event.provider_metadata)
        parts[event.index] = builder

    def _growing(self, event: Any, kind: str) -> _PartBuilder:
        builder = self._choices.get(event.choice, {}).get(event.index)
        if builder is None:
            raise self._error(f"{event.type} for part {event.index}, which was never started", event)
        if builder.kind != kind:
            raise self._error(f"{event.type} for part {event.index}, which is a {builder.kind} part", event)
        if builder.closed:
            raise self._error(f"{event.type} for part {event.index}, which has already ended", event)
        return builder

    def _close(self, event: TextEndEvent | ToolCallEndEvent | ThinkingEndEvent) -> None:
        builder = self._growing(event, _KIND_BY_EVENT[event.type])
        if isinstance(event, ThinkingEndEvent) and event.encrypted is not None:
            builder.fields["encrypted"] = event.encrypted
        builder.closed = True
        self._merge_metadata(builder.fields, event.provider_metadata)

    def _refusal(self, event: RefusalDeltaEvent) -> None:
        parts = self._choices.setdefault(event.choice, {})
        builder = parts.get(event.index)
        if builder is None:
            builder = parts[event.index] = _PartBuilder("refusal", {})
        elif builder.kind != "refusal":
            raise self._error(f"refusal_delta for part {event.index}, which is a {builder.kind} part", event)
        builder.fragments.append(event.delta)

    def _whole(self, event: PartEvent) -> None:
        parts = self._choices.setdefault(event.choice, {})
        if event.index in parts:
            raise self._error(f"part {event.index} of choice {event.choice} was already started", event)
        whole = event.part.model_dump(mode="json")
        self._merge_metadata(whole, event.provider_metadata)
        parts[event.index] = _PartBuilder(event.part.type, {}, closed=True, whole=whole)

    def _add_usage(self, usage: Usage) -> None:
        if self._usage is None:
            self._usage = {}
        for key in ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens"):
            value = getattr(usage, key)
            if value is not None:
                self._usage[key] = value
        self._merge_metadata(self._usage, usage.provider_metadata)

    @staticmethod
    def _merge_metadata(target: dict[str, Any], metadata: dict[str, dict[str, Any]] | None) -> None:
        if metadata is None:
            return
        merged: dict[str, dict[str, Any]] = target.setdefault("provider_metadata", {})
        for provider, values in metadata.items():
            merged.setdefault(provider, {}).update(values)

    def _error(self, message: str, event: Any) -> StreamError:
        return StreamError(message, path="$.index", event_index=self._count)


def accumulate(events: Iterable[AnyStreamEvent]) -> ChatResponse:
    """Accumulate a whole canonical event stream into a response."""
    accumulator = StreamAccumulator()
    accumulator.extend(events)
    return accumulator.response()
