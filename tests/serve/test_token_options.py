"""The options a harness or an operator gives a gateway that renders the prompt itself
(``--upstream vllm-generate``): ``--parser``/``--reasoning-parser`` for a ``--template`` of
no family chatcodec knows, a body's ``chat_template_kwargs`` and the fronts' own thinking
switches passed to the template, and ``return_token_ids`` asked by the harness answered in
vLLM's shape. The fake answers as vLLM's ``/inference/v1/generate`` does, with real Qwen3 ids.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import chatcodec
from chatcodec._training.families import template_text
from chatcodec.serve import ServeConfig, create_app
from chatcodec.serve._template_variables import template_variables
from serve.harness import FakeUpstream, serving_config, serving_fake
from serve.test_token_upstreams import vllm_generated
from training.qwen3_tokenizer import qwen3_encoding, qwen3_prompt_ids

SESSION = {"x-chatcodec-session": "options-1"}
QUESTION: list[Any] = [{"role": "user", "content": "What is the weather in Paris?"}]
TOOLS: list[Any] = [
    {"name": "get_weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}
]
CALL_TEXT = (
    "<think>\nI call the tool.\n</think>\n\n"
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call><|im_end|>'
)
NO_THINKING = "<|im_start|>assistant\n<think>\n\n</think>\n\n"
"""Qwen3's generation prompt under ``enable_thinking: false``: an empty reasoning block."""


def _ids(text: str) -> list[int]:
    encoded: list[int] = qwen3_encoding().encode(text, allowed_special="all")
    return encoded


def _text(ids: list[int]) -> str:
    decoded: str = qwen3_encoding().decode(ids)
    return decoded


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


def _config(fake: FakeUpstream, tmp_path: Path, api: str = "anthropic", **settings: Any) -> ServeConfig:
    fake.replies.clear()
    fake.received.clear()
    chosen: dict[str, Any] = {"template": "qwen3", "record": str(tmp_path / "turns.jsonl"), **settings}
    return ServeConfig(api=api, upstream="vllm-generate", upstream_url=fake.base, allow_anonymous=True, **chosen)


def _fine_tune_template(tmp_path: Path) -> Path:
    """Qwen3's template as a fine-tune ships it, edited: a template of no family chatcodec knows."""
    path = tmp_path / "chat_template.jinja"
    path.write_text("{#- a fine-tune's template: Qwen3's, with this comment -#}\n" + template_text("qwen3"))
    return path


def test_a_template_of_no_family_is_read_with_the_parsers_serve_names(fake: FakeUpstream, tmp_path: Path) -> None:
    config = _config(fake, tmp_path, template=str(_fine_tune_template(tmp_path)), parser="hermes")
    fake.reply(vllm_generated(_ids(CALL_TEXT)))
    with serving_config(config, tokenizer=qwen3_encoding()) as origin:
        body = {"model": "qwen3", "max_tokens": 100, "messages": QUESTION, "tools": TOOLS}
        answer = httpx.post(f"{origin}/v1/messages", json=body, headers=SESSION)
    assert answer.status_code == 200  # was a 502 on every turn: no parser could be chosen
    content = answer.json()["content"]
    assert [block["type"] for block in content] == ["thinking", "tool_use"]  # hermes defaults to Qwen3's reasoning
    assert (content[1]["name"], content[1]["input"]) == ("get_weather", {"city": "Paris"})
    (turn,) = chatcodec.read_records(tmp_path / "turns.jsonl")["options-1"]
    assert turn.completion_ids == _ids(CALL_TEXT)


def test_a_named_reasoning_parser_is_the_one_used(fake: FakeUpstream, tmp_path: Path) -> None:
    """``--reasoning-parser`` picks vLLM's reader of the reasoning: ``deepseek_r1`` reads a
    completion that never opens ``<think>`` as reasoning up to its ``</think>``."""
    template = str(_fine_tune_template(tmp_path))
    config = _config(fake, tmp_path, template=template, parser="hermes", reasoning_parser="deepseek_r1")
    fake.reply(vllm_generated(_ids("I think.\n</think>\n\nSunny.<|im_end|>")))
    with serving_config(config, tokenizer=qwen3_encoding()) as origin:
        body = {"model": "qwen3", "max_tokens": 100, "messages": QUESTION}
        answer = httpx.post(f"{origin}/v1/messages", json=body, headers=SESSION)
    assert [block["type"] for block in answer.json()["content"]] == ["thinking", "text"]


