"""A caller that sends nothing, half a head or half a body is cut off: its socket is
closed (the head) or answered 408 and closed (the body), never held for ever. Raw
sockets against the real server, with uvicorn as ``chatcodec serve`` runs it."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from chatcodec.serve import ServeConfig
from chatcodec.serve._app import create_app
from chatcodec.serve._deadlines import server_settings
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
