"""Kept records in a SQLite file (``--store sqlite:PATH``): they outlive a restart.

The table ``answers`` holds each :class:`~chatcodec.serve._response_store.Kept` with its
size and the thread it belongs to (the id of the answer that started it), and the table
``threads`` when each thread was last used (nanoseconds, so several processes on one host
sharing the file agree on the order): keeping an answer makes its whole thread recent
with one row written, and past the bounds the least recently used threads are deleted
first (within a thread, its oldest answers). The file is opened in WAL mode, so readers
never wait for a writer (https://www.sqlite.org/wal.html), with ``synchronous=NORMAL``
(a commit is not flushed to disk: an answer kept just before a power cut may be lost,
never the file), and a busy timeout, so processes sharing it take turns instead of
failing.

Python's own :mod:`sqlite3` is used (no dependency), never on the event loop: reads run
on a small pool of threads of their own and writes on one thread (SQLite has one writer
at a time), each thread with its own connection. So a write lock held by another process
delays only the writes waiting for it, never a request that keeps nothing, and never the
loop. A thread's history is one recursive query (``WITH RECURSIVE``,
https://www.sqlite.org/lang_with.html): no write per ancestor, and no write at all when
reading.

A file whose bytes were written over while it is open (a disk fault, a stray ``dd``) is not
seen by SQLite while its connections answer from their page cache and the write-ahead log:
a check answered, an answer written to the log, and only a later read failed. So the
file's header (https://www.sqlite.org/fileformat2.html#the_database_header) is read
from the disk where it matters: by ``/health``'s check, after each write (an answer written
to a file that is no database any more is reported not kept), and when a read finds nothing
(a record missing from a broken file is an error, not "never kept").
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from chatcodec.serve._response_store import Kept, StoreError, check_bounds

BUSY_TIMEOUT = 5.0
"""Seconds a write waits for another connection's write lock (then :class:`StoreError`)."""
READERS = 2
"""Threads that read the file at once."""

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS answers (
        id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        parent TEXT,
        messages TEXT NOT NULL,
        response TEXT NOT NULL,
        size INTEGER NOT NULL,
        used INTEGER NOT NULL,
        thread TEXT
    )""",
    "DROP INDEX IF EXISTS answers_used",
    "CREATE INDEX IF NOT EXISTS answers_used_size ON answers (used, size)",
    "CREATE TABLE IF NOT EXISTS threads (id TEXT PRIMARY KEY, used INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
)
"""``answers_used_size`` covers what the bounds read (count, total size, order of use),
so they never read the messages."""

_CHAIN = """
WITH RECURSIVE chain(id, owner, parent, messages, depth) AS (
    SELECT id, owner, parent, messages, 0 FROM answers WHERE id = :id
    UNION ALL
    SELECT answers.id, answers.owner, answers.parent, answers.messages, chain.depth + 1
    FROM answers JOIN chain ON answers.id = chain.parent
    WHERE chain.depth + 1 < :limit
)
SELECT owner, parent, messages, '' FROM chain ORDER BY depth
"""

_ORDER = """
    SELECT answers.id, answers.size FROM answers LEFT JOIN threads ON threads.id = COALESCE(answers.thread, answers.id)
    ORDER BY COALESCE(threads.used, answers.used) DESC, answers.rowid DESC
