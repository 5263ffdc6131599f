"""Opening a SQLite store: worker processes started together open one new file at the same
moment (``uvicorn --workers N`` with ``--store sqlite:PATH``), and a file an older version
wrote is brought up to date without losing what it keeps."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from chatcodec.serve._response_store_sqlite import SqliteBackend

OPENERS = 4
TRIALS = 60
"""With the tables made one statement at a time, about one trial in ten failed ("database is
locked", "duplicate column name: thread"): sixty pass together by chance about once in 500."""


def _open_together(path: Path) -> list[str]:
    """``OPENERS`` stores opened on ``path`` at one moment (connections on threads lock the
    file as processes do); what any of them raised."""
    start = threading.Barrier(OPENERS)

    def open_one(_: int) -> str | None:
        start.wait()
        try:
            backend = SqliteBackend(str(path), 100, 1024**2)
        except ValueError as error:
            return str(error)
        asyncio.run(backend.close())
        return None

    with ThreadPoolExecutor(OPENERS) as openers:
        return [failure for failure in openers.map(open_one, range(OPENERS)) if failure is not None]


def test_stores_opened_at_once_on_a_new_file_all_open_it(tmp_path: Path) -> None:
    for trial in range(TRIALS):
        path = tmp_path / f"answers-{trial}.db"
        assert _open_together(path) == []
        with sqlite3.connect(path) as connection:
            assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
            columns = [row[1] for row in connection.execute("PRAGMA table_info(answers)")]
        connection.close()
        assert columns == ["id", "owner", "parent", "messages", "response", "size", "used", "thread"]


def test_a_file_written_before_threads_were_kept_gains_the_column_and_keeps_its_answers(tmp_path: Path) -> None:
    path = tmp_path / "answers.db"
    with sqlite3.connect(path) as older:
        older.execute(
            "CREATE TABLE answers (id TEXT PRIMARY KEY, owner TEXT NOT NULL, parent TEXT, messages TEXT NOT NULL,"
            " response TEXT NOT NULL, size INTEGER NOT NULL, used INTEGER NOT NULL)"
        )
        older.execute("CREATE INDEX answers_used ON answers (used)")
        older.execute("INSERT INTO answers VALUES ('resp_1', 'alice', NULL, '[]', '{}', 4, 1)")
    older.close()

    assert _open_together(path) == []
    backend = SqliteBackend(str(path), 100, 1024**2)
    try:
        kept = asyncio.run(backend.load("resp_1"))
    finally:
        asyncio.run(backend.close())
    assert kept is not None
    assert (kept.owner, kept.messages) == ("alice", "[]")
    with sqlite3.connect(path) as connection:
        columns = [row[1] for row in connection.execute("PRAGMA table_info(answers)")]
        indexes = {row[1] for row in connection.execute("PRAGMA index_list(answers)")}
    connection.close()
    assert columns[-1] == "thread"
    assert "answers_used" not in indexes
    assert "answers_used_size" in indexes
