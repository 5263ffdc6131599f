"""``chatcodec serve --record PATH`` in front of a server that renders the template itself
(``--upstream openai-chat --option server=vllm``): the ``anthropic`` SDK in front, a local
fake speaking vLLM's documented shapes behind, with real Qwen3 ids.

vLLM's shapes are ``ChatCompletionResponse`` and ``ChatCompletionStreamResponse`` of
``vllm/entrypoints/openai/chat_completion/protocol.py`` (``return_token_ids``: the prompt's
ids at the top level, or in a stream's first chunk; the sampled ids on each choice, a
chunk's own on each chunk; the logprobs OpenAI's). The ids are Qwen3's own, from
``render`` with the template's generation prompt, as vLLM would have sent the model.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx
import pytest

import chatcodec
from chatcodec._training.record_deltas import Rebuilder
from chatcodec.serve import ServeConfig
from serve.harness import FakeUpstream, proxy, serving_fake
from training.qwen3_tokenizer import qwen3_encoding, qwen3_prompt_ids

SSE = "text/event-stream"
SESSION = {"x-chatcodec-session": "episode-1"}
TOOLS: list[Any] = [
    {"name": "get_weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}
]
QUESTION: list[Any] = [{"role": "user", "content": "What is the weather in Paris?"}]
CALL_TEXT = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call><|im_end|>'
ANSWER_TEXT = "It is sunny in Paris.<|im_end|>"


def _ids(text: str) -> list[int]:
    encoded: list[int] = qwen3_encoding().encode(text, allowed_special="all")
    return encoded


def _prompt(messages: list[Any]) -> list[int]:
    return qwen3_prompt_ids(messages, TOOLS)


def _logprobs(ids: list[int]) -> list[float]:
    return [-0.25 * (index % 4) for index in range(len(ids))]


def _entries(ids: list[int]) -> list[dict[str, Any]]:
    return [
        {"token": f"token_id:{token}", "logprob": logprob, "bytes": None, "top_logprobs": []}
        for token, logprob in zip(ids, _logprobs(ids), strict=True)
    ]


def vllm_answer(prompt: list[int], completion: list[int], message: dict[str, Any], finish: str) -> dict[str, Any]:
    """A vLLM ``ChatCompletionResponse`` as ``return_token_ids`` and ``logprobs`` make it."""
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1760000000,
        "model": "Qwen/Qwen3-8B",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": None, "tool_calls": [], **message},
                "logprobs": {"content": _entries(completion)},
                "finish_reason": finish,
                "stop_reason": None,
                "token_ids": completion,
            }
        ],
        "usage": {
            "prompt_tokens": len(prompt),
            "completion_tokens": len(completion),
            "total_tokens": len(prompt) + len(completion),
        },
        "prompt_logprobs": None,
        "prompt_token_ids": prompt,
        "kv_transfer_params": None,
    }


def vllm_stream(prompt: list[int], completion: list[int], text: str, finish: str) -> bytes:
    """A vLLM chat stream: the prompt's ids on the first chunk, each chunk's own ids and logprobs."""
    base = {"id": "chatcmpl-2", "object": "chat.completion.chunk", "created": 1760000000, "model": "Qwen/Qwen3-8B"}
    half = len(completion) // 2
    chunks: list[dict[str, Any]] = [
        {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}], "prompt_token_ids": prompt},
    ]
    for part, ids in ((text[:5], completion[:half]), (text[5:], completion[half:])):
        choice = {"index": 0, "delta": {"content": part}, "logprobs": {"content": _entries(ids)}, "token_ids": ids}
        chunks.append({**base, "choices": [choice]})
    chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish, "token_ids": []}]})
    usage = {
        "prompt_tokens": len(prompt),
        "completion_tokens": len(completion),
        "total_tokens": len(prompt) + len(completion),
    }
    chunks.append({**base, "choices": [], "usage": usage})
    lines = [f"data: {json.dumps(chunk)}\n\n" for chunk in chunks]
    return ("".join(lines) + "data: [DONE]\n\n").encode()


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


@pytest.fixture
def recorded(tmp_path: Path) -> Path:
    return tmp_path / "turns.jsonl"


@pytest.fixture
def client(fake: FakeUpstream, recorded: Path) -> Iterator[anthropic.Anthropic]:
    fake.replies.clear()
    fake.received.clear()
    settings: dict[str, Any] = {"options": {"server": "vllm"}, "record": str(recorded), "allow_anonymous": True}
    with (
        proxy("anthropic", "openai-chat", f"{fake.base}/v1", **settings) as origin,
        anthropic.Anthropic(base_url=origin, api_key="sk-x", max_retries=0, default_headers=SESSION) as sdk,
    ):
        yield sdk


def test_a_two_turn_tool_session_recorded_as_vllm_sampled_it(
    fake: FakeUpstream, client: anthropic.Anthropic, recorded: Path
) -> None:
    first_prompt, first_completion = _prompt(QUESTION), _ids(CALL_TEXT)
    call = {
        "id": "chatcmpl-tool-1",
        "type": "function",
        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
    }
    reasoning = {"reasoning": "I call the tool.", "reasoning_content": "I call the tool."}  # vLLM 0.10 writes both
    fake.reply(vllm_answer(first_prompt, first_completion, {"tool_calls": [call], **reasoning}, "tool_calls"))
    raw = client.messages.with_raw_response.create(model="qwen3", max_tokens=100, messages=QUESTION, tools=TOOLS)
    answer = raw.parse()
    assert [block.type for block in answer.content] == ["thinking", "tool_use"]
    sent = fake.last.body
    assert (sent["return_token_ids"], sent["logprobs"]) == (True, True)
    dumped = json.dumps(answer.model_dump())
    assert "token_ids" not in dumped  # the SDK's answer carries none
    assert "logprob" not in dumped
    losses = raw.headers.get("chatcodec-losses", "")
    assert "token_ids" not in losses  # no loss for what was recorded
    assert "'logprobs'" not in losses
    assert "['field']" not in losses  # the wire field reasoning came from is no data the caller lost

    history = [
        *QUESTION,
        {"role": "assistant", "content": [block.model_dump() for block in answer.content]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": answer.content[1].id, "content": "sunny"}]},
    ]
    second_prompt, second_completion = _prompt(history), _ids(ANSWER_TEXT)
    fake.reply(vllm_stream(second_prompt, second_completion, "It is sunny in Paris.", "stop"), content_type=SSE)
    with client.messages.stream(model="qwen3", max_tokens=100, messages=history, tools=TOOLS) as stream:
        final = stream.get_final_message()
    assert final.content[0].type == "text"
    assert "logprob" not in json.dumps(final.model_dump())
    streamed = fake.last.body
    assert (streamed["return_token_ids"], streamed["logprobs"], streamed["stream"]) == (True, True, True)

    episodes = chatcodec.read_records(recorded)
    assert list(episodes) == ["episode-1"]
    first, second = episodes["episode-1"]
    assert (first.prompt_ids, first.completion_ids) == (first_prompt, first_completion)
    assert first.logprobs == _logprobs(first_completion)
    assert (second.prompt_ids, second.completion_ids) == (second_prompt, second_completion)
    assert second.logprobs == [
        *_logprobs(second_completion[: len(second_completion) // 2]),
        *_logprobs(second_completion[len(second_completion) // 2 :]),
    ]
    assert (first.message_index, second.message_index) == (1, 3)
    lines = [json.loads(line) for line in recorded.read_text().splitlines()]
    assert [line["turn"] for line in lines] == [0, 1]
    assert [line["finish_reason"] for line in lines] == ["tool_calls", "stop"]
    assert lines[0]["tools"][0]["name"] == "get_weather"
    assert (lines[1]["extends"], lines[1]["messages_kept"]) == (lines[0]["request_id"], 1)  # what is new since
    assert [message["role"] for message in lines[1]["messages_added"]] == ["assistant", "tool"]
    assert "tools" not in lines[1]  # the same as the line it extends
    kept = lines[1]["prompt_kept"]
    assert [*(first_prompt + first_completion)[:kept], *lines[1]["prompt_added"]] == second_prompt


def test_the_caller_s_own_logprobs_stay_in_its_answer(fake: FakeUpstream, recorded: Path) -> None:
    prompt, completion = _prompt(QUESTION), _ids(ANSWER_TEXT)
    fake.replies.clear()
    answer = vllm_answer(prompt, completion, {"content": "It is sunny in Paris."}, "stop")
    fake.reply(answer)
    config = {"options": {"server": "vllm"}, "record": str(recorded), "allow_anonymous": True}
    with proxy("openai-chat", "openai-chat", f"{fake.base}/v1", **config) as origin:
        body = {"model": "qwen3", "messages": QUESTION, "logprobs": True}
        reply = httpx.post(f"{origin}/v1/chat/completions", json=body, headers={"session-id": "codex-7"})
    assert reply.status_code == 200
    choice = reply.json()["choices"][0]
    assert [entry["logprob"] for entry in choice["logprobs"]["content"]] == _logprobs(completion)
    assert "token_ids" not in choice
    assert "prompt_token_ids" not in reply.json()
    assert chatcodec.read_records(recorded)["codex-7"][0].completion_ids == completion


def test_a_caller_that_goes_away_leaves_a_record_saying_so(fake: FakeUpstream, recorded: Path) -> None:
    fake.replies.clear()
    fake.disconnected.clear()
    fake.reply(vllm_answer(_prompt(QUESTION), _ids(ANSWER_TEXT), {"content": "late"}, "stop"), delay=5.0)
    config = {"options": {"server": "vllm"}, "record": str(recorded), "allow_anonymous": True}
    with proxy("anthropic", "openai-chat", f"{fake.base}/v1", **config) as origin:
        body = {"model": "qwen3", "max_tokens": 10, "messages": QUESTION}
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(f"{origin}/v1/messages", json=body, headers=SESSION, timeout=0.5)
        assert fake.disconnected.wait(5)
    (line,) = [json.loads(line) for line in recorded.read_text().splitlines()]
    assert (line["session"], line["status"]) == ("episode-1", "cancelled")
    losses: list[chatcodec.Loss] = []
    assert chatcodec.read_records(recorded, on_loss="ignore", losses=losses) == {}
    assert "cancelled turn 0" in losses[0].what


def test_a_record_that_cannot_be_written_is_reported_beside_the_answer(fake: FakeUpstream) -> None:
    fake.replies.clear()
    fake.reply(vllm_answer(_prompt(QUESTION), _ids(ANSWER_TEXT), {"content": "It is sunny."}, "stop"))
    config = {"options": {"server": "vllm"}, "record": "/dev/full", "allow_anonymous": True}
    with proxy("anthropic", "openai-chat", f"{fake.base}/v1", **config) as origin:
        body = {"model": "qwen3", "max_tokens": 10, "messages": QUESTION}
        reply = httpx.post(f"{origin}/v1/messages", json=body, headers=SESSION)
    assert reply.status_code == 200
    assert reply.json()["content"][0]["text"] == "It is sunny."
    assert "the turn was not recorded in /dev/full" in reply.headers["chatcodec-store-error"]


def test_a_route_that_reports_no_ids_is_refused_at_start(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"reports no token ids to record.*--option server=vllm"):
        ServeConfig(
            api="anthropic",
            upstream="openai-chat",
            upstream_url="https://api.openai.com/v1",
            record=str(tmp_path / "turns.jsonl"),
        )


def test_an_unfinished_last_line_is_reported_and_cut_back_when_the_gateway_starts_again(
    fake: FakeUpstream, recorded: Path
) -> None:
    fake.replies.clear()
    whole = chatcodec.read_records  # the reader first, on a file a crash cut mid-line
    prompt, completion = _prompt(QUESTION), _ids(ANSWER_TEXT)
    fake.reply(vllm_answer(prompt, completion, {"content": "It is sunny."}, "stop"))
    config = {"options": {"server": "vllm"}, "record": str(recorded), "allow_anonymous": True}
    body = {"model": "qwen3", "max_tokens": 10, "messages": QUESTION}
    with proxy("anthropic", "openai-chat", f"{fake.base}/v1", **config) as origin:
        assert httpx.post(f"{origin}/v1/messages", json=body, headers=SESSION).status_code == 200
    kept = recorded.read_bytes()
    recorded.write_bytes(kept + kept[:40])  # a second line cut off by a crash
    with pytest.warns(chatcodec.LossWarning, match="an unfinished last line"):
        assert whole(recorded)["episode-1"][0].completion_ids == completion
    fake.reply(vllm_answer(prompt, completion, {"content": "It is sunny."}, "stop"))
    with proxy("anthropic", "openai-chat", f"{fake.base}/v1", **config) as origin:
        assert httpx.post(f"{origin}/v1/messages", json=body, headers=SESSION).status_code == 200
    assert len(chatcodec.read_records(recorded, on_loss="error")["episode-1"]) == 2  # nothing unfinished


def test_a_line_that_is_no_record_is_a_loss_naming_it_and_the_rest_is_read(tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    path.write_text('{"record": 1}\nnot json\n[1]\n')
    losses: list[chatcodec.Loss] = []
    assert chatcodec.read_records(path, on_loss="ignore", losses=losses) == {}
    assert [(loss.path, loss.why.split(";")[0]) for loss in losses] == [
        ("line 1.session", "'session' must be a string, not null"),
        ("line 2", "not JSON (Expecting value: line 1 column 1 (char 0))"),
        ("line 3", "a record is a JSON object, not list"),
    ]
    with pytest.raises(chatcodec.LossError, match=r"line 1\.session"):
        chatcodec.read_records(path, on_loss="error")


def test_sglang_is_asked_for_a_plain_answer_and_a_streamed_call_gets_it_replayed(
    fake: FakeUpstream, recorded: Path
) -> None:
    """SGLang refuses ``return_token_ids`` on a stream: a streamed call asks it for a plain
    answer (the ids on the choice), recorded, and replayed as the caller's stream."""
    fake.replies.clear()
    prompt, completion = _prompt(QUESTION), _ids(ANSWER_TEXT)
    answer = vllm_answer(prompt, completion, {"content": "It is sunny in Paris."}, "stop")
    del answer["prompt_token_ids"]
    answer["choices"][0]["prompt_token_ids"] = prompt  # SGLang writes both lists on the choice
    fake.reply(answer)
    fake.reply(answer)
    config = {"options": {"server": "sglang"}, "record": str(recorded), "allow_anonymous": True}
    body = {"model": "qwen3", "max_tokens": 10, "messages": QUESTION}
    with proxy("anthropic", "openai-chat", f"{fake.base}/v1", **config) as origin:
        assert httpx.post(f"{origin}/v1/messages", json=body, headers=SESSION).status_code == 200
        assert fake.last.body["return_token_ids"] is True
        streamed = httpx.post(f"{origin}/v1/messages", json={**body, "stream": True}, headers=SESSION)
        asked = fake.last.body
    assert (asked["return_token_ids"], "stream" in asked) == (True, False)  # a plain answer asked
    assert streamed.headers["content-type"].startswith("text/event-stream")
    texts = [
        json.loads(line[6:])["delta"]["text"]
        for line in streamed.text.splitlines()
        if line.startswith("data: ") and '"text_delta"' in line
    ]
    assert "".join(texts) == "It is sunny in Paris."
    assert "message_stop" in streamed.text
    assert "token_ids" not in streamed.text
    rebuilder = Rebuilder()
    plain, stream = [rebuilder.rebuilt(json.loads(line), "line") for line in recorded.read_text().splitlines()]
    assert (plain["status"], plain["prompt_ids"], plain["completion_ids"]) == ("complete", prompt, completion)
    assert (stream["status"], stream["prompt_ids"], stream["completion_ids"]) == ("complete", prompt, completion)