def test_a_template_of_no_family_without_a_parser_is_refused_at_start(fake: FakeUpstream, tmp_path: Path) -> None:
    config = _config(fake, tmp_path, template=str(_fine_tune_template(tmp_path)))
    with pytest.raises(ValueError, match=r"of no family chatcodec knows.*--parser NAME \(.*hermes"):
        create_app(config, tokenizer=qwen3_encoding())


def test_parser_names_are_vllm_s_and_act_only_on_a_token_upstream(fake: FakeUpstream, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"--parser: unknown parser 'hermess' \(vLLM's --tool-call-parser names: "):
        _config(fake, tmp_path, parser="hermess")
    with pytest.raises(ValueError, match=r"--reasoning-parser: unknown parser 'qwen' \(vLLM's --reasoning-parser"):
        _config(fake, tmp_path, reasoning_parser="qwen")
    with pytest.raises(ValueError, match="--parser and --reasoning-parser only act on a token upstream"):
        ServeConfig(api="anthropic", upstream="anthropic", upstream_url="https://api.anthropic.com", parser="hermes")


def test_the_command_line_takes_parser_and_reasoning_parser() -> None:
    from chatcodec.cli._commands import _parser
    from chatcodec.cli._serve import settings_from
    from chatcodec.serve import _config as config_module

    flags = ["--api", "anthropic", "--upstream", "vllm-generate", "--upstream-url", "http://localhost:8000"]
    flags += ["--template", "chat_template.jinja", "--parser", "qwen3_coder", "--reasoning-parser", "qwen3"]
    config = ServeConfig(**settings_from(_parser().parse_args(["serve", *flags]), config_module))
    assert (config.parser, config.reasoning_parser) == ("qwen3_coder", "qwen3")


@pytest.mark.parametrize(
    ("api", "path", "body"),
    [
        (
            "openai-chat",
            "/v1/chat/completions",
            {"model": "qwen3", "messages": QUESTION, "chat_template_kwargs": {"enable_thinking": False}},
        ),
        (
            "openai-responses",
            "/v1/responses",
            {"model": "qwen3", "input": QUESTION, "chat_template_kwargs": {"enable_thinking": False}},
        ),
        (
            "anthropic",
            "/v1/messages",
            {"model": "qwen3", "max_tokens": 50, "messages": QUESTION, "thinking": {"type": "disabled"}},
        ),
        ("openai-chat", "/v1/chat/completions", {"model": "qwen3", "messages": QUESTION, "reasoning_effort": "none"}),
    ],
)
def test_thinking_turned_off_by_the_harness_reaches_the_template(
    fake: FakeUpstream, tmp_path: Path, api: str, path: str, body: dict[str, Any]
) -> None:
    config = _config(fake, tmp_path, api=api)
    fake.reply(vllm_generated(_ids("Sunny.<|im_end|>")))
    with serving_config(config, tokenizer=qwen3_encoding()) as origin:
        answer = httpx.post(f"{origin}{path}", json=body, headers=SESSION)
    assert answer.status_code == 200, answer.text
    assert "chat_template_kwargs" not in answer.headers.get("chatcodec-losses", "")  # used, not lost
    sent = fake.last.body["token_ids"]
    expected = chatcodec.render(
        QUESTION,
        template="qwen3",
        tokenizer=qwen3_encoding(),
        add_generation_prompt=True,
        template_variables={"enable_thinking": False},
    )
    assert sent == expected.token_ids
    assert _text(sent).endswith(NO_THINKING)
    (turn,) = chatcodec.read_records(tmp_path / "turns.jsonl")["options-1"]
    assert turn.prompt_ids == sent


