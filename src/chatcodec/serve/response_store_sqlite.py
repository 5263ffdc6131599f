"""Kept answers in a SQLite file (``--store sqlite:PATH``): they outlive a restart.

One table, ``answers``, holds each :class:`~chatcodec.serve.response_store.Kept` with its
size and when it was last used (nanoseconds, so several processes on one host sharing the
file agree on the order); the least recently used are deleted past the bounds. The file
is opened in WAL mode (readers do not wait for a writer) with a busy timeout, so
processes sharing it take turns instead of failing (https://www.sqlite.org/wal.html).
Python's own :mod:`sqlite3` is used: no dependency.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from chatcodec.serve.response_store import Kept, check_bounds

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    parent TEXT,
    messages TEXT NOT NULL,
    response TEXT NOT NULL,
    size INTEGER NOT NULL,
    used INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_used ON answers (used);
"""


class SqliteBackend:
    """Kept answers in the SQLite file at ``path`` (created with its table when missing)."""

    def __init__(self, path: str, capacity: int, max_bytes: int) -> None:
        check_bounds(capacity, max_bytes)
        self.capacity = capacity
        self.max_bytes = max_bytes
        self.description: str = f"in the SQLite file {path}"
        self._lock = threading.Lock()
        Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(Path(path).expanduser(), timeout=10, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def __len__(self) -> int:
        with self._lock:
            (count,) = self._db.execute("SELECT COUNT(*) FROM answers").fetchone()
            return int(count)

    def load(self, answer_id: str) -> Kept | None:
        with self._lock:
            row = self._db.execute(
                "SELECT owner, parent, messages, response FROM answers WHERE id = ?", (answer_id,)
            ).fetchone()
            if row is None:
                return None
            self._db.execute("UPDATE answers SET used = ? WHERE id = ?", (time.time_ns(), answer_id))
            return Kept(*row)

    def save(self, answer_id: str, kept: Kept) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (answer_id, kept.owner, kept.parent, kept.messages, kept.response, kept.size, time.time_ns()),
                )
                self._forget_beyond_bounds()
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def _forget_beyond_bounds(self) -> None:
        count, total = self._db.execute("SELECT COUNT(*), COALESCE(SUM(size), 0) FROM answers").fetchone()
        if count > self.capacity:
            self._db.execute(
                "DELETE FROM answers WHERE id IN (SELECT id FROM answers ORDER BY used LIMIT ?)",
                (count - self.capacity,),
            )
            total = self._db.execute("SELECT COALESCE(SUM(size), 0) FROM answers").fetchone()[0]
        while total > self.max_bytes:
            oldest = self._db.execute("SELECT id, size FROM answers ORDER BY used LIMIT 1").fetchone()
            self._db.execute("DELETE FROM answers WHERE id = ?", (oldest[0],))
            total -= oldest[1]

    def close(self) -> None:
        with self._lock:
            self._db.close()
