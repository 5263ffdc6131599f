"""What every provider's stream decoder shares: the slow path that turns a canonical model's
refusal into a :class:`~chatcodec.StreamError` at the event's position, and the ``feed``
written once over a decoder's ``read``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import pydantic_core

from chatcodec.errors import ChatcodecError
from chatcodec.providers.kit import canonical_refusal

if TYPE_CHECKING:
    from chatcodec.stream_events import AnyStreamEvent
    from chatcodec.streams.builder import StreamBuilder

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

    def feed(self, event: dict[str, Any]) -> list[AnyStreamEvent]:
        """The canonical events for one wire event (errors name its position in the stream)."""
        self.read((event,))
        return self.builder.take_events()
