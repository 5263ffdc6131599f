"""The opt-in store of what a later request may need (``--store``), behind one interface.

What is kept, and why:

- **Answers** (the Responses front): a caller may send ``previous_response_id`` instead of
  the conversation so far, and read an answer back with ``GET /v1/responses/{id}``; both
  need the server to keep answers. What is kept is the *canonical* conversation
  (:mod:`chatcodec._model.messages` data), not the caller's view of it: a Claude answer's
  signed thinking is kept with its signature even when the caller was shown only its
  summary, so continuing that answer replays the thinking block Claude requires before a
  ``tool_use``.
- **Thinking** (every front, :mod:`.kept_thinking`): the signed or redacted thinking of an
  answer, keyed by what the client will echo back of it (its tool-call ids, or a digest of
  its text), for the clients that drop it from the next request.

Each answer keeps:

- ``owner``: a SHA-256 digest of the key its caller presented; another key is told the
  answer does not exist (a 404 for ``GET``, the "not found" 400 for
  ``previous_response_id``), as if it had never been kept;
- ``parent``: the answer it continued, and ``messages``: only what it added (its new input
  and its answer), so a long thread costs each message once; the conversation is the
  chain of parents, read back to its start in one query (an answer whose ancestor was
  forgotten is forgotten too);
- ``response``: the answer as its caller got it, for ``GET``.

Stores are bounded in records and in bytes (the JSON kept), the least recently used
forgotten first: a record is used when it is kept and when an answer continuing it (or a
later one of its thread) is kept, so a thread is used as a whole, and a thread's
recency is one entry whatever its length (keeping an answer touches no ancestor, in every
backend); past the bounds, the least recently used thread loses its oldest records first.
Reading never writes,
so a reader never waits for a writer. A record larger than the byte bound alone is not
kept. Every backend is asynchronous and never blocks the event loop: SQLite runs on
worker threads of its own, Redis through ``redis.asyncio``. A backend that fails raises
:class:`StoreError`, which the server reports beside the answer (never in its place).

Spellings (``--store``; the bounds as query parameters, ``max_bytes`` with an optional
``KB``, ``MB`` or ``GB``; any other parameter is refused, except a Redis URL's own
connection settings):

- ``memory`` (``memory:N`` for ``N`` records): this process's memory, lost at restart;
- ``sqlite:PATH``: a SQLite file, the embedded default for what outlives a restart
  (several processes on one host may share it; :mod:`.response_store_sqlite`);
- ``redis://HOST:PORT/DB`` (or ``rediss://``): a Redis server several replicas share
  (:mod:`.response_store_redis`, the ``redis`` extra).

``memory?max_answers=500&max_bytes=64MB`` and ``sqlite:/var/lib/chatcodec/answers.db?max_bytes=1GB``
set the bounds (read by :mod:`.store_spelling`, which opens the store).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

DEFAULT_CAPACITY = 1000
"""Records kept by ``--store memory``."""
DURABLE_CAPACITY = 100_000
"""Records kept by a durable store (SQLite, Redis)."""
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
"""Bytes of JSON kept by any store unless ``max_bytes`` says otherwise."""
THINKING = "thinking:"
"""What the key of a kept thinking record starts with (an answer id never holds a colon)."""


class StoreError(RuntimeError):
    """The store could not be read or written (a Redis server gone or too slow, a SQLite
    file locked past its busy timeout, a disk full): the request is answered all the same
    and the error reported beside it."""


WRITE_CHECK_LIMIT = 1 << 20
"""The most a write check writes (a MiB): enough to tell a full disk, little for a probe to repeat."""


class CannotKeepError(StoreError):
    """The store answers reads and cannot write (a full disk, a Redis at its memory limit):
    what ``/health`` reports after a save failed, until a write succeeds."""


@dataclass(frozen=True, slots=True)
class Kept:
    """One kept record, as a backend holds it (JSON text, so every backend stores the same)."""

    owner: str
    """A digest of the key of the caller that made it (:func:`owner_of`)."""
    parent: str | None
    """The id of the answer it continued."""
    messages: str
    """JSON list: the canonical messages it added (its new input, then its answer); for a
    thinking record, the thinking parts."""
    response: str
    """JSON object: the answer as its caller got it (``{}`` for a thinking record)."""

    @property
    def size(self) -> int:
        """What it costs against the byte bound."""
        return len(self.messages.encode()) + len(self.response.encode()) + len(self.owner) + len(self.parent or "")


class Backend(Protocol):
    """Where kept records live; bounded, least recently used forgotten first. Every method
    raises :class:`StoreError` when the backend fails."""

    capacity: int
    max_bytes: int
    description: str
    """Where the records are, for an error message (``"in memory, since it started"``)."""

    async def load(self, key: str) -> Kept | None:
        """The record kept as ``key`` (None: never kept, or forgotten); never a write."""
        ...

    async def chain(self, key: str, limit: int) -> list[Kept]:
        """The record ``key`` and its ancestors, nearest first, up to ``limit`` records, in
        one read (it stops at the first one missing); their ``response`` may be left empty."""
        ...

    async def save(self, key: str, kept: Kept) -> None:
        """Keep ``kept`` and make it and its ancestors recent, forgetting the least recently
        used beyond the bounds."""
        ...

    async def count(self) -> int:
        """How many records are kept."""
        ...

    async def close(self) -> None:
        """Let go of the file or connections (the server's shutdown)."""
        ...

    async def check(self) -> None:
        """Answer one cheap read, or raise :class:`StoreError` (``/health``: :mod:`.health`)."""
        ...

    async def check_write(self, size: int) -> None:
        """Write ``size`` bytes and delete them, or raise :class:`StoreError` (``/health`` after
        a failed save: a full disk or a Redis at its memory limit still answers reads, and may
        take a write smaller than the one that failed)."""
        ...

    async def secret(self, name: str, candidate: str) -> str:
        """The secret kept as ``name``; ``candidate`` kept and returned when there is none
        (the first replica to ask makes it, every other one reads it)."""
        ...


def owner_of(key: str | None) -> str:
    """The digest a kept answer records of its caller's key (the key itself is never kept)."""
    return hashlib.sha256((key or "").encode("utf-8", "surrogatepass")).hexdigest()


def _is_answer_id(answer_id: str) -> bool:
    return bool(answer_id) and ":" not in answer_id


class ResponseStore:
    """Answers' canonical conversations and bodies by answer id, and kept thinking by
    what the client echoes, for their owners only."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.unkept: StoreError | None = None
        """Why the last save failed, until a save or a write check succeeds: a store that answers
        reads and cannot keep (a full disk) is reported by ``/health`` (:meth:`check`)."""
        self._unkept_size = 0
        """The size of the record the last failed save was keeping (what the write check writes,
        up to :data:`WRITE_CHECK_LIMIT`)."""

    @property
    def capacity(self) -> int:
        return self.backend.capacity

    @property
    def durable(self) -> bool:
        """Whether what it keeps outlives the process (not ``memory``)."""
        return not isinstance(self.backend, MemoryBackend)

    async def secret(self, name: str, candidate: str) -> str:
        """The secret kept as ``name`` (``candidate`` when none was: :meth:`Backend.secret`)."""
        return await self.backend.secret(name, candidate)

    async def count(self) -> int:
        return await self.backend.count()

    async def check(self) -> None:
        """Whether the backend answers (a :class:`StoreError` when it does not), and, after a
        save failed, whether it can keep again: a write of the failed record's size (at most
        :data:`WRITE_CHECK_LIMIT`), whose failure is a :class:`CannotKeepError`."""
        await self.backend.check()
        if self.unkept is not None:
            try:
                await self.backend.check_write(min(self._unkept_size, WRITE_CHECK_LIMIT))
            except StoreError as error:
                raise CannotKeepError(str(error)) from error.__cause__
            self.unkept = None

    async def close(self) -> None:
        await self.backend.close()

    async def conversation(self, answer_id: str, owner: str) -> list[dict[str, Any]] | None:
        """The canonical conversation answer ``answer_id`` ended, its answer included (None:
        not kept, forgotten, one of its ancestors forgotten, or another caller's)."""
        if not _is_answer_id(answer_id):
            return None
        chain = await self.backend.chain(answer_id, self.backend.capacity)
        if not chain or chain[-1].parent is not None or any(kept.owner != owner for kept in chain):
            return None  # a missing ancestor ends the chain early: its last record has a parent
        added = [kept.messages[1:-1] for kept in reversed(chain) if kept.messages != "[]"]
        conversation: list[dict[str, Any]] = json.loads("[" + ",".join(added) + "]")  # one parse, not one per answer
        return conversation

    async def response(self, answer_id: str, owner: str) -> dict[str, Any] | None:
        """The answer ``answer_id`` as its caller got it (None: not kept, or another caller's)."""
        kept = await self.backend.load(answer_id) if _is_answer_id(answer_id) else None
        if kept is None or kept.owner != owner:
            return None
        body: dict[str, Any] = json.loads(kept.response)
        return body

    async def keep(
        self,
        answer_id: str,
        *,
        owner: str,
        parent: str | None,
        messages: list[dict[str, Any]],
        response: Mapping[str, Any],
    ) -> bool:
        """Keep an answer; False when it alone is larger than the byte bound (not kept)."""
        if not _is_answer_id(answer_id):
            raise ValueError(f"an answer id holds no colon: {answer_id!r}")
        return await self._save(answer_id, Kept(owner, parent, _json(messages), _json(response)))

    async def keep_thinking(self, key: str, owner: str, parts: list[dict[str, Any]]) -> bool:
        """Keep thinking ``parts`` under ``key`` (a digest, :mod:`.kept_thinking`) for ``owner``."""
        return await self._save(THINKING + key, Kept(owner, None, _json(parts), "{}"))

    async def thinking(self, key: str, owner: str) -> list[dict[str, Any]] | None:
        """The thinking parts kept under ``key`` for ``owner`` (None: none kept for it)."""
        kept = await self.backend.load(THINKING + key)
        if kept is None or kept.owner != owner:
            return None
        parts: list[dict[str, Any]] = json.loads(kept.messages)
        return parts

    async def _save(self, key: str, kept: Kept) -> bool:
        if kept.size > self.backend.max_bytes:
            return False
        try:
            await self.backend.save(key, kept)
        except StoreError as error:
            self.unkept, self._unkept_size = error, kept.size
            raise
        self.unkept = None
        return True


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class MemoryBackend:
    """This process's memory (``--store memory``): the event loop is its only user.

    As the SQLite store does, it orders *threads* by last use, not records: keeping an
    answer moves its thread to the recent end (one move, however long the thread), and
    past the bounds the least recently used thread loses its oldest records first."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        check_bounds(capacity, max_bytes)
        self.capacity = capacity
        self.max_bytes = max_bytes
        self.description = "in memory, since it started"
        self._records: dict[str, Kept] = {}
        self._thread_of: dict[str, str] = {}
        """Each record's thread: the id of the record that started it."""
        self._threads: OrderedDict[str, OrderedDict[str, None]] = OrderedDict()
        """The threads, least recently used first, each with its records, oldest first."""
        self._bytes = 0
        self._secrets: dict[str, str] = {}
        self.operations: int = 0
        """Records read, written or forgotten so far (what a test counts: keeping an answer
        touches no ancestor)."""

    @property
    def bytes(self) -> int:
        """The bytes kept now."""
        return self._bytes

    async def count(self) -> int:
        return len(self._records)

    async def close(self) -> None:
        """Nothing to let go of: the records go with the process."""

    async def check(self) -> None:
        """The process's memory answers while the process does."""

    async def check_write(self, size: int) -> None:
        """The process's memory takes a write while the process does."""

    async def secret(self, name: str, candidate: str) -> str:
        return self._secrets.setdefault(name, candidate)

    async def load(self, key: str) -> Kept | None:
        self.operations += 1
        return self._records.get(key)

    async def chain(self, key: str, limit: int) -> list[Kept]:
        found: list[Kept] = []
        next_key: str | None = key
        while next_key is not None and len(found) < limit:
            self.operations += 1
            kept = self._records.get(next_key)
            if kept is None:
                break
            found.append(kept)
            next_key = kept.parent
        return found

    async def save(self, key: str, kept: Kept) -> None:
        if key in self._records:
            self._forget(key)
        thread = self._thread_of.get(kept.parent, key) if kept.parent is not None else key
        self.operations += 2  # the parent's thread read, the record written
        members = self._threads.get(thread)
        if members is None:
            members = self._threads[thread] = OrderedDict()
        members[key] = None
        self._threads.move_to_end(thread)
        self._records[key] = kept
        self._thread_of[key] = thread
        self._bytes += kept.size
        while len(self._records) > self.capacity or self._bytes > self.max_bytes:
            oldest = next(iter(self._threads.values()))
            self._forget(next(iter(oldest)))

    def _forget(self, key: str) -> None:
        self.operations += 1
        thread = self._thread_of.pop(key)
        members = self._threads[thread]
        del members[key]
        if not members:
            del self._threads[thread]
        self._bytes -= self._records.pop(key).size


def check_bounds(capacity: int, max_bytes: int) -> None:
    if capacity < 1:
        raise ValueError(f"a response store keeps at least one answer, not {capacity}")
    if max_bytes < 1:
        raise ValueError(f"a response store keeps at least one byte, not {max_bytes}")
