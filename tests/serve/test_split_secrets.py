"""A key an upstream splits over streamed deltas (issue 106): redacted for the caller however
it is cut, one character a delta included, and so absent from the next request its harness
sends back and from the record of it. The held text is passed on, never dropped."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx

from chatcodec._model.stream_records import (
    FinishRecord,
    TextDeltaRecord,
    TextEndRecord,
    ToolCallDeltaRecord,
    ToolCallEndRecord,
)
from chatcodec._training.record_deltas import Rebuilder
from chatcodec.serve import create_app
from chatcodec.serve._held_deltas import HeldDeltas
from chatcodec.serve._secrets import REDACTED, Secrets
from serve.harness import vllm_recording

KEY = "sk-caller-0123456789abcdefXYZ"
TEXT = f"The key you sent was {KEY}, and {KEY} again; goodbye."


def _cut(text: str, size: int) -> list[str]:
    return [text[place : place + size] for place in range(0, len(text), size)]


def _passed(deltas: list[Any], end: Any) -> list[Any]:
    held = HeldDeltas(Secrets([KEY]))
    return [out for event in [*deltas, end] for out in held.passed(event)]


def test_a_key_cut_anywhere_is_redacted_and_no_text_is_lost() -> None:
    expected = TEXT.replace(KEY, REDACTED)
    for size in range(1, len(TEXT) + 1):
        deltas = [TextDeltaRecord(index=0, delta=piece) for piece in _cut(TEXT, size)]
        out = _passed(deltas, TextEndRecord(index=0))
        assert isinstance(out[-1], TextEndRecord)
        text = "".join(event.delta for event in out[:-1])
        assert text == expected, size
        assert all(KEY[:12] not in event.delta for event in out[:-1])


def test_ordinary_text_is_passed_at_once_and_a_possible_key_held_only_until_it_is_not_one() -> None:
    held = HeldDeltas(Secrets([KEY]))
    assert [event.delta for event in held.passed(TextDeltaRecord(index=0, delta="Hello there"))] == ["Hello there"]
    assert [event.delta for event in held.passed(TextDeltaRecord(index=0, delta=", sk-cal"))] == [", "]
    assert [event.delta for event in held.passed(TextDeltaRecord(index=0, delta="endar"))] == ["sk-calendar"]


def test_a_part_s_held_text_and_its_logprobs_come_before_its_end_and_other_parts_are_held_apart() -> None:
    held = HeldDeltas(Secrets([KEY]))
    logprob = [{"token": "sk", "logprob": -0.5}]
    assert held.passed(TextDeltaRecord(index=0, delta="x sk", logprobs=logprob))[0].delta == "x "
    assert held.passed(ToolCallDeltaRecord(index=1, delta='{"a": "sk-ca')) == [
        ToolCallDeltaRecord(index=1, delta='{"a": "')
    ]
    assert held.passed(ToolCallDeltaRecord(index=1, delta="ller-0123456789abcdef")) == []
    first = held.passed(TextDeltaRecord(index=0, delta="-caller-0123456789abcdefXYZ!"))
    assert [(event.delta, event.logprobs) for event in first] == [(f"{REDACTED}!", None)]
    ended = held.passed(ToolCallEndRecord(index=1))  # not the key after all: passed on as it came
    assert ended == [ToolCallDeltaRecord(index=1, delta="sk-caller-0123456789abcdef"), ToolCallEndRecord(index=1)]
    unfinished = held.passed(TextDeltaRecord(index=0, delta=" s", logprobs=logprob))
    assert unfinished == [TextDeltaRecord(index=0, delta=" ", logprobs=logprob)]  # a delta's logprobs go first
    finish = FinishRecord(choice=0, finish_reason={"unified": "stop"})
    assert held.passed(finish) == [TextDeltaRecord(index=0, delta="s"), finish]
    whole = held.passed(TextDeltaRecord(index=2, delta="sk-c", logprobs=logprob))
    assert whole == []  # all of it held, its logprobs with it
    assert held.flushed() == [TextDeltaRecord(index=2, delta="sk-c", logprobs=logprob)]


def _echoing(request: httpx.Request) -> httpx.Response:
    """vLLM echoing the key it was sent, one character a chunk, with token ids."""
    body = json.loads(request.content)
    key = request.headers["authorization"].removeprefix("Bearer ")
    text = f"You sent {key} to me."
    base = {"id": "chatcmpl-9", "object": "chat.completion.chunk", "created": 1, "model": "qwen3"}
    prompt = list(range(100, 100 + 3 * len(body["messages"])))
    chunks: list[dict[str, Any]] = [
        {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}], "prompt_token_ids": prompt}
    ]
    for number, character in enumerate(text):
        entry = {"token": f"token_id:{number}", "logprob": -0.1, "bytes": None, "top_logprobs": []}
        choice = {"index": 0, "delta": {"content": character}, "logprobs": {"content": [entry]}, "token_ids": [number]}
        chunks.append({**base, "choices": [choice]})
    chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop", "token_ids": []}]})
    stream = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in chunks) + "data: [DONE]\n\n"
    return httpx.Response(200, content=stream.encode(), headers={"content-type": "text/event-stream"})


def test_a_key_echoed_one_character_a_delta_reaches_neither_the_caller_nor_the_record(tmp_path: Path) -> None:
    record = tmp_path / "turns.jsonl"
    config = vllm_recording(str(record))
    question: list[Any] = [{"role": "user", "content": "Echo my key"}]

    async def calls() -> tuple[str, str]:
        app = create_app(config, client=httpx.AsyncClient(transport=httpx.MockTransport(_echoing)))
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://gateway") as client:
            headers = {"x-api-key": KEY, "x-chatcodec-session": "s"}
            body = {"model": "qwen3", "max_tokens": 50, "messages": question, "stream": True}
            first = (await client.post("/v1/messages", json=body, headers=headers)).text
            said = "".join(
                json.loads(line[6:])["delta"]["text"]
                for line in first.splitlines()
                if line.startswith("data: ") and '"text_delta"' in line
            )
            history = [*question, {"role": "assistant", "content": said}, {"role": "user", "content": "Thanks"}]
            await client.post("/v1/messages", json={**body, "messages": history}, headers=headers)
            return first, said

    streamed, said = asyncio.run(calls())
    assert said == f"You sent {REDACTED} to me."
    assert KEY[:10] not in streamed
    recorded = record.read_text()
    assert len(recorded.splitlines()) == 2
    assert KEY[:10] not in recorded
    rebuilder = Rebuilder()  # the second line holds what is new since the first: read whole
    lines = [rebuilder.rebuilt(json.loads(line), "line") for line in recorded.splitlines()]
    assert lines[1]["messages"][1]["content"] == said
    assert len(lines[0]["completion_ids"]) == len(f"You sent {KEY} to me.")  # the ids sampled, all recorded
