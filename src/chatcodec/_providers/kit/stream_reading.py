"""What every provider's stream decoder shares: the slow path that turns a canonical model's
refusal into a :class:`~chatcodec.StreamError` at the event's position, and the ``feed``
written once over a decoder's ``read``, and the batch reading that compacts the builder
every :data:`~chatcodec.streams._builder.COMPACT_EVERY` events."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar

import pydantic_core

from chatcodec._errors import ChatcodecError
from chatcodec._providers.kit.errors import canonical_refusal
from chatcodec.streams._builder import COMPACT_EVERY

if TYPE_CHECKING:
    from chatcodec._model.stream_records import AnyStreamRecord
    from chatcodec.streams._builder import StreamBuilder

InputT = TypeVar("InputT")


def read_event(read: Callable[[InputT], None], event: InputT, position: int) -> None:
    """``read(event)``, the slow path of every provider's stream decoder: a canonical
    model refusing a value the event carried is a :class:`~chatcodec.StreamError` at the
    event's ``position``; the library's own errors pass as they are. Written once here,
    where each decoder's ``read`` loop once repeated it."""
    try:
        read(event)
    except ChatcodecError:
        raise
    except pydantic_core.ValidationError as error:
        raise canonical_refusal(error, position) from None


class FeedByReading:
    """The ``feed`` every provider's stream decoder has: read the one event as
    :meth:`read` reads a whole stream, and hand back what the builder made of it."""

    __slots__ = ()

    builder: StreamBuilder

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        """Read wire events into the builder (the whole stream, for ``accumulate_stream``)."""
        raise NotImplementedError

    def feed(self, event: dict[str, Any]) -> list[AnyStreamRecord]:
        """The canonical events for one wire event (errors name its position in the stream)."""
        self.read((event,))
        return self.builder.take_events()


ReadBatch = Callable[[Iterable[dict[str, Any]], int], int]
"""A stream decoder's batch reader: reads the wire events given, the first at the
position given (from 1), and says how many there were."""


def read_in_batches(
    events: Iterable[dict[str, Any]], position: Callable[[], int], read_batch: ReadBatch, builder: StreamBuilder
) -> None:
    """Read a whole stream a batch at a time, each batch up to the next compaction, so no
    event pays for the count (``position``: how many events were read so far)."""
    iterator = iter(events)
    while True:
        first = position() + 1
        if not first % COMPACT_EVERY:  # memory follows the answer, not the event count
            builder.compact()
        size = COMPACT_EVERY - first % COMPACT_EVERY
        if read_batch(islice(iterator, size), first) < size:  # the events ran out
            return


def read_one_event(event: dict[str, Any], first: int, read_batch: ReadBatch, builder: StreamBuilder) -> None:
    """Read one wire event at position ``first`` (a decoder's ``feed``), compacting first
    when its turn has come, as :func:`read_in_batches` does."""
    if not first % COMPACT_EVERY:
        builder.compact()
    read_batch((event,), first)