def test_a_harness_s_kwargs_win_over_its_thinking_switch_and_a_template_not_reading_them_is_left_alone() -> None:
    request: dict[str, Any] = {
        "reasoning": {"enabled": False},
        "provider_options": {"openai-chat": {"chat_template_kwargs": {"enable_thinking": True, "tools_first": 1}}},
    }
    assert template_variables(request, "qwen3") == {"enable_thinking": True, "tools_first": 1}
    assert template_variables({"reasoning": {"enabled": False}}, "qwen3") == {"enable_thinking": False}
    assert template_variables({"reasoning": {"effort": "high"}}, "gpt-oss") == {"reasoning_effort": "high"}
    assert template_variables({"reasoning": {"enabled": False}}, "{{ messages[0].enable_thinking }}") is None
    assert template_variables({"messages": []}, "qwen3") is None


def test_chat_template_kwargs_that_are_no_object_are_the_caller_s_400(fake: FakeUpstream, tmp_path: Path) -> None:
    config = _config(fake, tmp_path, api="openai-chat")
    with serving_config(config, tokenizer=qwen3_encoding()) as origin:
        body = {"model": "qwen3", "messages": QUESTION, "chat_template_kwargs": "enable_thinking=false"}
        answer = httpx.post(f"{origin}/v1/chat/completions", json=body, headers=SESSION)
    assert answer.status_code == 400
    assert "chat_template_kwargs (the openai-chat body's) is an object of template variables" in json.dumps(
        answer.json()
    )
    assert fake.received == []  # refused before the token endpoint is called


def test_thinking_turned_off_where_the_template_opens_it_reads_the_answer_as_text(
    fake: FakeUpstream, tmp_path: Path
) -> None:
    """Qwen3.5's generation prompt opens ``<think>``; under ``enable_thinking: false`` it writes
    an empty block and closes it, so the completion starts outside the reasoning: the parser
    is told so from the prompt sampled from, not from the template's default prompt."""
    config = _config(fake, tmp_path, api="openai-chat", template="qwen3.5")
    fake.reply(vllm_generated(_ids("Sunny.<|im_end|>")))
    fake.reply(vllm_generated(_ids("It is sunny.\n</think>\n\nSunny.<|im_end|>")))
    with serving_config(config, tokenizer=qwen3_encoding()) as origin:
        body = {"model": "qwen3", "messages": QUESTION, "chat_template_kwargs": {"enable_thinking": False}}
        off = httpx.post(f"{origin}/v1/chat/completions", json=body, headers=SESSION)
        assert _text(fake.last.body["token_ids"]).endswith(NO_THINKING)
        on = httpx.post(f"{origin}/v1/chat/completions", json={**body, "chat_template_kwargs": {}}, headers={})
        assert _text(fake.last.body["token_ids"]).endswith("<|im_start|>assistant\n<think>\n")
    off_message = off.json()["choices"][0]["message"]
    assert (off_message["content"], off_message.get("reasoning_content")) == ("Sunny.", None)
    on_message = on.json()["choices"][0]["message"]
    assert on_message["content"] == "Sunny."
    assert on_message["reasoning_content"] == "It is sunny."


def _chat_stream(origin: str, body: dict[str, Any], headers: dict[str, str]) -> list[dict[str, Any]]:
    with httpx.stream("POST", f"{origin}/v1/chat/completions", json={**body, "stream": True}, headers=headers) as reply:
        lines = [line.removeprefix("data: ") for line in reply.iter_lines() if line.startswith("data: {")]
    return [json.loads(line) for line in lines]


