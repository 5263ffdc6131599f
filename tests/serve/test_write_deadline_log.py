"""A caller that stops reading a stream is cut off at the write deadline with one quiet
line, the request log's 499, and no ERROR from uvicorn (issue 62): uvicorn logged "ASGI
callable returned without completing response." for each such caller, as for a real fault.
The real server as ``chatcodec serve`` runs it (its h11 protocol with the deadlines)."""

from __future__ import annotations

import json
import logging
import socket
import time
from typing import Any

import pytest

import chatcodec
from chatcodec import FinishEvent, FinishReason, ResponseStartEvent, TextDeltaEvent, TextEndEvent, TextStartEvent
from chatcodec.serve import ServeConfig
from chatcodec.serve._app import create_app
from chatcodec.serve._deadlines import server_settings
from chatcodec.streams._framing import WireEventWriter
from serve.harness import FakeUpstream, kept_records, serving

pytestmark = pytest.mark.usefixtures("fresh_fake")


def _large_stream() -> bytes:
    events: list[Any] = [ResponseStartEvent(id="a", model="claude-sonnet-4-5"), TextStartEvent(index=0)]
    events += [TextDeltaEvent(index=0, delta="x" * 4000) for _ in range(4000)]  # 16 MB: more than any buffer
    events += [TextEndEvent(index=0), FinishEvent(finish_reason=FinishReason(unified="stop"))]
    writer = WireEventWriter("anthropic")
    wire = chatcodec.encode_stream("anthropic", events, on_loss="ignore")
    return b"".join(writer.write(event) for event in wire) + writer.close()


def test_a_caller_that_stops_reading_is_one_quiet_499_and_no_uvicorn_error(fake: FakeUpstream) -> None:
    fake.reply(_large_stream(), content_type="text/event-stream", chunk_size=65536)
    config = ServeConfig("openai-chat", "anthropic", fake.base, write_timeout=0.5)
    body = json.dumps({"model": "m", "stream": True, "messages": [{"role": "user", "content": "Hi"}]}).encode()
    head = (
        "POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer k\r\n"
        f"content-type: application/json\r\ncontent-length: {len(body)}\r\n\r\n"
    )
    with (
        serving(create_app(config), **server_settings(config.head_timeout)) as port,
        kept_records("uvicorn.error") as uvicorn_log,
        kept_records("chatcodec.serve") as request_log,
        socket.create_connection(("127.0.0.1", port)) as reader,
    ):
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        reader.sendall(head.encode() + body)  # and never reads
        assert fake.stream_closed.wait(20), "the upstream stream stayed open"
        assert request_log.wait_for(lambda records: any('"status": 499' in record.getMessage() for record in records))
        time.sleep(0.5)  # uvicorn logs as the app returns, just after the request line
    assert [record.getMessage() for record in uvicorn_log.records if record.levelno >= logging.WARNING] == []
    lines = [json.loads(record.getMessage()) for record in request_log.records]
    assert [(line["status"], line["error"]) for line in lines] == [
        (499, "the caller accepted no write for 0.5 s (it stopped reading)")
    ]
    assert [record.levelno for record in request_log.records] == [logging.INFO]


def test_an_app_that_leaves_a_response_unfinished_is_still_an_uvicorn_error() -> None:
    """The abort is the write deadline's alone: a response that ends unfinished for any
    other reason is the ERROR it always was."""

    async def unfinished(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"part", "more_body": True})

    with (
        serving(unfinished, **server_settings(5.0)) as port,
        kept_records("uvicorn.error") as uvicorn_log,
        socket.create_connection(("127.0.0.1", port)) as caller,
    ):
        caller.sendall(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
        caller.settimeout(10)
        while caller.recv(65536):
            pass
        assert uvicorn_log.wait_for(lambda records: any(record.levelno >= logging.ERROR for record in records))
    errors = [record.getMessage() for record in uvicorn_log.records if record.levelno >= logging.ERROR]
    assert errors == ["ASGI callable returned without completing response."]
