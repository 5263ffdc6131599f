"""The file of recorded turns (``--record PATH``): one JSON line per model turn, appended
the moment the turn ends (:mod:`chatcodec._training.records` holds the line's shape and
its reader, :func:`chatcodec.read_records`).

Why a file and one ``write`` a line: trainers read episodes in batches after the fact, and
a JSON Lines file is what every one of them reads. The file is opened for appending; each
line goes down in one ``write`` under a lock, so lines from concurrent turns never
interleave, and a process that dies mid-write leaves at most its last line unfinished. At
start such a tail is cut back to the last whole line (logged), so the lines appended after
it are never glued to a broken one. A write that fails part-way (a full disk) is cut back
the same way and reported as the gateway's other stores report a failure: the answer,
already paid for, is delivered, and the failure is in the log line, the span and a plain
answer's ``chatcodec-store-error`` header (:mod:`.steps.keep`).

A file survives operations: it is locked for its gateway (``fcntl.flock``, released when
the process dies), so a second gateway on it is refused at start rather than cutting a live
writer's unfinished line; each line first checks (one ``stat``) that the path still names
the open file, so a file removed or rotated while serving is opened again, and when it cannot
be each later turn is reported as unrecorded, never written to a file no reader finds; and
``--record-max-bytes`` bounds it (a turn past the bound is reported as a full disk is).

The session a turn belongs to is the one its caller names: in the URL
(``/sessions/{id}/...`` before the front's path, :mod:`.session_paths`, for a harness that
cannot set a header), else ``x-chatcodec-session``, else the session header an agent
harness sends of its own (Claude Code's ``x-claude-code-session-id``, Codex's ``session-id``
or ``session_id``, opencode's ``x-session-id``); a call naming none is an episode of its
own, under its request id. The session it is a subagent of is named likewise
(:data:`PARENT_HEADERS`) and recorded as the line's ``parent``.
"""

from __future__ import annotations

import errno
import os
import sys
import threading
from collections.abc import Callable, Mapping
from typing import BinaryIO, Protocol

from chatcodec.serve._request_log import LOGGER

if sys.platform != "win32":  # Windows has no flock: a file there is not locked
    import fcntl

SESSION_HEADERS = ("x-chatcodec-session", "x-claude-code-session-id", "session-id", "session_id", "x-session-id")
"""The request headers that name a session, first found wins: chatcodec's own (which a
session in the URL sets), then Claude Code's (sent since v2.1.86, one UUID a session), then
Codex's (its newer and older spelling), then opencode's (``X-Session-Id``, beside
``x-session-affinity``, in ``session/llm.ts``)."""
PARENT_HEADERS = ("x-chatcodec-parent-session", "x-parent-session-id", "x-codex-parent-thread-id")
"""The request headers that name the session a subagent's call was spawned from, first found
wins: chatcodec's own, opencode's (sent with a child session's calls), Codex's (a spawned
agent's thread names its parent thread)."""


class RecordError(OSError):
    """The file of recorded turns could not take a line (reported beside the answer)."""


class TurnSink(Protocol):
    """Where turns are recorded: a file (:class:`TurnFile`) or a directory of shards
    (:class:`~chatcodec.serve._turn_shards.TurnShards`)."""

    path: str
    """What the store's readers read (a file, the directory or the Redis URL)."""
    offloaded: bool
    """Whether every line is written on a worker thread (a network round trip), not only a large one."""
    opened: int
    """How many files the sink has opened (a file reopened, the next shard): a line extends only
    a line of the file it goes to, so each file reads whole on its own."""

    def append(self, line: bytes, whole: Callable[[], bytes] | None = None, opened: int = 0) -> int:
        """Write ``line`` whole, or nothing (a :class:`RecordError`), and say which file took it
        (its :attr:`opened` count). With ``whole``, ``line`` extends a line of file ``opened``:
        where it would go to another file, ``whole()`` (the line extending none) goes instead."""
        ...

    def close(self) -> None: ...


def session_of(headers: Mapping[str, str], request_id: str) -> str:
    """The session a call's (lower-cased) ``headers`` name, else its own ``request_id``."""
    for name in SESSION_HEADERS:
        value = headers.get(name)
        if value:
            return value
    return request_id


def parent_of(headers: Mapping[str, str]) -> str | None:
    """The session a call's (lower-cased) ``headers`` name as its parent, if any."""
    for name in PARENT_HEADERS:
        value = headers.get(name)
        if value:
            return value
    return None


