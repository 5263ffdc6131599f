"""The last complete line this gateway recorded for each session: what its next line extends
(:mod:`chatcodec._training.record_deltas`), so a session's records grow with its length.

Why only lines this gateway wrote, and only once written, into the file it writes now: a line
may extend only one its readers find before it, in the same file or stream, so each shard
(and a file opened again after a rotation) reads whole on its own; a line that failed to go
down is never a base. Concurrent turns of one session may extend the same base (each names
it). Memory is bounded as :mod:`.token_prompts` bounds its sessions: the oldest session is
forgotten, and its next line is written whole.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from chatcodec._training.gateway import LineBase

MAX_SESSIONS = 10_000
"""Sessions whose last complete line is kept for the next line to extend."""


class TurnChains:
    """Each session's last complete line written, the oldest session forgotten first."""

    def __init__(self, max_sessions: int = MAX_SESSIONS) -> None:
        self._last: OrderedDict[str, tuple[int, LineBase]] = OrderedDict()
        self._max = max_sessions
        self._lock = threading.Lock()  # written from worker threads (a large line) and the event loop

    def base(self, session: str, opened: int) -> LineBase | None:
        """The line the session's next line extends, if this gateway wrote one into the file
        it writes now (the sink's ``opened`` count)."""
        with self._lock:
            found = self._last.get(session)
        return found[1] if found is not None and found[0] == opened else None

    def wrote(self, session: str, line: LineBase, opened: int) -> None:
        """``line`` was written whole into the sink's file ``opened``: the session's next line extends it."""
        with self._lock:
            self._last[session] = (opened, line)
            self._last.move_to_end(session)
            if len(self._last) > self._max:
                self._last.popitem(last=False)
