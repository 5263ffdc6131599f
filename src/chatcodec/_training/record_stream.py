"""A record store in Redis (``chatcodec serve --record redis://HOST:PORT/N``) read back: the
entries of the stream :data:`STREAM`, oldest first, a page at a time.

Why a Redis Stream: gateways on many machines append to one log with no shared filesystem,
each ``XADD`` atomic (an entry is whole or absent: no torn line), ordered by the server, and
read back in pages (``XRANGE``) with memory flat in the stream's length. An entry holds one
record line in its ``line`` field, the same bytes a file holds (``redis`` extra).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from chatcodec._extras import missing_extra

STREAM = "chatcodec:turns"
"""The stream every gateway of a Redis URL appends its record lines to."""
FIELD = "line"
"""The entry field holding a record line."""
PAGE = 500
"""Entries read a round trip."""
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
TIMEOUT = 5.0
"""Seconds a command may take, unless the URL says otherwise."""


def is_redis(path: object) -> bool:
    """Whether ``path`` names a Redis store rather than a file or a directory."""
    return isinstance(path, str) and path.startswith(REDIS_SCHEMES)


def redis_client(url: str) -> Any:
    """A redis-py client for ``url`` (a :class:`ValueError` naming the extra when it is missing)."""
    try:
        from redis import ConnectionPool, Redis
    except ImportError:
        raise ValueError(str(missing_extra("a Redis record store", "redis", "redis"))) from None
    # the URL's own settings win over these (redis-py's from_url); its **kwargs are untyped
    pool = ConnectionPool.from_url(  # pyright: ignore[reportUnknownMemberType]
        url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT
    )
    return Redis.from_pool(pool)  # closing the client closes its pool


def stream_lines(url: str) -> Iterator[tuple[str, bytes]]:
    """Each entry's id (``entry ID``) and record line, oldest first, a page a round trip."""
    client = redis_client(url)
    try:
        start = "-"
        while True:
            page = client.xrange(STREAM, min=start, count=PAGE)
            for entry, fields in page:
                name = entry.decode() if isinstance(entry, bytes) else str(entry)
                line = fields.get(FIELD.encode(), b"")
                yield f"entry {name}", line if line.endswith(b"\n") else line + b"\n"
            if len(page) < PAGE:
                return
            last = page[-1][0]
            start = "(" + (last.decode() if isinstance(last, bytes) else str(last))
    finally:
        client.close()