class TurnFile:
    """The open file turns are appended to: locked for this gateway alone, opened again when
    it is removed or replaced under it, bounded by ``max_bytes`` (None: unbounded)."""

    offloaded = False

    def __init__(self, path: str, max_bytes: int | None = None) -> None:
        self.path = path
        """What the store's readers read (:func:`chatcodec.read_records`, the read-back)."""
        self.max_bytes = max_bytes
        self.opened = 1
        """How many times the file was opened (again when removed or rotated under this gateway)."""
        self._lock = threading.Lock()
        try:
            self._fd, self._identity = open_locked(path)
        except OSError as error:
            raise ValueError(f"--record {path}: cannot be opened for appending: {error.strerror}") from None
        self._cut_unfinished_tail()

    def _cut_unfinished_tail(self) -> None:
        """A last line without its newline (the process died writing it) cut back to the last whole line."""
        size = os.fstat(self._fd).st_size
        if size == 0:
            return
        with open(self.path, "rb") as file:
            keep = _whole_lines_end(file, size)
        if keep < size:
            os.ftruncate(self._fd, keep)
            LOGGER.warning(
                "--record %s: its last line was unfinished (%d bytes, a writer stopped mid-line); cut back to the "
                "last whole line",
                self.path,
                size - keep,
            )

    def append(self, line: bytes, whole: Callable[[], bytes] | None = None, opened: int = 0) -> int:
        """Write ``line`` (one record, ending in a newline) whole, or nothing (a :class:`RecordError`);
        ``whole()`` in its place where ``line`` extends a line of another file than this one
        (:meth:`TurnSink.append`). The file's :attr:`opened` count is returned."""
        with self._lock:
            self._same_file()
            if whole is not None and self.opened != opened:
                line = whole()
            start = os.fstat(self._fd).st_size
            if self.max_bytes is not None and start + len(line) > self.max_bytes:
                raise RecordError(
                    f"the turn was not recorded in {self.path}: it holds {start} bytes, and the line's "
                    f"{len(line)} would pass its bound of {self.max_bytes} (--record-max-bytes)"
                )
            append_whole(self._fd, line, start, self.path)
            return self.opened

    def _same_file(self) -> None:
        """The file at the path opened again when it is not the one open (removed or rotated):
        a line never goes to a file no reader will find (an ``os.stat`` a line)."""
        try:
            found = os.stat(self.path)
            identity: tuple[int, int] | None = (found.st_dev, found.st_ino)
        except OSError:
            identity = None
        if identity == self._identity:
            return
        try:
            fd, self._identity = open_locked(self.path)
        except OSError as error:
            raise RecordError(
                f"the turn was not recorded: {self.path} was removed or replaced while serving and cannot be "
                f"opened again ({error.strerror})"
            ) from None
        os.close(self._fd)
        self._fd = fd
        self.opened += 1
        LOGGER.warning(
            "--record %s: the file was removed or replaced while serving; recording into a new one", self.path
        )

    def close(self) -> None:
        os.close(self._fd)


class LockedError(OSError):
    """A record file another writer holds (its lock): two writers on one file cut each other's lines."""


def open_locked(path: str, flags: int = 0) -> tuple[int, tuple[int, int]]:
    """``path`` opened for appending and locked for this writer alone (``fcntl.flock``, which
    a writer's death releases), with its device and inode; a file another writer holds is a
    :class:`LockedError`."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | flags, 0o600)
    try:
        if sys.platform != "win32":
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise LockedError(
            errno.EWOULDBLOCK,
            "another gateway records into it (it holds the file's lock); give each gateway a file of its own, "
            "or one directory for all (--record DIR)",
        ) from None
    found = os.fstat(fd)
    return fd, (found.st_dev, found.st_ino)


def append_whole(fd: int, line: bytes, start: int, path: str) -> None:
    """Write ``line`` at the end of ``fd`` (``start`` bytes long) whole, or cut the file back to
    ``start`` and raise a :class:`RecordError`: no unfinished line is left for the next to follow."""
    written = 0
    try:
        while written < len(line):
            written += os.write(fd, line[written:])
    except OSError as error:
        if written:
            os.ftruncate(fd, start)
        raise RecordError(f"the turn was not recorded in {path}: {error.strerror}") from None


def _whole_lines_end(file: BinaryIO, size: int) -> int:
    """The offset after the last newline of a file of ``size`` bytes, read backwards in blocks."""
    block = 65536
    end = size
    while end > 0:
        start = max(0, end - block)
        file.seek(start)
        found = file.read(end - start).rfind(b"\n")
        if found >= 0:
            return start + found + 1
        end = start
    return 0
