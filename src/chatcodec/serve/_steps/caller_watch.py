"""The caller watched while the upstream works (around :mod:`.send` and :mod:`.answer` or
:mod:`.stream`): a caller that goes away cancels the upstream call, a plain request as
much as a stream, which closes the upstream connection, the way an HTTP upstream learns
to stop. Once a stream's headers are sent, Starlette cancels its body when the caller
goes, and the stream closes the upstream itself."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager

import anyio
from starlette.requests import Request
from starlette.responses import Response

from chatcodec.serve._request_log import RequestRecord

CLIENT_GONE = 499
"""The status logged for a caller that went away before its answer (nginx's convention)."""


class Watched:
    """What the watched work answered (None while it has not)."""

    def __init__(self, record: RequestRecord) -> None:
        self.response: Response | None = None
        self._record = record

    def answer(self) -> Response:
        """The response, or, for a caller that went away first, a bare 499 that nobody reads
        (the log line says ``cancelled``)."""
        if self.response is not None:
            return self.response
        self._record.status, self._record.cancelled = CLIENT_GONE, True
        return Response(status_code=CLIENT_GONE)


@asynccontextmanager
async def unless_caller_leaves(request: Request, record: RequestRecord) -> AsyncGenerator[Watched]:
    """The body of the ``async with`` is cancelled if the caller disconnects first; set
    ``response`` on what it yields, and answer its :meth:`Watched.answer`.

    The body runs in a cancel scope of its own, which the watcher task cancels when the caller
    goes (so the steps' shielded closes stay shielded); the watcher is a bare asyncio task,
    cancelled when the body ends. A task group costs a third of a plain request's own work in
    serve (its spawn, and its scope's ``cancel`` formatting the task's repr every time)."""
    watched = Watched(record)
    scope = anyio.CancelScope()
    watcher = asyncio.get_running_loop().create_task(_cancel_when_gone(request, scope))
    try:
        with scope:
            yield watched
    finally:
        watcher.cancel()


async def _cancel_when_gone(request: Request, scope: anyio.CancelScope) -> None:
    while (await request.receive())["type"] != "http.disconnect":
        pass
    scope.cancel()
