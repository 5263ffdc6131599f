"""The store under faults: a request whose answer the upstream gave is answered whatever
the store does (a Redis server restarted, gone or stalled; a SQLite file locked by
another process), the store error reported beside it; a store that comes back is used
again without a restart; a thread is read in one query; a spelling with an option no
backend knows is refused at start."""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import socket
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

import chatcodec
from chatcodec import AssistantMessage, ChatResponse, FinishReason, TextPart, ThinkingPart, ToolUsePart
from chatcodec._providers.openai_responses.carried_reasoning import seal, verify_seal
from chatcodec.serve import ServeConfig
from chatcodec.serve._response_store import ResponseStore, owner_of
from chatcodec.serve._response_store_sqlite import SqliteBackend
from chatcodec.serve._store_spelling import read_store_spelling
from serve.harness import FakeUpstream, proxy
from serve.redis_server import RedisServer

pytestmark = pytest.mark.usefixtures("fresh_fake")

ALICE = owner_of("alice-key")


def _answer(text: str) -> dict[str, Any]:
    response = ChatResponse(
        id="msg_1",
        model="claude-sonnet-4-5",
        message=AssistantMessage(content=[TextPart(text=text)]),
        finish_reason=FinishReason(unified="stop", raw="end_turn"),
    )
    return chatcodec.encode_response("anthropic", response, on_loss="ignore")


def _post(origin: str, body: dict[str, Any], key: str = "alice-key") -> httpx.Response:
    return httpx.post(f"{origin}/v1/responses", json=body, headers={"authorization": f"Bearer {key}"}, timeout=30)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


# --- one query per thread ---------------------------------------------------------------------


def test_a_thousand_answer_thread_is_read_in_one_query_and_continued_in_a_fixed_number(tmp_path: Path) -> None:
    backend = SqliteBackend(str(tmp_path / "answers.db"), 100_000, 1024**3)
    store = ResponseStore(backend)
    message = {"role": "user", "content": "a turn"}

    async def scenario() -> tuple[int, int, int, int]:
        parent = None
        for index in range(1000):
            await store.keep(f"resp_{index}", owner=ALICE, parent=parent, messages=[message], response={})
            parent = f"resp_{index}"
        before = backend.statements
        history = await store.conversation("resp_999", ALICE)
        read = backend.statements - before
        before = backend.statements
        await store.keep("resp_1000", owner=ALICE, parent="resp_999", messages=[message], response={})
        kept = backend.statements - before
        before = backend.statements
        await store.keep("resp_first_child", owner=ALICE, parent="resp_0", messages=[message], response={})
        shallow = backend.statements - before
        await store.close()
        return len(history or []), read, kept, shallow

    length, read, kept, shallow = asyncio.run(scenario())
    assert length == 1000
    assert read == 1  # was one SELECT and one UPDATE commit per ancestor: 2,000
    assert kept == shallow  # keeping the 1001st answer costs what keeping the 2nd does


# --- options ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spelling",
    [
        "redis://localhost:6379/0?max_answer=5",
        "sqlite:/tmp/a.db?max_answer=5",
        "memory?max_answer=5",
        "memory:10?maxbytes=1MB",
        "redis://localhost:6379/0?sockettimeout=1",
    ],
)
def test_an_option_no_backend_knows_is_refused_for_every_backend(spelling: str) -> None:
    with pytest.raises(ValueError, match="has no option"):
        read_store_spelling(spelling)
    with pytest.raises(ValueError, match="has no option"):
        ServeConfig(api="openai-responses", upstream="anthropic", upstream_url="http://x", store=spelling)


def test_a_redis_url_keeps_its_own_connection_settings() -> None:
    read = read_store_spelling("redis://localhost:6379/0?socket_timeout=2&max_answers=7")
    assert (read.location, read.capacity) == ("redis://localhost:6379/0?socket_timeout=2", 7)


# --- a store that fails after the upstream answered ----------------------------------------------


