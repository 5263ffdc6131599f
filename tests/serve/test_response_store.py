"""The response store behind ``--store``: one contract over memory, SQLite and Redis (a
real server started here when ``redis-server`` is on PATH), answers bound to the key that
made them, bounded in answers and in bytes; ``GET /v1/responses/{id}`` over HTTP."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import chatcodec
from chatcodec import AssistantMessage, ChatResponse, FinishReason, TextPart
from chatcodec.serve._response_store import ResponseStore, owner_of
from chatcodec.serve._store_spelling import open_store, read_store_spelling
from serve.harness import FakeUpstream, proxy, serving_fake

ALICE, BOB = owner_of("alice-key"), owner_of("bob-key")


def _message(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not on PATH: install it (apt-get install redis-server) to test the Redis store")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    folder = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


_DATABASES = iter(range(1, 16))


@pytest.fixture(params=["memory", "sqlite", "redis"])
def spelling(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A store spelling of each kind, empty (Redis: a database of its own per test)."""
    if request.param == "memory":
        return "memory"
    if request.param == "sqlite":
        return f"sqlite:{tmp_path / 'answers.db'}"
    url: str = request.getfixturevalue("redis_url")
    return f"{url}/{next(_DATABASES)}"


def _in_a_store(spelling: str, scenario: Callable[[ResponseStore], Awaitable[None]], bounds: str = "") -> None:
    """``scenario`` run on the store ``spelling`` names, in one event loop (a Redis pool's
    connections belong to the loop that made them), the store closed after it."""

    async def run() -> None:
        store = open_store(spelling + bounds)
        assert store is not None
        try:
            await scenario(store)
        finally:
            await store.close()

    asyncio.run(run())


def test_a_thread_is_kept_once_per_answer_and_read_back_in_order(spelling: str) -> None:
    async def scenario(store: ResponseStore) -> None:
        await store.keep(
            "resp_1", owner=ALICE, parent=None, messages=[_message("a"), _message("b")], response={"id": "resp_1"}
        )
        await store.keep("resp_2", owner=ALICE, parent="resp_1", messages=[_message("c")], response={"id": "resp_2"})
        assert await store.conversation("resp_2", ALICE) == [_message("a"), _message("b"), _message("c")]
        assert await store.response("resp_2", ALICE) == {"id": "resp_2"}

    _in_a_store(spelling, scenario)


def test_another_callers_key_finds_nothing(spelling: str) -> None:
    async def scenario(store: ResponseStore) -> None:
        await store.keep("resp_1", owner=ALICE, parent=None, messages=[_message("a")], response={"id": "resp_1"})
        assert await store.conversation("resp_1", BOB) is None
        assert await store.response("resp_1", BOB) is None

    _in_a_store(spelling, scenario)


def test_the_store_forgets_the_least_recently_used_past_its_byte_bound(spelling: str) -> None:
    async def scenario(store: ResponseStore) -> None:
        await store.keep("resp_0", owner=ALICE, parent=None, messages=[_message("x" * 900)], response={})
        for index in range(1, 8):
            await store.keep(f"resp_{index}", owner=ALICE, parent=None, messages=[_message("x" * 900)], response={})
            # the first thread is continued after each: it stays the most recently used
            await store.keep(f"resp_0_{index}", owner=ALICE, parent="resp_0", messages=[], response={})
        assert await store.conversation("resp_0", ALICE) is not None
        assert await store.conversation("resp_1", ALICE) is None
        assert await store.conversation("resp_7", ALICE) is not None
        assert await store.count() <= 4 + 7

    _in_a_store(spelling, scenario, "?max_bytes=4KB")


