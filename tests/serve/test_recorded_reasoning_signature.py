"""The Anthropic front of a server that renders itself (``--upstream openai-chat --option
server=vllm``), recording its turns: the reasoning its model sampled was never signed, so the
signature Anthropic's block requires is written ``""`` with no loss, plain, streamed and
replayed, as on a token upstream (``test_token_reasoning_signature.py``).

The route records the server's sampled ids: the answer is the gateway's own model's, and the
harness sends the block back to the gateway, which passes its text to the same server. The same
answer through a gateway that records nothing (a plain proxy, whose next hop may be any
provider) still reports the signature it makes up.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from serve.harness import FakeUpstream, kept_records, proxy, serving_fake
from serve.test_turn_records import SSE, _entries, _ids, _prompt, vllm_answer

SESSION = {"x-chatcodec-session": "episode-signed"}
QUESTION: list[Any] = [{"role": "user", "content": "Say hello."}]
REASONING = {"reasoning": "The user wants a greeting.", "reasoning_content": "The user wants a greeting."}


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


def _body(messages: list[Any], *, stream: bool = False) -> dict[str, Any]:
    return {"model": "qwen3", "max_tokens": 100, "messages": messages, "stream": stream}


def _reasoning_stream(prompt: list[int], completion: list[int]) -> bytes:
    """A vLLM chat stream whose reasoning comes before its text, with the ids vLLM reports."""
    base = {"id": "chatcmpl-3", "object": "chat.completion.chunk", "created": 1760000000, "model": "Qwen/Qwen3-8B"}
    half = len(completion) // 2
    deltas = [
        ({"reasoning_content": "The user wants a greeting."}, completion[:half]),
        ({"content": "Hello!"}, completion[half:]),
    ]
    chunks: list[dict[str, Any]] = [
        {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}], "prompt_token_ids": prompt}
    ]
    for delta, ids in deltas:
        chunks.append(
            {
                **base,
                "choices": [{"index": 0, "delta": delta, "logprobs": {"content": _entries(ids)}, "token_ids": ids}],
            }
        )
    chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop", "token_ids": []}]})
    return ("".join(f"data: {json.dumps(chunk)}\n\n" for chunk in chunks) + "data: [DONE]\n\n").encode()


def _logged_losses(send: Any) -> list[str]:
    """The losses the request log line of ``send()`` names (a stream's, once it is written)."""
    with kept_records("chatcodec.serve") as request_log:
        answer = send()
        assert answer.status_code == 200, answer.text
        assert request_log.wait_for(bool), "no request line"
        line = json.loads(request_log.records[0].getMessage())
    summary: list[str] = line["loss_summary"]
    return summary


def _signatures(text: str) -> list[str]:
    """The signature each streamed thinking block ends with (its start's, then its deltas')."""
    signatures: list[str] = []
    for line in text.splitlines():
        if not line.startswith("data: "):
            continue
        event = json.loads(line.removeprefix("data: "))
        if event["type"] == "content_block_start" and event["content_block"]["type"] == "thinking":
            signatures.append(event["content_block"]["signature"])
        elif event["type"] == "content_block_delta" and event["delta"]["type"] == "signature_delta":
            signatures[-1] += event["delta"]["signature"]
    return signatures


def test_the_recorded_server_s_reasoning_is_written_unsigned_without_a_loss(fake: FakeUpstream, tmp_path: Path) -> None:
    fake.replies.clear()
    completion = _ids("<think>\nThe user wants a greeting.\n</think>\n\nHello!<|im_end|>")
    settings: dict[str, Any] = {"options": {"server": "vllm"}, "record": str(tmp_path / "turns.jsonl")}
    with proxy("anthropic", "openai-chat", f"{fake.base}/v1", allow_anonymous=True, **settings) as origin:
        fake.reply(vllm_answer(_prompt(QUESTION), completion, {"content": "Hello!", **REASONING}, "stop"))
        plain = httpx.post(f"{origin}/v1/messages", json=_body(QUESTION), headers=SESSION, timeout=30)
        assert plain.status_code == 200, plain.text
        thinking = plain.json()["content"][0]
        assert thinking == {"type": "thinking", "thinking": "The user wants a greeting.", "signature": ""}
        assert "signature" not in plain.headers.get("chatcodec-losses", "")

        history = [
            *QUESTION,
            {"role": "assistant", "content": plain.json()["content"]},
            {"role": "user", "content": "Again."},
        ]
        fake.reply(_reasoning_stream(_prompt(history), completion), content_type=SSE)
        answers: list[httpx.Response] = []

        def send() -> httpx.Response:
            answers.append(
                httpx.post(f"{origin}/v1/messages", json=_body(history, stream=True), headers=SESSION, timeout=30)
            )
            return answers[-1]

        assert not [loss for loss in _logged_losses(send) if "signature" in loss]
        assert _signatures(answers[0].text) == [""]
        assert "signature" not in fake.last.body["messages"][1]  # the block's text went back to the server


def test_a_gateway_recording_nothing_still_reports_the_signature_it_makes_up(fake: FakeUpstream) -> None:
    fake.replies.clear()
    with proxy(
        "anthropic", "openai-chat", f"{fake.base}/v1", options={"server": "vllm"}, allow_anonymous=True
    ) as origin:
        fake.reply(vllm_answer([1, 2], [3, 4], {"content": "Hello!", **REASONING}, "stop"))
        plain = httpx.post(f"{origin}/v1/messages", json=_body(QUESTION), headers=SESSION, timeout=30)
    assert plain.status_code == 200, plain.text
    assert plain.json()["content"][0]["signature"] == ""
    assert "thinking signature" in plain.headers["chatcodec-losses"]


def test_a_replayed_answer_s_reasoning_is_written_unsigned_without_a_loss(fake: FakeUpstream, tmp_path: Path) -> None:
    """SGLang reports the ids only on a plain answer: a streamed call is asked for one and
    replayed as the caller's stream, its reasoning as the plain answer's."""
    fake.replies.clear()
    prompt, completion = _prompt(QUESTION), _ids("<think>\nThe user wants a greeting.\n</think>\n\nHello!<|im_end|>")
    answer = vllm_answer(prompt, completion, {"content": "Hello!", **REASONING}, "stop")
    del answer["prompt_token_ids"]
    answer["choices"][0]["prompt_token_ids"] = prompt  # SGLang writes both lists on the choice
    fake.reply(answer)
    settings: dict[str, Any] = {"options": {"server": "sglang"}, "record": str(tmp_path / "turns.jsonl")}
    with proxy("anthropic", "openai-chat", f"{fake.base}/v1", allow_anonymous=True, **settings) as origin:
        answers: list[httpx.Response] = []

        def send() -> httpx.Response:
            answers.append(
                httpx.post(f"{origin}/v1/messages", json=_body(QUESTION, stream=True), headers=SESSION, timeout=30)
            )
            return answers[-1]

        logged = _logged_losses(send)
    assert "stream" not in fake.last.body  # a plain answer asked
    assert _signatures(answers[0].text) == [""]
    assert not [loss for loss in logged if "signature" in loss]
