"""The opt-in store of answers a later request may continue (``--store``), behind one interface.

A Responses caller may send ``previous_response_id`` instead of the conversation so far,
and read an answer back with ``GET /v1/responses/{id}``; both need the server to keep
answers. What is kept is the *canonical* conversation (:mod:`chatcodec.model.messages` data),
not the caller's view of it: a Claude answer's signed thinking is kept with its signature
even when the caller was shown only its summary, so continuing that answer replays the
thinking block Claude requires before a ``tool_use``. Each answer keeps:

- ``owner``: a SHA-256 digest of the key its caller presented; another key is told the
  answer does not exist (a 404 for ``GET``, the "not found" 400 for
  ``previous_response_id``), as if it had never been kept;
- ``parent``: the answer it continued, and ``messages``: only what it added (its new input
  and its answer), so a long thread costs each message once; the conversation is the
  chain of parents, read back to its start (an answer whose ancestor was forgotten is
  forgotten too);
- ``response``: the answer as its caller got it, for ``GET``.

Stores are bounded in answers and in bytes (the JSON kept), the least recently used
forgotten first; an answer larger than the byte bound alone is not kept. Spellings
(``--store``; the bounds as query parameters, ``max_bytes`` with an optional ``KB``,
``MB`` or ``GB``):

- ``memory`` (``memory:N`` for ``N`` answers): this process's memory, lost at restart;
- ``sqlite:PATH``: a SQLite file, the embedded default for answers that outlive a
  restart (several processes on one host may share it);
- ``redis://HOST:PORT/DB`` (or ``rediss://``): a Redis server several replicas share
  (:mod:`.response_store_redis`).

``memory?max_answers=500&max_bytes=64MB`` and ``sqlite:/var/lib/chatcodec/answers.db?max_bytes=1GB``
set the bounds.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import parse_qsl

DEFAULT_CAPACITY = 1000
"""Answers kept by ``--store memory``."""
DURABLE_CAPACITY = 100_000
"""Answers kept by a durable store (SQLite, Redis)."""
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
"""Bytes of JSON kept by any store unless ``max_bytes`` says otherwise."""

_UNITS = {"": 1, "B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}


@dataclass(frozen=True, slots=True)
class Kept:
    """One kept answer, as a backend holds it (JSON text, so every backend stores the same)."""

    owner: str
    """A digest of the key of the caller that made it (:func:`owner_of`)."""
    parent: str | None
    """The id of the answer it continued."""
    messages: str
    """JSON list: the canonical messages it added (its new input, then its answer)."""
    response: str
    """JSON object: the answer as its caller got it."""

    @property
    def size(self) -> int:
        """What it costs against the byte bound."""
        return len(self.messages.encode()) + len(self.response.encode()) + len(self.owner) + len(self.parent or "")


class Backend(Protocol):
    """Where kept answers live; bounded, least recently used forgotten first."""

    capacity: int
    max_bytes: int
    description: str
    """Where the answers are, for an error message (``"in memory, since it started"``)."""

    def load(self, answer_id: str) -> Kept | None:
        """The answer kept as ``answer_id`` (None: never kept, or forgotten); reading it makes it recent."""
        ...

    def save(self, answer_id: str, kept: Kept) -> None:
        """Keep ``kept``, forgetting the least recently used beyond the bounds."""
        ...

    def __len__(self) -> int: ...

    def close(self) -> None:
        """Let go of the file or connection (the server's shutdown)."""
        ...


def owner_of(key: str | None) -> str:
    """The digest a kept answer records of its caller's key (the key itself is never kept)."""
    return hashlib.sha256((key or "").encode("utf-8", "surrogatepass")).hexdigest()


class ResponseStore:
    """Answers' canonical conversations and bodies, by answer id, for their owners only."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    @property
    def capacity(self) -> int:
        return self.backend.capacity

    def __len__(self) -> int:
        return len(self.backend)

    def close(self) -> None:
        self.backend.close()

    def conversation(self, answer_id: str, owner: str) -> list[dict[str, Any]] | None:
        """The canonical conversation answer ``answer_id`` ended, its answer included (None:
        not kept, forgotten, one of its ancestors forgotten, or another caller's)."""
        chain: list[Kept] = []
        seen: set[str] = set()
        next_id: str | None = answer_id
        while next_id is not None:
            kept = self.backend.load(next_id)
            if kept is None or kept.owner != owner or next_id in seen:
                return None
            seen.add(next_id)
            chain.append(kept)
            next_id = kept.parent
        return [message for kept in reversed(chain) for message in json.loads(kept.messages)]

    def response(self, answer_id: str, owner: str) -> dict[str, Any] | None:
        """The answer ``answer_id`` as its caller got it (None: not kept, or another caller's)."""
        kept = self.backend.load(answer_id)
        if kept is None or kept.owner != owner:
            return None
        body: dict[str, Any] = json.loads(kept.response)
        return body

    def keep(
        self,
        answer_id: str,
        *,
        owner: str,
        parent: str | None,
        messages: list[dict[str, Any]],
        response: Mapping[str, Any],
    ) -> bool:
        """Keep an answer; False when it alone is larger than the byte bound (not kept)."""
        kept = Kept(owner, parent, _json(messages), _json(response))
        if kept.size > self.backend.max_bytes:
            return False
        self.backend.save(answer_id, kept)
        return True


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class MemoryBackend:
    """This process's memory (``--store memory``)."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        check_bounds(capacity, max_bytes)
        self.capacity = capacity
        self.max_bytes = max_bytes
        self.description = "in memory, since it started"
        self._answers: OrderedDict[str, Kept] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()  # answers are kept from worker threads and the event loop

    def __len__(self) -> int:
        return len(self._answers)

    @property
    def bytes(self) -> int:
        """The bytes kept now."""
        return self._bytes

    def close(self) -> None:
        """Nothing to let go of: the answers go with the process."""

    def load(self, answer_id: str) -> Kept | None:
        with self._lock:
            kept = self._answers.get(answer_id)
            if kept is not None:
                self._answers.move_to_end(answer_id)
            return kept

    def save(self, answer_id: str, kept: Kept) -> None:
        with self._lock:
            old = self._answers.pop(answer_id, None)
            if old is not None:
                self._bytes -= old.size
            self._answers[answer_id] = kept
            self._bytes += kept.size
            while len(self._answers) > self.capacity or self._bytes > self.max_bytes:
                _, forgotten = self._answers.popitem(last=False)
                self._bytes -= forgotten.size


def check_bounds(capacity: int, max_bytes: int) -> None:
    if capacity < 1:
        raise ValueError(f"a response store keeps at least one answer, not {capacity}")
    if max_bytes < 1:
        raise ValueError(f"a response store keeps at least one byte, not {max_bytes}")


STORE_SPELLING = (
    "--store takes memory, memory:N, sqlite:PATH or redis://HOST:PORT/DB (bounds: ?max_answers=N&max_bytes=SIZE)"
)


def _size(text: str) -> int:
    found = re.fullmatch(r"(\d+)\s*([KMG]?B?)", text.strip().upper())
    if found is None:
        raise ValueError(f"{STORE_SPELLING}: max_bytes={text!r} is not a size (64MB, 1GB, 1048576)")
    return int(found[1]) * _UNITS[found[2] if found[2] in _UNITS else found[2] + "B"]


def _bounds(query: str, capacity: int) -> tuple[int, int, dict[str, str]]:
    """``max_answers`` and ``max_bytes`` from a spelling's query, and the other parameters."""
    parameters = dict(parse_qsl(query, keep_blank_values=True))
    others = {key: value for key, value in parameters.items() if key not in ("max_answers", "max_bytes")}
    answers = parameters.get("max_answers")
    if answers is not None and not answers.isdigit():
        raise ValueError(f"{STORE_SPELLING}: max_answers={answers!r} is not a count")
    max_bytes = _size(parameters["max_bytes"]) if "max_bytes" in parameters else DEFAULT_MAX_BYTES
    return (int(answers) if answers is not None else capacity), max_bytes, others


@dataclass(frozen=True, slots=True)
class StoreSpelling:
    """What a ``--store`` spelling names, read without opening anything."""

    kind: str
    """``memory``, ``sqlite`` or ``redis``."""
    location: str
    """The SQLite file's path, the Redis URL (its own query kept); empty for memory."""
    capacity: int
    max_bytes: int


def read_store_spelling(spec: str) -> StoreSpelling:
    """``spec`` read (see the module docstring); a :class:`ValueError` naming the spellings."""
    location, _, query = spec.partition("?")
    if location.startswith(("redis://", "rediss://")):
        capacity, max_bytes, others = _bounds(query, DURABLE_CAPACITY)
        extra = "&".join(f"{key}={value}" for key, value in others.items())
        return StoreSpelling("redis", location + (f"?{extra}" if extra else ""), capacity, max_bytes)
    kind, colon, rest = location.partition(":")
    if kind == "memory" and (not colon or rest.isdigit()):
        capacity, max_bytes, others = _bounds(query, int(rest) if colon else DEFAULT_CAPACITY)
        if not others:
            check_bounds(capacity, max_bytes)
            return StoreSpelling("memory", "", capacity, max_bytes)
    if kind == "sqlite" and rest:
        capacity, max_bytes, others = _bounds(query, DURABLE_CAPACITY)
        if not others:
            check_bounds(capacity, max_bytes)
            return StoreSpelling("sqlite", rest, capacity, max_bytes)
    raise ValueError(f"{STORE_SPELLING}, not {spec!r}")


def check_store_spelling(spec: str | None) -> None:
    """Refuse a ``--store`` spelling :func:`read_store_spelling` does not read (None: no store)."""
    if spec is not None:
        read_store_spelling(spec)


def open_store(spec: str | None) -> ResponseStore | None:
    """The store ``--store`` names (see the module docstring); None for no store."""
    if spec is None:
        return None
    spelling = read_store_spelling(spec)
    if spelling.kind == "redis":
        from chatcodec.serve.response_store_redis import RedisBackend

        return ResponseStore(RedisBackend(spelling.location, spelling.capacity, spelling.max_bytes))
    if spelling.kind == "sqlite":
        from chatcodec.serve.response_store_sqlite import SqliteBackend

        return ResponseStore(SqliteBackend(spelling.location, spelling.capacity, spelling.max_bytes))
    return ResponseStore(MemoryBackend(spelling.capacity, spelling.max_bytes))
