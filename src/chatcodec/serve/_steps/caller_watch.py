"""The caller watched while the upstream works (around :mod:`.send` and :mod:`.answer` or
:mod:`.stream`): a caller that goes away cancels the upstream call, a plain request as
much as a stream, which closes the upstream connection, the way an HTTP upstream learns
to stop. Once a stream's headers are sent, Starlette cancels its body when the caller
goes, and the stream closes the upstream itself."""

from __future__ import annotations

import asyncio
from types import TracebackType

import anyio
from starlette.requests import Request
from starlette.responses import Response

from chatcodec.serve._request_log import RequestRecord

CLIENT_GONE = 499
"""The status logged for a caller that went away before its answer (nginx's convention)."""
GONE = "the caller went away before its answer (the upstream call was cancelled)"
"""The reason logged with it."""


class Watched:
    """The body of a ``with`` cancelled if the caller disconnects first: set ``response``
    on it, and answer its :meth:`answer`.

    The body runs in a cancel scope of its own, which the watcher task cancels when the caller
    goes (so the steps' shielded closes stay shielded); the watcher is a bare asyncio task,
    cancelled when the body ends. A task group costs much of a plain request's own work in
    serve (its spawn, and its scope's ``cancel`` formatting the task's repr every time), and
    an ``asynccontextmanager`` around the scope more: entering and leaving
    await nothing, so this is a plain context manager."""

    __slots__ = ("_record", "_request", "_scope", "_watcher", "response")

    def __init__(self, request: Request, record: RequestRecord) -> None:
        self.response: Response | None = None
        self._request, self._record = request, record
        self._scope = anyio.CancelScope()

    def __enter__(self) -> Watched:
        self._watcher = asyncio.get_running_loop().create_task(_cancel_when_gone(self._request, self._scope))
        self._scope.__enter__()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> bool:
        try:
            return bool(self._scope.__exit__(kind, error, traceback))
        finally:
            self._watcher.cancel()

    def answer(self) -> Response:
        """The response, or, for a caller that went away first, a bare 499 that nobody reads
        (the log line says ``cancelled`` and why)."""
        if self.response is not None:
            return self.response
        self._record.status, self._record.cancelled = CLIENT_GONE, True
        self._record.error = GONE
        return Response(status_code=CLIENT_GONE)


unless_caller_leaves = Watched
"""``with unless_caller_leaves(request, record) as watched:`` (the name says what the body is under)."""


async def _cancel_when_gone(request: Request, scope: anyio.CancelScope) -> None:
    while (await request.receive())["type"] != "http.disconnect":
        pass
    scope.cancel()
