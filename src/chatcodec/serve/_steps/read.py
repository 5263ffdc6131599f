"""Step 2: the body read within its size limit and parsed (:mod:`chatcodec.serve._limits`:
one JSON object, nested no deeper than its limit, nothing no encoder writes back), read
as the front's call, and given the server's options where the front answers with its
own resources (:mod:`chatcodec.serve._fronts.answering`); a large body is parsed on a
worker thread."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial

from anyio import to_thread
from starlette.requests import Request

from chatcodec.serve._fronts import FrontError, answering, read_call
from chatcodec.serve._limits import json_object, read_body
from chatcodec.serve._refusal import RefusalError
from chatcodec.serve._request_log import RequestRecord
from chatcodec.serve._steps.shared import Server


@dataclass(frozen=True)
class ReadCall:
    """A request read as the front's call."""

    answer: answering.Prepared
    """The call, and what the front owes its answer."""
    size: int
    """The body's bytes (a large request is converted on a worker thread)."""


async def read(server: Server, request: Request, record: RequestRecord) -> ReadCall:
    """The request's call (a 413 past the size limit, a 400 for what is not one JSON
    object, a 404 for a path the front cannot route)."""
    raw = await read_body(request, server.config.max_body_bytes, server.config.body_timeout)
    target, query = (
        request.path_params.get("target"),
        dict(request.query_params) if request.scope.get("query_string") else {},
    )
    parse = partial(_parsed, server, raw, target, query)
    answer = await to_thread.run_sync(parse) if len(raw) > server.config.offload_bytes else parse()
    record.model, record.stream = answer.call.model, answer.call.stream
    return ReadCall(answer, len(raw))


def _parsed(server: Server, raw: bytes, target: str | None, query: Mapping[str, str]) -> answering.Prepared:
    fields = json_object(raw, numbers_read=True)  # read by the front's reader or the conversion
    try:
        call = read_call(server.config.api, fields, target, query)
    except FrontError as error:
        raise RefusalError(404, str(error)) from None
    try:
        return server.answerer.prepare(call)
    except answering.AnswerRefusedError as refusal:
        raise RefusalError(400, str(refusal)) from None
