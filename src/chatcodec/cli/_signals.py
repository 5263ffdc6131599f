"""``convert`` stopped by SIGTERM or SIGHUP cleans up as it does for Ctrl-C, then ends by that signal.

Python ends a process at once on SIGTERM and SIGHUP (a service stopped, a terminal closed),
running no ``finally`` and no ``with`` exit, so an interrupted run left its output and
rejects under their temporary names (``.OUT.<pid>.<random>.partial``: :mod:`._pending_output`) for
no one to remove. Within :func:`ending_cleanly` each of the two signals raises
:class:`Terminated` instead, which unwinds the run as ``KeyboardInterrupt`` does (the
temporary files removed, the worker pool shut down, what was at the final names untouched);
then the process ends by the same signal, its default action restored, so its parent sees
it killed by that signal (a shell's ``$?`` is 128 + its number, 143 for SIGTERM) as it
would have without the cleanup. A second signal while cleaning up ends the process at once.
A signal whose handler is not the default one (an embedding program's own) is left to it.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Generator
from contextlib import contextmanager, suppress
from types import FrameType

HANDLED = tuple(
    number for number in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if number is not None
)
"""The signals a run cleans up after (Windows has no SIGHUP)."""


class Terminated(BaseException):
    """A termination signal received during a run: a ``BaseException``, as ``KeyboardInterrupt``
    is, so no ``except Exception`` of the run keeps it from unwinding."""

    def __init__(self, number: int) -> None:
        super().__init__(f"terminated by {signal.Signals(number).name}")
        self.number = number


@contextmanager
def ending_cleanly() -> Generator[None]:
    """Run the block with SIGTERM and SIGHUP raising :class:`Terminated`; once it has
    unwound, end the process by the signal received (:func:`end_by`)."""
    if threading.current_thread() is not threading.main_thread():  # only the main thread may set handlers
        yield
        return
    taken = [number for number in HANDLED if signal.getsignal(number) == signal.SIG_DFL]
    for number in taken:
        signal.signal(number, _raise_terminated)
    try:
        yield
    except Terminated as stop:
        end_by(stop.number)
    finally:
        for number in taken:
            signal.signal(number, signal.SIG_DFL)


def _raise_terminated(number: int, frame: FrameType | None) -> None:
    signal.signal(number, signal.SIG_DFL)  # a second one ends the process at once
    raise Terminated(number)


def end_by(number: int) -> None:
    """End this process by signal ``number``, its default action restored (what is buffered
    for standard output and error flushed first); where that does not end it, exit
    128 + ``number``."""
    print(f"chatcodec: stopped by {signal.Signals(number).name}; nothing was left half-written", file=sys.stderr)
    for stream in (sys.stdout, sys.stderr):
        with suppress(OSError, ValueError):  # a reader gone, a stream closed
            stream.flush()
    signal.signal(number, signal.SIG_DFL)
    signal.raise_signal(number)  # to this thread: the default action is taken before it returns
    os._exit(128 + number)
