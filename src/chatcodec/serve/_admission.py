"""Admission: how many upstream calls run at once, how many requests wait for one, and
for how long, so an overloaded server answers a clear 503 of its own instead of an upstream
error that is not the upstream's.

Without it every request past the upstream pool's ``max_connections`` waited inside httpx,
whose pool wait was no bound here (httpx 0.28, httpcore 1.0: 64 requests on 8 connections
to an upstream answering in 2 s with a 3 s ``pool_timeout`` were all served, the last after
16.6 s, none refused), while its ``connect_timeout`` and ``timeout`` ran on a loop as busy
as the whole queue: under 32 to 64 concurrent callers serve answered 502 and 504 that the
upstream did not cause, and an operator could not bound the wait. Here a call takes one of
``max_connections`` slots before it reaches the client, so httpx always finds a free
connection and its timers time the upstream exchange alone; a request finding every slot
taken waits in a first-come queue of at most ``max_queued`` requests for at most
``pool_timeout`` seconds, and is answered 503 with ``Retry-After`` (in the front's own
error shape and overload status, :mod:`.refusal`: Anthropic's front answers 529
``overloaded_error``, as Anthropic does) when the queue is full or the wait ends. A slot is held
until the upstream response is closed (a stream's, when the stream ends), and a queued
caller that goes away leaves the queue (:mod:`.steps.caller_watch` cancels its wait).

503, not 429: the server is overloaded, not the caller over its rate (RFC 9110 section
15.6.4: 503 "the server is currently unable to handle the request due to a temporary
overload", with ``Retry-After``); OpenAI answers its own overload 503 and Google's
``UNAVAILABLE`` is 503, and the OpenAI and Anthropic SDKs retry a 503 after the
``Retry-After`` it carries (``_calculate_retry_timeout`` in openai-python and
anthropic-sdk-python). Each refusal is counted (``chatcodec.serve.admission.refused``,
:mod:`.telemetry`, with the reason) and its log line says which bound it met.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Callable

import httpx

from chatcodec.serve._refusal import RefusalError

__all__ = ["QUEUE_FULL", "QUEUE_WAIT", "RETRY_AFTER", "Admission", "SlotStream"]

RETRY_AFTER = "1"
"""Seconds a refused caller is told to wait (``Retry-After``): a slot frees as soon as one
call ends, so the soonest a retry can be served."""
QUEUE_FULL = "queue_full"
QUEUE_WAIT = "queue_wait"
"""The reasons a request is refused, as counted (``chatcodec.serve.admission.reason``)."""


class Admission:
    """``calls`` upstream calls at once, at most ``queued`` requests waiting for one, each
    for at most ``wait`` seconds; ``on_refused`` is told each refusal's reason."""

    def __init__(self, calls: int, queued: int, wait: float, on_refused: Callable[[str], None]) -> None:
        self.calls, self.queued, self.wait = calls, queued, wait
        self.on_refused = on_refused
        self.busy = 0
        """Slots held (calls under way)."""
        self._waiting: deque[asyncio.Future[None]] = deque()

    @property
    def waiting(self) -> int:
        """Requests in the queue now (a wait given up and not yet dropped included)."""
        return len(self._waiting)

    def take(self) -> bool:
        """Take a slot if one is free and nobody waits (then no coroutine is made: most calls)."""
        if self.busy < self.calls and not self._waiting:
            self.busy += 1
            return True
        return False

    async def enter(self) -> None:
        """Take a slot: at once when one is free and nobody waits, else in turn, or a 503."""
        if self.take():
            return
        if len(self._waiting) >= self.queued:
            raise self._refused(QUEUE_FULL, f"all {self.calls} upstream calls are busy and {self.queued} wait already")
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(turn)
        try:
            async with asyncio.timeout(self.wait):
                await turn
        except BaseException as error:
            if turn.done() and not turn.cancelled():  # the slot came as the wait ended: passed on
                self.leave()
            elif turn in self._waiting:  # else :meth:`leave` dropped it already, given up
                turn.cancel()
                self._waiting.remove(turn)
            if isinstance(error, TimeoutError):
                message = f"all {self.calls} upstream calls stayed busy for {self.wait:g} s (--pool-timeout)"
                raise self._refused(QUEUE_WAIT, message) from None
            raise

    def leave(self) -> None:
        """Give a slot back: to the first request still waiting, else free."""
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self.busy -= 1

    def _refused(self, reason: str, why: str) -> RefusalError:
        self.on_refused(reason)
        return RefusalError(
            503, f"{why}: this server is overloaded; try again", headers={"retry-after": RETRY_AFTER}, overload=True
        )


class SlotStream(httpx.AsyncByteStream):
    """An upstream response's body stream that gives its call's slot back when it is
    closed, once (httpx closes it when the body is read whole, and serve closes every
    response however it ends). Iterating it is iterating the stream it wraps: no step per chunk."""

    def __init__(self, stream: httpx.AsyncByteStream, admission: Admission) -> None:
        self._stream = stream
        self._admission: Admission | None = admission

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self._stream.__aiter__()

    async def aclose(self) -> None:
        try:
            await self._stream.aclose()
        finally:
            admission, self._admission = self._admission, None
            if admission is not None:
                admission.leave()