def test_return_token_ids_asked_by_the_harness_is_answered_where_chatcodec_renders(
    fake: FakeUpstream, tmp_path: Path
) -> None:
    completion = _ids("Sunny.<|im_end|>")
    config = _config(fake, tmp_path, api="openai-chat")
    fake.reply(vllm_generated(completion))
    fake.reply(vllm_generated(completion))
    body = {"model": "qwen3", "messages": QUESTION, "return_token_ids": True}
    with serving_config(config, tokenizer=qwen3_encoding()) as origin:
        plain = httpx.post(f"{origin}/v1/chat/completions", json=body, headers=SESSION).json()
        prompt = fake.last.body["token_ids"]
        chunks = _chat_stream(origin, body, {})
        unasked = httpx.post(f"{origin}/v1/chat/completions", json={**body, "return_token_ids": False}, headers={})
    assert (plain["prompt_token_ids"], plain["choices"][0]["token_ids"]) == (prompt, completion)
    assert plain["choices"][0]["message"]["content"] == "Sunny."
    assert chunks[0]["prompt_token_ids"] == prompt
    joined = [token for chunk in chunks for choice in chunk["choices"] for token in choice.get("token_ids", [])]
    assert joined == completion  # a consumer joining the chunks' ids gets the sampled ids, as from vLLM
    assert "token_ids" not in unasked.text  # not asked: none given


def test_return_token_ids_asked_by_the_harness_is_answered_where_the_server_renders(
    fake: FakeUpstream, tmp_path: Path
) -> None:
    from serve.harness import proxy
    from serve.test_turn_records import vllm_answer, vllm_stream

    fake.replies.clear()
    prompt, completion = qwen3_prompt_ids(QUESTION, []), _ids("Sunny.<|im_end|>")
    fake.reply(vllm_answer(prompt, completion, {"content": "Sunny."}, "stop"))
    fake.reply(vllm_stream(prompt, completion, "Sunny.", "stop"), content_type="text/event-stream")
    recorded = tmp_path / "turns.jsonl"
    settings: dict[str, Any] = {"options": {"server": "vllm"}, "record": str(recorded), "allow_anonymous": True}
    body = {"model": "qwen3", "messages": QUESTION, "return_token_ids": True}
    with proxy("openai-chat", "openai-chat", f"{fake.base}/v1", **settings) as origin:
        plain = httpx.post(f"{origin}/v1/chat/completions", json=body, headers=SESSION).json()
        chunks = _chat_stream(origin, body, SESSION)
    assert (plain["prompt_token_ids"], plain["choices"][0]["token_ids"]) == (prompt, completion)
    assert "logprobs" not in plain["choices"][0] or plain["choices"][0]["logprobs"] is None  # asked by the gateway
    assert chunks[0]["prompt_token_ids"] == prompt
    assert [token for chunk in chunks for choice in chunk["choices"] for token in choice.get("token_ids", [])] == (
        completion
    )
    first, second = chatcodec.read_records(recorded)["options-1"]
    assert (first.completion_ids, second.completion_ids) == (completion, completion)
    assert first.logprobs is not None  # the record keeps what the gateway asked for


def test_return_token_ids_asked_through_sglang_is_given_back_where_sglang_writes_them(
    fake: FakeUpstream, tmp_path: Path
) -> None:
    from serve.harness import proxy
    from serve.test_turn_records import vllm_answer

    fake.replies.clear()
    prompt, completion = qwen3_prompt_ids(QUESTION, []), _ids("Sunny.<|im_end|>")
    answer = vllm_answer(prompt, completion, {"content": "Sunny."}, "stop")
    answer["choices"][0]["prompt_token_ids"] = answer.pop("prompt_token_ids")  # SGLang writes both on the choice
    fake.reply(answer)
    recorded = tmp_path / "turns.jsonl"
    settings: dict[str, Any] = {"options": {"server": "sglang"}, "record": str(recorded), "allow_anonymous": True}
    body = {"model": "qwen3", "messages": QUESTION, "return_token_ids": True}
    with proxy("openai-chat", "openai-chat", f"{fake.base}/v1", **settings) as origin:
        plain = httpx.post(f"{origin}/v1/chat/completions", json=body, headers=SESSION).json()
    choice = plain["choices"][0]
    assert (choice["prompt_token_ids"], choice["token_ids"]) == (prompt, completion)
    assert chatcodec.read_records(recorded)["options-1"][0].prompt_ids == prompt


