"""``--record DIR``: a directory of shards, each written by one gateway alone, for any number
of gateways on one filesystem (a shared volume of a cluster's nodes).

Why shards rather than one file shared: appends from two processes to one file interleave
only as far as the filesystem promises (NFS promises nothing), and a writer that dies mid-line
leaves a torn line in another's file. A shard has one writer for its whole life: named for
its host, process and start (``HOST-PID-START-SEQ.jsonl``), created exclusively and locked,
so a crash tears at most its own last line, and a reader sees plain JSON Lines files
(Hugging Face ``datasets``, Ray Data and Spark read the directory as they are). A shard that
reaches ``max_bytes`` is closed and the next one opened; one removed while serving is
replaced by the next one as well. Every shard is read by the store's readers
(:func:`chatcodec.read_records`, :func:`chatcodec.read_episodes`, the read-back), in name order.
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

from chatcodec._training.gateway import SHARD_SUFFIX, is_redis
from chatcodec.serve._request_log import LOGGER
from chatcodec.serve._turn_records import LockedError, RecordError, TurnFile, TurnSink, append_whole, open_locked
from chatcodec.serve._turn_stream import TurnStream

SHARD_BYTES = 256 * 1024 * 1024
"""A shard's bound when ``--record-max-bytes`` gives none: small enough to move and read in
parallel, large enough that a run of many turns makes few files."""


def open_turn_sink(path: str, max_bytes: int | None) -> TurnSink:
    """The store ``--record`` names: a Redis stream, shards in an existing directory, else one file."""
    if is_redis(path):
        if max_bytes is not None:
            raise ValueError("--record-max-bytes bounds a file or a directory's shards, not a Redis stream")
        return TurnStream(path)
    if Path(path).is_dir():
        return TurnShards(path, max_bytes)
    return TurnFile(path, max_bytes)


class TurnShards:
    """This gateway's shards in one directory, the current one open."""

    offloaded = False

    def __init__(self, path: str, max_bytes: int | None = None) -> None:
        self.path = path
        """What the store's readers read: the directory."""
        self.max_bytes = SHARD_BYTES if max_bytes is None else max_bytes
        folder = Path(path)
        if not folder.is_dir():
            raise ValueError(f"--record {path}: not a directory")
        host = re.sub(r"[^A-Za-z0-9.]+", "_", socket.gethostname()) or "host"
        started = time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + f"{time.time_ns() % 1_000_000_000:09d}"
        self._stem = f"{host}-{os.getpid()}-{started}"
        self._sequence = 0
        self.opened = 0
        """How many shards this gateway has opened."""
        self._lock = threading.Lock()
        try:
            self._open_next()
        except OSError as error:
            raise ValueError(f"--record {path}: a shard cannot be created there: {error.strerror}") from None

    @property
    def shard(self) -> str:
        """The shard lines go to now."""
        return self._shard

    def _open_next(self) -> None:
        """The next shard, created (never one that exists: one writer a file for its life)."""
        while True:
            self._sequence += 1
            shard = str(Path(self.path) / f"{self._stem}-{self._sequence:05d}{SHARD_SUFFIX}")
            try:
                self._fd, self._identity = open_locked(shard, os.O_EXCL)
            except (FileExistsError, LockedError):
                continue
            self._shard = shard
            self.opened += 1
            return

    def append(self, line: bytes, whole: Callable[[], bytes] | None = None, opened: int = 0) -> int:
        """Write ``line`` whole into the current shard (the next one when it is full or was
        removed), or nothing (a :class:`RecordError`); ``whole()`` in its place where ``line``
        extends a line of another shard (a shard reads whole on its own). The shard's
        :attr:`opened` count is returned."""
        with self._lock:
            try:
                start = self._current_size(len(line))
            except OSError as error:
                raise RecordError(f"the turn was not recorded in {self.path}: {error.strerror}") from None
            if whole is not None and self.opened != opened:
                line = whole()
            append_whole(self._fd, line, start, self._shard)
            return self.opened

    def _current_size(self, adding: int) -> int:
        """The size of the shard the line goes to, a new one opened when the current one is
        gone or the line would pass the bound (a shard holds at least one line)."""
        try:
            found = os.stat(self._shard)
            here = (found.st_dev, found.st_ino) == self._identity
        except FileNotFoundError:
            here = False
        size = os.fstat(self._fd).st_size
        if here and (size == 0 or size + adding <= self.max_bytes):
            return size
        if not here:
            LOGGER.warning(
                "--record %s: shard %s was removed while serving; recording into a new one", self.path, self._shard
            )
        done = self._fd
        self._open_next()  # the current one stays open until the next is
        os.close(done)
        return 0

    def close(self) -> None:
        os.close(self._fd)
