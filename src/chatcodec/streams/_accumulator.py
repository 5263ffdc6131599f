"""Turning canonical stream events into a :class:`ChatResponse`, in time linear in the stream.

:class:`StreamAccumulator` is the shared :class:`~chatcodec.streams._builder.StreamBuilder`
in its building mode, fed canonical events: the same builder a provider's stream decoder
drives for ``accumulate_stream``, so both give the same response. Deltas are appended to
lists and joined once at the end (never ``text += delta`` on a model attribute, which
copies the whole text on every event); the finished response is validated once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from chatcodec._model.response import ChatResponse
from chatcodec._model.stream_events import AnyStreamEvent, ErrorEvent
from chatcodec._model.stream_records import AnyStreamRecord, event_of
from chatcodec._public_label import shown_as
from chatcodec.streams._builder import StreamBuilder


class StreamAccumulator:
    """Collects :data:`~chatcodec.StreamEvent` values into a :class:`ChatResponse`.

    Feed events with :meth:`add` (or :meth:`extend`), then call :meth:`response`.
    Events out of order (a delta for a part never started, a part started twice) raise
    :class:`~chatcodec.StreamError` naming the event.
    """

    def __init__(self) -> None:
        self._builder = StreamBuilder()

    @property
    def errors(self) -> list[ErrorEvent]:
        """Error events seen in the stream."""
        errors: list[Any] = [event_of(error) for error in self._builder.errors]
        return errors

    def extend(self, events: Iterable[AnyStreamEvent | AnyStreamRecord]) -> None:
        """Add every event of ``events``."""
        add = self._builder.add
        for event in events:
            add(event)

    def add(self, event: AnyStreamEvent | AnyStreamRecord) -> None:
        """Take one event into account (a public model, or a record as a conversion's events are)."""
        self._builder.add(event)

    def response(self, *, allow_errors: bool = False) -> ChatResponse:
        """The response so far, validated.

        Parts never closed are included as they stand (an interrupted stream keeps what
        arrived). An error event in the stream raises :class:`~chatcodec.ProviderAPIError`
        unless ``allow_errors`` is true.
        """
        return self._builder.response(allow_errors=allow_errors)

    def part_so_far(self, choice: int, index: int) -> dict[str, Any]:
        """The part at ``index`` of ``choice`` as built so far (canonical JSON)."""
        return self._builder.part_so_far(choice, index)


shown_as("chatcodec", StreamAccumulator)  # shown as chatcodec.StreamAccumulator (it is imported from there)
