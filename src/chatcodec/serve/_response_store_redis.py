"""Kept records in Redis (``--store redis://HOST:PORT/DB``), shared by several replicas.

Each record is a hash ``chatcodec:answer:{id}`` (owner, parent, messages, response, size,
and its thread: the id of the record that started it); the sorted set ``chatcodec:used``
holds the records by when they were kept, ``chatcodec:threads`` the threads by last use,
the list ``chatcodec:thread:{id}`` a thread's records, oldest first, and
``chatcodec:bytes`` counts the bytes kept. Keeping a record is one Lua script
(https://redis.io/docs/latest/develop/interactive/programmability/eval-intro/), so it
runs whole on the server: the record written, its thread made recent (one entry, however
long the thread: no ancestor is touched), the least recently used thread's oldest
records forgotten past the bounds, with no other replica's command in between. Reading a
thread is another script that walks the parents on the server: one round trip for the
whole history. The scripts name keys they
derive from the records, so the store needs one Redis server (or a primary and its
replicas), not a Redis Cluster.

The client is ``redis.asyncio`` (redis-py, https://redis.readthedocs.io/en/stable/
examples/asyncio_examples.html; the ``redis`` extra): a pool of connections, each command
with a timeout, a connection broken by a restart dropped and made again with a short
backoff (:data:`RETRIES` tries). A ``rediss://`` URL uses TLS; a password in the URL
(``redis://:secret@host:6379/0``) is sent with ``AUTH``; the URL may set redis-py's
connection settings (:data:`URL_SETTINGS`, e.g. ``?socket_timeout=2``).
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

from chatcodec._extras import missing_extra
from chatcodec.serve._response_store import Kept, StoreError, check_bounds

PREFIX = "chatcodec:"
TIMEOUT = 5.0
"""Seconds one command may take (``socket_timeout``), unless the URL says otherwise; a
Redis server that stalls longer is a :class:`StoreError`, reported beside the answer."""
RETRIES = 3
"""Tries of a command after its connection broke (a restart), with exponential backoff."""

URL_SETTINGS = frozenset(
    {
        "db",
        "health_check_interval",
        "max_connections",
        "protocol",
        "socket_connect_timeout",
        "socket_keepalive",
        "socket_timeout",
        "ssl_check_hostname",
        "ssl_min_version",
        "timeout",
    }
)
"""The connection settings a store URL may carry: those of redis-py's URL parser
(``redis.connection.URL_QUERY_ARGUMENT_PARSERS``) that configure a connection; any other
parameter (a misspelt ``max_answer=``) is refused when the server starts."""

_SAVE = """
local prefix, key, owner, parent = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local messages, response, size = ARGV[5], ARGV[6], tonumber(ARGV[7])
local now, capacity, max_bytes = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
local used, total, threads = prefix .. 'used', prefix .. 'bytes', prefix .. 'threads'
local function forget(gone)
  local record = prefix .. 'answer:' .. gone
  local fields = redis.call('HMGET', record, 'size', 'thread')
  redis.call('DEL', record)
  redis.call('ZREM', used, gone)
  redis.call('DECRBY', total, tonumber(fields[1] or '0') or 0)
  return fields[2]
end
local record = prefix .. 'answer:' .. key
local before = redis.call('HGET', record, 'thread')
if before then
  redis.call('LREM', prefix .. 'thread:' .. before, 0, key)
  forget(key)
end
local thread = key
if parent ~= '' then
  local above = redis.call('HMGET', prefix .. 'answer:' .. parent, 'thread', 'owner')
  if above[2] then thread = above[1] or parent end
end
redis.call('HSET', record, 'owner', owner, 'parent', parent, 'messages', messages, 'response', response,
  'size', size, 'thread', thread)
redis.call('ZADD', used, now, key)
redis.call('ZADD', threads, now, thread)
redis.call('RPUSH', prefix .. 'thread:' .. thread, key)
redis.call('INCRBY', total, size)
while redis.call('ZCARD', used) > capacity or (tonumber(redis.call('GET', total) or '0') or 0) > max_bytes do
  local oldest = redis.call('ZRANGE', used, 0, 0)
  if #oldest == 0 then break end
  if not redis.call('HGET', prefix .. 'answer:' .. oldest[1], 'thread') then
    forget(oldest[1])
  else
    local stale = redis.call('ZRANGE', threads, 0, 0)
    if #stale == 0 then
      forget(oldest[1])
    else
      local members = prefix .. 'thread:' .. stale[1]
      local gone = redis.call('LPOP', members)
      if redis.call('LLEN', members) == 0 then redis.call('ZREM', threads, stale[1]) end
      if gone then forget(gone) end
    end
  end
