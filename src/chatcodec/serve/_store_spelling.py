"""``--store`` spellings read (``memory``, ``sqlite:PATH``, ``redis://...``, with their bounds
as query parameters: :mod:`.response_store` says what each keeps) and the store opened.
The backends are imported here, only for the spelling that names them (Redis is an
optional extra), and never by :mod:`.response_store`, which they build on."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl

from chatcodec.serve._response_store import (
    DEFAULT_CAPACITY,
    DEFAULT_MAX_BYTES,
    DURABLE_CAPACITY,
    MemoryBackend,
    ResponseStore,
    check_bounds,
)

_UNITS = {"": 1, "B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}
_BOUNDS = ("max_answers", "max_bytes")

STORE_SPELLING = (
    "--store takes memory, memory:N, sqlite:PATH or redis://HOST:PORT/DB (bounds: ?max_answers=N&max_bytes=SIZE)"
)


def _size(text: str) -> int:
    found = re.fullmatch(r"(\d+)\s*([KMG]?B?)", text.strip().upper())
    if found is None:
        raise ValueError(f"{STORE_SPELLING}: max_bytes={text!r} is not a size (64MB, 1GB, 1048576)")
    return int(found[1]) * _UNITS[found[2] if found[2] in _UNITS else found[2] + "B"]


def _bounds(query: str, capacity: int, kind: str, allowed: frozenset[str] = frozenset()) -> tuple[int, int, str]:
    """``max_answers`` and ``max_bytes`` from a spelling's query, and the other parameters
    (as a query); a parameter neither a bound nor one of ``allowed`` is refused."""
    pairs = parse_qsl(query, keep_blank_values=True)
    unknown = sorted({key for key, _ in pairs} - set(_BOUNDS) - allowed)
    if unknown:
        known = ", ".join([*_BOUNDS, *sorted(allowed)])
        raise ValueError(f"{STORE_SPELLING}: a {kind} store has no option {unknown[0]!r} (it takes {known})")
    parameters = dict(pairs)
    answers = parameters.get("max_answers")
    if answers is not None and not answers.isdigit():
        raise ValueError(f"{STORE_SPELLING}: max_answers={answers!r} is not a count")
    max_bytes = _size(parameters["max_bytes"]) if "max_bytes" in parameters else DEFAULT_MAX_BYTES
    capacity = int(answers) if answers is not None else capacity
    check_bounds(capacity, max_bytes)
    others = "&".join(f"{key}={value}" for key, value in pairs if key not in _BOUNDS)
    return capacity, max_bytes, others


@dataclass(frozen=True, slots=True)
class StoreSpelling:
    """What a ``--store`` spelling names, read without opening anything."""

    kind: str
    """``memory``, ``sqlite`` or ``redis``."""
    location: str
    """The SQLite file's path, the Redis URL (its connection settings kept); empty for memory."""
    capacity: int
    max_bytes: int


def read_store_spelling(spec: str) -> StoreSpelling:
    """``spec`` read (see the module docstring); a :class:`ValueError` naming the spellings."""
    location, _, query = spec.partition("?")
    if location.startswith(("redis://", "rediss://")):
        from chatcodec.serve._response_store_redis import URL_SETTINGS

        capacity, max_bytes, others = _bounds(query, DURABLE_CAPACITY, "redis", URL_SETTINGS)
        return StoreSpelling("redis", location + (f"?{others}" if others else ""), capacity, max_bytes)
    kind, colon, rest = location.partition(":")
    if kind == "memory" and (not colon or rest.isdigit()):
        capacity, max_bytes, _ = _bounds(query, int(rest) if colon else DEFAULT_CAPACITY, "memory")
        return StoreSpelling("memory", "", capacity, max_bytes)
    if kind == "sqlite" and rest:
        capacity, max_bytes, _ = _bounds(query, DURABLE_CAPACITY, "sqlite")
        return StoreSpelling("sqlite", rest, capacity, max_bytes)
    raise ValueError(f"{STORE_SPELLING}, not {spec!r}")


def check_store_spelling(spec: str | None) -> None:
    """Refuse a ``--store`` spelling :func:`read_store_spelling` does not read (None: no store)."""
    if spec is not None:
        read_store_spelling(spec)


def open_store(spec: str | None) -> ResponseStore | None:
    """The store ``--store`` names (see the module docstring); None for no store. Nothing
    is connected yet for Redis (its pool connects on first use)."""
    if spec is None:
        return None
    spelling = read_store_spelling(spec)
    if spelling.kind == "redis":
        from chatcodec.serve._response_store_redis import RedisBackend

        return ResponseStore(RedisBackend(spelling.location, spelling.capacity, spelling.max_bytes))
    if spelling.kind == "sqlite":
        from chatcodec.serve._response_store_sqlite import SqliteBackend

        return ResponseStore(SqliteBackend(spelling.location, spelling.capacity, spelling.max_bytes))
    return ResponseStore(MemoryBackend(spelling.capacity, spelling.max_bytes))
