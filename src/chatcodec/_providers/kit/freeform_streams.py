"""A stream written for a format without freeform (custom) tool calls: their events are
taken out before the format's own encoder sees them (why: :mod:`chatcodec._providers.kit.freeform_calls`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from chatcodec._codec_protocols import RecordStreamEncoder
from chatcodec._losses import LossRecorder, Steps
from chatcodec._model.stream_records import (
    AnyStreamRecord,
    FinishRecord,
    PartRecord,
    ToolCallDeltaRecord,
    ToolCallEndRecord,
    ToolCallStartRecord,
)
from chatcodec._providers.kit.freeform_calls import CUSTOM_CALL, dropped_why


class WithoutCustomCalls:
    """A stream encoder for a format without freeform calls, over its own: a custom call's
    events (its start, deltas and end, or its whole part) are dropped, one loss at its
    start, and a choice whose only calls were dropped finishes with ``stop`` instead of
    ``tool_calls``. Every other event goes through as it is."""

    __slots__ = ("_called", "_dropped", "_encoder", "_losses", "_position", "_target")
    stream_contract: ClassVar[int] = 2

    def __init__(self, encoder: RecordStreamEncoder, losses: LossRecorder, target: str) -> None:
        self._encoder = encoder
        self._losses = losses
        self._target = target
        self._position = -1
        self._dropped: set[tuple[int, int]] = set()
        """(choice, index) of the custom calls dropped."""
        self._called: set[int] = set()
        """The choices a function call was sent for."""

    def feed(self, event: AnyStreamRecord) -> Iterable[dict[str, Any]]:
        """The wire events ``event`` completes, once custom calls are taken out."""
        self._position += 1
        if isinstance(event, ToolCallStartRecord | PartRecord):
            return self._part(event)
        if self._dropped:
            if (
                isinstance(event, ToolCallDeltaRecord | ToolCallEndRecord)
                and (event.choice, event.index) in self._dropped
            ):
                return ()
            if isinstance(event, FinishRecord):
                return self._encoder.feed(self._finish(event))
        return self._encoder.feed(event)

    def close(self) -> Iterable[dict[str, Any]]:
        """The closing wire events."""
        return self._encoder.close()

    def _part(self, event: ToolCallStartRecord | PartRecord) -> Iterable[dict[str, Any]]:
        if isinstance(event, ToolCallStartRecord):
            call: tuple[str, object] | None = (event.kind, event.id)
        else:
            part = event.part
            call = (part.get("kind", "function"), part.get("id")) if part.get("type") == "tool_use" else None
        if call is not None and call[0] == "custom":
            self._dropped.add((event.choice, event.index))
            at: Steps = ("events", self._position)
            self._losses.add(at, f"{CUSTOM_CALL} {call[1]!r}", dropped_why(self._target))
            return ()
        if call is not None:
            self._called.add(event.choice)
        return self._encoder.feed(event)

    def _finish(self, event: FinishRecord) -> FinishRecord:
        """``event``, saying ``stop`` where its choice's only calls were dropped."""
        if event.finish_reason.get("unified") != "tool_calls" or event.choice in self._called:
            return event
        if not any(choice == event.choice for choice, _ in self._dropped):
            return event
        return event.replaced(finish_reason={"unified": "stop"})
