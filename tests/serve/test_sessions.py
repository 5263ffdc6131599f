"""Sessions of a recording gateway (issue 106): named in the URL or a harness's header, a
subagent's parent kept, read back and completed with a reward over HTTP, and read as
episodes (:func:`chatcodec.read_episodes`).

In process: the app over ``httpx.ASGITransport``, a stand-in for vLLM behind it answering
its documented shapes (:mod:`serve.test_turn_records`) with small made-up ids, since the
ids' values are not what these tests hold.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

import chatcodec
from chatcodec.serve import ServeConfig, create_app
from serve.harness import vllm_recording
from serve.test_turn_records import vllm_answer, vllm_stream

QUESTION: list[Any] = [{"role": "user", "content": "What is the weather in Paris?"}]
BODY = {"model": "qwen3", "max_tokens": 10, "messages": QUESTION}


def vllm(request: httpx.Request) -> httpx.Response:
    """vLLM's chat completions asked for token ids: the prompt's ids count the messages."""
    body = json.loads(request.content)
    prompt = list(range(100, 100 + 3 * len(body["messages"])))
    completion = [7, 8, 9]
    if body.get("stream"):
        stream = vllm_stream(prompt, completion, "It is sunny.", "stop")
        return httpx.Response(200, content=stream, headers={"content-type": "text/event-stream"})
    return httpx.Response(200, json=vllm_answer(prompt, completion, {"content": "It is sunny."}, "stop"))


@asynccontextmanager
async def gateway(record: Path, tracer_provider: Any = None, **settings: Any) -> AsyncIterator[httpx.AsyncClient]:
    config = vllm_recording(str(record), **{"allow_anonymous": True, **settings})
    upstream = httpx.AsyncClient(transport=httpx.MockTransport(vllm))
    app = create_app(config, client=upstream, tracer_provider=tracer_provider)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gateway") as client,
    ):
        yield client


def test_a_session_in_the_url_and_one_in_each_harness_s_header_are_recorded(tmp_path: Path) -> None:
    record = tmp_path / "turns.jsonl"

    async def calls() -> None:
        async with gateway(record) as client:
            answered = await client.post("/sessions/ep-7/v1/messages", json=BODY)
            assert answered.status_code == 200, answered.text
            assert answered.json()["content"][0]["text"] == "It is sunny."
            streamed = await client.post("/sessions/ep-8/v1/messages", json={**BODY, "stream": True})
            assert "message_stop" in streamed.text
            for header in ("x-chatcodec-session", "x-claude-code-session-id", "session-id", "x-session-id"):
                assert (await client.post("/v1/messages", json=BODY, headers={header: header})).status_code == 200
            named_twice = {"x-chatcodec-session": "from-the-header"}
            assert (await client.post("/sessions/ep-9/v1/messages", json=BODY, headers=named_twice)).is_success
            assert (await client.post("/sessions/ep-7/v1/nothing", json=BODY)).status_code == 404

    asyncio.run(calls())
    episodes = chatcodec.read_records(record, on_loss="error")
    assert sorted(episodes) == sorted(
        ["ep-7", "ep-8", "ep-9", "x-chatcodec-session", "x-claude-code-session-id", "session-id", "x-session-id"]
    )
    assert episodes["ep-8"][0].completion_ids == [7, 8, 9]  # a streamed turn too


def test_a_subagent_s_parent_is_recorded_and_read_back(tmp_path: Path) -> None:
    record = tmp_path / "turns.jsonl"
    opencode = {"x-session-id": "ses_child", "x-parent-session-id": "ses_root"}
    codex = {"session-id": "thread-2", "x-codex-parent-thread-id": "thread-1"}

    async def calls() -> tuple[dict[str, Any], dict[str, Any]]:
        async with gateway(record) as client:
            assert (await client.post("/v1/messages", json=BODY, headers={"x-session-id": "ses_root"})).is_success
            assert (await client.post("/v1/messages", json=BODY, headers=opencode)).is_success
            assert (await client.post("/v1/messages", json=BODY, headers=codex)).is_success
            child = (await client.get("/v1/sessions/ses_child")).json()
            root = (await client.get("/v1/sessions/ses_root")).json()
            return child, root

    child, root = asyncio.run(calls())
    assert (child["parent"], root["parent"]) == ("ses_root", None)
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert [line.get("parent") for line in lines] == [None, "ses_root", "thread-1"]
    episodes = {episode.session: episode for episode in chatcodec.read_episodes(record)}
    assert (episodes["ses_child"].parent, episodes["thread-2"].parent, episodes["ses_root"].parent) == (
        "ses_root",
        "thread-1",
        None,
    )


def test_a_session_read_back_then_completed_once_with_its_reward(tmp_path: Path) -> None:
    record = tmp_path / "turns.jsonl"
    second = [*QUESTION, {"role": "assistant", "content": "It is sunny."}, {"role": "user", "content": "And Rome?"}]

    async def calls() -> list[httpx.Response]:
        async with gateway(record) as client:
            await client.post("/sessions/ep-1/v1/messages", json=BODY)
            await client.post("/sessions/ep-1/v1/messages", json={**BODY, "messages": second, "stream": True})
            await client.post(
                "/sessions/other/v1/messages",
                json={**BODY, "messages": [{"role": "user", "content": '"session":"ep-1"'}]},
            )
            return [
                await client.get("/v1/sessions/ep-1"),
                await client.post("/v1/sessions/ep-1/complete", json={"reward": 0.75, "metadata": {"solved": True}}),
                await client.get("/v1/sessions/ep-1"),
                await client.post("/v1/sessions/ep-1/complete", json={"reward": 1}),
                await client.get("/v1/sessions/nobody"),
                await client.post("/v1/sessions/nobody/complete", json={"reward": 1}),
                await client.post("/v1/sessions/other/complete", json={"reward": "high"}),
                await client.post("/v1/sessions/other/complete", json={"reward": 1, "extra": 2}),
            ]

    opened, completed, after, again, unknown, unknown_end, no_number, unknown_field = asyncio.run(calls())
    assert opened.status_code == 200
    shown = opened.json()
    assert (shown["session"], shown["status"], shown["reward"], shown["metadata"]) == ("ep-1", "open", None, {})
    assert [turn["turn"] for turn in shown["turns"]] == [0, 1]
    assert shown["turns"][1]["messages"][2]["content"] == "And Rome?"
    assert shown["turns"][0]["completion_ids"] == [7, 8, 9]
    assert completed.status_code == 200
    assert after.json()["status"] == "complete"
    assert (after.json()["reward"], after.json()["metadata"]) == (0.75, {"solved": True})
    assert again.status_code == 409
    assert "completed already" in again.json()["error"]["message"]
    assert (unknown.status_code, unknown_end.status_code) == (404, 404)
    assert unknown.json()["type"] == "error"  # the front's error shape
    assert no_number.status_code == 400
    assert "$.reward" in no_number.json()["error"]["message"]
    assert unknown_field.status_code == 400
    assert "$.extra" in unknown_field.json()["error"]["message"]

    episodes = chatcodec.read_episodes(record, on_loss="error")
    assert [(episode.session, episode.reward, episode.metadata) for episode in episodes] == [
        ("ep-1", 0.75, {"solved": True}),
        ("other", None, {}),
    ]
    assert [turn.message_index for turn in episodes[0].turns] == [1, 3]
    samples = chatcodec.trainer_samples(episodes[0].turns, on_loss="ignore")
    assert samples[0]["prompt_ids"] == [100, 101, 102]


def test_the_session_routes_ask_for_a_client_key_when_the_server_has_them(tmp_path: Path) -> None:
    record = tmp_path / "turns.jsonl"

    async def calls() -> list[int]:
        async with gateway(record, client_keys=frozenset({"ck-1"}), allow_anonymous=False) as client:
            keyed = {"x-api-key": "ck-1"}
            await client.post("/sessions/ep-1/v1/messages", json=BODY, headers=keyed)
            return [
                (await client.get("/v1/sessions/ep-1")).status_code,
                (await client.get("/v1/sessions/ep-1", headers={"x-api-key": "wrong"})).status_code,
                (await client.post("/v1/sessions/ep-1/complete", json={"reward": 1})).status_code,
                (await client.get("/v1/sessions/ep-1", headers=keyed)).status_code,
                (await client.post("/v1/sessions/ep-1/complete", json={"reward": 1}, headers=keyed)).status_code,
            ]

    assert asyncio.run(calls()) == [401, 401, 401, 200, 200]


def test_no_session_route_without_a_record(tmp_path: Path) -> None:
    config = ServeConfig(
        api="anthropic", upstream="anthropic", upstream_url="https://api.anthropic.com", allow_anonymous=True
    )

    async def call() -> int:
        app = create_app(config)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gateway") as client:
            return (await client.get("/v1/sessions/ep-1")).status_code

    assert asyncio.run(call()) in (404, 405)


@pytest.mark.parametrize("path", ["/sessions//v1/messages", "/sessions/with%20space/v1/messages"])
def test_a_url_session_no_header_can_carry_is_not_taken(tmp_path: Path, path: str) -> None:
    async def call() -> int:
        async with gateway(tmp_path / "turns.jsonl") as client:
            return (await client.post(path, json=BODY)).status_code

    assert asyncio.run(call()) == 404


def test_a_recorded_turn_s_span_carries_its_session_turn_parent_and_token_counts(tmp_path: Path) -> None:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    second = [*QUESTION, {"role": "assistant", "content": "It is sunny."}, {"role": "user", "content": "Sure?"}]

    async def calls() -> None:
        async with gateway(tmp_path / "turns.jsonl", otel=True, tracer_provider=provider) as client:
            headers = {"x-parent-session-id": "root"}
            await client.post("/sessions/ep-1/v1/messages", json=BODY, headers=headers)
            await client.post("/sessions/ep-1/v1/messages", json={**BODY, "messages": second, "stream": True})

    asyncio.run(calls())
    first, streamed = [dict(span.attributes or {}) for span in exporter.get_finished_spans()]
    assert (first["chatcodec.session"], first["chatcodec.turn"], first["chatcodec.session.parent"]) == (
        "ep-1",
        0,
        "root",
    )
    assert first["gen_ai.conversation.id"] == "ep-1"
    assert (streamed["chatcodec.turn"], "chatcodec.session.parent" in streamed) == (1, False)
    assert (streamed["gen_ai.usage.input_tokens"], streamed["gen_ai.usage.output_tokens"]) == (9, 3)
