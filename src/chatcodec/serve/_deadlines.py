"""Deadlines for what a caller sends: a request's head, then its body.

uvicorn closes a keep-alive connection that stays idle after an answer
(``timeout_keep_alive``), but it sets no timer on a new connection, and any byte received
cancels the one it set: a caller that opens sockets and sends nothing, or a head one byte
at a time (slowloris), holds each socket for ever. Two deadlines close that:

- **the head** (:func:`head_deadline_protocol`): a connection has ``head_timeout``
  seconds, from its opening or from the first byte of its next request, to send a whole
  request head, or it is closed. It is uvicorn's own h11 protocol with one timer added
  (``uvicorn.Config(http=...)``), since the application never sees a request whose head
  has not arrived;
- **the body** (:class:`BodyDeadline`, around the one read of a body:
  :func:`chatcodec.serve._limits.read_body`): once the handler reads it, right after its
  head, a request has ``body_timeout`` seconds to send its whole body, or it is answered
  408 in the front's error shape with ``connection: close`` (a half-sent body would leave
  the connection unreadable), so a task never waits on a caller that stopped sending. One
  timer around the whole read, not an ASGI middleware timing every ``receive`` (only a
  body needs the deadline, and the layer and its ``asyncio.timeout`` cost
  every request more).

Two more hold the server's side: **the write deadline** (:func:`write_deadline_stream`):
a stream's caller that stops reading while its connection stays open would block the
write for ever (uvicorn waits for its buffer to drain), holding the upstream stream and
its pool connection; a write not accepted within ``write_timeout`` seconds ends the
stream, and the upstream stream is closed. The caller's connection is then aborted, not
closed: a close waits for the socket's buffer to drain, which a caller that reads nothing
never does, and uvicorn, seeing a response that ended unfinished on a connection still
open, logged an ERROR line ("ASGI callable returned without completing response.") for
every slow caller, beside the request log's own 499. The head-deadline protocol puts the
abort in the request's scope (:data:`ABORT`), so the line is left for a real fault; under
another server the stream ends as before. **The shutdown deadline**: uvicorn's
``timeout_graceful_shutdown``, so SIGTERM waits ``shutdown_timeout`` seconds for requests
in flight, not for a stream nobody reads.

A head's size is h11's limit (``h11_max_incomplete_event_size``, 16 KiB by default in
uvicorn: a longer head is a 400), and an idle keep-alive connection uvicorn's
``timeout_keep_alive`` (5 s); both kept as uvicorn sets them.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

import anyio
import h11
from starlette.responses import StreamingResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from chatcodec.serve._refusal import RefusalError

__all__ = [
    "ABORT",
    "APP_SEND",
    "BodyDeadline",
    "body_late",
    "head_deadline_protocol",
    "server_settings",
    "write_deadline_stream",
]

ABORT = "chatcodec.abort_connection"
"""The ASGI scope ``extensions`` key of the call that aborts the request's connection (set by
:func:`head_deadline_protocol`; the write deadline calls it on a caller that stopped reading)."""


def head_deadline_protocol(head_timeout: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol, closing a connection whose request head takes longer than
    ``head_timeout`` seconds."""

    class HeadDeadlineProtocol(H11Protocol):
        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.app = _with_abort(self.app, transport.abort)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:  # the head is in: the body's deadline now
                self._disarm()
            elif self._head_timer is None and self.conn.our_state is h11.IDLE:
                self._arm()  # the first bytes of a keep-alive connection's next head

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._head_timer = self.loop.call_later(head_timeout, self._head_late)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_late(self) -> None:
            self._head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

    return HeadDeadlineProtocol


APP_SEND = "chatcodec.app_send"
"""The scope key of the ``send`` the application was called with, outside Starlette's own
middleware (set by :class:`chatcodec.serve._app.ServeApp` when no middleware was added to
it): a stream's body is written there (:meth:`_WriteDeadlineResponse.stream_response`)."""


class BodyDeadline:
    """A request body's deadline, ``seconds`` from now: the reading task is cancelled when it
    passes. One timer handle (``loop.call_later``) and its cancel, as ``asyncio.timeout``
    does, without the timeout's own object and states."""

    __slots__ = ("_cancelling", "_task", "_timer", "fired")

    def __init__(self, seconds: float) -> None:
        task = asyncio.current_task()
        assert task is not None, "a body is read in a task"
        self._task, self._cancelling, self.fired = task, task.cancelling(), False
        self._timer = asyncio.get_running_loop().call_later(seconds, self._fire)

    def _fire(self) -> None:
        self.fired = True
        self._task.cancel()

    def passed(self) -> bool:
        """Whether the ``CancelledError`` being handled is this deadline's (then the
        cancellation is taken back, as ``asyncio.timeout`` does; one from elsewhere stays)."""
        return self.fired and self._task.uncancel() <= self._cancelling

    def cancel(self) -> None:
        """The body is read (or failed): the timer is not needed."""
        self._timer.cancel()


