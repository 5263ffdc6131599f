"""A one-line progress bar for long conversions, on standard error.

Hand-written on purpose: chatcodec's runtime dependencies stay pydantic and
typing-extensions only, and a count, a rate and a percentage need no library. The bar
is drawn only when the stream is a terminal (never into a log file or a pipe), at most
about ten times a second, and other messages go through :meth:`ProgressBar.print` so
they never land in the middle of it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

_CLEAR_LINE = "\r\x1b[K"


class ProgressBar:
    """Lines done, lines per second and the percentage of the input read."""

    def __init__(
        self,
        stream: TextIO,
        total_bytes: int | None,
        *,
        label: str = "converting",
        interval: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream
        """Where the bar and the messages go."""
        self.total_bytes: int | None = total_bytes if total_bytes else None
        """Size of the input; the percentage is left out when unknown (a pipe) or zero."""
        self.label = label
        """The word in front of the counts."""
        self.interval = interval
        """Least time between two redraws, in seconds."""
        self.enabled: bool = _is_terminal(stream)
        """Whether the bar is drawn at all: only on a terminal."""
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
        if self._last_drawn is None or now - self._last_drawn >= self.interval:
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
