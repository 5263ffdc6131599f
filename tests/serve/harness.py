"""A fake upstream and the proxy, each a real HTTP server on a loopback ephemeral port,
run by uvicorn in a thread; the fake replays recorded traffic from tests/fixtures."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from chatcodec.serve import ServeConfig
from chatcodec.serve._app import create_app
from chatcodec.streams._event_stream import encode_event_message

FIXTURES = Path(__file__).parent.parent / "fixtures"


def fixture_bytes(provider: str, kind: str, name: str) -> bytes:
    return (FIXTURES / provider / kind / name).read_bytes()


def fixture_json(provider: str, kind: str, name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(fixture_bytes(provider, kind, name))
    return loaded


def bedrock_stream(name: str) -> bytes:
    """A recorded Bedrock stream (boto3's event dicts, one a line) as event-stream bytes."""
    lines = fixture_bytes("bedrock-converse", "stream", name).decode().splitlines()
    return b"".join(encode_event_message(json.loads(line)) for line in lines if line.strip())


@dataclass
class Reply:
    """What the fake upstream answers next."""

    body: bytes
    status: int = 200
    content_type: str = "application/json"
    chunk_size: int = 7  # streamed in small pieces, as a network would
    endless: bool = False  # keep streaming until the client goes away
    delay: float = 0.0  # wait this long before answering, watching for the client to go
    stall: float = 0.0  # after the body, send nothing for this long (an upstream gone quiet mid-stream)
    headers: dict[str, str] = field(default_factory=lambda: {})


@dataclass
class Received:
    path: str  # as sent, percent-escapes kept
    query: str
    headers: dict[str, str]
    body: dict[str, Any]


class FakeUpstream:
    """Answers every POST with the queued :class:`Reply` and keeps what it received."""

    def __init__(self) -> None:
        self.base = ""  # its origin, once served (:func:`serving_fake`)
        self.replies: list[Reply] = []
        self.received: list[Received] = []
        self.stream_closed = threading.Event()
        self.disconnected = threading.Event()  # a delayed reply's client went away first
        self.app = Starlette(routes=[Route("/{rest:path}", self._handle, methods=["POST", "GET"])])

    def reply(self, body: bytes | dict[str, Any], status: int = 200, **settings: Any) -> None:
        data = json.dumps(body).encode() if isinstance(body, dict) else body
        self.replies.append(Reply(data, status, **settings))

    @property
    def last(self) -> Received:
        return self.received[-1]

    async def _handle(self, request: Request) -> Response:
        raw = await request.body()
        body = json.loads(raw) if raw else {}  # a GET (a model list) has none
        headers = {name.lower(): value for name, value in request.headers.items()}
        raw_path = bytes(request.scope.get("raw_path") or request.url.path.encode()).decode()
        self.received.append(Received(raw_path, request.url.query, headers, body))
        reply = self.replies.pop(0)
        if reply.delay and await _disconnected_within(request, reply.delay):
            self.disconnected.set()
            return Response(status_code=499)
        if reply.status != 200 or reply.content_type == "application/json":
            return Response(reply.body, reply.status, media_type=reply.content_type, headers=reply.headers)
        return StreamingResponse(self._chunks(reply), media_type=reply.content_type, headers=reply.headers)

    async def _chunks(self, reply: Reply) -> AsyncIterator[bytes]:
        try:
            for start in range(0, len(reply.body), reply.chunk_size):
                yield reply.body[start : start + reply.chunk_size]
            while reply.endless:
                await asyncio.sleep(0.02)
                yield b": keep-alive\n\n"
            await asyncio.sleep(reply.stall)
        finally:
            self.stream_closed.set()


async def _disconnected_within(request: Request, seconds: float) -> bool:
    """Whether the client disconnects in ``seconds`` (its body already read)."""

    async def watch() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass

    try:
        await asyncio.wait_for(watch(), seconds)
    except TimeoutError:
        return False
    return True


@contextmanager
def serving(app: Any, **settings: Any) -> Iterator[int]:
    """Run ``app`` on 127.0.0.1 on an ephemeral port (``settings``: more ``uvicorn.Config``
    keywords); yields the port."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error", lifespan="on", **settings))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    port: int = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextmanager
def proxy(api: str, upstream: str, upstream_base: str, **settings: Any) -> Iterator[str]:
    """The chatcodec proxy in front of ``upstream_base``; yields its origin URL."""
    with serving_config(ServeConfig(api=api, upstream=upstream, upstream_url=upstream_base, **settings)) as origin:
        yield origin


@contextmanager
def serving_config(config: ServeConfig, **app_options: Any) -> Iterator[str]:
    """The chatcodec proxy for ``config`` (``app_options``: :func:`create_app`'s); yields its origin URL."""
    with serving(create_app(config, **app_options)) as port:
        yield f"http://127.0.0.1:{port}"


@contextmanager
def serving_fake() -> Iterator[FakeUpstream]:
    """A :class:`FakeUpstream`, served; its ``base`` is its origin URL."""
    upstream = FakeUpstream()
    with serving(upstream.app) as port:
        upstream.base = f"http://127.0.0.1:{port}"
        yield upstream


class KeptRecords(logging.Handler):
    """Every record of a logger, kept, and a wait for the one a test expects: a server
    thread logs when it gets there, later on a loaded machine, so a test waits for the
    record it needs instead of sleeping a guess."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self._changed = threading.Condition()

    def emit(self, record: logging.LogRecord) -> None:
        with self._changed:
            self.records.append(record)
            self._changed.notify_all()

    def wait_for(self, found: Callable[[list[logging.LogRecord]], bool], seconds: float = 20) -> bool:
        """Whether ``found`` holds of the records within ``seconds``."""
        with self._changed:
            return self._changed.wait_for(lambda: found(self.records), seconds)


@contextmanager
def kept_records(name: str) -> Iterator[KeptRecords]:
    """The records of logger ``name`` while open, every level (uvicorn configures its
    loggers when a server's config is made, dropping handlers added before: open it after)."""
    logger = logging.getLogger(name)
    handler, level = KeptRecords(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def vllm_recording(record: str, **settings: Any) -> ServeConfig:
    """An Anthropic front before vLLM's chat completions (asked for the token ids), recording
    each turn into ``record`` (a file, a directory or a Redis URL): the recording tests' gateway."""
    return ServeConfig(
        api="anthropic",
        upstream="openai-chat",
        upstream_url="http://vllm:8000/v1",
        options={"server": "vllm"},
        record=record,
        **settings,
    )