def body_late(seconds: float) -> RefusalError:
    """The 408 for a body that did not arrive whole within ``seconds``, the connection closed."""
    return RefusalError(408, f"the request body did not arrive within {seconds:g} s", headers={"connection": "close"})


def _with_abort(app: ASGIApp, abort: Callable[[], None]) -> ASGIApp:
    """``app`` with ``abort`` (the connection's) in each request's scope extensions."""

    async def with_abort(scope: Scope, receive: Receive, send: Send) -> None:
        scope["extensions"] = {**scope.get("extensions", {}), ABORT: abort}
        await app(scope, receive, send)

    return with_abort


class _WriteDeadlineResponse(StreamingResponse):
    """A streamed answer whose every write must be accepted within ``write_timeout``
    seconds; past it the stream ends (``on_late`` is told first), and its body iterator is
    closed however the response ends, which closes the upstream stream."""

    def __init__(self, *arguments: Any, write_timeout: float, on_late: Callable[[str], None], **settings: Any) -> None:
        super().__init__(*arguments, **settings)
        self.write_timeout = write_timeout
        self.on_late = on_late
        self._writing: float | None = None  # when the write under way started, if one is
        self._body_send: Send | None = None  # the application's own send (:data:`APP_SEND`), if given

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """One cancel scope holds the whole response and one timer watches its writes: a
        write only notes when it started (:meth:`stream_response`), and the timer, due when
        the write under way (or the next) could first be late, ends the response if that
        write is still under way ``write_timeout`` seconds after it started, else sets
        itself for the write then under way. A timer or scope per write
        (``anyio.fail_after``) cost more per streamed event than the write itself."""
        write_timeout, loop = self.write_timeout, asyncio.get_running_loop()
        deadline = anyio.CancelScope()
        timer: asyncio.TimerHandle

        def check() -> None:
            nonlocal timer
            now, writing = loop.time(), self._writing
            if writing is not None and now - writing >= write_timeout:
                deadline.cancel()
            else:
                timer = loop.call_at((now if writing is None else writing) + write_timeout, check)

        timer = loop.call_at(loop.time() + write_timeout, check)
        self._body_send = scope.get(APP_SEND)
        try:
            with deadline:
                await super().__call__(scope, receive, send)
            if deadline.cancelled_caught:  # the caller stopped reading: its connection is aborted (module docstring)
                self.on_late(f"the caller accepted no write for {write_timeout:g} s (it stopped reading)")
                abort = scope.get("extensions", {}).get(ABORT)
                if abort is not None:
                    abort()
                    await asyncio.sleep(0)  # the loop tells uvicorn the connection is lost before the app returns
        finally:
            timer.cancel()
            close = getattr(self.body_iterator, "aclose", None)
            if close is not None:
                with anyio.CancelScope(shield=True):
                    await close()

    async def stream_response(self, send: Send) -> None:
        """Starlette's loop with each write's start noted inline for :meth:`__call__`'s
        timer, and no encoding look (the body is bytes): a ``send`` wrapper coroutine noting
        it cost every streamed event.

        The start goes through ``send``, Starlette's middleware wrappers, which note only
        that the response started (so an error after it is not answered a second time); the
        body, once it has, to the application's own send when the scope holds it
        (:data:`APP_SEND`): the three wrappers' coroutines cost every event
        and do nothing more for a body."""
        time = asyncio.get_running_loop().time
        self._writing = time()
        await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
        self._writing = None
        send = self._body_send or send
        async for chunk in self.body_iterator:
            self._writing = time()
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
            self._writing = None
        self._writing = time()
        await send({"type": "http.response.body", "body": b"", "more_body": False})
        self._writing = None


def write_deadline_stream(
    body: AsyncIterator[bytes],
    media_type: str,
    headers: Mapping[str, str],
    *,
    write_timeout: float,
    on_late: Callable[[str], None],
) -> StreamingResponse:
    """The streamed answer of ``body`` whose every write must be accepted within
    ``write_timeout`` seconds (``on_late`` is told why the stream ended early)."""
    return _WriteDeadlineResponse(
        body, media_type=media_type, headers=headers, write_timeout=write_timeout, on_late=on_late
    )


def server_settings(head_timeout: float, shutdown_timeout: float | None = None) -> dict[str, Any]:
    """The ``uvicorn.Config`` keywords the deadlines need."""
    settings: dict[str, Any] = {"http": head_deadline_protocol(head_timeout)}
    if shutdown_timeout is not None:
        settings["timeout_graceful_shutdown"] = shutdown_timeout
    return settings