def test_reading_a_thread_writes_nothing_and_keeping_makes_the_whole_thread_recent(spelling: str) -> None:
    async def scenario(store: ResponseStore) -> None:
        await store.keep("resp_1", owner=ALICE, parent=None, messages=[_message("a")], response={})
        await store.keep("resp_2", owner=ALICE, parent="resp_1", messages=[_message("b")], response={})
        await store.keep("other", owner=ALICE, parent=None, messages=[_message("o")], response={})
        await store.conversation("other", ALICE)  # a read: it does not make "other" recent
        await store.keep("resp_3", owner=ALICE, parent="resp_2", messages=[_message("c")], response={})
        await store.keep("new", owner=ALICE, parent=None, messages=[_message("n")], response={})
        assert await store.conversation("other", ALICE) is None  # the least recently used thread went
        assert await store.conversation("resp_3", ALICE) == [_message("a"), _message("b"), _message("c")]

    _in_a_store(spelling, scenario, "?max_answers=4")


async def _operations(store: ResponseStore, spelling: str) -> int:
    """What the backend has done so far, in its own unit: records touched (memory), SQL
    statements (SQLite), commands run, those of its scripts included (Redis's
    ``INFO commandstats``)."""
    backend: Any = store.backend
    if spelling == "memory":
        return int(backend.operations)
    if spelling.startswith("sqlite:"):
        return int(backend.statements)
    stats = await backend._redis.info("commandstats")
    return sum(int(entry["calls"]) for name, entry in stats.items() if name != "cmdstat_info")


def test_keeping_an_answer_touches_no_ancestor(spelling: str) -> None:
    """Keeping the 1,001st answer of a thread costs what keeping the 2nd of another does:
    the thread's recency is one entry (each ancestor was read and made recent, in memory
    and in Redis, where SQLite already kept one row per thread)."""

    async def scenario(store: ResponseStore) -> None:
        message = [_message("a turn")]
        parent = None
        for index in range(1000):
            await store.keep(f"resp_{index}", owner=ALICE, parent=parent, messages=message, response={})
            parent = f"resp_{index}"
        await store.keep("short_0", owner=ALICE, parent=None, messages=message, response={})
        before = await _operations(store, spelling)
        await store.keep("resp_1000", owner=ALICE, parent="resp_999", messages=message, response={})
        deep = await _operations(store, spelling) - before
        before = await _operations(store, spelling)
        await store.keep("short_1", owner=ALICE, parent="short_0", messages=message, response={})
        shallow = await _operations(store, spelling) - before
        assert deep == shallow
        assert len(await store.conversation("resp_1000", ALICE) or []) == 1001

    _in_a_store(spelling, scenario, "?max_answers=5000")


def test_the_store_forgets_past_its_answer_bound_and_a_thread_whose_start_is_gone(spelling: str) -> None:
    async def scenario(store: ResponseStore) -> None:
        await store.keep("resp_1", owner=ALICE, parent=None, messages=[_message("a")], response={})
        await store.keep("resp_2", owner=ALICE, parent="resp_1", messages=[_message("b")], response={})
        await store.keep("resp_3", owner=ALICE, parent="resp_2", messages=[_message("c")], response={})
        assert await store.count() == 2
        assert await store.response("resp_3", ALICE) == {}
        assert await store.conversation("resp_3", ALICE) is None  # resp_1 was forgotten: the thread cannot be rebuilt

    _in_a_store(spelling, scenario, "?max_answers=2")


def test_an_answer_larger_than_the_byte_bound_is_not_kept(spelling: str) -> None:
    async def scenario(store: ResponseStore) -> None:
        assert not await store.keep("resp_1", owner=ALICE, parent=None, messages=[_message("x" * 2000)], response={})
        assert await store.response("resp_1", ALICE) is None

    _in_a_store(spelling, scenario, "?max_bytes=1KB")


def test_kept_thinking_is_its_owners_only_and_never_an_answer(spelling: str) -> None:
    parts = [{"type": "thinking", "text": "t", "signature": "s", "provider": "anthropic"}]

    async def scenario(store: ResponseStore) -> None:
        assert await store.keep_thinking("digest", ALICE, parts)
        assert await store.thinking("digest", ALICE) == parts
        assert await store.thinking("digest", BOB) is None
        assert await store.response("thinking:digest", ALICE) is None  # GET never reaches it
        assert await store.conversation("thinking:digest", ALICE) is None

    _in_a_store(spelling, scenario)


