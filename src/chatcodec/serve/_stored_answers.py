"""``GET /v1/responses/{id}``: a kept answer read back by the caller that made it.

OpenAI's Responses API lets a caller retrieve a stored response by its id
(https://platform.openai.com/docs/api-reference/responses/get); the Agents SDK and Codex
CLI do not need it, but a caller that lost a stream or logs answers does. A front whose
answers are the server's own (``Front.answering``) names its paths
(``Answering.routes``); the answer is the body its caller got, from the store
(:mod:`chatcodec.serve._response_store`). A caller is let in as for a call, and only the
key that made an answer reads it: for any other key, as for an id never kept or
forgotten, it is a 404 in the front's error shape, so the answer tells nothing of other
callers' ids.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from chatcodec.serve._fronts import front
from chatcodec.serve._refusal import RefusalError, refused
from chatcodec.serve._response_store import StoreError, owner_of
from chatcodec.serve._steps.authenticate import admitted
from chatcodec.serve._steps.shared import Server


def kept_answer_routes(server: Server) -> list[BaseRoute]:
    """The ``GET`` routes of the front's kept answers (none for a front without them)."""
    answering = front(server.config.api).answering
    if answering is None:
        return []

    async def kept(request: Request) -> Response:
        return await read_kept(server, request)

    return [Route(path, kept, methods=["GET"]) for path in answering.routes]


async def read_kept(server: Server, request: Request) -> Response:
    """The kept answer the path names, for the caller that made it; else a 404."""
    try:
        owner = owner_of(admitted(server.config, request).key)
        answer_id = request.path_params["answer_id"]
        try:
            answer = await server.answerer.read(answer_id, owner)
        except StoreError as error:
            raise RefusalError(503, f"the store of kept answers cannot be read: {error}; try again") from None
        if answer is None:
            noun = server.answerer.noun
            kept = f"keeps no {noun}s" if server.answerer.store is None else f"keeps no such {noun} for your key"
            raise RefusalError(404, f"{noun.capitalize()} with id {answer_id!r} not found: this server {kept}")
    except RefusalError as refusal:
        return refused(server.config.api, refusal)
    return JSONResponse(answer)
