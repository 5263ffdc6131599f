"""``--record redis://HOST:PORT/N``: record lines appended to a Redis Stream, for gateways on
many machines with no shared filesystem (the ``redis`` extra).

Each line is one ``XADD`` to :data:`~chatcodec._training.record_stream.STREAM`: atomic (an
entry is whole or absent, so no writer tears another's line), ordered by the server, read
back by :func:`chatcodec.read_records` and :func:`chatcodec.read_episodes` given the same URL.
A Redis server that cannot take the line (down, out of memory) is reported as a full disk
is: the answer is delivered, and the turn named unrecorded beside it. The client is redis-py's
synchronous one, called on a worker thread (:attr:`TurnStream.offloaded`), never in the event loop.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from chatcodec._training.gateway import FIELD, STREAM, redis_client
from chatcodec.serve._turn_records import RecordError


class TurnStream:
    """The Redis Stream turns are appended to (checked reachable at start)."""

    offloaded = True
    """Whether each line is written on a worker thread (a network round trip)."""
    opened = 1
    """One stream for the gateway's life."""

    def __init__(self, url: str) -> None:
        self.path = url
        """What the store's readers read: the URL."""
        self._where = f"Redis at {urlsplit(url).hostname}"
        self._redis = client = redis_client(url)  # a ValueError naming the extra when redis-py is missing
        # redis-py's client is safe across threads: each command takes a connection of its pool
        from redis.exceptions import RedisError

        try:
            client.ping()
        except (RedisError, OSError) as error:
            raise ValueError(f"--record: the {self._where} cannot be reached: {error}") from None

    def append(self, line: bytes, whole: Callable[[], bytes] | None = None, opened: int = 1) -> int:
        """``XADD`` the line, or a :class:`RecordError` saying why it was not (one stream for
        the gateway's life: ``whole`` is never written)."""
        from redis.exceptions import RedisError

        try:
            self._redis.xadd(STREAM, {FIELD: line})
        except (RedisError, OSError) as error:
            raise RecordError(f"the turn was not recorded in {self._where}: {error}") from None
        return self.opened

    def close(self) -> None:
        self._redis.close()
