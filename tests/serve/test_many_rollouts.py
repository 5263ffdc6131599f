"""Issue 106's done-when: two gateway processes (``chatcodec serve --record DIR``) recording
into one directory, 200 concurrent sessions between them (half streamed, each session's two
turns on different gateways), each completed with a reward over HTTP; every turn is one
whole line, and :func:`chatcodec.read_episodes` gives the 200 episodes, each with its reward.

The stand-in for vLLM answers its documented shapes (:mod:`serve.test_turn_records`) with
small made-up ids, served on loopback as the gateways' real upstream."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

import chatcodec
from serve.harness import serving
from serve.redis_server import free_port
from serve.test_turn_records import vllm_answer, vllm_stream

ROOT = Path(__file__).resolve().parents[2]
SESSIONS = 200


async def _vllm(request: Request) -> Response:
    """vLLM's chat completions asked for token ids; the prompt's ids count the messages."""
    body = await request.json()
    assert body["return_token_ids"] is True
    prompt = list(range(100, 100 + 3 * len(body["messages"])))
    if body.get("stream"):
        stream = vllm_stream(prompt, [7, 8, 9], "It is sunny.", "stop")
        return Response(stream, media_type="text/event-stream")
    return JSONResponse(vllm_answer(prompt, [7, 8, 9], {"content": "It is sunny."}, "stop"))


@contextmanager
def _gateway(upstream: str, record: Path) -> Iterator[str]:
    """``chatcodec serve`` in a process of its own, recording into ``record``; yields its origin."""
    port = free_port()
    command = [sys.executable, "-m", "chatcodec", "serve", "--api", "anthropic", "--upstream", "openai-chat"]
    command += ["--upstream-url", f"{upstream}/v1", "--option", "server=vllm", "--record", str(record)]
    command += ["--allow-anonymous", "--port", str(port)]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), *sys.path])}
    process = subprocess.Popen(command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    origin = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{origin}/health/live", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the gateway did not start: {process.communicate()[1]!r}") from None
                time.sleep(0.1)
        yield origin
    finally:
        process.terminate()
        process.communicate(timeout=30)


async def _episode(client: httpx.AsyncClient, origins: list[str], number: int) -> None:
    """Session ``number``: a question on one gateway, a second turn on the other, completed on the first."""
    session = f"rollout-{number:03d}"
    streamed = number % 2 == 1
    first, second = origins[number % 2], origins[(number + 1) % 2]
    question = [{"role": "user", "content": f"Question {number}?"}]
    history = [*question, {"role": "assistant", "content": "It is sunny."}, {"role": "user", "content": "Sure?"}]
    for origin, messages in ((first, question), (second, history)):
        body = {"model": "qwen3", "max_tokens": 10, "messages": messages, "stream": streamed}
        answer = await client.post(f"{origin}/sessions/{session}/v1/messages", json=body)
        assert answer.status_code == 200, answer.text
        assert "chatcodec-store-error" not in answer.headers
        assert ("message_stop" in answer.text) if streamed else answer.json()["content"][0]["text"] == "It is sunny."
    done = await client.post(
        f"{first}/v1/sessions/{session}/complete", json={"reward": number / 100, "metadata": {"n": number}}
    )
    assert done.status_code == 200, done.text
    assert [turn["turn"] for turn in done.json()["turns"]] == [0, 1]  # both gateways' shards read back


def test_two_gateways_record_200_concurrent_sessions_into_one_directory(tmp_path: Path) -> None:
    record = tmp_path / "records"
    record.mkdir()
    upstream = Starlette(routes=[Route("/v1/chat/completions", _vllm, methods=["POST"])])
    with ExitStack() as stack:
        port = stack.enter_context(serving(upstream, timeout_keep_alive=300))  # no idle close racing a reuse
        origins = [stack.enter_context(_gateway(f"http://127.0.0.1:{port}", record)) for _ in range(2)]

        async def run() -> None:
            # a connection a request each: a kept one expired by the client 2 s after it read the
            # answer could still meet the gateway's 5 s idle close on a loaded machine (the answer
            # read late), and a reuse of a closed connection is a ReadError, not the gateway's answer
            limits = httpx.Limits(max_connections=SESSIONS, max_keepalive_connections=0)
            async with httpx.AsyncClient(timeout=60, limits=limits) as client:
                await asyncio.gather(*(_episode(client, origins, number) for number in range(SESSIONS)))
                again = await client.post(f"{origins[1]}/v1/sessions/rollout-000/complete", json={"reward": 1})
                assert again.status_code == 409  # ended on the other gateway: read from its shard

        asyncio.run(run())

    shards = sorted(record.iterdir())
    assert len(shards) == 2  # one writer, one shard each
    lines = [line for shard in shards for line in shard.read_bytes().split(b"\n")[:-1]]
    assert all(shard.read_bytes().endswith(b"\n") for shard in shards)
    records = [json.loads(line) for line in lines]  # every line whole
    assert sum(1 for line in records if line.get("kind") == "end") == SESSIONS
    assert sorted(line["status"] for line in records if "kind" not in line) == ["complete"] * (2 * SESSIONS)
    episodes = chatcodec.read_episodes(record, on_loss="error")
    assert len(episodes) == SESSIONS
    for episode in episodes:
        number = int(episode.session.removeprefix("rollout-"))
        assert (episode.reward, episode.metadata) == (number / 100, {"n": number})
        assert [turn.message_index for turn in episode.turns] == [1, 3]
        assert episode.turns[1].prompt_ids == list(range(100, 109))
