"""A soak of the gateway with a Redis store restarted in the middle: no answer lost.

    .venv/bin/python bench/soak.py [--requests 10000] [--threads 100]   (make soak)

Starts a real ``redis-server`` on loopback (append-only, so a restart keeps what it had),
a fake Claude upstream, and ``chatcodec serve`` with an OpenAI Responses front and the
Redis store, each on a loopback port of this process. Then it sends ``--requests``
Responses requests, one after another, over ``--threads`` conversations taken in turn:
each request continues its conversation (``previous_response_id``), every third one
streamed. Halfway, Redis is stopped and started again (every pooled connection the
gateway holds is dead; the append-only file brings the answers back).

It fails (exit 1) unless every request was answered 200 with no store error, every
conversation continued after the restart with its whole history sent upstream (the
upstream received ``2 * turns + 1`` messages), and every conversation's last answer can be
read back (``GET /v1/responses/{id}``); and it reports the process's resident memory after
the first tenth of the requests and at the end (the gateway, the fake upstream and the
client share the process), which ``tests/serve/test_soak.py`` holds flat within a bound
on a smaller run of the same code.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from chatcodec.serve import ServeConfig
from chatcodec.serve._app import create_app

MODEL = "claude-sonnet-4-5"
KEY = {"authorization": "Bearer soak-key"}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def resident_megabytes() -> float:
    """This process's resident set size (Linux ``/proc/self/status``), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class RedisServer:
    """A ``redis-server`` on a loopback port, append-only in ``folder``, that can be restarted."""

    def __init__(self, folder: Path) -> None:
        if shutil.which("redis-server") is None:
            raise RuntimeError("redis-server is not on PATH (apt-get install redis-server)")
        self.port = _free_port()
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--dir", str(self.folder), "--appendonly", "yes"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


class FakeClaude:
    """Answers every Messages request with a short text answer (a stream when asked), and
    keeps how many messages the last request of each conversation sent."""

    def __init__(self) -> None:
        self.sent: dict[str, int] = {}
        self.app = Starlette(routes=[Route("/v1/messages", self._answer, methods=["POST"])])

    async def _answer(self, request: Request) -> Response:
        body = json.loads(await request.body())
        messages = body["messages"]
        first = messages[0]["content"]
        label = first if isinstance(first, str) else first[0]["text"]
        self.sent[label] = len(messages)
        text = f"answer {len(messages)}"
        if body.get("stream"):
            return StreamingResponse(_claude_stream(text), media_type="text/event-stream")
        return JSONResponse(
            {
                "id": f"msg_{len(messages)}",
                "type": "message",
                "role": "assistant",
                "model": MODEL,
                "content": [{"type": "text", "text": text}],
                "stop_reason": "end_turn",
                "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 3},
            }
        )


async def _claude_stream(text: str) -> AsyncIterator[bytes]:
    events: list[tuple[str, dict[str, Any]]] = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": "msg_stream",
                    "type": "message",
                    "role": "assistant",
                    "model": MODEL,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {"input_tokens": 10, "output_tokens": 1},
                },
            },
        ),
        (
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        ),
        (
            "content_block_delta",
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}},
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": 3},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    for name, data in events:
        yield f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()


@contextmanager
def serving(app: Any) -> Iterator[int]:
    """``app`` served by uvicorn on a loopback port in a thread; yields the port."""
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("a server did not start")
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=20)


@dataclass
class SoakResult:
    """What a soak saw."""

    requests: int = 0
    failures: list[str] = field(default_factory=lambda: [])
    """Every request not answered 200, answered with a store error, or whose history was short."""
    not_continued: list[str] = field(default_factory=lambda: [])
    """Conversations whose first request after the restart failed."""
    not_read_back: list[str] = field(default_factory=lambda: [])
    """Conversations whose last answer ``GET`` did not return."""
    memory_after_warm_up: float = 0.0
    memory_at_end: float = 0.0
    seconds: float = 0.0

    @property
    def lost(self) -> int:
        return len(self.failures) + len(self.not_continued) + len(self.not_read_back)


