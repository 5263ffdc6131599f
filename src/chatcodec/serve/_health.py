"""Whether the server can take requests (``GET /health``), apart from whether it runs
(``GET /health/live``).

A load balancer sends traffic where ``/health`` answers 200, so it must fail when what a
request needs fails: the store (``--store``), where a Responses answer is continued and
kept. A Redis server stopped or a SQLite file gone bad makes it 503 naming the part
(``{"status": "unavailable", "failing": "store", ...}``), and the store answering again
makes it 200 again. The upstreams are not asked: an upstream outage is answered in each
request's own shape (502, 503, 504), and a balancer taking every replica out for it
would only turn those into its own errors. An orchestrator's liveness probe
(``/health/live``) asks nothing: restarting a process because Redis is down does not bring
Redis back.

The check is cheap enough for any probe interval: one store read (SQLite's ``SELECT``, a
Redis ``ZCARD``) within :data:`CHECK_TIMEOUT` seconds (after a save failed, one small write
too: a full disk or a Redis at its memory limit answers reads and keeps nothing, and is
reported ``"the store cannot keep answers: OperationalError (SQLITE_FULL)"`` until a write
succeeds), its verdict reused for
:data:`FRESH_FOR` seconds, and probes arriving while one check is under way wait for it
rather than each asking the store. Both routes need no key; the body names the part and
the error's type, never a host or a path (the log line has the whole error).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import anyio

from chatcodec.serve._request_log import LOGGER
from chatcodec.serve._response_store import CannotKeepError, ResponseStore, StoreError

__all__ = ["CHECK_TIMEOUT", "FRESH_FOR", "HealthCheck", "Verdict"]

CHECK_TIMEOUT = 2.0
"""Seconds the store has to answer the check (then it is failing)."""
FRESH_FOR = 1.0
"""Seconds a verdict is reused: however often probes come, the store is asked at most once in that time."""


@dataclass(frozen=True)
class Verdict:
    """What ``/health`` answers: its status and body."""

    status: int
    body: dict[str, str]


READY = Verdict(200, {"status": "ok"})


class HealthCheck:
    """The readiness of a server whose requests need ``store`` (None: nothing to check)."""

    def __init__(self, store: ResponseStore | None) -> None:
        self._store = store
        self._last: Verdict | None = None
        self._checked_at = 0.0
        self._under_way: anyio.Event | None = None

    async def verdict(self) -> Verdict:
        """The current verdict: a fresh one reused, one under way waited for, else one checked now."""
        while True:
            if self._last is not None and time.monotonic() - self._checked_at < FRESH_FOR:
                return self._last
            if self._under_way is None:
                return await self._check()
            await self._under_way.wait()  # then fresh, unless that check was cancelled

    async def _check(self) -> Verdict:
        under_way = self._under_way = anyio.Event()
        try:
            verdict = await self._store_verdict()
            self._last, self._checked_at = verdict, time.monotonic()
            return verdict
        finally:
            self._under_way = None
            under_way.set()

    async def _store_verdict(self) -> Verdict:
        if self._store is None:
            return READY
        try:
            with anyio.fail_after(CHECK_TIMEOUT):
                await self._store.check()
        except TimeoutError:
            return _failing(f"the store did not answer within {CHECK_TIMEOUT:g} s", "")
        except StoreError as error:
            what = "cannot keep answers" if isinstance(error, CannotKeepError) else "failed"
            return _failing(f"the store {what}: {_kind(error)}", str(error))
        return READY


def _kind(error: StoreError) -> str:
    """The error's type, and SQLite's name for its code where it has one (``SQLITE_FULL``):
    what failed, with no host or path."""
    cause = error.__cause__ if error.__cause__ is not None else error
    code = getattr(cause, "sqlite_errorname", None)
    return f"{type(cause).__name__} ({code})" if isinstance(code, str) else type(cause).__name__


def _failing(reason: str, detail: str) -> Verdict:
    LOGGER.warning("/health: %s%s", reason, f" ({detail})" if detail else "")
    return Verdict(503, {"status": "unavailable", "failing": "store", "error": reason})