def test_a_streamed_turn_whose_caller_goes_away_is_recorded_as_cancelled(fake: FakeUpstream, recorded: Path) -> None:
    fake.replies.clear()
    fake.stream_closed.clear()
    prompt, completion = _prompt(QUESTION), _ids(ANSWER_TEXT)
    whole = vllm_stream(prompt, completion, "It is sunny in Paris.", "stop").decode()
    begun = "".join(event + "\n\n" for event in whole.split("\n\n")[:2])  # the prompt's ids, a text chunk
    fake.reply(begun.encode(), content_type=SSE, endless=True)
    config = {"options": {"server": "vllm"}, "record": str(recorded), "allow_anonymous": True}
    body = {"model": "qwen3", "max_tokens": 10, "messages": QUESTION, "stream": True}
    with proxy("anthropic", "openai-chat", f"{fake.base}/v1", **config) as origin:
        with httpx.stream("POST", f"{origin}/v1/messages", json=body, headers=SESSION) as stream:
            for line in stream.iter_lines():
                if "text_delta" in line:
                    break  # the caller goes away mid-answer
        assert fake.stream_closed.wait(5)
        for _ in range(50):  # the record is written as the gateway closes the stream
            if recorded.exists() and recorded.read_text():
                break
            time.sleep(0.1)
    (line,) = [json.loads(line) for line in recorded.read_text().splitlines()]
    assert (line["status"], line["prompt_ids"]) == ("cancelled", prompt)
    assert line["completion_ids"] == completion[: len(completion) // 2]


def test_a_recorded_tool_session_is_one_trainer_sample_masked_on_its_two_completions(
    fake: FakeUpstream, client: anthropic.Anthropic, recorded: Path
) -> None:
    """Issue 100's loop closed: what the gateway recorded goes to ``trainer_samples`` as a
    rendered episode does, one sample while each prompt extends the last prompt and completion."""
    call = {"id": "call-1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
    answered = [{"type": "tool_use", "id": "call-1", "name": "get_weather", "input": {"city": "Paris"}}]
    history = [
        *QUESTION,
        {"role": "assistant", "content": answered},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call-1", "content": "sunny"}]},
    ]
    first_prompt, second_prompt = _prompt(QUESTION), _prompt(history)
    assert second_prompt[: len(first_prompt)] == first_prompt
    im_end = qwen3_encoding().encode_single_token("<|im_end|>")
    first_completion = second_prompt[len(first_prompt) : second_prompt.index(im_end, len(first_prompt)) + 1]
    second_completion = _ids(ANSWER_TEXT)
    fake.reply(vllm_answer(first_prompt, first_completion, {"tool_calls": [call]}, "tool_calls"))
    client.messages.create(model="qwen3", max_tokens=100, messages=QUESTION, tools=TOOLS)
    fake.reply(vllm_answer(second_prompt, second_completion, {"content": "It is sunny in Paris."}, "stop"))
    client.messages.create(model="qwen3", max_tokens=100, messages=history, tools=TOOLS)

    turns = chatcodec.read_records(recorded)["episode-1"]
    losses: list[chatcodec.Loss] = []
    [sample] = chatcodec.trainer_samples(turns, on_loss="error", losses=losses)
    assert losses == []
    assert sample["prompt_ids"] == first_prompt
    response, mask = sample["response_ids"], sample["response_mask"]
    assert [token for token, flag in zip(response, mask, strict=True) if flag] == first_completion + second_completion
    between = [token for token, flag in zip(response, mask, strict=True) if not flag]
    assert between == second_prompt[len(first_prompt) + len(first_completion) :]  # the tool result, the next prompt
    assert "<tool_response>\nsunny\n</tool_response>" in qwen3_encoding().decode(between)
    assert sample["response_logprobs"] == [
        *_logprobs(first_completion),
        *([0.0] * len(between)),
        *_logprobs(second_completion),
    ]
