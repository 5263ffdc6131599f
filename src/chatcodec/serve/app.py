"""The Starlette application: one route per front path, each request proxied upstream.

A request goes: the caller let in (:mod:`.auth`, before its body is read), the body read
within its size limit (:mod:`.limits`), parsed and converted (on a worker thread when it
is large), the model checked and routed (:meth:`ServeConfig.route_for`), the upstream
called, and its answer converted back. While the upstream is being waited for, the
caller's connection is watched: a caller that goes away cancels the upstream call (a
plain request as much as a stream), which closes the upstream connection, the way an
HTTP upstream learns to stop. A stream's headers are sent once its first event is
converted, so an upstream that answers 200 with no event is a 502, not an empty
success; after that, Starlette cancels the response task when the caller goes, and
leaving the ``httpx`` stream closes the upstream connection.

Errors reach the caller in its own API's shape (:mod:`.refusal`), unhandled ones
included, with the upstream's status, error type, ``retry-after``, rate-limit and
request-id headers; a stream that breaks after its headers were sent ends with an error
event instead. What each API says on HTTP is read from its edge, never assumed here.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import anyio
import httpx
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from chatcodec._narrow import as_dict
from chatcodec.api import decode_response
from chatcodec.conversion import read_request_data, with_updates, write_request_data
from chatcodec.error_shapes import read_error
from chatcodec.error_statuses import error_status
from chatcodec.errors import ChatcodecError
from chatcodec.losses import Loss, LossRecorder
from chatcodec.model.stream_events import AnyStreamEvent, ErrorEvent
from chatcodec.registry import get_edge
from chatcodec.serve import endpoints
from chatcodec.serve.auth import Caller, admit, forwarded_headers, upstream_key
from chatcodec.serve.config import Route as UpstreamRoute
from chatcodec.serve.config import ServeConfig
from chatcodec.serve.deadlines import BodyDeadline, write_deadline_stream
from chatcodec.serve.fronts import Call, FrontError, answering, caller_key, read_call, routes
from chatcodec.serve.identity import Identity, answer_identity, convert_answer
from chatcodec.serve.keeping import Keeper, StreamKeeping
from chatcodec.serve.limits import (
    check_model,
    json_object,
    json_or_text,
    off_the_loop,
    passed_headers,
    read_answer,
    read_body,
    streams_between,
)
from chatcodec.serve.provider_state import check_provider_state
from chatcodec.serve.refusal import RefusalError, refusal_body
from chatcodec.serve.request_log import RequestRecord, internal_error, losses_header, store_error_header
from chatcodec.serve.request_losses import settled
from chatcodec.serve.request_steps import Prepared, ReadRequest
from chatcodec.serve.response_store import open_store, owner_of
from chatcodec.serve.seals import check_unsealed, checked_seals, seal_key
from chatcodec.serve.stored_answers import kept_answer_routes
from chatcodec.serve.stream_relay import ObservedConverter, converted_stream, first_events
from chatcodec.serve.telemetry import Telemetry, default_provider
from chatcodec.serve.upstream import UpstreamCall, api_version, upstream_call, upstream_side
from chatcodec.warm import warm_up

CLIENT_GONE = 499
"""The status logged for a caller that went away before its answer (nginx's convention)."""


def create_app(
    config: ServeConfig,
    *,
    client: httpx.AsyncClient | None = None,
    tracer_provider: Any = None,
    meter_provider: Any = None,
) -> Starlette:
    """The proxy for ``config``; ``client`` is the upstream HTTP client (one is made
    and closed with the app by default); ``tracer_provider`` the OpenTelemetry
    ``TracerProvider`` spans go to under ``config.otel`` (default: the global one), and
    ``meter_provider`` the ``MeterProvider`` of the GenAI client metrics (likewise)."""
    proxy = Proxy(config, client, tracer_provider, meter_provider)
    paths: list[BaseRoute] = [
        *endpoints.routes(config, proxy),
        *(Route(path, proxy.handle, methods=["POST"]) for path in routes(config.api)),
        *kept_answer_routes(proxy),
    ]
    return Starlette(
        routes=paths,
        middleware=[Middleware(BodyDeadline, seconds=config.body_timeout)],
        lifespan=proxy.lifespan,
        exception_handlers={HTTPException: proxy.http_error, Exception: proxy.unhandled},
    )


class Proxy:
    """The request handler and what it shares across requests."""

    def __init__(
        self,
        config: ServeConfig,
        client: httpx.AsyncClient | None,
        tracer_provider: Any = None,
        meter_provider: Any = None,
    ) -> None:
        self.config = config
        self.answerer: answering.Answerer = answering.Answerer(config.api, open_store(config.store))
        self._given_client = client
        self._client = client
        self.telemetry: Telemetry = Telemetry(
            config.otel,
            content=config.otel_content,
            tracer_provider=tracer_provider,
            meter_provider=meter_provider,
            provider=default_provider(config),
        )
        self.keeper: Keeper = Keeper(self.answerer, keep_thinking=config.keep_thinking, front=config.api)
        self.seal_key: str | None = None
        """The key sealed reasoning is authenticated with (the lifespan reads it: :mod:`.seals`)."""
        self._writer_options = {id(route): config.writer_options(route) for route in config.all_routes}
        """Each route's upstream writer options (the compatible server its URL points at,
        ``--option``), read once."""

    @property
    def client(self) -> httpx.AsyncClient:
        """The upstream HTTP client (the app's lifespan opens it)."""
        assert self._client is not None, "the app's lifespan opens the client"
        return self._client

    @asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncGenerator[None]:
        """Warm the codecs up and open the upstream client (its pool and timeouts from the
        config); close it at shutdown."""
        warm_up([self.config.api, *self.config.upstream_names])
        if self._client is None:
            config = self.config
            timeout = httpx.Timeout(config.timeout, connect=config.connect_timeout, pool=config.pool_timeout)
            limits = httpx.Limits(
                max_connections=config.max_connections, max_keepalive_connections=config.max_connections
            )
            self._client = httpx.AsyncClient(timeout=timeout, limits=limits)
        if self.answerer.answering is not None:  # a front whose answers seal reasoning
            self.seal_key = self.answerer.seal_key = await seal_key(self.config.seal_key_file, self.answerer.store)
        try:
            yield
        finally:
            if self._given_client is None:
                await self.client.aclose()
            if self.answerer.store is not None:
                await self.answerer.store.close()

    # --- errors -----------------------------------------------------------------------------

    def refused(self, refusal: RefusalError, record: RequestRecord | None = None) -> Response:
        """``refusal`` as the front's error body, status and headers."""
        if record is not None:
            record.status, record.error = refusal.status, refusal.message
        body = refusal_body(self.config.api, refusal)
        return JSONResponse(body, refusal.status, headers=refusal.headers)

    async def http_error(self, request: Request, error: Exception) -> Response:
        """Starlette's own 404 and 405, in the front's shape."""
        status = error.status_code if isinstance(error, HTTPException) else 500
        message = f"{request.method} {request.url.path}: " + (
            error.detail if isinstance(error, HTTPException) else "error"
        )
        return self.refused(RefusalError(status, message))

    async def unhandled(self, request: Request, error: Exception) -> Response:
        """An error no handler expected: a 500 in the front's shape (where it happened logged)."""
        return self.refused(RefusalError(500, internal_error(request.url.path, error)))

    # --- a request ----------------------------------------------------------------------------

    async def handle(self, request: Request) -> Response:
        """Proxy one request; the log line is written when its answer is complete."""
        record = RequestRecord(self.config.api, request.url.path)
        self.telemetry.start(record)
        try:
            response = await self._proxy(request, record)
        except RefusalError as refusal:
            response = self.refused(refusal, record)
        except Exception as error:  # every error in the front's shape, never text/plain
            response = self.refused(RefusalError(500, internal_error(request.url.path, error)), record)
        record.request_id = response.headers.setdefault("x-request-id", record.request_id)
        if not isinstance(response, StreamingResponse):
            record.emit()
        return response

    async def admitted(self, request: Request) -> tuple[Caller, dict[str, str]]:
        """Who is calling (or a 401) and its headers, lower-cased."""
        headers = {name.lower(): value for name, value in request.headers.items()}
        presented = caller_key(self.config.api, headers, request.query_params)
        caller = admit(presented, self.config.client_keys, allow_anonymous=self.config.allow_anonymous)
        return caller, forwarded_headers(caller, headers)

    async def _proxy(self, request: Request, record: RequestRecord) -> Response:
        caller, headers = await self.admitted(request)
        raw = await read_body(request, self.config.max_body_bytes)
        target, query = request.path_params.get("target"), dict(request.query_params)
        owner = owner_of(caller_key(self.config.api, headers, query))  # whose kept answers it may continue
        offload = self.config.offload_bytes
        read = await off_the_loop(len(raw), offload, lambda: self._read_request(raw, target, query, headers, record))
        answer = await self.keeper.recalled(read.answer, read.canonical, read.route.upstream, owner)
        read = replace(read, answer=answer)

        def prepare() -> tuple[Prepared, UpstreamCall]:  # the body written too: 75 ms for 7.6 MB
            prepared = self._prepare(read, record)
            return prepared, self._outgoing(prepared, caller, headers)

        prepared, outgoing = await off_the_loop(len(raw), offload, prepare)
        server = self._writer_options[id(prepared.route)].get("server")
        conversation = prepared.call.conversation or prepared.answer.parent  # or the answer it continues
        self.telemetry.requested(
            record, prepared.canonical, prepared.route.url, server=server, conversation=conversation
        )
        if prepared.call.stream:
            return await _unless_caller_leaves(request, record, lambda: self._stream(outgoing, prepared, record))
        return await _unless_caller_leaves(request, record, lambda: self._plain(outgoing, prepared, record))

    def _outgoing(self, prepared: Prepared, caller: Caller, headers: Mapping[str, str]) -> UpstreamCall:
        """The upstream request for ``prepared``, its body serialized and signed."""
        route = prepared.route
        return upstream_call(
            route.upstream,
            route.url,
            prepared.body,
            model=prepared.model,
            stream=prepared.call.stream,
            key=upstream_key(upstream_side(route.upstream), caller, route.api_key_env),
            caller_headers=headers,
            version=prepared.version,
        )

    def _read_request(
        self,
        raw: bytes,
        target: str | None,
        query: Mapping[str, str],
        headers: Mapping[str, str],
        record: RequestRecord,
    ) -> ReadRequest:
        """Parse, route and read as canonical data (run on a worker thread for a large body)."""
        answer = self._answering(self._read(raw, target, query))
        call = answer.call
        record.model, record.stream = call.model, call.stream
        model = self.config.model_map.get(call.model or "", call.model or "")
        check_model(model)
        route = self.route(model)
        record.upstream, record.upstream_model = route.upstream, model
        if call.stream:
            streams_between(route.upstream, self.config.api)
        check_provider_state(self.config.api, call.payload, route.upstream)
        version = api_version(route.upstream, headers, self._writer_options[id(route)].get("api_version"))
        payload, sealed = call.payload, False
        losses: list[Loss] = []
        if self.seal_key is not None:
            payload, losses, sealed = checked_seals(
                self.config.api, payload, self.seal_key, validate=self.config.validate
            )
        canonical = self.read_canonical(payload, route)
        return ReadRequest(answer, route, model, canonical, version, losses, sealed)

    def _prepare(self, read: ReadRequest, record: RequestRecord) -> Prepared:
        """Continue and write the request for its upstream (run on a worker thread for a large body)."""
        answer, route, canonical = read.answer, read.route, read.canonical
        self.answerer.continued(answer, canonical)  # the kept conversation of the answer it continues
        body, losses = self.written(canonical, read.model, route, stream=answer.call.stream, version=read.version)
        if read.sealed and self.config.validate:
            check_unsealed(route.upstream, body)
        record.losses = [*read.losses, *losses]
        return Prepared(answer.call, answer, route, read.model, body, canonical, read.version)

    def _answering(self, call: Call) -> answering.Prepared:
        """The call given the server's options, where the front answers with its own
        resources (:mod:`chatcodec.serve.fronts.answering`)."""
        try:
            return self.answerer.prepare(call)
        except answering.AnswerRefusedError as refusal:
            raise RefusalError(400, str(refusal)) from None

    def route(self, model: str) -> UpstreamRoute:
        """The route for ``model`` (the name after ``model_map``), or a 404."""
        found = self.config.route_for(model)
        if found is None:
            raise RefusalError(404, f"no upstream serves the model {model!r} on this server")
        return found

    def _read(self, raw: bytes, target: str | None, query: Mapping[str, str]) -> Call:
        fields = json_object(raw)
        try:
            return read_call(self.config.api, fields, target, query)
        except FrontError as error:
            raise RefusalError(404, str(error)) from None

    def converted(
        self, payload: dict[str, Any], model: str, route: UpstreamRoute, *, stream: bool, version: str | None = None
    ) -> tuple[dict[str, Any], dict[str, Any], list[Loss]]:
        """The canonical data, the upstream body and its losses (:meth:`read_canonical`,
        then :meth:`written`); no canonical model is built."""
        canonical = self.read_canonical(payload, route)
        body, losses = self.written(canonical, model, route, stream=stream, version=version)
        return canonical, body, losses

    def read_canonical(self, payload: dict[str, Any], route: UpstreamRoute) -> dict[str, Any]:
        """The front's reader to canonical data (strict under ``--validate``, the
        upstream's turn order included)."""
        validate = self.config.validate
        try:
            target = route.upstream if validate else None
            server = self._reading_server(route) if validate else None
            return read_request_data(payload, self.config.api, strict=validate, target=target, server=server)
        except (ChatcodecError, ValueError) as error:
            raise RefusalError(400, f"invalid {self.config.api} request: {error}") from None

    def written(
        self, canonical: dict[str, Any], model: str, route: UpstreamRoute, *, stream: bool, version: str | None
    ) -> tuple[dict[str, Any], list[Loss]]:
        """The upstream body and its losses: the model and stream flag set on ``canonical``,
        the upstream's writer under the rules of the API ``version`` sent, its losses settled
        by ``--on-loss`` (:mod:`.request_losses`)."""
        with_updates(canonical, {"model": model, "stream": True if stream else None})
        recorder = LossRecorder()
        try:
            options = self._writer_options[id(route)]
            if version is not None:
                options = {**options, "api_version": version}
            body = write_request_data(canonical, route.upstream, recorder, options)
        except ChatcodecError as error:
            raise RefusalError(400, f"the request cannot be sent to {route.upstream}: {error}") from None
        return body, settled(recorder, self.config.loss_policy, route.upstream)

    def _reading_server(self, route: UpstreamRoute) -> str | None:
        """The compatible server whose fields ``--validate`` accepts: the route's, when the
        caller speaks the upstream's own format (``--upstream-url https://api.deepseek.com``
        with an OpenAI Chat front accepts DeepSeek's ``thinking``, not OpenRouter's fields)."""
        server = self._writer_options[id(route)].get("server")
        return server if route.upstream == self.config.api and isinstance(server, str) else None

    async def _plain(self, outgoing: UpstreamCall, prepared: Prepared, record: RequestRecord) -> Response:
        upstream = prepared.route.upstream
        upstream_response = await self.send(outgoing, upstream, stream=True)
        try:
            content = await read_answer(upstream_response, self.config.max_answer_bytes, upstream)
        finally:
            with anyio.CancelScope(shield=True):
                await upstream_response.aclose()
        passed = passed_headers(upstream_response.headers)
        if upstream_response.status_code >= 400:
            raise self.upstream_refusal(upstream_response, json_or_text(content), upstream, passed)
        identity = answer_identity(upstream, upstream_response.headers, prepared.model)
        rendered, kept, message = await off_the_loop(
            len(content), self.config.offload_bytes, lambda: self._answer(content, prepared, record, identity)
        )
        await self.keeper.kept(record, prepared.answer, kept, message)
        record.status = 200
        headers = {**passed, **losses_header(record.losses), **store_error_header(record.store_error)}
        return Response(rendered, 200, headers=headers, media_type="application/json")

    def _answer(
        self, content: bytes, prepared: Prepared, record: RequestRecord, identity: Identity
    ) -> tuple[bytes, answering.KeptAnswer | None, dict[str, Any] | None]:
        """The upstream's plain answer converted for the caller, as JSON bytes (and kept,
        where the front keeps answers); ``identity``: the id and model its body may lack."""
        upstream = prepared.route.upstream
        fields = as_dict(json_or_text(content))
        if fields is None:
            raise RefusalError(502, f"the {upstream} upstream's answer is not a JSON object")
        try:
            converted = convert_answer(
                fields,
                source=upstream,
                target=self.config.api,
                losses=record.losses,
                options=prepared.call.options,
                identity=identity,
            )
        except ChatcodecError as error:
            raise RefusalError(502, f"the {upstream} upstream's answer cannot be read: {error}") from None
        kept = message = None
        if prepared.answer.kept or self.keeper.keeps_thinking:
            message = decode_response(upstream, fields).choices[0].message.model_dump(mode="json", exclude_none=True)
            kept = self.answerer.to_keep(prepared.answer, converted, prepared.canonical, message)
        self.telemetry.answered(
            record, lambda: identity.fill(decode_response(upstream, fields).model_dump(mode="json", exclude_none=True))
        )
        return json.dumps(converted, ensure_ascii=False, separators=(",", ":")).encode(), kept, message

    async def _stream(self, outgoing: UpstreamCall, prepared: Prepared, record: RequestRecord) -> Response:
        upstream = prepared.route.upstream
        upstream_response = await self.send(outgoing, upstream, stream=True)
        passed = passed_headers(upstream_response.headers)
        try:
            if upstream_response.status_code >= 400:
                payload = json_or_text(await upstream_response.aread())
                raise self.upstream_refusal(upstream_response, payload, upstream, passed)
            keeping = self.keeper.stream(prepared.answer, prepared.canonical, record)
            watch = keeping if keeping.active else None
            converter = ObservedConverter(
                upstream,
                self.config.api,
                options=prepared.call.options,
                on_loss="ignore",
                target_framing=prepared.call.framing,
                observe=self._observer(record, watch),
                identity=answer_identity(upstream, upstream_response.headers, prepared.model),
                max_event_bytes=self.config.max_event_bytes,
            )
            chunks = upstream_response.aiter_bytes()
            first = await first_events(chunks, converter, upstream)
        except BaseException:
            with anyio.CancelScope(shield=True):
                await upstream_response.aclose()
            raise
        record.status = 200
        headers = {**passed, **losses_header(record.losses), "cache-control": "no-cache"}
        body = converted_stream(upstream_response, chunks, first, converter, record, keeping=watch)
        limit = self.config.write_timeout
        return write_deadline_stream(body, converter.media_type, headers, write_timeout=limit, on_late=record.late)

    def _observer(self, record: RequestRecord, watch: StreamKeeping | None = None) -> Callable[[AnyStreamEvent], None]:
        """What watches a stream's canonical events: an error event the upstream sent
        mid-stream goes into the log line with its status; the span gathers the answer;
        ``watch`` the answer to keep."""

        def observe(event: AnyStreamEvent) -> None:
            if isinstance(event, ErrorEvent):
                record.error = event.message
                record.stream_error_status = error_status(event.error_type, 502)
            self.telemetry.observe(record, event)
            if watch is not None:
                watch.observe(event)

        return observe

    async def send(self, outgoing: UpstreamCall, upstream: str, *, stream: bool) -> httpx.Response:
        """Send ``outgoing``; a full pool is a 503, a timeout a 504, no connection a 502."""
        built = self.client.build_request("POST", outgoing.url, content=outgoing.body, headers=outgoing.headers)
        try:
            return await self.client.send(built, stream=stream)
        except httpx.PoolTimeout:
            raise RefusalError(
                503,
                f"all {self.config.max_connections} upstream connections stayed busy for "
                f"{self.config.pool_timeout} s; try again",
                headers={"retry-after": "1"},
            ) from None
        except httpx.TimeoutException as error:
            raise RefusalError(504, f"the {upstream} upstream did not answer in time: {error!r}") from None
        except httpx.LocalProtocolError:  # its text quotes the header value it refused: a key
            raise RefusalError(502, f"the request to the {upstream} upstream cannot be written on HTTP") from None
        except httpx.HTTPError as error:
            raise RefusalError(502, f"the {upstream} upstream cannot be reached: {error!r}") from None

    def upstream_refusal(
        self, response: httpx.Response, payload: object, upstream: str, passed: Mapping[str, str]
    ) -> RefusalError:
        """The refusal for an upstream's error answer: its status, its error read in the
        upstream's shape, and the headers it passed on."""
        header = get_edge(upstream).errors.type_header
        error_type = None if header is None else response.headers.get(header)
        error = read_error(upstream, payload, response.status_code, error_type)
        own = as_dict(payload) if upstream == self.config.api else None  # passed as it came (.refusal)
        return RefusalError(
            response.status_code,
            error.message,
            error_type=error.error_type,
            headers=passed,
            body=own,
        )


async def _unless_caller_leaves(
    request: Request, record: RequestRecord, work: Callable[[], Awaitable[Response]]
) -> Response:
    """``work()``, cancelled if the caller disconnects first (then a bare 499, which
    nobody reads: the log line says ``cancelled``)."""
    answers: list[Response] = []
    refusals: list[RefusalError] = []

    async def watch(scope: anyio.CancelScope) -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass
        scope.cancel()

    async with anyio.create_task_group() as group:
        group.start_soon(watch, group.cancel_scope)
        try:
            answers.append(await work())
        except RefusalError as refusal:
            refusals.append(refusal)
        group.cancel_scope.cancel()
    if refusals:
        raise refusals[0]
    if not answers:
        record.status, record.cancelled = CLIENT_GONE, True
        return Response(status_code=CLIENT_GONE)
    return answers[0]
