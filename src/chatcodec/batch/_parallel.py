"""Running conversion batches on worker processes, in input order, in bounded memory.

The parent reads raw lines and writes results; it never parses JSON. Workers convert
whole batches (:func:`chatcodec.batch._convert.convert_lines`) and send back serialized output.
At most ``window`` batches are in flight at once, so the memory the parent holds does
not grow with the input (``multiprocessing.Pool.imap`` would read the whole input
ahead). Results come back in input order: the oldest batch is always the next one
waited for. With one worker, or when the whole input is a single batch, everything
runs in this process and no pool is started.
"""

from __future__ import annotations

import itertools
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing.context import BaseContext
from typing import TypeVar

from chatcodec._registry import get_codec
from chatcodec.batch._convert import convert_lines
from chatcodec.batch._convert_records import BatchResult, ConvertOptions


def usable_cores() -> int:
    """How many cores this process may run on (its CPU affinity, where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS and Windows have no affinity call
        return os.cpu_count() or 1


BatchT = TypeVar("BatchT")
"""A batch of input: lines of JSON (:class:`~chatcodec.batch._convert_records.LineBatch`), or rows of a Parquet file."""


def convert_batches(
    batches: Iterable[BatchT],
    options: ConvertOptions,
    workers: int = 1,
    window: int | None = None,
    convert: Callable[[BatchT, ConvertOptions], BatchResult] = convert_lines,  # type: ignore[assignment]
) -> Iterator[BatchResult]:
    """Convert ``batches`` with ``convert`` (a module-level function, which pickles) on
    ``workers`` processes; results in input order, lazily.

    ``window`` is the most batches in flight (default: twice the workers). Closing the
    iterator early cancels the batches not yet started.
    """
    if workers <= 1:
        for batch in batches:
            yield convert(batch, options)
        return
    remaining = iter(batches)
    first = list(itertools.islice(remaining, 2))
    if len(first) < 2:  # one batch at most: starting processes would cost more than it saves
        for batch in first:
            yield convert(batch, options)
        return
    yield from _pooled(itertools.chain(first, remaining), options, workers, window or 2 * workers, convert)


def _pooled(
    batches: Iterator[BatchT],
    options: ConvertOptions,
    workers: int,
    window: int,
    convert: Callable[[BatchT, ConvertOptions], BatchResult],
) -> Iterator[BatchResult]:
    pool = ProcessPoolExecutor(workers, mp_context=_start_context(), initializer=_start_worker, initargs=(options,))
    pending: deque[Future[BatchResult]] = deque()
    try:
        for batch in batches:
            pending.append(pool.submit(convert, batch, options))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _start_context() -> BaseContext:
    """How to start workers: fork when that is safe, else a fresh interpreter.

    Forking is fastest (workers inherit the loaded codecs) and safe from a process with
    no other threads on Linux, which the command line is; the pool forks all its workers
    before it starts a thread of its own. Forking a process that has threads can deadlock
    a child, so then the forkserver (or spawn, where there is none) starts them instead.
    """
    if sys.platform == "linux" and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in multiprocessing.get_all_start_methods():
        forkserver = multiprocessing.get_context("forkserver")
        forkserver.set_forkserver_preload(["chatcodec.batch._convert"])  # workers start with it imported
        return forkserver
    return multiprocessing.get_context("spawn")


def _start_worker(options: ConvertOptions) -> None:
    # Ctrl-C is the parent's to handle: it cancels the pool, workers must not print tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in (
        "SIGTERM",
        "SIGHUP",
    ):  # a forked worker inherits the parent's cleanup handlers; it has nothing to clean
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    _die_with_parent()
    get_codec(options.source)  # load both codecs once, not inside the first batch
    get_codec(options.target)


PR_SET_PDEATHSIG = 1
"""``prctl``'s option that has the kernel signal a process when its parent ends (``<linux/prctl.h>``)."""


def _die_with_parent() -> None:
    """End this worker when the process that started it ends, however it ends (``kill -9``
    included): a worker left behind waits for batches forever, or converts one nobody reads.
    On Linux the kernel sends SIGTERM (``prctl(PR_SET_PDEATHSIG)``, which acts even while the
    worker is busy in C code); everywhere, a thread waits on the parent's sentinel
    (:func:`multiprocessing.parent_process`, readable once the parent is gone) and exits."""
    parent = multiprocessing.parent_process()
    if sys.platform == "linux":
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):  # no libc to call (a static or unusual build): the thread is enough
            pass
    if parent is None:
        return
    threading.Thread(
        target=_exit_when_gone, args=(parent.sentinel,), name="chatcodec-parent-watch", daemon=True
    ).start()


def _exit_when_gone(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])  # returns when the parent has ended (a race lost at start included)
    os._exit(1)
