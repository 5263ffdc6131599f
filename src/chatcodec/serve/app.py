"""The Starlette application: one route per front path, each request proxied upstream.

A plain answer is converted whole; a stream is converted chunk by chunk as the upstream
sends it (:class:`~chatcodec.StreamConverter`, no thread, no buffering). When the caller
goes away mid-stream, Starlette cancels the response task, and leaving the ``httpx``
stream closes the upstream connection, which is how an HTTP upstream learns to stop.
Errors reach the caller in its own API's shape with the upstream's status
(:mod:`chatcodec.error_shapes`); a stream that breaks after its headers were sent ends
with an error event instead. What each API says on HTTP (paths, URLs, headers, framing,
error shapes) is read from its edge (``providers/<name>/edge.py``), never assumed here.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from chatcodec._narrow import as_dict
from chatcodec.api import convert_response
from chatcodec.conversion import read_request_data, with_updates, write_request_data
from chatcodec.error_shapes import error_body, read_error
from chatcodec.errors import ChatcodecError
from chatcodec.losses import Loss, LossRecorder
from chatcodec.registry import get_edge
from chatcodec.serve.auth import upstream_key
from chatcodec.serve.config import ServeConfig
from chatcodec.serve.fronts import Call, FrontError, caller_key, read_call, routes
from chatcodec.serve.request_log import RequestRecord, losses_header
from chatcodec.serve.upstream import UpstreamCall, upstream_call, upstream_side
from chatcodec.streams.convert import StreamConverter
from chatcodec.warm import warm_up


class RefusalError(Exception):
    """A request answered with an error in the caller's shape."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def create_app(config: ServeConfig, *, client: httpx.AsyncClient | None = None) -> Starlette:
    """The proxy for ``config``; ``client`` is the upstream HTTP client (one is made
    and closed with the app by default)."""
    proxy = Proxy(config, client)
    paths = [Route(path, proxy.handle, methods=["POST"]) for path in routes(config.api)]
    return Starlette(routes=paths, lifespan=proxy.lifespan)


