"""Kept answers in Redis (``--store redis://HOST:PORT/DB``), shared by several replicas.

Each answer is a hash ``chatcodec:answer:{id}`` (owner, parent, messages, response, size);
the sorted set ``chatcodec:used`` orders them by last use and ``chatcodec:bytes`` counts the
bytes kept, so any replica forgets the least recently used past the bounds (the bounds
hold within what concurrent replicas add in the same instant). A ``rediss://`` URL uses
TLS; a password in the URL (``redis://:secret@host:6379/0``) is sent with ``AUTH``.

The few commands used are spoken in RESP, Redis's own protocol
(https://redis.io/docs/latest/develop/reference/protocol-spec/), over one socket guarded
by a lock: no client package is needed.
"""

from __future__ import annotations

import socket
import ssl
import threading
import time
from urllib.parse import unquote, urlsplit

from chatcodec.serve.response_store import Kept, check_bounds

PREFIX = "chatcodec:"
_FIELDS = ("owner", "parent", "messages", "response", "size")

Reply = bytes | int | list["Reply"] | None


class RedisError(RuntimeError):
    """Redis answered a command with an error, or the connection broke."""


class RespConnection:
    """One connection to a Redis server, one command at a time."""

    def __init__(self, url: str, timeout: float = 10.0) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("redis", "rediss"):
            raise ValueError(f"a Redis store URL starts with redis:// or rediss://, not {url!r}")
        sock = socket.create_connection((parts.hostname or "localhost", parts.port or 6379), timeout=timeout)
        if parts.scheme == "rediss":
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=parts.hostname)
        self._socket = sock
        self._reader = sock.makefile("rb")
        self._lock = threading.Lock()
        if parts.password is not None:
            user = unquote(parts.username) if parts.username else None
            self.command("AUTH", *((user,) if user else ()), unquote(parts.password))
        database = parts.path.strip("/")
        if database:
            self.command("SELECT", database)

    def command(self, *arguments: str | int) -> Reply:
        """Send one command and read its reply (an error reply raises :class:`RedisError`)."""
        encoded = [str(argument).encode() for argument in arguments]
        frame = b"*%d\r\n" % len(encoded) + b"".join(b"$%d\r\n%s\r\n" % (len(part), part) for part in encoded)
        with self._lock:
            try:
                self._socket.sendall(frame)
                return self._read()
            except OSError as error:
                raise RedisError(f"the Redis connection broke: {error}") from error

    def _read(self) -> Reply:
        line = self._reader.readline()
        if not line.endswith(b"\r\n"):
            raise RedisError("the Redis server closed the connection")
        kind, rest = line[:1], line[1:-2]
        if kind == b"+":
            return rest
        if kind == b"-":
            raise RedisError(rest.decode(errors="replace"))
        if kind == b":":
            return int(rest)
        if kind == b"$":
            length = int(rest)
            return None if length < 0 else self._reader.read(length + 2)[:-2]
        if kind == b"*":
            count = int(rest)
            return None if count < 0 else [self._read() for _ in range(count)]
        raise RedisError(f"an unexpected Redis reply: {line[:40]!r}")

    def close(self) -> None:
        self._reader.close()
        self._socket.close()


class RedisBackend:
    """Kept answers in the Redis server at ``url``."""

    def __init__(self, url: str, capacity: int, max_bytes: int) -> None:
        check_bounds(capacity, max_bytes)
        self.capacity = capacity
        self.max_bytes = max_bytes
        self.description: str = f"in Redis at {urlsplit(url).hostname}"
        self._redis = RespConnection(url)

    def __len__(self) -> int:
        count = self._redis.command("ZCARD", PREFIX + "used")
        return count if isinstance(count, int) else 0

    def load(self, answer_id: str) -> Kept | None:
        values = self._redis.command("HMGET", PREFIX + "answer:" + answer_id, *_FIELDS[:4])
        if not isinstance(values, list) or values[0] is None:
            return None
        self._redis.command("ZADD", PREFIX + "used", time.time_ns(), answer_id)
        owner, parent, messages, response = (value.decode() if isinstance(value, bytes) else None for value in values)
        return Kept(owner or "", parent or None, messages or "[]", response or "{}")

    def save(self, answer_id: str, kept: Kept) -> None:
        key = PREFIX + "answer:" + answer_id
        old = self._redis.command("HGET", key, "size")
        values: tuple[str | int, ...] = (kept.owner, kept.parent or "", kept.messages, kept.response, kept.size)
        pairs: list[str | int] = [item for pair in zip(_FIELDS, values, strict=True) for item in pair]
        self._redis.command("HSET", key, *pairs)
        self._redis.command("ZADD", PREFIX + "used", time.time_ns(), answer_id)
        grown = kept.size - (int(old) if isinstance(old, bytes) else 0)
        self._redis.command("INCRBY", PREFIX + "bytes", grown)
        self._forget_beyond_bounds()

    def _forget_beyond_bounds(self) -> None:
        while True:
            count = self._redis.command("ZCARD", PREFIX + "used")
            total = self._redis.command("GET", PREFIX + "bytes")
            kept_bytes = int(total) if isinstance(total, bytes) else 0
            if not (isinstance(count, int) and (count > self.capacity or kept_bytes > self.max_bytes)):
                return
            popped = self._redis.command("ZPOPMIN", PREFIX + "used")
            if not isinstance(popped, list) or not popped or not isinstance(popped[0], bytes):
                return
            key = PREFIX + "answer:" + popped[0].decode()
            size = self._redis.command("HGET", key, "size")
            self._redis.command("DEL", key)
            self._redis.command("DECRBY", PREFIX + "bytes", int(size) if isinstance(size, bytes) else 0)

    def close(self) -> None:
        self._redis.close()
