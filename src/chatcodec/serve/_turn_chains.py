"""The last complete line this gateway recorded for each session: what its next line extends
(:mod:`chatcodec._training.record_deltas`), so a session's records grow with its length.

Why only lines this gateway wrote, and only once written: a line may extend only one its
readers find before it, in the same file, shard sequence or stream; a line that failed to go
down is never a base. Concurrent turns of one session may extend the same base (each names
it). Memory is bounded as :mod:`.token_prompts` bounds its sessions: the oldest session is
forgotten, and its next line is written whole.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from chatcodec._training.record_deltas import LineBase

MAX_SESSIONS = 10_000
"""Sessions whose last complete line is kept for the next line to extend."""


class TurnChains:
    """Each session's last complete line written, the oldest session forgotten first."""

    def __init__(self, max_sessions: int = MAX_SESSIONS) -> None:
        self._last: OrderedDict[str, LineBase] = OrderedDict()
        self._max = max_sessions
        self._lock = threading.Lock()  # written from worker threads (a large line) and the event loop

    def base(self, session: str) -> LineBase | None:
        """The line the session's next line extends, if this gateway wrote one."""
        with self._lock:
            return self._last.get(session)

    def wrote(self, session: str, line: LineBase) -> None:
        """``line`` was written whole: the session's next line extends it."""
        with self._lock:
            self._last[session] = line
            self._last.move_to_end(session)
            if len(self._last) > self._max:
                self._last.popitem(last=False)