EMOJI_CHAT: list[Any] = [
    {"role": "system", "content": "You like to use emojis in your responses."},
    {"role": "user", "content": "Repeat after me: I love cats 🐱"},
]


def test_vllm_s_own_return_token_ids_checks_hold_where_chatcodec_renders(fake: FakeUpstream, tmp_path: Path) -> None:
    """vLLM's ``test_chat_completion_with_emoji_and_token_ids``
    (``tests/entrypoints/openai/test_return_token_ids.py``), its assertions ported to the
    gateway that renders (Qwen3 for its Qwen2.5): the prompt's ids decode to the chat template's
    prompt, the answer's ids to its content and ``<|im_end|>``; streamed, the prompt's ids
    come on the first chunk only and decode to the same prompt, and the chunks' ids joined
    decode to the streamed content and ``<|im_end|>``; not asked, neither field is there."""
    sampled = _ids("I love cats 🐱<|im_end|>")
    config = _config(fake, tmp_path, api="openai-chat")
    for _ in range(3):
        fake.reply(vllm_generated(sampled))
    body = {"model": "qwen3", "messages": EMOJI_CHAT, "max_tokens": 50, "return_token_ids": True}
    with serving_config(config, tokenizer=qwen3_encoding()) as origin:
        plain = httpx.post(f"{origin}/v1/chat/completions", json=body, headers=SESSION).json()
        chunks = _chat_stream(origin, body, {})
        without = httpx.post(f"{origin}/v1/chat/completions", json={**body, "return_token_ids": False}).json()
    prompt = _text(plain["prompt_token_ids"])
    assert prompt.startswith("<|im_start|>system\nYou like to use emojis in your responses.")
    assert prompt.endswith("I love cats 🐱<|im_end|>\n<|im_start|>assistant\n")
    content = plain["choices"][0]["message"]["content"]
    assert _text(plain["choices"][0]["token_ids"]) == content + "<|im_end|>"

    assert _text(chunks[0]["prompt_token_ids"]) == prompt
    assert all("prompt_token_ids" not in chunk for chunk in chunks[1:])
    streamed = "".join(chunk["choices"][0]["delta"].get("content") or "" for chunk in chunks if chunk["choices"])
    joined = [token for chunk in chunks if chunk["choices"] for token in chunk["choices"][0].get("token_ids", [])]
    assert streamed == content
    assert _text(joined) == streamed + "<|im_end|>"

    assert without["choices"][0].get("token_ids") is None
    assert without.get("prompt_token_ids") is None


def test_a_generated_answer_reports_no_invented_time_and_no_unknown_thinking_provider(
    fake: FakeUpstream, tmp_path: Path
) -> None:
    """Where chatcodec renders, the answer is the gateway's own making: its creation time is the
    gateway's to give (as for an upstream body without one), and its reasoning, parsed from the
    sampled ids, came from no provider whose name a writer could lose. Every generate answer
    reported both (issue 108); a caller's ``chatcodec-losses`` header now names neither."""
    config = _config(fake, tmp_path, api="openai-chat")
    fake.reply(vllm_generated(_ids("<think>\nIt is sunny.\n</think>\n\nSunny.<|im_end|>")))
    fake.reply(vllm_generated(_ids("<think>\nStill sunny.\n</think>\n\nSunny.<|im_end|>")))
    with serving_config(config, tokenizer=qwen3_encoding()) as origin:
        body = {"model": "qwen3", "messages": QUESTION}
        before = int(time.time())
        answer = httpx.post(f"{origin}/v1/chat/completions", json=body, headers=SESSION)
        chunks = _chat_stream(origin, body, {})
    assert answer.status_code == 200
    assert "chatcodec-losses" not in answer.headers
    fields = answer.json()
    assert before <= fields["created"] <= int(time.time())
    assert fields["choices"][0]["message"] == {
        "role": "assistant",
        "reasoning_content": "It is sunny.",
        "content": "Sunny.",
    }
    assert {chunk["created"] for chunk in chunks} == {chunks[0]["created"]}
    assert chunks[0]["created"] >= before