end
return 1
"""
"""Keep one record in its thread (its parent's, else its own), make the thread recent (one
entry, whatever its length), and forget past the bounds: the least recently used thread's
oldest records first (a record kept before threads were, which has none, before any)."""

_CHAIN = """
local prefix, key, limit = ARGV[1], ARGV[2], tonumber(ARGV[3])
local found = {}
local depth = 0
while key ~= '' and depth < limit do
  local fields = redis.call('HMGET', prefix .. 'answer:' .. key, 'owner', 'parent', 'messages')
  if not fields[1] then break end
  found[#found + 1] = fields[1]
  found[#found + 1] = fields[2] or ''
  found[#found + 1] = fields[3] or '[]'
  found[#found + 1] = ''
  key, depth = fields[2] or '', depth + 1
end
return found
"""
"""A record and its ancestors, nearest first, as owner, parent, messages and an empty
response in a row (a history needs no answer's body)."""


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RedisBackend:
    """Kept records in the Redis server at ``url`` (connected on first use)."""

    def __init__(self, url: str, capacity: int, max_bytes: int) -> None:
        check_bounds(capacity, max_bytes)
        try:
            from redis.asyncio import ConnectionPool, Redis
            from redis.asyncio.connection import parse_url
            from redis.asyncio.retry import Retry
            from redis.backoff import ExponentialBackoff
            from redis.exceptions import ConnectionError as RedisConnectionError
        except ImportError:
            raise ValueError(str(missing_extra("a Redis store", "redis", "redis"))) from None
        self.capacity = capacity
        self.max_bytes = max_bytes
        self.description: str = f"in Redis at {urlsplit(url).hostname}"
        settings: dict[str, Any] = {"socket_timeout": TIMEOUT, "socket_connect_timeout": TIMEOUT}
        settings.update(parse_url(url))  # the URL's own settings win
        retry = Retry(ExponentialBackoff(cap=1.0, base=0.05), RETRIES, supported_errors=(RedisConnectionError,))
        pool = ConnectionPool(**settings, retry=retry, health_check_interval=30)
        self._redis = Redis.from_pool(pool)  # closing the client closes its pool
        self._save = self._redis.register_script(_SAVE)
        self._chain = self._redis.register_script(_CHAIN)

    async def _call(self, what: str, command: Any) -> Any:
        from redis.exceptions import RedisError

        try:
            return await command
        except (RedisError, OSError) as error:
            raise StoreError(f"the Redis store {self.description[9:]} failed to {what}: {error!r}") from error

    async def count(self) -> int:
        found = await self._call("count", self._redis.zcard(PREFIX + "used"))
        return int(found)

    async def check(self) -> None:
        await self.count()  # ZCARD: O(1), and typed where redis-py's PING is not

    async def load(self, key: str) -> Kept | None:
        values = await self._call(
            "read", self._redis.hmget(PREFIX + "answer:" + key, ["owner", "parent", "messages", "response"])
        )
        if not values or values[0] is None:
            return None
        owner, parent, messages, response = (_text(value) if value is not None else "" for value in values)
        return Kept(owner, parent or None, messages or "[]", response or "{}")

    async def chain(self, key: str, limit: int) -> list[Kept]:
        flat = await self._call("read", self._chain(args=[PREFIX, key, limit]))
        fields = [_text(value) for value in flat]
        return [
            Kept(fields[at], fields[at + 1] or None, fields[at + 2], fields[at + 3]) for at in range(0, len(fields), 4)
        ]

    async def save(self, key: str, kept: Kept) -> None:
        now = time.time_ns() // 1000  # microseconds: exact as a Lua number (a double)
        arguments: list[str | int] = [
            PREFIX,
            key,
            kept.owner,
            kept.parent or "",
            kept.messages,
            kept.response,
            kept.size,
            now,
        ]
        await self._call("write", self._save(args=[*arguments, self.capacity, self.max_bytes]))

    async def check_write(self, size: int) -> None:
        key = PREFIX + "write-check"
        await self._call("write", self._redis.set(key, "0" * size, px=10_000))
        await self._call("write", self._redis.delete(key))

    async def secret(self, name: str, candidate: str) -> str:
        key = PREFIX + "secret:" + name
        await self._call("write", self._redis.set(key, candidate, nx=True))
        return _text(await self._call("read", self._redis.get(key)))

    async def close(self) -> None:
        await self._redis.aclose()