def test_a_sqlite_store_outlives_its_process(tmp_path: Path) -> None:
    spelling = f"sqlite:{tmp_path / 'answers.db'}"

    async def keep(store: ResponseStore) -> None:
        await store.keep("resp_1", owner=ALICE, parent=None, messages=[_message("a")], response={"id": "resp_1"})

    async def read(store: ResponseStore) -> None:
        assert await store.conversation("resp_1", ALICE) == [_message("a")]

    _in_a_store(spelling, keep)
    _in_a_store(spelling, read)


@pytest.mark.parametrize(
    ("spelling", "kind", "capacity", "max_bytes"),
    [
        ("memory:10?max_bytes=2MB", "memory", 10, 2 * 1024**2),
        ("sqlite:/tmp/a.db?max_answers=5", "sqlite", 5, 256 * 1024**2),
        ("redis://localhost:6379/2?max_bytes=1GB", "redis", 100_000, 1024**3),
    ],
)
def test_the_store_spelling_names_the_kind_and_its_bounds(
    spelling: str, kind: str, capacity: int, max_bytes: int
) -> None:
    read = read_store_spelling(spelling)
    assert (read.kind, read.capacity, read.max_bytes) == (kind, capacity, max_bytes)


# --- over HTTP -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


def _answer(text: str) -> dict[str, Any]:
    response = ChatResponse(
        id="msg_1",
        model="claude-sonnet-4-5",
        message=AssistantMessage(content=[TextPart(text=text)]),
        finish_reason=FinishReason(unified="stop", raw="end_turn"),
    )
    return chatcodec.encode_response("anthropic", response, on_loss="ignore")


def _post(origin: str, key: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{origin}/v1/responses", json=body, headers={"authorization": f"Bearer {key}"}, timeout=30)


def _get(origin: str, key: str, answer_id: str) -> httpx.Response:
    return httpx.get(f"{origin}/v1/responses/{answer_id}", headers={"authorization": f"Bearer {key}"}, timeout=30)


def test_get_returns_a_kept_answer_to_its_caller_only(fake: FakeUpstream, tmp_path: Path) -> None:
    fake.reply(_answer("Hello."))
    with proxy("openai-responses", "anthropic", fake.base, store=f"sqlite:{tmp_path / 'a.db'}") as origin:
        made = _post(origin, "alice-key", {"model": "m", "input": "Hi"})
        assert made.status_code == 200
        answer_id = made.json()["id"]
        mine, theirs = _get(origin, "alice-key", answer_id), _get(origin, "bob-key", answer_id)
        continued = _post(origin, "bob-key", {"model": "m", "input": "More", "previous_response_id": answer_id})
    assert mine.status_code == 200
    assert mine.json() == made.json()
    assert theirs.status_code == 404
    assert theirs.json()["error"]["message"].startswith(f"Response with id '{answer_id}' not found")
    assert continued.status_code == 400
    assert "not a response this server keeps for your key" in continued.json()["error"]["message"]


def test_a_kept_answer_is_continued_after_a_restart(fake: FakeUpstream, tmp_path: Path) -> None:
    spelling = f"sqlite:{tmp_path / 'answers.db'}"
    fake.reply(_answer("Paris."))
    with proxy("openai-responses", "anthropic", fake.base, store=spelling) as origin:
        answer_id = _post(origin, "alice-key", {"model": "m", "input": "Capital of France?"}).json()["id"]
    fake.reply(_answer("About 2 million."))
    with proxy("openai-responses", "anthropic", fake.base, store=spelling) as origin:
        again = _post(
            origin, "alice-key", {"model": "m", "input": "Its population?", "previous_response_id": answer_id}
        )
    assert again.status_code == 200
    sent = fake.received[-1].body["messages"]
    assert [message["role"] for message in sent] == ["user", "assistant", "user"]
    assert sent[1]["content"] == [{"type": "text", "text": "Paris."}]


def test_get_without_a_store_is_a_404(fake: FakeUpstream) -> None:
    with proxy("openai-responses", "anthropic", fake.base) as origin:
        answer = _get(origin, "alice-key", "resp_1")
    assert answer.status_code == 404
    assert "keeps no responses" in answer.json()["error"]["message"]
