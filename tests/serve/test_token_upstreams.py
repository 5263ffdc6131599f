"""``chatcodec serve --upstream vllm-generate --template qwen3 --tokenizer ... --record PATH``:
chatcodec renders the prompt, vLLM's token endpoint samples, the template's parser reads the
answer. The ``anthropic`` SDK in front; behind, a local fake answering as vLLM's
``/inference/v1/generate`` does (``GenerateResponse`` of
``vllm/entrypoints/serve/disagg/protocol.py``), and as SGLang's ``/generate`` does
(``output_ids``, ``meta_info.output_token_logprobs``), with real Qwen3 ids.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx
import pytest

import chatcodec
from chatcodec.serve import ServeConfig
from serve.harness import FakeUpstream, serving_config, serving_fake
from training.qwen3_tokenizer import qwen3_encoding, qwen3_prompt_ids

SESSION = {"x-chatcodec-session": "episode-9"}
TOOLS: list[Any] = [
    {"name": "get_weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}
]
QUESTION: list[Any] = [{"role": "user", "content": "What is the weather in Paris?"}]
CALL_TEXT = (
    "<think>\nThe user wants the weather; I call the tool.\n</think>\n\n"
    '<tool_call>\n{"name":"get_weather","arguments":{"city":"Paris"}}\n</tool_call><|im_end|>'
)
"""The call as the model wrote it: compact JSON, which the template would write with spaces."""
ANSWER_TEXT = "<think>\nThe tool said sunny.\n</think>\n\nIt is sunny in Paris.<|im_end|>"


def _ids(text: str) -> list[int]:
    encoded: list[int] = qwen3_encoding().encode(text, allowed_special="all")
    return encoded


def _logprobs(ids: list[int]) -> list[float]:
    return [-0.5 * (index % 3) for index in range(len(ids))]


def vllm_generated(ids: list[int], finish: str = "stop") -> dict[str, Any]:
    entries = [
        {"token": f"token_id:{token}", "logprob": value} for token, value in zip(ids, _logprobs(ids), strict=True)
    ]
    choice = {"index": 0, "logprobs": {"content": entries}, "finish_reason": finish, "token_ids": ids}
    return {"request_id": "generate-1", "choices": [choice], "prompt_logprobs": None, "kv_transfer_params": None}


def sglang_generated(ids: list[int]) -> dict[str, Any]:
    logprobs = [[value, token, None] for token, value in zip(ids, _logprobs(ids), strict=True)]
    meta = {"id": "s1", "finish_reason": {"type": "stop", "matched": ids[-1]}, "output_token_logprobs": logprobs}
    return {"text": "", "output_ids": ids, "meta_info": meta}


def _rendered(messages: list[Any]) -> list[int]:
    return qwen3_prompt_ids(messages, TOOLS)


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


def _config(upstream: str, fake: FakeUpstream, recorded: Path) -> ServeConfig:
    return ServeConfig(
        api="anthropic",
        upstream=upstream,
        upstream_url=fake.base,
        template="qwen3",
        record=str(recorded),
        allow_anonymous=True,
    )


@pytest.fixture
def serving(fake: FakeUpstream, tmp_path: Path) -> Iterator[tuple[anthropic.Anthropic, Path]]:
    fake.replies.clear()
    fake.received.clear()
    recorded = tmp_path / "turns.jsonl"
    with (
        serving_config(_config("vllm-generate", fake, recorded), tokenizer=qwen3_encoding()) as origin,
        anthropic.Anthropic(base_url=origin, api_key="sk-x", max_retries=0, default_headers=SESSION) as sdk,
    ):
        yield sdk, recorded


def test_chatcodec_renders_parses_and_extends_the_prompt_with_the_sampled_ids(
    fake: FakeUpstream, serving: tuple[anthropic.Anthropic, Path]
) -> None:
    client, recorded = serving
    first_completion = _ids(CALL_TEXT)
    fake.reply(vllm_generated(first_completion))
    answer = client.messages.create(model="qwen3", max_tokens=100, messages=QUESTION, tools=TOOLS)
    assert fake.last.path == "/inference/v1/generate"
    first_prompt = fake.last.body["token_ids"]
    assert first_prompt == _rendered(QUESTION)  # render of the request, with the generation prompt
    assert fake.last.body["sampling_params"]["max_tokens"] == 100
    calls = [block for block in answer.content if block.type == "tool_use"]
    assert [(call.name, call.input) for call in calls] == [("get_weather", {"city": "Paris"})]
    assert answer.stop_reason == "tool_use"

    history = [
        *QUESTION,
        {"role": "assistant", "content": [block.model_dump(exclude_none=True) for block in answer.content]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": calls[0].id, "content": "sunny"}]},
    ]
    second_completion = _ids(ANSWER_TEXT)
    fake.reply(vllm_generated(second_completion))
    with client.messages.stream(model="qwen3", max_tokens=100, messages=history, tools=TOOLS) as stream:
        final = stream.get_final_message()
    assert [block.type for block in final.content] == ["thinking", "text"]
    assert final.content[1].model_dump()["text"] == "It is sunny in Paris."
    second_prompt = fake.last.body["token_ids"]
    assert second_prompt[: len(first_prompt) + len(first_completion)] == first_prompt + first_completion
    assert second_prompt != _rendered(history)  # the call as sampled, never re-encoded from the text sent back

    first, second = chatcodec.read_records(recorded)["episode-9"]
    assert (first.prompt_ids, first.completion_ids, first.logprobs) == (
        first_prompt,
        first_completion,
        _logprobs(first_completion),
    )
    assert (second.prompt_ids, second.completion_ids) == (second_prompt, second_completion)
    assert "prompt_break" not in json.loads(recorded.read_text().splitlines()[1])


def test_a_new_question_after_reasoning_breaks_the_extension_and_says_so(
    fake: FakeUpstream, serving: tuple[anthropic.Anthropic, Path]
) -> None:
    client, recorded = serving
    fake.reply(vllm_generated(_ids(ANSWER_TEXT)))
    answer = client.messages.create(model="qwen3", max_tokens=100, messages=QUESTION)
    history = [
        *QUESTION,
        {"role": "assistant", "content": [block.model_dump(exclude_none=True) for block in answer.content]},
        {"role": "user", "content": "And in Rome?"},
    ]
    fake.reply(vllm_generated(_ids("It is rainy in Rome.<|im_end|>")))
    client.messages.create(model="qwen3", max_tokens=100, messages=history)
    rendered = chatcodec.render(
        {"model": "qwen3", "max_tokens": 100, "messages": history},
        source="anthropic",
        template="qwen3",
        tokenizer=qwen3_encoding(),
        add_generation_prompt=True,
        on_loss="ignore",
    )
    assert fake.last.body["token_ids"] == rendered.token_ids  # stock Qwen3 drops the earlier reasoning: fresh
    second = json.loads(recorded.read_text().splitlines()[1])
    assert "renders the earlier answer differently" in second["prompt_break"]


def test_sglang_generate_is_asked_for_ids_and_logprobs(fake: FakeUpstream, tmp_path: Path) -> None:
    fake.replies.clear()
    recorded = tmp_path / "turns.jsonl"
    completion = _ids("It is sunny.<|im_end|>")
    fake.reply(sglang_generated(completion))
    with serving_config(_config("sglang-generate", fake, recorded), tokenizer=qwen3_encoding()) as origin:
        body = {"model": "qwen3", "max_tokens": 50, "messages": QUESTION}
        reply = httpx.post(f"{origin}/v1/messages", json=body, headers=SESSION)
    assert reply.status_code == 200
    assert reply.json()["content"] == [{"type": "text", "text": "It is sunny."}]
    sent = fake.last
    assert (sent.path, sent.body["return_logprob"], sent.body["sampling_params"]["max_new_tokens"]) == (
        "/generate",
        True,
        50,
    )
    (turn,) = chatcodec.read_records(recorded)["episode-9"]
    assert (turn.prompt_ids, turn.completion_ids, turn.logprobs) == (
        sent.body["input_ids"],
        completion,
        _logprobs(completion),
    )


def test_a_token_upstream_needs_a_template_and_a_template_needs_one() -> None:
    with pytest.raises(ValueError, match="--upstream vllm-generate needs --template"):
        ServeConfig(api="anthropic", upstream="vllm-generate", upstream_url="http://localhost:8000")
    with pytest.raises(ValueError, match="only act on a token upstream"):
        ServeConfig(api="anthropic", upstream="anthropic", upstream_url="https://api.anthropic.com", template="qwen3")


def test_a_refusal_of_the_token_endpoint_and_a_caller_gone_are_answered_and_recorded(
    fake: FakeUpstream, tmp_path: Path
) -> None:
    fake.replies.clear()
    fake.disconnected.clear()
    recorded = tmp_path / "turns.jsonl"
    body = {"model": "qwen3", "max_tokens": 50, "messages": QUESTION}
    with serving_config(_config("vllm-generate", fake, recorded), tokenizer=qwen3_encoding()) as origin:
        fake.reply({"error": {"message": "max_tokens is too large"}}, status=400)
        refused = httpx.post(f"{origin}/v1/messages", json=body, headers=SESSION)
        assert refused.status_code == 400
        assert "max_tokens is too large" in refused.json()["error"]["message"]
        fake.reply(vllm_generated(_ids("late<|im_end|>")), delay=5.0)
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(f"{origin}/v1/messages", json=body, headers=SESSION, timeout=0.5)
        assert fake.disconnected.wait(5)
    (line,) = [json.loads(line) for line in recorded.read_text().splitlines()]
    assert (line["status"], line["prompt_ids"]) == ("cancelled", fake.last.body["token_ids"])


def test_the_token_count_is_the_rendered_prompt_s_and_the_model_list_names_the_route_s(
    fake: FakeUpstream, tmp_path: Path
) -> None:
    fake.received.clear()
    body = {"model": "qwen3", "messages": QUESTION, "tools": TOOLS}
    with serving_config(_config("vllm-generate", fake, tmp_path / "turns.jsonl"), tokenizer=qwen3_encoding()) as origin:
        counted = httpx.post(f"{origin}/v1/messages/count_tokens", json=body, headers=SESSION)
        listed = httpx.get(f"{origin}/v1/models", headers=SESSION)
    assert counted.json() == {"input_tokens": len(_rendered(QUESTION))}
    assert listed.status_code == 200
    assert fake.received == []  # neither asked the token endpoint


PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="


@pytest.mark.parametrize(
    ("upstream", "why"), [("vllm-generate", "GenerateRequest.features"), ("sglang-generate", "image_data")]
)
def test_a_request_with_an_image_is_refused_with_the_endpoints_reason_and_never_sent(
    fake: FakeUpstream, tmp_path: Path, upstream: str, why: str
) -> None:
    fake.replies.clear()
    fake.received.clear()
    picture = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "shot"}, picture]}
    call = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}
    messages = [*QUESTION, {"role": "assistant", "content": [call]}, {"role": "user", "content": [result]}]
    body = {"model": "qwen3", "max_tokens": 50, "messages": messages, "tools": TOOLS}
    with serving_config(_config(upstream, fake, tmp_path / "turns.jsonl"), tokenizer=qwen3_encoding()) as origin:
        refused = httpx.post(f"{origin}/v1/messages", json=body, headers=SESSION)
    assert refused.status_code == 400
    message = refused.json()["error"]["message"]
    assert f"the {upstream} upstream is sent no image ($.messages[2].content[0].content[1])" in message
    assert why in message
    assert fake.received == []
