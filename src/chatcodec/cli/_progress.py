"""Progress of long conversions, on standard error: a bar on a terminal, lines elsewhere.

Hand-written on purpose: chatcodec's runtime dependencies stay pydantic and
typing-extensions only, and a count, a rate and a percentage need no library. On a
terminal the bar is redrawn in place at most about ten times a second, and other messages
go through :meth:`ProgressBar.print` so they never land in the middle of it. Off a terminal
(a log file, a pipe, a CI job) a redrawn bar would be noise, and nothing at all left a
2-minute run silent until its end: a plain line is written every :data:`PLAIN_INTERVAL`
seconds instead (``--progress plain`` asks for lines on a terminal too, ``--progress none``
for nothing; ``--quiet`` off a terminal means none).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal, TextIO

_CLEAR_LINE = "\r\x1b[K"

ProgressMode = Literal["bar", "plain", "none"]
"""How progress is shown: a bar redrawn in place, a line every few seconds, or not at all."""

PROGRESS_CHOICES = ("auto", "bar", "plain", "none")
"""``--progress``'s values; ``auto`` is a bar on a terminal, plain lines elsewhere."""

PLAIN_INTERVAL = 5.0
"""Seconds between two plain progress lines."""


def progress_mode(choice: str, *, quiet: bool = False, stream: TextIO | None = None) -> ProgressMode:
    """The mode ``--progress choice`` means for ``stream`` (standard error by default)."""
    if choice != "auto":
        return "bar" if choice == "bar" else "plain" if choice == "plain" else "none"
    import sys

    if _is_terminal(stream or sys.stderr):
        return "bar"
    return "none" if quiet else "plain"


class ProgressBar:
    """Lines done, lines per second and the percentage of the input read."""

    def __init__(
        self,
        stream: TextIO,
        total_bytes: int | None,
        *,
        label: str = "converting",
        interval: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        mode: ProgressMode | None = None,
    ) -> None:
        self.stream = stream
        """Where the bar and the messages go."""
        self.total_bytes: int | None = total_bytes if total_bytes else None
        """Size of the input; the percentage is left out when unknown (a pipe) or zero."""
        self.label = label
        """The word in front of the counts."""
        self.mode: ProgressMode = mode or ("bar" if _is_terminal(stream) else "none")
        """A bar (the default on a terminal), plain lines, or nothing (the default elsewhere)."""
        self.interval: float = interval if interval is not None else PLAIN_INTERVAL if self.mode == "plain" else 0.1
        """Least time between two redraws (or plain lines), in seconds."""
        self.enabled: bool = self.mode != "none"
        """Whether progress is shown at all."""
        self._clock = clock
        self._started = clock()
        self._last_drawn: float | None = None
        self._shown = False
        self._lines = 0
        self._bytes = 0

    def advance(self, lines: int, size: int) -> None:
        """Count ``lines`` more lines done, covering ``size`` bytes of input; redraw if due."""
        self._lines += lines
        self._bytes += size
        if not self.enabled:
            return
        now = self._clock()
        if self.mode == "plain":
            if now - (self._last_drawn or self._started) >= self.interval:
                self.stream.write(self.render(now) + "\n")
                self.stream.flush()
                self._last_drawn = now
        elif self._last_drawn is None or now - self._last_drawn >= self.interval:
            self._draw(now)

    def print(self, message: str) -> None:
        """Write ``message`` and a newline, moving the bar out of its way."""
        self._erase()
        self.stream.write(message + "\n")

    def close(self) -> None:
        """Remove the bar from the screen; messages written after it stand alone."""
        self._erase()
        self.stream.flush()

    def render(self, now: float) -> str:
        """The bar's text at time ``now`` (as given by the clock)."""
        elapsed = max(now - self._started, 1e-9)
        text = f"{self.label}: {self._lines:,} lines, {self._lines / elapsed:,.0f} lines/s"
        if self.total_bytes is not None:
            text += f", {min(self._bytes / self.total_bytes, 1.0):.0%} of {_size(self.total_bytes)}"
        return text

    def _draw(self, now: float) -> None:
        self.stream.write(_CLEAR_LINE + self.render(now))
        self.stream.flush()
        self._last_drawn = now
        self._shown = True

    def _erase(self) -> None:
        if self._shown:
            self.stream.write(_CLEAR_LINE)
            self._shown = False


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or stand-in stream
        return False


def _size(count: int) -> str:
    value = float(count)
    for unit in ("B", "kB", "MB", "GB"):
        if value < 1000:
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{value:.1f} TB"
