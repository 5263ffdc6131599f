"""``--record redis://...`` (issue 106): record lines appended to a Redis Stream on a real
``redis-server`` (the ``redis_server`` fixture), read back by ``read_records`` and
``read_episodes`` given the URL and by the session routes; a damaged entry is a loss naming
it; a Redis server that stops is reported beside each answer, and recording resumes when it
is back."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

import chatcodec
from chatcodec._training.record_stream import STREAM, redis_client
from chatcodec.serve import ServeConfig, create_app
from serve.harness import vllm_recording
from serve.redis_server import RedisServer
from serve.test_sessions import BODY, QUESTION, vllm


@asynccontextmanager
async def _gateway(url: str) -> AsyncIterator[httpx.AsyncClient]:
    """A gateway recording into ``url``, its lifespan run (the Redis client closed at its end)."""
    config = vllm_recording(url, allow_anonymous=True)
    app = create_app(config, client=httpx.AsyncClient(transport=httpx.MockTransport(vllm)))
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gateway") as client,
    ):
        yield client


def test_sessions_recorded_in_a_redis_stream_round_trip(redis_server: RedisServer) -> None:
    url = f"redis://127.0.0.1:{redis_server.port}/0"
    history: list[Any] = [
        *QUESTION,
        {"role": "assistant", "content": "It is sunny."},
        {"role": "user", "content": "Sure?"},
    ]

    async def calls() -> dict[str, Any]:
        async with _gateway(url) as first, _gateway(url) as second:  # two gateways, one stream
            await first.post("/sessions/a/v1/messages", json=BODY)
            await second.post("/sessions/a/v1/messages", json={**BODY, "messages": history, "stream": True})
            await second.post("/v1/messages", json=BODY, headers={"x-session-id": "b", "x-parent-session-id": "a"})
            done = await first.post("/v1/sessions/a/complete", json={"reward": 1.0, "metadata": {"k": "v"}})
            assert done.status_code == 200, done.text
            assert (await second.post("/v1/sessions/a/complete", json={"reward": 0.0})).status_code == 409
            found: dict[str, Any] = (await second.get("/v1/sessions/a")).json()
            return found

    found = asyncio.run(calls())
    assert (found["status"], found["reward"], [turn["turn"] for turn in found["turns"]]) == ("complete", 1.0, [0, 1])
    client = redis_client(url)
    client.xadd(STREAM, {"line": b"not json\n"})
    client.close()
    losses: list[chatcodec.Loss] = []
    episodes = {episode.session: episode for episode in chatcodec.read_episodes(url, on_loss="ignore", losses=losses)}
    assert (episodes["a"].reward, episodes["a"].metadata, len(episodes["a"].turns)) == (1.0, {"k": "v"}, 2)
    assert (episodes["b"].parent, episodes["b"].reward) == ("a", None)
    assert [loss.path.split(" ")[0] for loss in losses] == ["entry"]
    assert sorted(chatcodec.read_records(url, on_loss="ignore")) == ["a", "b"]


def test_a_redis_server_that_stops_is_reported_beside_each_answer_until_it_is_back(redis_server: RedisServer) -> None:
    url = f"redis://127.0.0.1:{redis_server.port}/0"

    async def calls() -> list[httpx.Response]:
        async with _gateway(url) as gateway:
            return await _through_a_restart(gateway)

    async def _through_a_restart(gateway: httpx.AsyncClient) -> list[httpx.Response]:
        answers = [await gateway.post("/sessions/a/v1/messages", json=BODY)]
        redis_server.stop()
        answers.append(await gateway.post("/sessions/b/v1/messages", json=BODY))
        unreadable = await gateway.get("/v1/sessions/a")
        assert unreadable.status_code == 503
        assert "record store cannot be read now" in unreadable.json()["error"]["message"]
        redis_server.start()
        answers.append(await gateway.post("/sessions/c/v1/messages", json=BODY))
        return answers

    before, down, back = asyncio.run(calls())
    assert all(answer.status_code == 200 for answer in (before, down, back))
    assert "chatcodec-store-error" not in before.headers
    assert "the turn was not recorded in Redis at 127.0.0.1" in down.headers["chatcodec-store-error"]
    assert "chatcodec-store-error" not in back.headers
    assert sorted(chatcodec.read_records(url, on_loss="error")) == ["a", "c"]


def test_a_redis_record_unreachable_at_start_is_refused(redis_server: RedisServer) -> None:
    redis_server.stop()
    config = {"api": "anthropic", "upstream": "openai-chat", "upstream_url": "http://vllm:8000/v1"}
    url = f"redis://127.0.0.1:{redis_server.port}/0"
    with pytest.raises(ValueError, match=r"--record: the Redis at 127\.0\.0\.1 cannot be reached"):
        create_app(ServeConfig(**config, options={"server": "vllm"}, record=url))
