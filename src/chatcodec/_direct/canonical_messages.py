"""The canonical messages of a body a direct path converted, read only when a loss names one.

A direct path builds no canonical message, but a loss's place in the input is found from
the canonical message it names (:class:`~chatcodec._providers.kit.origins.Origins` asks
for the messages a loss names, and counts them). :class:`CanonicalMessages` reads that
one message from the source's validated copy with the source reader's own function, when
it is first asked: most conversions name no place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, overload

from chatcodec._providers.contract.context import DecodeContext, Reading

ReadMessages = Callable[[list[dict[str, Any]], DecodeContext], list[dict[str, Any]]]
"""The source reader's reading of a run of its (validated) messages or items as canonical
messages (a folder's ``decode_messages``)."""


class CanonicalMessages(Sequence[Mapping[str, Any]]):
    """The canonical messages of a validated copy, each read by ``read`` (the source
    reader's own) from the entries it starts at when a loss is first named at its place."""

    __slots__ = ("_closed", "_context", "_leading", "_read", "_reader", "_source", "_starts", "_validated")

    def __init__(
        self,
        validated: Sequence[Mapping[str, Any]],
        starts: list[int],
        source: str,
        read: ReadMessages,
        *,
        closed: bool = True,
    ) -> None:
        self._closed = closed
        """Whether ``validated`` is the closed front's copy (else the full wire shapes')."""
        self._leading: Sequence[Mapping[str, Any]] = ()
        """The canonical messages before the validated copy's, read with the top level (a
        Responses body's ``instructions``): the copy's first is at ``len(leading)`` (:meth:`lead`)."""
        self._validated = validated
        self._starts = starts
        """Where each canonical message starts in ``validated`` (the direct path's admission)."""
        self._source = source
        self._reader = read
        self._read: dict[int, Mapping[str, Any]] = {}
        self._context: DecodeContext | None = None

    def lead(self, messages: Sequence[Mapping[str, Any]]) -> None:
        """Put ``messages`` (read with the top level) before the validated copy's."""
        self._leading = messages

    def _message(self, index: int) -> Mapping[str, Any]:
        leading = len(self._leading)
        if index < leading:
            return self._leading[index]
        index -= leading
        read = self._read.get(index)
        if read is None:
            starts = self._starts
            end = starts[index + 1] if index + 1 < len(starts) else len(self._validated)
            context = self._context
            if context is None:
                context = self._context = DecodeContext(self._source)
                context.closed = self._closed  # the front's copy, as the reader's own reading of it
                context.reading = Reading()  # an SDK dump's nulls noted there, as a conversion's reading does
            copies = [dict(entry) for entry in self._validated[starts[index] : end]]  # the reader takes them over
            read = self._read[index] = self._reader(copies, context)[0]
        return read

    @overload
    def __getitem__(self, index: int) -> Mapping[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Mapping[str, Any]]: ...
    def __getitem__(self, index: int | slice) -> Mapping[str, Any] | Sequence[Mapping[str, Any]]:
        if isinstance(index, slice):
            return [self._message(position) for position in range(len(self))[index]]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._message(index)

    def __len__(self) -> int:
        return len(self._leading) + len(self._starts)
