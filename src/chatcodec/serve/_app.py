"""The Starlette application: one route per front path, each request walked through the
steps of :mod:`chatcodec.serve._steps` in one direction, and nothing else.

A request is let in (:mod:`~chatcodec.serve._steps.authenticate`, before its body is read),
read (:mod:`~chatcodec.serve._steps.read`), routed (:mod:`~chatcodec.serve._steps.route`),
validated (:mod:`~chatcodec.serve._steps.validate`), fitted to its upstream
(:mod:`~chatcodec.serve._steps.fit`), sent (:mod:`~chatcodec.serve._steps.send`), and
answered (:mod:`~chatcodec.serve._steps.answer`) or streamed
(:mod:`~chatcodec.serve._steps.stream`), each of which hands what it answered to
:mod:`~chatcodec.serve._steps.keep`. While the upstream works, a caller that goes away
cancels it (:mod:`~chatcodec.serve._steps.caller_watch`).

Errors reach the caller in its own API's shape (:mod:`.refusal`), unhandled ones
included, with the upstream's status, error type, ``retry-after``, rate-limit and
request-id headers; a stream that breaks after its headers were sent ends with an error
event instead. What each API says on HTTP is read from its edge, never assumed here.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from chatcodec._public_label import shown_as
from chatcodec.serve import _endpoints as endpoints
from chatcodec.serve._config import ServeConfig
from chatcodec.serve._deadlines import APP_SEND
from chatcodec.serve._fronts import routes
from chatcodec.serve._refusal import RefusalError, refused
from chatcodec.serve._request_log import RequestRecord, internal_error
from chatcodec.serve._session_paths import session_in_path
from chatcodec.serve._session_routes import session_routes
from chatcodec.serve._steps import answer, authenticate, fit, read, route, sample, send, stream, validate
from chatcodec.serve._steps import record as turn_record
from chatcodec.serve._steps.caller_watch import unless_caller_leaves
from chatcodec.serve._steps.shared import Server
from chatcodec.serve._stored_answers import kept_answer_routes
from chatcodec.serve._token_upstreams import TOKEN_UPSTREAMS


def create_app(
    config: ServeConfig,
    *,
    client: httpx.AsyncClient | None = None,
    tracer_provider: Any = None,
    meter_provider: Any = None,
    tokenizer: object = None,
) -> Starlette:
    """The proxy for ``config``; ``client`` is the upstream HTTP client (one is made
    and closed with the app by default; a given one's cookie jar is replaced by one that
    keeps no cookie an answer sets, since one caller's cookie must not go upstream for
    another); ``tracer_provider`` the OpenTelemetry
    ``TracerProvider`` spans go to under ``config.otel`` (default: the global one), and
    ``meter_provider`` the ``MeterProvider`` of the GenAI client metrics (likewise), and
    ``tokenizer`` the tokenizer a token upstream's prompts are rendered with (a Hugging Face
    tokenizer or a tiktoken ``Encoding``; default: ``config.tokenizer``, read once)."""
    proxy = Proxy(Server(config, client, tracer_provider, meter_provider, tokenizer))
    paths: list[BaseRoute] = [
        *endpoints.routes(proxy.server),
        *session_routes(proxy.server),
        *(Route(path, proxy.handle, methods=["POST"]) for path in routes(config.api)),
        *kept_answer_routes(proxy.server),
    ]
    return ServeApp(
        routes=paths,
        lifespan=proxy.lifespan,
        exception_handlers={HTTPException: proxy.http_error, Exception: proxy.unhandled},
    )


class ServeApp(Starlette):
    """The Starlette application, the ``send`` it is called with kept in the scope
    (:data:`~chatcodec.serve._deadlines.APP_SEND`) for a stream's body while no middleware
    was added to it (middleware added by an embedding application sees every message)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope = session_in_path(scope)
        if not self.user_middleware:
            scope[APP_SEND] = send
        await super().__call__(scope, receive, send)


class Proxy:
    """The request handler: the steps wired, over what they share (:class:`Server`)."""

    def __init__(self, server: Server) -> None:
        self.server: Server = server

    @asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncGenerator[None]:
        """Ready the server (:meth:`Server.ready`: codecs warmed up, upstream client open,
        seal key read) before the first request; close the client and the store at shutdown."""
        server = self.server
        await server.ready()
        try:
            yield
        finally:
            if not server.client_given:
                await server.client.aclose()
            if server.answerer.store is not None:
                await server.answerer.store.close()
            if server.turns is not None:
                server.turns.close()

    async def http_error(self, request: Request, error: Exception) -> Response:
        """Starlette's own 404 and 405, in the front's shape."""
        status = error.status_code if isinstance(error, HTTPException) else 500
        detail = error.detail if isinstance(error, HTTPException) else "error"
        return refused(self.server.config.api, RefusalError(status, f"{request.method} {request.url.path}: {detail}"))

    async def unhandled(self, request: Request, error: Exception) -> Response:
        """An error no handler expected: a 500 in the front's shape (where it happened logged)."""
        return refused(self.server.config.api, RefusalError(500, internal_error(request.url.path, error)))

    async def handle(self, request: Request) -> Response:
        """Walk one request through the steps; the log line is written when its answer is complete."""
        server = self.server
        record = RequestRecord(
            server.config.api, request.scope["path"]
        )  # a URL object costs more than the rest of the line
        server.telemetry.start(record)
        try:
            await server.ready()
            admitted = authenticate.admitted(server.config, request)
            called = await read.read(server, request, record)
            routed = route.routed(server, called, admitted, record)
            validated = await validate.validated(server, routed)
            if routed.route.upstream in TOKEN_UPSTREAMS:  # chatcodec renders the prompt: steps 5 to 7 as ids
                response = await sample.sampled(server, validated, admitted, request, record)
            else:
                fitted = await fit.fitted(server, validated, admitted, record)
                with unless_caller_leaves(request, record) as watched:
                    sent = await send.sent(server, fitted)
                    answering = stream.streamed if fitted.streams_upstream else answer.answered
                    watched.response = await answering(server, fitted, sent, record)
                response = watched.answer()
                if record.cancelled and fitted.recording is not None:  # a caller gone before its answer came
                    await turn_record.recorded(
                        server, fitted.recording, record, status=turn_record.CANCELLED, error=record.error
                    )
        except RefusalError as refusal:
            response = refused(server.config.api, refusal, record)
        except Exception as error:  # every error in the front's shape, never text/plain
            response = refused(server.config.api, RefusalError(500, internal_error(request.url.path, error)), record)
        record.request_id = _request_id(response, record.request_id)
        if not isinstance(response, StreamingResponse):
            record.emit()
        return response


def _request_id(response: Response, own: str) -> str:
    """The response's ``x-request-id`` (the upstream's, passed on), else ``own``, added to it.
    Read from its raw header list (lower-cased by Starlette): ``response.headers.setdefault``
    built a header mapping and raised a ``KeyError`` on every request."""
    for name, value in response.raw_headers:
        if name == b"x-request-id":
            return value.decode("latin-1")
    response.raw_headers.append((b"x-request-id", own.encode("latin-1")))
    return own


shown_as("chatcodec.serve", create_app)