def _ask(client: httpx.Client, label: str, previous: str | None, *, stream: bool) -> tuple[int, str | None, str]:
    """One Responses request; its status, its answer id, and what went wrong (empty if nothing)."""
    body: dict[str, Any] = {"model": MODEL, "input": label, "max_output_tokens": 64, "stream": stream}
    if previous is not None:
        body["previous_response_id"] = previous
    if not stream:
        answer = client.post("/v1/responses", json=body)
        problem = answer.headers.get("chatcodec-store-error", "")
        answer_id = answer.json().get("id") if answer.status_code == 200 else None
        return answer.status_code, answer_id, problem or ("" if answer.status_code == 200 else answer.text[:200])
    answer_id = None
    with client.stream("POST", "/v1/responses", json=body) as answer:
        for line in answer.iter_lines():
            if line.startswith("data: ") and '"response.completed"' in line:
                answer_id = json.loads(line[6:])["response"]["id"]
        status = answer.status_code
    return status, answer_id, "" if answer_id is not None else "a stream without response.completed"


def soak(requests: int, threads: int, *, folder: Path | None = None) -> SoakResult:
    """Run the soak (see the module docstring); Redis keeps its file in ``folder`` (a
    temporary one by default)."""
    with tempfile.TemporaryDirectory() as temporary:
        redis = RedisServer(folder or Path(temporary))
        redis.start()
        try:
            return _soak(requests, threads, redis)
        finally:
            redis.stop()


def _soak(requests: int, threads: int, redis: RedisServer) -> SoakResult:
    result = SoakResult()
    fake = FakeClaude()
    labels = [f"conversation {index}" for index in range(threads)]
    last: dict[str, str | None] = dict.fromkeys(labels)
    turns: dict[str, int] = dict.fromkeys(labels, 0)
    restart_at = requests // 2
    warm = max(requests // 10, threads)
    started = time.perf_counter()
    with serving(fake.app) as upstream_port:
        store = f"redis://127.0.0.1:{redis.port}/0"
        config = ServeConfig("openai-responses", "anthropic", f"http://127.0.0.1:{upstream_port}", store=store)
        with (
            serving(create_app(config)) as port,
            httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=KEY, timeout=60) as client,
        ):
            after_restart: set[str] = set()
            for index in range(requests):
                if index == restart_at:
                    redis.stop()
                    redis.start()  # every pooled connection of the gateway is dead now
                    after_restart = set(labels)
                label = labels[index % threads]
                status, answer_id, problem = _ask(client, label, last[label], stream=index % 3 == 2)
                result.requests += 1
                turns[label] += 1
                expected = 2 * turns[label] - 1
                if status != 200 or problem or answer_id is None or fake.sent.get(label) != expected:
                    sent = fake.sent.get(label)
                    result.failures.append(f"request {index} ({label}): {status} {problem} (sent {sent} of {expected})")
                    if label in after_restart:
                        result.not_continued.append(label)
                last[label] = answer_id
                after_restart.discard(label)
                if index + 1 == warm:
                    result.memory_after_warm_up = resident_megabytes()
            for label, answer_id in last.items():
                if answer_id is None or client.get(f"/v1/responses/{answer_id}").status_code != 200:
                    result.not_read_back.append(label)
    result.memory_at_end = resident_megabytes()
    result.seconds = time.perf_counter() - started
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--threads", type=int, default=100, help="conversations taken in turn")
    options = parser.parse_args()
    result = soak(options.requests, options.threads)
    print(
        f"{result.requests} requests over {options.threads} conversations, Redis restarted after "
        f"{options.requests // 2}, in {result.seconds:.0f} s: {len(result.failures)} failed, "
        f"{len(result.not_continued)} conversations not continued after the restart, "
        f"{len(result.not_read_back)} last answers not read back; resident memory "
        f"{result.memory_after_warm_up:.1f} MB after the first tenth, {result.memory_at_end:.1f} MB at the end"
    )
    for failure in result.failures[:20]:
        print("  " + failure)
    return 1 if result.lost else 0


if __name__ == "__main__":
    sys.exit(main())
