"""A streamed answer's text held back where it may be the start of a credential, so a key an
upstream splits over deltas (to one character a delta) is found whole and redacted.

Why hold, and only so much: a delta is scrubbed on its own (:meth:`Secrets.scrub_event`), and
a key split over two deltas is whole in neither. Each delta's text is therefore joined to what
was held of its part before, scrubbed, and passed on but for its longest end that begins a
spelling of a secret without finishing it (:meth:`~chatcodec.serve._secrets._Scrubber.unfinished`):
at most the longest spelling's length, and in ordinary text nothing or a character or two,
so the caller's stream waits only where a key may be coming. What is held is passed on with
the part's next delta, before its end (or the part's own end, the answer's finish, usage or
error, the stream failing), never dropped; a delta's logprobs travel with its text.
"""

from __future__ import annotations

from typing import Any

from chatcodec._model.stream_records import (
    AnyStreamRecord,
    RefusalDeltaRecord,
    TextDeltaRecord,
    ThinkingDeltaRecord,
    ToolCallDeltaRecord,
)
from chatcodec.serve._secrets import Secrets

HELD_TYPES = (TextDeltaRecord, ThinkingDeltaRecord, RefusalDeltaRecord, ToolCallDeltaRecord)
"""The deltas whose text may carry a key across events (a signature's is opaque, scrubbed on its own)."""

HeldDelta = TextDeltaRecord | ThinkingDeltaRecord | RefusalDeltaRecord | ToolCallDeltaRecord
_Held = tuple[HeldDelta, str, list[dict[str, Any]] | None]
"""A part's last delta (the shape its held text is passed on in), the text held, its logprobs."""


class HeldDeltas:
    """The deltas of one stream, each part's unfinished end held (see the module docstring)."""

    __slots__ = ("_held", "_secrets")

    def __init__(self, secrets: Secrets) -> None:
        self._secrets = secrets
        self._held: dict[tuple[type, int, int], _Held] = {}

    def passed(self, event: AnyStreamRecord) -> list[AnyStreamRecord]:
        """What to pass on for ``event``: its text without its held end, or, for any other
        event, what its part (or, past the parts, every part) held first, then the event scrubbed."""
        if isinstance(event, HELD_TYPES):
            return self._delta(event)
        if not self._held:  # most events: nothing held
            return [self._secrets.scrub_event(event)]
        index: int | None = getattr(event, "index", None)
        place = None if index is None else (getattr(event, "choice", 0), index)
        return [*self.flushed(place), self._secrets.scrub_event(event)]

    def flushed(self, place: tuple[int, int] | None = None) -> list[AnyStreamRecord]:
        """The held text of the part at ``place`` (choice, index; every part by default), as deltas."""
        ready: list[AnyStreamRecord] = []
        for key in [key for key in self._held if place is None or (key[1], key[2]) == place]:
            last, text, logprobs = self._held.pop(key)
            if text or logprobs:
                ready.append(_with(last, self._secrets.scrub(text), logprobs))
        return ready

    def _delta(self, event: HeldDelta) -> list[AnyStreamRecord]:
        key = (type(event), event.choice, event.index)
        found = self._held.pop(key, None) if self._held else None
        secrets = self._secrets
        if found is None:  # most deltas: nothing held before, the text the delta's own
            text, pending = secrets.scrub(event.delta), None
        else:
            pending = found[2]
            text = secrets.scrub(found[1] + event.delta)
        logprobs = getattr(event, "logprobs", None)
        if logprobs is not None and pending is not None:
            pending = [*pending, *logprobs]
        elif logprobs is not None:
            pending = logprobs
        cut = len(text) - secrets.unfinished(text)
        if cut == len(text) and found is None and text is event.delta:
            return [event]  # nothing held, nothing found: passed as it came
        if cut == 0:  # all of it may begin a key: held whole, its logprobs with it
            self._held[key] = (event, text, pending)
            return []
        if cut < len(text):
            self._held[key] = (event, text[cut:], None)
        return [_with(event, text[:cut], pending)]


def _with(event: HeldDelta, text: str, logprobs: list[dict[str, Any]] | None) -> AnyStreamRecord:
    if isinstance(event, TextDeltaRecord):
        return event.replaced(delta=text, logprobs=logprobs)
    return event.replaced(delta=text)