class Proxy:
    """The request handler and what it shares across requests."""

    def __init__(self, config: ServeConfig, client: httpx.AsyncClient | None) -> None:
        self.config = config
        self._given_client = client
        self._client = client
        self._writer_options = config.writer_options()
        """The upstream writer's options (the compatible server ``--upstream-url`` points at,
        ``--option``), read once."""

    @asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncGenerator[None]:
        """Warm the two codecs up and open the upstream client; close it at shutdown."""
        warm_up([self.config.api, self.config.upstream])
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=httpx.Timeout(self.config.timeout, connect=10.0))
        try:
            yield
        finally:
            if self._given_client is None:
                await self._client.aclose()

    async def handle(self, request: Request) -> Response:
        """Proxy one request; the log line is written when its answer is complete."""
        record = RequestRecord(self.config.api, self.config.upstream, request.url.path)
        try:
            response = await self._proxy(request, record)
        except RefusalError as refusal:
            record.status, record.error = refusal.status, refusal.message
            response = JSONResponse(error_body(self.config.api, refusal.message, refusal.status), refusal.status)
        if not isinstance(response, StreamingResponse):
            record.emit()
        return response

    async def _proxy(self, request: Request, record: RequestRecord) -> Response:
        call = await self._read(request)
        record.model, record.stream = call.model, call.stream
        model = self.config.model_map.get(call.model or "", call.model)
        body, record.losses = self._converted(call, model)
        record.upstream_model = model
        headers = {name.lower(): value for name, value in request.headers.items()}
        key = upstream_key(
            upstream_side(self.config.upstream),
            caller_key(self.config.api, headers, request.query_params),
            self.config.api_key_env,
        )
        outgoing = upstream_call(
            self.config.upstream,
            self.config.upstream_url,
            body,
            model=model,
            stream=call.stream,
            key=key,
            caller_headers=headers,
        )
        if call.stream:
            return await self._stream(outgoing, call, record)
        return await self._plain(outgoing, record)

    async def _read(self, request: Request) -> Call:
        raw = await request.body()
        try:
            payload: object = json.loads(raw)
        except ValueError as error:
            raise RefusalError(400, f"the request body is not JSON: {error}") from None
        fields = as_dict(payload)
        if fields is None:
            raise RefusalError(400, "the request body must be a JSON object")
        try:
            return read_call(self.config.api, fields, request.path_params.get("target"), request.query_params)
        except FrontError as error:
            raise RefusalError(404, str(error)) from None

    def _converted(self, call: Call, model: str | None) -> tuple[dict[str, Any], list[Loss]]:
        """The upstream body and its losses: the front's reader to canonical data (strict
        under ``--strict``), the model and stream flag set on it, the upstream's writer;
        no canonical model is built."""
        try:
            canonical = read_request_data(call.payload, self.config.api, strict=self.config.strict)
        except (ChatcodecError, ValueError) as error:
            raise RefusalError(400, f"invalid {self.config.api} request: {error}") from None
        with_updates(canonical, {"model": model, "stream": True if call.stream else None})
        recorder = LossRecorder()
        try:
            body = write_request_data(canonical, self.config.upstream, recorder, self._writer_options)
        except ChatcodecError as error:
            raise RefusalError(400, f"the request cannot be sent to {self.config.upstream}: {error}") from None
        losses: list[Loss] = []
        recorder.settle("ignore", losses)
        return body, losses

    async def _plain(self, outgoing: UpstreamCall, record: RequestRecord) -> Response:
        upstream_response = await self._send(outgoing, stream=False)
        payload = _json_or_text(upstream_response.content)
        if upstream_response.status_code >= 400:
            raise self._upstream_refusal(upstream_response, payload)
        fields = as_dict(payload)
        if fields is None:
            raise RefusalError(502, f"the {self.config.upstream} upstream's answer is not a JSON object")
        try:
            converted = convert_response(
                fields, source=self.config.upstream, target=self.config.api, on_loss="ignore", losses=record.losses
            )
        except ChatcodecError as error:
            raise RefusalError(502, f"the {self.config.upstream} upstream's answer cannot be read: {error}") from None
        record.status = 200
        return JSONResponse(converted, headers=losses_header(record.losses))

    async def _stream(self, outgoing: UpstreamCall, call: Call, record: RequestRecord) -> Response:
        upstream_response = await self._send(outgoing, stream=True)
        if upstream_response.status_code >= 400:
            payload = _json_or_text(await upstream_response.aread())
            await upstream_response.aclose()
            raise self._upstream_refusal(upstream_response, payload)
        converter = StreamConverter(
            self.config.upstream, self.config.api, options=call.options, on_loss="ignore", target_framing=call.framing
        )
        record.status = 200
        headers = {**losses_header(record.losses), "cache-control": "no-cache"}
        body = _converted(upstream_response, converter, record)
        return StreamingResponse(body, media_type=converter.media_type, headers=headers)

    async def _send(self, outgoing: UpstreamCall, *, stream: bool) -> httpx.Response:
        assert self._client is not None, "the app's lifespan opens the client"
        built = self._client.build_request("POST", outgoing.url, content=outgoing.body, headers=outgoing.headers)
        try:
            return await self._client.send(built, stream=stream)
        except httpx.TimeoutException as error:
            raise RefusalError(504, f"the {self.config.upstream} upstream did not answer in time: {error!r}") from None
        except httpx.HTTPError as error:
            raise RefusalError(502, f"the {self.config.upstream} upstream cannot be reached: {error!r}") from None

    def _upstream_refusal(self, response: httpx.Response, payload: object) -> RefusalError:
        header = get_edge(self.config.upstream).errors.type_header
        error_type = None if header is None else response.headers.get(header)
        error = read_error(self.config.upstream, payload, response.status_code, error_type)
        return RefusalError(response.status_code, error.message)


async def _converted(
    upstream: httpx.Response, converter: StreamConverter, record: RequestRecord
) -> AsyncIterator[bytes]:
    """The converted stream; the upstream response is closed however it ends (a caller
    that went away cancels this generator, and the close tells the upstream to stop)."""
    finished = False
    try:
        async for chunk in upstream.aiter_bytes():
            converted = converter.feed(chunk)
            if converted:
                yield converted
        yield converter.close()
        finished = True
    except (ChatcodecError, httpx.HTTPError) as error:
        record.error = f"the upstream stream broke off: {error}"
        yield converter.fail(record.error, 502)
        finished = True
    finally:
        with anyio.CancelScope(shield=True):
            await upstream.aclose()
        record.cancelled = not finished
        record.losses = [*record.losses, *converter.losses]
        record.events = converter.events_out
        record.emit()


def _json_or_text(content: bytes) -> object:
    try:
        return json.loads(content)
    except ValueError:
        return content.decode("utf-8", errors="replace")