def test_a_redis_server_that_is_gone_costs_the_caller_nothing_but_a_header(fake: FakeUpstream) -> None:
    fake.reply(_answer("Paris."))
    store = f"redis://127.0.0.1:{_free_port()}/0?socket_connect_timeout=0.5"
    with proxy("openai-responses", "anthropic", fake.base, store=store) as origin:
        answer = _post(origin, {"model": "m", "input": "Capital of France?"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["output"][0]["content"][0]["text"] == "Paris."
    assert "Redis" in answer.headers["chatcodec-store-error"]


def test_a_sqlite_file_locked_past_its_busy_timeout_costs_the_caller_nothing_but_a_header(
    fake: FakeUpstream, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("chatcodec.serve._response_store_sqlite.BUSY_TIMEOUT", 0.3)
    path = tmp_path / "answers.db"
    fake.reply(_answer("Paris."))
    with proxy("openai-responses", "anthropic", fake.base, store=f"sqlite:{path}") as origin:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process writing, for longer than the busy timeout
        try:
            answer = _post(origin, {"model": "m", "input": "Capital of France?"})
        finally:
            other.execute("ROLLBACK")
            other.close()
    assert answer.status_code == 200, answer.text
    assert answer.json()["output"][0]["content"][0]["text"] == "Paris."
    assert "database is locked" in answer.headers["chatcodec-store-error"]


def test_a_held_sqlite_write_lock_never_holds_a_request_that_keeps_nothing(
    fake: FakeUpstream, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("chatcodec.serve._response_store_sqlite.BUSY_TIMEOUT", 10.0)
    path = tmp_path / "answers.db"
    fake.reply(_answer("Kept, once the lock goes."))
    fake.reply(_answer("Not kept."))
    with proxy("openai-responses", "anthropic", fake.base, store=f"sqlite:{path}") as origin:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            with ThreadPoolExecutor(1) as pool:
                waiting = pool.submit(_post, origin, {"model": "m", "input": "keep me"})
                deadline = time.monotonic() + 10
                while not fake.received:  # the stored request is answered upstream, then waits for the lock
                    assert time.monotonic() < deadline, "the stored request never reached the upstream"
                    time.sleep(0.01)
                started = time.perf_counter()
                unkept = _post(origin, {"model": "m", "input": "do not keep me", "store": False}, key="bob-key")
                took = time.perf_counter() - started
                other.execute("ROLLBACK")
                kept = waiting.result(timeout=10)
        finally:
            other.close()
    assert unkept.status_code == 200
    assert took < 5.0  # was the lock's whole wait (BUSY_TIMEOUT): the SQLite call waited on the event loop
    assert kept.status_code == 200
    assert "chatcodec-store-error" not in kept.headers


# --- Redis: a real server restarted, and a fault-injecting proxy in front of it -------------------


class FaultyLink:
    """A TCP proxy to Redis that can drop every connection (a restart as clients see it)
    or stall (pass nothing back, as a server stuck in a slow command)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.stalled = threading.Event()
        self.sockets: list[socket.socket] = []
        self.closing = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closing:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target_port))
            self.sockets += [client, server]
            threading.Thread(target=self._pipe, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                while self.stalled.is_set() and not self.closing:
                    time.sleep(0.01)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                end.close()

    def drop(self) -> None:
        for end in self.sockets:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
        self.sockets.clear()

    def close(self) -> None:
        self.closing = True
        self.stalled.clear()
        self.listener.close()
        self.drop()


def _continue_a_thread(origin: str, turns: int, answer_id: str | None = None) -> tuple[str | None, list[int]]:
    statuses = []
    for turn in range(turns):
        body: dict[str, Any] = {"model": "m", "input": f"turn {turn}"}
        if answer_id is not None:
            body["previous_response_id"] = answer_id
        answer = _post(origin, body)
        statuses.append(answer.status_code)
        if answer.status_code == 200 and "chatcodec-store-error" not in answer.headers:
            answer_id = answer.json()["id"]
    return answer_id, statuses


def test_a_redis_restart_mid_thread_loses_no_answer(fake: FakeUpstream, redis_server: RedisServer) -> None:
    for index in range(6):
        fake.reply(_answer(f"answer {index}"))
    with proxy("openai-responses", "anthropic", fake.base, store=f"redis://127.0.0.1:{redis_server.port}/0") as origin:
        answer_id, before = _continue_a_thread(origin, 3)
        redis_server.stop()
        redis_server.start()  # the append-only file brings the thread back; every pooled connection is dead
        answer_id, after = _continue_a_thread(origin, 3, answer_id)
    assert before + after == [200] * 6  # was 500 for every stored request after the restart
    sent = fake.received[-1].body["messages"]
    assert len(sent) == 11  # the five earlier turns, both sides, and this one


def test_dropped_redis_connections_are_made_again(fake: FakeUpstream, redis_server: RedisServer) -> None:
    link = FaultyLink(redis_server.port)
    for index in range(4):
        fake.reply(_answer(f"answer {index}"))
    try:
        with proxy("openai-responses", "anthropic", fake.base, store=f"redis://127.0.0.1:{link.port}/0") as origin:
            answer_id, before = _continue_a_thread(origin, 2)
            link.drop()
            _, after = _continue_a_thread(origin, 2, answer_id)
    finally:
        link.close()
    assert before + after == [200] * 4
    assert len(fake.received[-1].body["messages"]) == 7


def test_a_stalled_redis_server_delays_an_answer_by_its_timeout_only(
    fake: FakeUpstream, redis_server: RedisServer
) -> None:
    link = FaultyLink(redis_server.port)
    for index in range(3):
        fake.reply(_answer(f"answer {index}"))
    store = f"redis://127.0.0.1:{link.port}/0?socket_timeout=0.5"
    try:
        with proxy("openai-responses", "anthropic", fake.base, store=store) as origin:
            answer_id, first = _continue_a_thread(origin, 1)
            link.stalled.set()
            started = time.perf_counter()
            stalled = _post(origin, {"model": "m", "input": "while it stalls", "previous_response_id": answer_id})
            took = time.perf_counter() - started
            link.stalled.clear()
            link.drop()  # the replies it held back never reach the client: it must not read them as answers
            _, after = _continue_a_thread(origin, 2, answer_id)
    finally:
        link.close()
    assert first == [200]
    assert stalled.status_code == 503  # the history could not be read: nothing was sent upstream
    assert took < 5
    assert after == [200, 200]
    assert len(fake.received) == 3


# --- a worker started while its Redis store is down ---------------------------------------------

_THINKING = ThinkingPart(text="I call get_weather.", signature="c2lnbmVk", provider="anthropic", model="claude")
_TOOL = {"type": "function", "name": "get_weather", "parameters": {"type": "object"}, "strict": False}
_USER = {"role": "user", "content": "Weather in Paris?"}
_SEALING = {"model": "m", "tools": [_TOOL], "store": False, "include": ["reasoning.encrypted_content"]}


def _signed_thinking_answer() -> dict[str, Any]:
    call = ToolUsePart(id="toolu_01A", name="get_weather", arguments='{"location":"Paris"}')
    response = ChatResponse(
        id="msg_1",
        model="claude-sonnet-4-5",
        message=AssistantMessage(content=[_THINKING, call]),
        finish_reason=FinishReason(unified="tool_calls", raw="tool_use"),
    )
    return chatcodec.encode_response("anthropic", response, on_loss="ignore")


def _continued(origin: str, output: list[dict[str, Any]]) -> httpx.Response:
    result = {"type": "function_call_output", "call_id": "toolu_01A", "output": "sunny"}
    return _post(origin, {**_SEALING, "input": [_USER, *output, result]})


def test_a_worker_started_while_redis_is_down_seals_with_the_stores_key_once_it_is_back(
    fake: FakeUpstream, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not on PATH: install it (apt-get install redis-server) to test the Redis store")
    monkeypatch.setattr("chatcodec.serve._steps.shared.KEY_RETRY_SECONDS", 0)
    redis_server = RedisServer(tmp_path)  # not started: the worker starts during the outage
    store = f"redis://127.0.0.1:{redis_server.port}/0?socket_connect_timeout=0.5"
    fake.reply(_signed_thinking_answer())
    fake.reply(_signed_thinking_answer())
    fake.reply(_answer("Sunny."))
    try:
        with proxy("openai-responses", "anthropic", fake.base, store=store) as late:
            during = _post(late, {**_SEALING, "input": [_USER]})
            assert during.status_code == 200, during.text
            reasoning = [item for item in during.json()["output"] if item["type"] == "reasoning"]
            assert [item.get("encrypted_content") for item in reasoning] == [None]  # no seal no worker could open
            assert "signature of reasoning from anthropic" in during.headers["chatcodec-losses"]
            elsewhere = {
                "type": "reasoning",
                "summary": [],
                "encrypted_content": seal(_THINKING.model_dump(), "k" * 16),
            }
            brought = _continued(late, [elsewhere])
            assert brought.status_code == 503, brought.text  # it cannot check the seal: neither dropped nor sent
            assert brought.headers["retry-after"] == "2"
            assert len(fake.received) == 1
            redis_server.start()
            back = _post(late, {**_SEALING, "input": [_USER]})
        assert back.status_code == 200, back.text
        output = back.json()["output"]
        sealed = next(item["encrypted_content"] for item in output if item["type"] == "reasoning")
        key = redis.Redis(port=redis_server.port).get("chatcodec:secret:seal-key")
        assert key is not None
        assert verify_seal(sealed, key.decode())  # the store's key, the one every worker reads
        with proxy("openai-responses", "anthropic", fake.base, store=store, validate=True) as other:
            continued = _continued(other, output)
        assert continued.status_code == 200, continued.text
        assert fake.received[-1].body["messages"][1]["content"][0]["signature"] == "c2lnbmVk"
    finally:
        redis_server.stop()


# --- a SQLite file written over while the server runs -------------------------------------------


def test_a_sqlite_file_written_over_while_the_server_runs_is_reported_and_nothing_is_said_kept(
    fake: FakeUpstream, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("chatcodec.serve._health.FRESH_FOR", 0.0)
    path = tmp_path / "answers.db"
    fake.reply(_answer("Paris."))
    fake.reply(_answer("Lyon."))
    with proxy("openai-responses", "anthropic", fake.base, store=f"sqlite:{path}") as origin:
        first = _post(origin, {"model": "m", "input": "Capital of France?"})
        kept = first.json()["id"]
        for _ in range(4):  # every reading connection open, its pages cached
            assert httpx.get(f"{origin}/v1/responses/{kept}", headers={"authorization": "Bearer alice-key"}).is_success
        assert httpx.get(f"{origin}/health").status_code == 200
        with path.open("r+b") as file:
            file.write(random.Random(77).randbytes(path.stat().st_size))
        health = httpx.get(f"{origin}/health")
        second = _post(origin, {"model": "m", "input": "And its second city?"})
        read_back = [
            httpx.get(f"{origin}/v1/responses/{answer_id}", headers={"authorization": "Bearer alice-key"})
            for answer_id in (kept, second.json()["id"])
        ]
    assert "chatcodec-store-error" not in first.headers
    assert health.status_code == 503, health.text  # was 200: the connections answered from their cache
    assert health.json()["failing"] == "store"
    assert second.status_code == 200, second.text
    assert "not a SQLite database" in second.headers["chatcodec-store-error"]  # was none: said kept
    assert [answer.status_code for answer in read_back] == [503, 503]  # errors, never "not kept" (404)