"""
"""Every answer, the most recently used thread first (an answer of a file written before
threads were kept counts as a thread of its own)."""

_FORGET_PAST_COUNT = f"DELETE FROM answers WHERE id IN (SELECT id FROM ({_ORDER}) LIMIT -1 OFFSET :capacity)"

_FORGET_PAST_BYTES = f"""
DELETE FROM answers WHERE id IN (
    SELECT id FROM (SELECT id, SUM(size) OVER (ROWS UNBOUNDED PRECEDING) AS running FROM ({_ORDER}))
    WHERE running > :max_bytes
)
"""
"""The most recent answers that fit in the byte bound stay; every one after them goes."""

_FORGET_THREADS = "DELETE FROM threads WHERE id NOT IN (SELECT COALESCE(thread, id) FROM answers)"

Result = TypeVar("Result")

HEADER_MAGIC = b"SQLite format 3\x00"
"""What every SQLite database file starts with."""
_PAYLOAD_FRACTIONS = b"\x40\x20\x20"
"""Bytes 21 to 23 of the header, which SQLite requires to be exactly these."""


def header_problem(header: bytes) -> str | None:
    """What is wrong with the first 100 bytes of a database file (None: a SQLite header)."""
    if len(header) < 100 or not header.startswith(HEADER_MAGIC):
        return "the file is not a SQLite database any more (its header was written over)"
    page_size = int.from_bytes(header[16:18], "big")
    if not (page_size == 1 or (512 <= page_size <= 32768 and page_size & (page_size - 1) == 0)):
        return f"the file's header holds no valid page size ({page_size})"
    if header[21:24] != _PAYLOAD_FRACTIONS:
        return "the file's header was written over (its payload fractions are wrong)"
    return None


WRITE_CHECK = "chatcodec.write-check"
"""The row of the ``secrets`` table the write check writes and deletes in one transaction
(:meth:`SqliteBackend.check_write`): its pages still reach the file (the write-ahead log)."""


def _rolled_back(connection: sqlite3.Connection) -> None:
    """The transaction of a failed write rolled back, unless SQLite rolled it back itself: on a
    full disk (``SQLITE_FULL``) or an I/O error it does, and a ``ROLLBACK`` then fails with
    "cannot rollback - no transaction is active", which was reported instead of the full disk."""
    if connection.in_transaction:
        with contextlib.suppress(sqlite3.Error):  # the first error says what failed
            connection.execute("ROLLBACK")


class SqliteBackend:
    """Kept records in the SQLite file at ``path`` (created with its table when missing)."""

    def __init__(self, path: str, capacity: int, max_bytes: int, *, busy_timeout: float | None = None) -> None:
        check_bounds(capacity, max_bytes)
        self.capacity = capacity
        self.max_bytes = max_bytes
        self.description: str = f"in the SQLite file {path}"
        self._path = Path(path).expanduser()
        self._busy_timeout = BUSY_TIMEOUT if busy_timeout is None else busy_timeout
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._connections_lock = threading.Lock()
        try:
            self._set_up()
        except (sqlite3.Error, OSError) as error:  # a file that is not a database, a folder, no permission
            self._close_connections()
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            raise ValueError(f"--store sqlite:{path}: the SQLite store cannot be opened: {reason}") from None
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="chatcodec-store-write")
        self._readers = ThreadPoolExecutor(READERS, thread_name_prefix="chatcodec-store-read")
        self.statements: int = 0
        """Statements run so far (what a test counts: a thread is read in one)."""

    def _set_up(self) -> None:
        """The file made (and its folder) and its tables, then WAL mode; a file of an older
        version given the column it lacks.

        Worker processes started together open one file at once, so the tables are made in
        one ``BEGIN IMMEDIATE`` transaction: it takes the write lock first, waiting its turn
        under the busy timeout, and then reads the columns it may add. Statements run one at
        a time instead would each read, then ask to write, and a write another process
        committed in between fails them at once, without waiting ("database is locked"), or
        has one add a column another just added ("duplicate column name")."""
        self._path.parent.mkdir(parents=True, exist_ok=True)
        setup = self._connection()
        setup.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA:
                setup.execute(statement)
            columns = {row[1] for row in setup.execute("PRAGMA table_info(answers)")}
            if "thread" not in columns:  # a file written before threads were kept
                setup.execute("ALTER TABLE answers ADD COLUMN thread TEXT")
            setup.execute("COMMIT")
        except BaseException:
            _rolled_back(setup)
            raise
        self._write_ahead(setup)

    def _write_ahead(self, connection: sqlite3.Connection) -> None:
        """WAL mode set on the file (it stays set in the file). Changing the mode needs the
        file to itself, and SQLite answers busy at once, without the busy timeout, while
        another process opening it holds a lock: so the change is tried again until the
        busy timeout has passed."""
        deadline = time.monotonic() + self._busy_timeout
        while True:
            try:
                connection.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as error:
                if error.sqlite_errorcode != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                    raise
            time.sleep(0.01)

    def _connection(self) -> sqlite3.Connection:
        """This thread's connection (SQLite connections are not shared across threads)."""
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(
                self._path, timeout=self._busy_timeout, check_same_thread=False, isolation_level=None
            )
            connection.execute("PRAGMA synchronous=NORMAL")
            self._local.connection = connection
            with self._connections_lock:
                self._connections.append(connection)
        return connection

    async def _run(self, executor: ThreadPoolExecutor, work: Callable[[sqlite3.Connection], Result]) -> Result:
        def run() -> Result:
            return work(self._connection())

        try:
            return await asyncio.get_running_loop().run_in_executor(executor, run)
        except sqlite3.Error as error:
            raise StoreError(f"the SQLite store {self._path} failed: {error}") from error

    def _execute(
        self, connection: sqlite3.Connection, sql: str, parameters: tuple[object, ...] | Mapping[str, object] = ()
    ) -> sqlite3.Cursor:
        self.statements += 1
        return connection.execute(sql, parameters)

    async def count(self) -> int:
        def count(connection: sqlite3.Connection) -> int:
            (found,) = self._execute(connection, "SELECT COUNT(*) FROM answers").fetchone()
            return int(found)

        return await self._run(self._readers, count)

    def _intact(self) -> None:
        """Raise :class:`sqlite3.DatabaseError` when the file on disk is gone or its header is
        no SQLite database's (what this process's connections may not see: see the module)."""
        try:
            with self._path.open("rb") as file:
                header = file.read(100)
        except OSError as error:
            raise sqlite3.DatabaseError(f"the file cannot be read: {error.strerror or type(error).__name__}") from None
        problem = header_problem(header)
        if problem is not None:
            raise sqlite3.DatabaseError(problem)

    async def check(self) -> None:
        def check(connection: sqlite3.Connection) -> None:
            self._intact()
            self._execute(connection, "SELECT id FROM threads LIMIT 1").fetchall()

        await self._run(self._readers, check)

    async def load(self, key: str) -> Kept | None:
        def load(connection: sqlite3.Connection) -> Kept | None:
            sql = "SELECT owner, parent, messages, response FROM answers WHERE id = ?"
            row = self._execute(connection, sql, (key,)).fetchone()
            if row is None:
                self._intact()
                return None
            return Kept(*row)

        return await self._run(self._readers, load)

    async def chain(self, key: str, limit: int) -> list[Kept]:
        def chain(connection: sqlite3.Connection) -> list[Kept]:
            rows = self._execute(connection, _CHAIN, {"id": key, "limit": limit}).fetchall()
            if not rows:
                self._intact()
            return [Kept(*row) for row in rows]

        return await self._run(self._readers, chain)

    async def save(self, key: str, kept: Kept) -> None:
        def save(connection: sqlite3.Connection) -> None:
            now = time.time_ns()
            self._execute(connection, "BEGIN IMMEDIATE")
            try:
                thread = key
                if kept.parent is not None:
                    sql = "SELECT COALESCE(thread, id) FROM answers WHERE id = ?"
                    found = self._execute(connection, sql, (kept.parent,)).fetchone()
                    thread = key if found is None else str(found[0])
                row = (key, kept.owner, kept.parent, kept.messages, kept.response, kept.size, now, thread)
                self._execute(connection, "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
                sql = "INSERT INTO threads VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET used = excluded.used"
                self._execute(connection, sql, (thread, now))
                self._forget_beyond_bounds(connection)
                self._execute(connection, "COMMIT")
            except BaseException:
                _rolled_back(connection)
                raise
            self._intact()  # committed to a file that is no database any more: not kept

        await self._run(self._writer, save)

    async def check_write(self, size: int) -> None:
        def check_write(connection: sqlite3.Connection) -> None:
            self._execute(connection, "BEGIN IMMEDIATE")
            try:
                self._execute(connection, "INSERT OR REPLACE INTO secrets VALUES (?, ?)", (WRITE_CHECK, "0" * size))
                self._execute(connection, "DELETE FROM secrets WHERE name = ?", (WRITE_CHECK,))
                self._execute(connection, "COMMIT")
            except BaseException:
                _rolled_back(connection)
                raise
            self._intact()

        await self._run(self._writer, check_write)

    def _forget_beyond_bounds(self, connection: sqlite3.Connection) -> None:
        count, total = self._execute(connection, "SELECT COUNT(*), COALESCE(SUM(size), 0) FROM answers").fetchone()
        if count > self.capacity:
            self._execute(connection, _FORGET_PAST_COUNT, {"capacity": self.capacity})
        if total > self.max_bytes:
            self._execute(connection, _FORGET_PAST_BYTES, {"max_bytes": self.max_bytes})
        if count > self.capacity or total > self.max_bytes:
            self._execute(connection, _FORGET_THREADS)

    async def secret(self, name: str, candidate: str) -> str:
        def secret(connection: sqlite3.Connection) -> str:
            self._execute(connection, "INSERT OR IGNORE INTO secrets VALUES (?, ?)", (name, candidate))
            (value,) = self._execute(connection, "SELECT value FROM secrets WHERE name = ?", (name,)).fetchone()
            return str(value)

        return await self._run(self._writer, secret)

    async def close(self) -> None:
        self._writer.shutdown(wait=True)
        self._readers.shutdown(wait=True)
        self._close_connections()

    def _close_connections(self) -> None:
        with self._connections_lock:
            for connection in self._connections:
                connection.close()
            self._connections.clear()
