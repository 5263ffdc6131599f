"""A caller that sends nothing, half a head or half a body is cut off: its socket is
closed (the head) or answered 408 and closed (the body), never held for ever. Raw
sockets against the real server, with uvicorn as ``chatcodec serve`` runs it."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from starlette.requests import Request
from starlette.types import Message

from chatcodec.serve import ServeConfig
from chatcodec.serve._app import create_app
from chatcodec.serve._deadlines import server_settings
from chatcodec.serve._limits import read_body
from chatcodec.serve._refusal import RefusalError
from serve.harness import serving

HEAD = b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer k\r\ncontent-type: application/json\r\n"


@contextmanager
def deadlined_proxy() -> Iterator[int]:
    config = ServeConfig("openai-chat", "anthropic", "http://127.0.0.1:9", head_timeout=0.5, body_timeout=0.5)
    with serving(create_app(config), **server_settings(config.head_timeout)) as port:
        yield port


def _closed_within(connection: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """Whether the server closes ``connection`` within ``seconds``, and what it sent first."""
    connection.settimeout(seconds)
    received = b""
    try:
        while chunk := connection.recv(65536):
            received += chunk
    except TimeoutError:
        return False, received
    return True, received


def test_an_idle_connection_and_a_half_sent_head_are_closed() -> None:
    with (
        deadlined_proxy() as port,
        socket.create_connection(("127.0.0.1", port)) as idle,
        socket.create_connection(("127.0.0.1", port)) as trickle,
    ):
        started = time.monotonic()
        for byte in HEAD[:20]:  # one byte at a time: each would have reset uvicorn's keep-alive timer
            trickle.sendall(bytes([byte]))
            time.sleep(0.02)
        assert _closed_within(idle, 5)[0]
        assert _closed_within(trickle, 5)[0]
        assert time.monotonic() - started < 4


def test_a_half_sent_body_is_answered_408_and_closed() -> None:
    with deadlined_proxy() as port, socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(HEAD + b"content-length: 100\r\n\r\n" + b'{"model": "m", ')
        closed, received = _closed_within(connection, 5)
    assert closed
    assert received.startswith(b"HTTP/1.1 408")
    assert b'"type":"invalid_request_error"' in received or b"error" in received


def test_a_request_in_time_is_untouched() -> None:
    with deadlined_proxy() as port:
        answer = httpx.post(
            f"http://127.0.0.1:{port}/v1/chat/completions",
            json={"model": "m", "messages": "x"},
            headers={"authorization": "Bearer k"},
        )
    assert answer.status_code == 400  # read and refused for its content, not cut off


def _never_sending_request() -> Request:
    async def receive() -> Message:
        await asyncio.Event().wait()
        raise AssertionError("never set")

    return Request({"type": "http", "headers": []}, receive)


def test_a_body_that_does_not_come_in_time_is_a_408_and_its_task_not_left_cancelled() -> None:
    async def read() -> tuple[RefusalError, int]:
        with pytest.raises(RefusalError) as refused:
            await read_body(_never_sending_request(), 100, 0.05)
        task = asyncio.current_task()
        assert task is not None
        return refused.value, task.cancelling()

    refusal, cancelling = asyncio.run(read())
    assert (refusal.status, refusal.headers) == (408, {"connection": "close"})
    assert cancelling == 0  # the deadline's cancellation taken back: the handler goes on to answer


def test_a_body_read_cancelled_from_elsewhere_stays_cancelled_never_a_408() -> None:
    async def read() -> None:
        task = asyncio.create_task(read_body(_never_sending_request(), 100, 5))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(read())


# --- the write deadline, on the ASGI response alone ---------------------------------------------


def _stream_through(send_delay: float, event_delay: float, write_timeout: float) -> tuple[list[bytes], list[str], bool]:
    """``write_deadline_stream`` of three events (``event_delay`` seconds before each) written
    to a caller whose every write of the body takes ``send_delay`` seconds: what the caller received,
    what ``on_late`` was told, and whether the body iterator was closed."""
    import anyio

    from chatcodec.serve._deadlines import write_deadline_stream

    received: list[bytes] = []
    late: list[str] = []
    closed = False

    async def body() -> AsyncIterator[bytes]:
        nonlocal closed
        try:
            for number in range(3):
                await anyio.sleep(event_delay)
                yield f"data: {number}\n\n".encode()
        finally:
            closed = True

    async def receive() -> dict[str, Any]:
        await anyio.sleep_forever()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body" and message.get("body"):
            await anyio.sleep(send_delay)
            received.append(message["body"])

    async def run() -> None:
        response = write_deadline_stream(
            body(), "text/event-stream", {}, write_timeout=write_timeout, on_late=late.append
        )
        scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "method": "POST", "headers": []}
        await response(scope, receive, send)

    anyio.run(run)
    return received, late, closed


def test_a_caller_that_stops_reading_ends_the_stream_at_the_write_deadline() -> None:
    started = time.monotonic()
    received, late, closed = _stream_through(send_delay=30, event_delay=0, write_timeout=0.2)
    assert time.monotonic() - started < 5
    assert received == []
    assert late == ["the caller accepted no write for 0.2 s (it stopped reading)"]
    assert closed


def test_the_write_deadline_does_not_run_while_the_upstream_thinks() -> None:
    """Each write has ``write_timeout`` seconds; the time between events (an upstream that
    thinks longer than that) is not a write, and ends nothing."""
    # a second of write deadline: a write the caller takes at once never nears it, even on a loaded machine
    received, late, closed = _stream_through(send_delay=0, event_delay=1.2, write_timeout=1.0)
    assert received == [b"data: 0\n\n", b"data: 1\n\n", b"data: 2\n\n"]
    assert late == []
    assert closed
