"""``GET /v1/responses/{id}``: a kept answer read back by the caller that made it.

OpenAI's Responses API lets a caller retrieve a stored response by its id
(https://platform.openai.com/docs/api-reference/responses/get); the Agents SDK and Codex
CLI do not need it, but a caller that lost a stream or logs answers does. A front whose
answers are the server's own (``Front.answering``) names its paths
(``Answering.routes``); the answer is the body its caller got, from the store
(:mod:`chatcodec.serve.response_store`). A caller is let in as for a call, and only the
key that made an answer reads it: for any other key, as for an id never kept or
forgotten, it is a 404 in the front's error shape, so the answer tells nothing of other
callers' ids.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from chatcodec.serve.fronts import caller_key, front
from chatcodec.serve.refusal import RefusalError
from chatcodec.serve.response_store import StoreError, owner_of

if TYPE_CHECKING:
    from chatcodec.serve.app import Proxy


def kept_answer_routes(proxy: Proxy) -> list[BaseRoute]:
    """The ``GET`` routes of the front's kept answers (none for a front without them)."""
    answering = front(proxy.config.api).answering
    if answering is None:
        return []

    async def kept(request: Request) -> Response:
        return await read_kept(proxy, request)

    return [Route(path, kept, methods=["GET"]) for path in answering.routes]


async def read_kept(proxy: Proxy, request: Request) -> Response:
    """The kept answer the path names, for the caller that made it; else a 404."""
    try:
        _, headers = await proxy.admitted(request)
        answer_id = request.path_params["answer_id"]
        owner = owner_of(caller_key(proxy.config.api, headers, request.query_params))
        try:
            answer = await proxy.answerer.read(answer_id, owner)
        except StoreError as error:
            raise RefusalError(503, f"the store of kept answers cannot be read: {error}; try again") from None
        if answer is None:
            kept = "keeps no responses" if proxy.answerer.store is None else "keeps no such response for your key"
            raise RefusalError(404, f"Response with id {answer_id!r} not found: this server {kept}")
    except RefusalError as refusal:
        return proxy.refused(refusal)
    return JSONResponse(answer)
