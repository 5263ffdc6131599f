"""``GET /health`` says whether a request can be served (the store answers), and
``GET /health/live`` whether the process runs: a Redis store stopped turns the first to
503 naming the store, started again back to 200; the second never asks the store."""

from __future__ import annotations

import time
from pathlib import Path

import anyio
import httpx
import pytest

from chatcodec.serve import ServeConfig, create_app
from chatcodec.serve import _health as health
from chatcodec.serve._response_store import MemoryBackend, ResponseStore
from serve.harness import proxy
from serve.redis_server import RedisServer, free_port

UPSTREAM = "http://127.0.0.1:9"  # never called: health asks no upstream


def _get(origin: str, path: str) -> httpx.Response:
    return httpx.get(f"{origin}{path}", timeout=10)


def _until(origin: str, status: int) -> httpx.Response:
    """``/health`` once it answers ``status`` (a verdict is reused for ``FRESH_FOR`` seconds)."""
    deadline = time.monotonic() + 10
    while True:
        answer = _get(origin, "/health")
        if answer.status_code == status or time.monotonic() > deadline:
            return answer
        time.sleep(0.1)


def test_without_a_store_both_routes_answer_ok() -> None:
    with proxy("openai-chat", "anthropic", UPSTREAM) as origin:
        ready, live = _get(origin, "/health"), _get(origin, "/health/live")
    assert (ready.status_code, ready.json()) == (200, {"status": "ok"})
    assert (live.status_code, live.json()) == (200, {"status": "ok"})
    assert ready.headers["cache-control"] == "no-store"


def test_a_stopped_redis_store_makes_health_503_naming_it_and_a_restart_makes_it_200(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(health, "FRESH_FOR", 0.2)
    store = f"redis://127.0.0.1:{redis_server.port}/0?socket_connect_timeout=0.5"
    with proxy("openai-responses", "anthropic", UPSTREAM, store=store) as origin:
        before = _until(origin, 200)
        redis_server.stop()
        down = _until(origin, 503)
        live = _get(origin, "/health/live")
        redis_server.start()
        after = _until(origin, 200)
    assert before.json() == {"status": "ok"}
    assert down.status_code == 503, down.text
    assert down.json()["status"] == "unavailable"
    assert down.json()["failing"] == "store"
    assert "ConnectionError" in down.json()["error"]
    assert "127.0.0.1" not in down.text  # no host or path to whoever probes
    assert (live.status_code, live.json()) == (200, {"status": "ok"})
    assert after.json() == {"status": "ok"}


def test_a_redis_store_never_started_is_failing_from_the_first_probe() -> None:
    store = f"redis://127.0.0.1:{free_port()}/0?socket_connect_timeout=0.5"
    with proxy("openai-responses", "anthropic", UPSTREAM, store=store) as origin:
        down = _get(origin, "/health")
        live = _get(origin, "/health/live")
    assert (down.status_code, down.json()["failing"]) == (503, "store")
    assert live.status_code == 200


def test_a_sqlite_file_gone_bad_makes_health_503(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health, "FRESH_FOR", 0.0)
    path = tmp_path / "answers.db"
    with proxy("openai-responses", "anthropic", UPSTREAM, store=f"sqlite:{path}") as origin:
        before = _get(origin, "/health")
        for written in (path, path.with_name("answers.db-wal"), path.with_name("answers.db-shm")):
            if written.exists():
                written.write_bytes(b"not a database, " * 512)
        down = _get(origin, "/health")
    assert before.status_code == 200
    assert (down.status_code, down.json()["failing"]) == (503, "store"), down.text


class _CountedBackend(MemoryBackend):
    """A memory store that counts the checks it is asked, each taking a moment."""

    def __init__(self) -> None:
        super().__init__()
        self.checks = 0

    async def check(self) -> None:
        self.checks += 1
        await anyio.sleep(0.05)


def test_probes_at_once_ask_the_store_once(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = _CountedBackend()
    monkeypatch.setattr("chatcodec.serve._steps.shared.open_store", lambda spec: ResponseStore(backend))
    app = create_app(ServeConfig(api="openai-responses", upstream="anthropic", upstream_url=UPSTREAM, store="memory"))

    async def probe_many() -> list[int]:
        statuses: list[int] = []
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://gw") as client:

            async def probe() -> None:
                statuses.append((await client.get("/health")).status_code)

            async with anyio.create_task_group() as group:
                for _ in range(50):
                    group.start_soon(probe)
            statuses.append((await client.get("/health")).status_code)  # within FRESH_FOR: reused
        return statuses

    statuses = anyio.run(probe_many)
    assert statuses == [200] * 51
    assert backend.checks == 1


def test_a_store_slower_than_the_check_timeout_is_failing(monkeypatch: pytest.MonkeyPatch) -> None:
    class _Stalled(MemoryBackend):
        async def check(self) -> None:
            await anyio.sleep(30)

    monkeypatch.setattr(health, "CHECK_TIMEOUT", 0.1)
    monkeypatch.setattr("chatcodec.serve._steps.shared.open_store", lambda spec: ResponseStore(_Stalled()))
    app = create_app(ServeConfig(api="openai-responses", upstream="anthropic", upstream_url=UPSTREAM, store="memory"))

    async def probe() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://gw") as client:
            return await client.get("/health")

    answer = anyio.run(probe)
    assert answer.status_code == 503
    assert answer.json() == {
        "status": "unavailable",
        "failing": "store",
        "error": "the store did not answer within 0.1 s",
    }
