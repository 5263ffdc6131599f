"""A recorded session read back and closed over HTTP, for the trainer that drives the rollouts:

- ``GET /v1/sessions/{id}`` answers ``{"session", "parent", "turns", "reward", "metadata",
  "status"}``: the session's record lines (in turn order), each whole: a line the store
  holds as what is new since the line it ``extends`` (:mod:`chatcodec._training.record_deltas`)
  with its ``messages``, ``prompt_ids`` and ``tools`` rebuilt, as a trainer reads them; the
  session it is a subagent of, and the reward and metadata of its end (``status``
  ``complete``), or null and {} while it is ``open``;
- ``POST /v1/sessions/{id}/complete`` with ``{"reward": number, "metadata": {...}}`` appends
  the session's end to the store (a line :func:`chatcodec.read_episodes` reads beside the
  turns) and answers as the read-back does; a session ended already is a 409, one with no line
  in the store a 404.

Why read the store rather than remember the turns in the process: the trainer may ask any
gateway of several recording into one directory, and the store is what they share; the
answer is what a reader of the store after the run would see. A read-back walks the store's
lines, parsing only those that hold the session's name (a byte search skips the rest), on a
worker thread. A caller is let in as a call is (:mod:`.steps.authenticate`): one of the
server's client keys when it has any.
"""

from __future__ import annotations

import math
from typing import Any

import anyio
import pydantic_core
from anyio import to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from chatcodec._errors import PayloadError
from chatcodec._losses import LossRecorder
from chatcodec._narrow import is_dict
from chatcodec._training.gateway import END, Rebuilder, end_line, record_lines
from chatcodec.serve._limits import json_object, read_body
from chatcodec.serve._refusal import RefusalError, refused
from chatcodec.serve._request_log import LOGGER
from chatcodec.serve._steps.authenticate import admitted
from chatcodec.serve._steps.shared import Server
from chatcodec.serve._turn_records import RecordError

OPEN = "open"
"""A session's status until its end is recorded."""
COMPLETE = "complete"
"""A session's status once its end is recorded."""


def session_routes(server: Server) -> list[BaseRoute]:
    """The read-back and complete routes (none when the server records no turns)."""
    if server.turns is None:
        return []
    ending = anyio.Lock()  # one end at a time in this process: a second complete sees the first

    async def read(request: Request) -> Response:
        try:
            admitted(server.config, request)
            return JSONResponse(await _found(server, request.path_params["session"]))
        except RefusalError as refusal:
            return refused(server.config.api, refusal)

    async def complete(request: Request) -> Response:
        try:
            admitted(server.config, request)
            config = server.config
            end = _end(json_object(await read_body(request, config.max_body_bytes, config.body_timeout)))
            async with ending:
                return JSONResponse(await _completed(server, request.path_params["session"], *end))
        except RefusalError as refusal:
            return refused(server.config.api, refusal)

    return [
        Route("/v1/sessions/{session}", read, methods=["GET"]),
        Route("/v1/sessions/{session}/complete", complete, methods=["POST"]),
    ]


async def _found(server: Server, session: str) -> dict[str, Any]:
    """The session's read-back, or a 404 when no line names it."""
    try:
        found = await to_thread.run_sync(_read_back, server, session)
    except Exception as error:  # a store that cannot be read (a file gone, Redis down): said, not a 500
        LOGGER.warning("the record store could not be read back: %r", error)
        raise RefusalError(503, "the record store cannot be read now (see the gateway's log); try again") from None
    if found is None:
        raise RefusalError(404, f"no turn of session {session!r} is recorded here")
    return found


async def _completed(server: Server, session: str, reward: float, metadata: dict[str, Any]) -> dict[str, Any]:
    found = await _found(server, session)
    if found["status"] != OPEN:
        raise RefusalError(409, f"session {session!r} was completed already (reward {found['reward']})")
    turns = server.turns
    assert turns is not None, "routed only for a server recording turns"
    line = end_line(session=session, parent=found["parent"], reward=reward, metadata=metadata)
    try:
        await to_thread.run_sync(turns.append, line)
    except RecordError as failure:
        raise RefusalError(503, f"the session's end was not recorded: {failure}") from None
    return {**found, "reward": reward, "metadata": metadata, "status": COMPLETE}


def _read_back(server: Server, session: str) -> dict[str, Any] | None:
    turns = server.turns
    assert turns is not None, "routed only for a server recording turns"
    recorder = LossRecorder()  # lines that are not whole are the readers' losses, not this answer's
    needle = b'"session":' + pydantic_core.to_json(session)
    lines: list[dict[str, Any]] = []
    end: dict[str, Any] | None = None
    parent: str | None = None
    rebuilder = Rebuilder()
    for where, read in record_lines(turns.path, recorder, needle):
        if read.get("session") != session:
            continue  # the name in another session's text
        try:
            record = read if read.get("kind") == END else rebuilder.rebuilt(read, where)
        except PayloadError as error:  # a line extending one this reading never read
            recorder.add(error.path, "a line that is no record", str(error))
            continue
        named = record.get("parent")
        parent = parent or (named if isinstance(named, str) and named else None)
        if record.get("kind") == END:
            end = end or record
        else:
            lines.append(record)
    if not lines and end is None:
        return None
    lines.sort(key=_turn_of)
    return {
        "session": session,
        "parent": parent,
        "turns": lines,
        "reward": None if end is None else end.get("reward"),
        "metadata": {} if end is None else end.get("metadata"),
        "status": OPEN if end is None else COMPLETE,
    }


def _turn_of(record: dict[str, Any]) -> int:
    turn = record.get("turn")
    return turn if isinstance(turn, int) else -1


def _end(body: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    """The reward and metadata a complete call sends (a 400 naming the field that is not)."""
    reward, metadata = body.get("reward"), body.get("metadata", {})
    if not isinstance(reward, int | float) or isinstance(reward, bool) or not math.isfinite(reward):
        raise RefusalError(400, "$.reward: a session's end needs its reward, a finite number")
    if not is_dict(metadata):
        raise RefusalError(400, "$.metadata: the metadata of a session's end is a JSON object")
    unknown = sorted(set(body) - {"reward", "metadata"})
    if unknown:
        raise RefusalError(400, f"$.{unknown[0]}: a session's end takes 'reward' and 'metadata' only")
    return float(reward), metadata
