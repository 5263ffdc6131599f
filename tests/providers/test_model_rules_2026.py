"""The model rules of 2026 on the public API: what each Claude, GPT-5 and Gemini model
refuses, what is sent instead, and that each change is reported (never silent)."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec

OLD = {"api_version": "2023-06-01"}
CLAUDE_TARGETS = [("anthropic", OLD), ("bedrock-converse", None)]


def _encode(
    provider: str, options: dict[str, Any] | None = None, **fields: Any
) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    fields.setdefault("messages", [{"role": "user", "content": "q"}])
    fields.setdefault("max_tokens", 20000)
    losses: list[chatcodec.Loss] = []
    request = chatcodec.validate_model(chatcodec.ChatRequest, fields)
    body = chatcodec.encode_request(provider, request, on_loss="ignore", losses=losses, options=options)
    return body, losses


def _convert(
    body: dict[str, Any], source: str, target: str, options: dict[str, Any] | None = None
) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_request(
        body, source=source, target=target, on_loss="ignore", losses=losses, options=options
    )
    return out, losses


def _rules(losses: list[chatcodec.Loss]) -> list[str]:
    return [loss.why.partition("rule ")[2].partition(" ")[0] for loss in losses if loss.kind == "rule"]


def _thinking(body: dict[str, Any], provider: str) -> object:
    if provider == "anthropic":
        return body.get("thinking")
    return body.get("additionalModelRequestFields", {}).get("thinking")


def _effort(body: dict[str, Any], provider: str) -> object:
    holder: dict[str, Any] = body.get("output_config" if provider == "anthropic" else "outputConfig") or {}
    return holder.get("effort")


# --- 1. sampling settings -----------------------------------------------------------------


@pytest.mark.parametrize(("provider", "options"), CLAUDE_TARGETS)
@pytest.mark.parametrize(
    "model", ["claude-haiku-5-5", "claude-mythos-5", "claude-mythos-preview", "us.anthropic.claude-opus-4-7-v1:0"]
)
def test_top_p_and_top_k_are_refused_like_temperature_by_the_newest_claude_models(
    provider: str, options: dict[str, str] | None, model: str
) -> None:
    body, losses = _encode(provider, options, model=model, top_p=0.5, top_k=5)
    assert "top_p" not in body
    assert "topP" not in body.get("inferenceConfig", {})
    assert "top_k" not in body
    assert _rules(losses) == [f"{provider}.temperature_deprecated"] * (2 if provider == "anthropic" else 1)


@pytest.mark.parametrize(("provider", "options"), CLAUDE_TARGETS)
def test_sampling_settings_stay_on_haiku_4_5(provider: str, options: dict[str, str] | None) -> None:
    body, losses = _encode(provider, options, model="claude-haiku-4-5", top_p=0.5)
    assert body.get("top_p", body.get("inferenceConfig", {}).get("topP")) == 0.5
    assert _rules(losses) == []


# --- 2. temperature with top_p ----------------------------------------------------------


@pytest.mark.parametrize(("provider", "options"), CLAUDE_TARGETS)
@pytest.mark.parametrize("model", ["claude-opus-4-1", "claude-sonnet-4-20250514"])
def test_temperature_with_top_p_is_refused_from_claude_4_on(
    provider: str, options: dict[str, str] | None, model: str
) -> None:
    body, losses = _encode(provider, options, model=model, temperature=0.3, top_p=0.5)
    assert "top_p" not in body
    assert "topP" not in body.get("inferenceConfig", {})
    assert _rules(losses) == [f"{provider}.temperature_with_top_p"]


# --- 3. manual thinking budgets ---------------------------------------------------------


@pytest.mark.parametrize(("provider", "options"), CLAUDE_TARGETS)
@pytest.mark.parametrize("model", ["claude-opus-4-7", "claude-sonnet-5", "claude-haiku-5-5", "claude-opus-5-5"])
def test_a_manual_thinking_budget_becomes_adaptive_thinking_at_the_budgets_effort(
    provider: str, options: dict[str, str] | None, model: str
) -> None:
    reasoning = {"enabled": True, "budget_tokens": 10000}
    body, losses = _encode(provider, options, model=model, reasoning=reasoning)
    assert _thinking(body, provider) == {"type": "adaptive"}
    assert _effort(body, provider) == "medium"
    assert _rules(losses) == [f"{provider}.manual_thinking"]


@pytest.mark.parametrize(("provider", "options"), CLAUDE_TARGETS)
def test_a_manual_thinking_budget_stays_on_claude_4_6(provider: str, options: dict[str, str] | None) -> None:
    reasoning = {"enabled": True, "budget_tokens": 10000}
    body, losses = _encode(provider, options, model="claude-opus-4-6", reasoning=reasoning)
    assert _thinking(body, provider) == {"type": "enabled", "budget_tokens": 10000}
    assert _rules(losses) == []


# --- 4. Opus 5.5 and Fable 5.1 ----------------------------------------------------------


@pytest.mark.parametrize(("provider", "options"), CLAUDE_TARGETS)
@pytest.mark.parametrize("model", ["claude-opus-5-5", "claude-fable-5-1"])
def test_disabled_thinking_and_a_forced_tool_choice_are_not_sent_to_opus_5_5(
    provider: str, options: dict[str, str] | None, model: str
) -> None:
    tool = {"name": "f", "parameters": {"type": "object"}}
    body, losses = _encode(
        provider, options, model=model, reasoning={"enabled": False}, tools=[tool], tool_choice={"type": "required"}
    )
    assert _thinking(body, provider) is None
    choice = body["tool_choice"] if provider == "anthropic" else body["toolConfig"]["toolChoice"]
    assert choice == ({"type": "auto"} if provider == "anthropic" else {"auto": {}})
    assert sorted(_rules(losses)) == [f"{provider}.disabled_thinking", f"{provider}.forced_tool_choice"]


def _history_with_thinking(signer: str) -> list[dict[str, Any]]:
    thinking = {"type": "thinking", "text": "t", "signature": "sig", "provider": "anthropic", "model": signer}
    return [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [thinking, {"type": "text", "text": "a"}]},
        {"role": "user", "content": "q2"},
    ]


@pytest.mark.parametrize(("provider", "options"), CLAUDE_TARGETS)
def test_thinking_signed_by_another_claude_model_is_not_replayed_to_opus_5_5(
    provider: str, options: dict[str, str] | None
) -> None:
    body, losses = _encode(
        provider, options, model="claude-opus-5-5", messages=_history_with_thinking("claude-opus-4-8")
    )
    assert "sig" not in str(body["messages"][1]["content"])
    assert [loss.what for loss in losses if loss.what == "thinking part"] == ["thinking part"]
    body, losses = _encode(
        provider, options, model="claude-opus-5-5", messages=_history_with_thinking("claude-opus-5-5")
    )
    assert "sig" in str(body["messages"][1]["content"])
    assert [loss for loss in losses if "thinking" in loss.what] == []


# --- 5. prefill ---------------------------------------------------------------------------


@pytest.mark.parametrize(("provider", "options"), CLAUDE_TARGETS)
def test_a_final_assistant_turn_is_not_sent_to_claude_4_6_and_later(
    provider: str, options: dict[str, str] | None
) -> None:
    messages = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "The answer is"}]
    body, losses = _encode(provider, options, model="claude-sonnet-4-6", messages=messages)
    assert [message["role"] for message in body["messages"]] == ["user"]
    assert _rules(losses) == [f"{provider}.prefill"]
    body, losses = _encode(provider, options, model="claude-sonnet-4-5", messages=messages)
    assert [message["role"] for message in body["messages"]] == ["user", "assistant"]
    assert _rules(losses) == []


def test_an_assistant_turn_ending_in_server_tool_use_is_resumed_not_dropped() -> None:
    server_call = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "x"}}
    body = {
        "model": "claude-opus-4-7",
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": [server_call]}],
    }
    out, losses = _convert(body, "anthropic", "anthropic")
    assert out["messages"][-1]["content"] == [server_call]
    assert _rules(losses) == []


# --- 6. mid-conversation system turns -----------------------------------------------------


@pytest.mark.parametrize("model", ["claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5", "claude-mythos-5"])
def test_the_newest_claude_models_keep_a_system_turn_that_follows_a_user_turn(model: str) -> None:
    messages = [
        {"role": "user", "content": "q"},
        {"role": "system", "content": "be brief"},
        {"role": "assistant", "content": "a"},
        {"role": "user", "content": "q2"},
    ]
    body, losses = _encode("anthropic", model=model, messages=messages)
    assert [message["role"] for message in body["messages"]] == ["user", "system", "assistant", "user"]
    assert _rules(losses) == []


def test_sonnet_5_takes_no_system_turn() -> None:
    messages = [{"role": "user", "content": "q"}, {"role": "system", "content": "be brief"}]
    body, losses = _encode("anthropic", model="claude-sonnet-5", messages=messages)
    assert [message["role"] for message in body["messages"]] == ["user"]
    assert _rules(losses) == ["anthropic.mid_conversation_system"]


def test_a_system_turn_after_an_assistant_turn_or_another_system_turn_is_placed_where_claude_takes_it() -> None:
    messages = [
        {"role": "user", "content": "q"},
        {"role": "system", "content": "one"},
        {"role": "system", "content": "two"},
        {"role": "assistant", "content": "a"},
        {"role": "system", "content": "three"},
        {"role": "user", "content": "q2"},
    ]
    body, losses = _encode("anthropic", model="claude-opus-4-8", messages=messages)
    assert [message["role"] for message in body["messages"]] == ["user", "system", "assistant", "user"]
    assert [block["text"] for block in body["messages"][1]["content"]] == ["one", "two"]
    assert "three" in str(body["system"])
    assert _rules(losses) == ["anthropic.system_turn_placement"] * 2


# --- 7. Responses' model is optional ------------------------------------------------------


def test_a_responses_request_with_neither_model_nor_stored_prompt_is_reported() -> None:
    body = {"contents": [{"role": "user", "parts": [{"text": "q"}]}]}
    out, losses = _convert(body, "gemini", "openai-responses")
    assert "model" not in out
    assert [(loss.path, loss.kind) for loss in losses] == [("$.model", "required")]


def test_a_responses_request_whose_stored_prompt_names_the_model_is_complete() -> None:
    body = {"prompt": {"id": "pmpt_1"}, "input": "q"}
    out, losses = _convert(body, "openai-responses", "openai-responses")
    assert out == body
    assert losses == []


# --- 8. GPT-5 -------------------------------------------------------------------------------


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses"])
def test_gpt_5_sampling_is_sent_only_at_effort_none(target: str) -> None:
    body, losses = _encode(target, model="gpt-5.2", temperature=0.3, top_p=0.5, reasoning={"effort": "high"})
    assert "temperature" not in body
    assert "top_p" not in body
    assert _rules(losses) == [f"{target}.sampling_with_reasoning"] * 2
    for reasoning in ({"effort": "none"}, None):  # none: gpt-5.1+'s default
        body, losses = _encode(target, model="gpt-5.2", temperature=0.3, reasoning=reasoning)
        assert body["temperature"] == 0.3
        assert _rules(losses) == []


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses"])
def test_disabled_thinking_reaches_gpt_5_as_minimal_and_gpt_5_1_as_none(target: str) -> None:
    anthropic = {
        "model": "gpt-5-mini",
        "max_tokens": 100,
        "thinking": {"type": "disabled"},
        "messages": [{"role": "user", "content": "q"}],
    }
    body, losses = _convert(anthropic, "anthropic", target)
    effort = body.get("reasoning_effort", body.get("reasoning", {}).get("effort"))
    assert effort == "minimal"
    assert _rules(losses) == [f"{target}.effort_none"]
    body, losses = _convert({**anthropic, "model": "gpt-5.1"}, "anthropic", target)
    assert body.get("reasoning_effort", body.get("reasoning", {}).get("effort")) == "none"
    assert losses == []


def test_a_gpt_6_model_gets_gpt_5_1s_sampling_rule_and_keeps_effort_none() -> None:
    body, losses = _encode("openai-chat", model="gpt-6.1-sol", temperature=0.3, reasoning={"effort": "low"})
    assert "temperature" not in body
    assert _rules(losses) == ["openai-chat.sampling_with_reasoning"]
    body, losses = _encode("openai-chat", model="gpt-6", temperature=0.3, reasoning={"effort": "none"})
    assert (body["temperature"], body["reasoning_effort"]) == (0.3, "none")
    assert losses == []


# --- 15. Gemini's top-level store, serviceTier, continuationToken ------------------------------


def test_gemini_store_service_tier_and_continuation_token_are_known_to_strict_reading() -> None:
    body = {
        "contents": [{"role": "user", "parts": [{"text": "q"}]}],
        "store": False,
        "serviceTier": "FLEX",
        "continuationToken": "YWJj",
    }
    chatcodec.decode_request("gemini", body, strict=True)
    out, losses = _convert(body, "gemini", "gemini")
    assert out == body
    assert losses == []


@pytest.mark.parametrize(
    "model", ["gemini-3.6-flash", "models/gemini-3.5-flash-lite", "gemini-3.5-flash", "gemini-3.8-flash-preview"]
)
def test_gemini_3_6_flash_and_later_get_no_prefill_and_no_custom_sampling(model: str) -> None:
    messages = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "Sure,"}]
    body, losses = _encode("gemini", model=model, messages=messages, temperature=0.2, top_p=0.9, presence_penalty=0.5)
    assert body["contents"] == [{"role": "user", "parts": [{"text": "q"}]}]
    assert not {"temperature", "topP", "presencePenalty"} & set(body["generationConfig"])
    assert _rules(losses) == ["gemini.sampling_deprecated"] * 3 + ["gemini.prefill"]
    body, losses = _encode("gemini", model=model, temperature=1.0)
    assert "temperature" not in body.get("generationConfig", {})
    assert _rules(losses) == []  # the default changes nothing


@pytest.mark.parametrize("model", ["gemini-3.1-pro-preview", "gemini-2.5-flash-lite", "my-finetune"])
def test_gemini_models_before_3_6_flash_keep_their_prefill_and_sampling(model: str) -> None:
    messages = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "Sure,"}]
    body, losses = _encode("gemini", model=model, messages=messages, temperature=0.2)
    assert body["contents"][-1]["role"] == "model"
    assert body["generationConfig"]["temperature"] == 0.2
    assert _rules(losses) == []


_CACHED = {
    "system": [{"type": "text", "text": "sys", "cache_control": {"type": "ephemeral"}}],
    "max_tokens": 10,
    "messages": [{"role": "user", "content": [{"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}]}],
}


@pytest.mark.parametrize(
    "model", ["us.meta.llama3-3-70b-instruct-v1:0", "deepseek.r1-v1:0", "amazon.titan-text-express-v1"]
)
def test_bedrock_sends_no_cache_point_to_a_model_without_prompt_caching(model: str) -> None:
    body, losses = _convert({**_CACHED, "model": model}, "anthropic", "bedrock-converse")
    assert body["system"] == [{"text": "sys"}]
    assert body["messages"][0]["content"] == [{"text": "hi"}]
    assert _rules(losses) == ["bedrock-converse.cache_points"] * 2


@pytest.mark.parametrize(
    "model", ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", "us.amazon.nova-pro-v1:0", "arn:aws:bedrock:x"]
)
def test_bedrock_keeps_cache_points_for_claude_nova_and_ids_it_cannot_read(model: str) -> None:
    body, losses = _convert({**_CACHED, "model": model}, "anthropic", "bedrock-converse")
    assert body["system"][-1] == {"cachePoint": {"type": "default"}}
    assert "bedrock-converse.cache_points" not in _rules(losses)


@pytest.mark.parametrize(
    ("target", "options", "place"), [("anthropic", OLD, ()), ("bedrock-converse", None, ("inferenceConfig",))]
)
def test_a_temperature_past_claude_and_converse_range_is_sent_as_the_bound_and_reported(
    target: str, options: dict[str, str] | None, place: tuple[str, ...]
) -> None:
    chat = {"model": "claude-sonnet-4-5", "temperature": 1.5, "messages": [{"role": "user", "content": "q"}]}
    body, losses = _convert(chat, "openai-chat", target, options)
    holder = body[place[0]] if place else body
    assert holder["temperature"] == 1.0
    assert _rules(losses) == [f"{target}.sampling_range"]
    body, losses = _convert({**chat, "temperature": 0.7}, "openai-chat", target, options)
    assert _rules(losses) == []


@pytest.mark.parametrize("provider", ["anthropic", "bedrock-converse"])
@pytest.mark.parametrize("model", ["claude-next", "anthropic/claude-opus-latest"])
def test_an_unknown_claude_style_model_gets_adaptive_thinking_and_the_effort_as_today_s_claude(
    provider: str, model: str
) -> None:
    chat = {
        "model": model,
        "reasoning_effort": "xhigh",
        "max_tokens": 20000,
        "messages": [{"role": "user", "content": "q"}],
    }
    body, losses = _convert(chat, "openai-chat", provider)
    assert _thinking(body, provider) == {"type": "adaptive"}
    assert _effort(body, provider) == "xhigh"
    assert [loss.path for loss in losses if loss.path.startswith("$.reasoning")] == []


def test_claude_3_ids_keep_a_thinking_budget() -> None:
    chat = {
        "model": "claude-3-7-sonnet-20250219",
        "reasoning_effort": "high",
        "max_tokens": 30000,
        "messages": [{"role": "user", "content": "q"}],
    }
    body, _ = _convert(chat, "openai-chat", "anthropic")
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 24576}
