"""Reasoning as each target wants it: an effort, a budget, adaptive thinking and thinking
disabled crossing between OpenAI, Claude (Anthropic, Bedrock) and Gemini, each crossing
reported, the effort <-> budget table written down once (the kit) and in the docs (generated)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec._providers.kit.reasoning import EFFORT_BUDGETS, budget_table, effort_for_budget


def _convert(
    body: dict[str, Any], source: str, target: str, options: dict[str, Any] | None = None
) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_request(
        body, source=source, target=target, on_loss="ignore", losses=losses, options=options
    )
    return out, losses


def _openai(model: str, effort: str) -> dict[str, Any]:
    return {
        "model": model,
        "max_tokens": 30000,
        "messages": [{"role": "user", "content": "q"}],
        "reasoning_effort": effort,
    }


def _claude_thinking(body: dict[str, Any], target: str) -> Any:
    return body["thinking"] if target == "anthropic" else body["additionalModelRequestFields"]["thinking"]


# --- 9. OpenAI effort -> Claude thinking ------------------------------------------------------


@pytest.mark.parametrize("target", ["anthropic", "bedrock-converse"])
def test_an_openai_effort_turns_adaptive_thinking_on_where_the_claude_model_takes_it(target: str) -> None:
    body, losses = _convert(_openai("claude-opus-4-6", "high"), "openai-chat", target)
    assert _claude_thinking(body, target) == {"type": "adaptive"}
    effort = body["output_config" if target == "anthropic" else "outputConfig"]["effort"]
    assert effort == "high"
    assert [loss for loss in losses if loss.kind == "setting"] == []


@pytest.mark.parametrize("target", ["anthropic", "bedrock-converse"])
def test_an_openai_effort_becomes_a_thinking_budget_on_a_claude_model_without_adaptive_thinking(target: str) -> None:
    body, losses = _convert(_openai("claude-sonnet-4-5", "medium"), "openai-chat", target)
    assert _claude_thinking(body, target) == {"type": "enabled", "budget_tokens": EFFORT_BUDGETS["medium"]}
    assert "effort" not in str(body.get("output_config", body.get("outputConfig", {})))
    assert [(loss.path, loss.kind) for loss in losses] == [("$.reasoning.enabled", "setting")]


def test_a_thinking_budget_from_an_effort_stays_below_max_tokens() -> None:
    body, _ = _convert({**_openai("claude-sonnet-4-5", "high"), "max_tokens": 5000}, "openai-chat", "anthropic")
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 4999}


@pytest.mark.parametrize("target", ["anthropic", "bedrock-converse"])
def test_efforts_a_max_tokens_cap_collapses_onto_one_budget_report_a_rule_loss(target: str) -> None:
    """Under ``max_tokens: 16000`` high, xhigh and max all get ``budget_tokens: 15999``
    (Claude requires a budget below ``max_tokens``): the effort asked for no longer
    shows, so each says so as a rule loss; medium's 8,192 fits and says nothing more."""
    budgets = {}
    for effort in ("medium", "high", "xhigh", "max"):
        body, losses = _convert({**_openai("claude-sonnet-4-5", effort), "max_tokens": 16000}, "openai-chat", target)
        budgets[effort] = _claude_thinking(body, target)["budget_tokens"]
        rules = [loss for loss in losses if loss.kind == "rule"]
        if effort == "medium":
            assert rules == [], rules
        else:
            assert [loss.path for loss in rules] == ["$.reasoning.effort"], losses
            assert "high, xhigh and max" in rules[0].why
    assert budgets == {"medium": 8192, "high": 15999, "xhigh": 15999, "max": 15999}


@pytest.mark.parametrize(
    ("model", "limit"),
    [
        # "Max output" on each model's overview page (families/claude/output_limits.py)
        ("claude-opus-4-7", 128_000),
        ("claude-sonnet-4-6", 128_000),
        ("claude-haiku-5-5", 128_000),
        ("claude-sonnet-4-5-20250929", 64_000),
        ("claude-haiku-4-5-20251001", 64_000),
        ("claude-opus-4-1-20250805", 32_000),
        ("claude-3-7-sonnet-20250219", 64_000),
        ("claude-3-5-haiku-20241022", 8_192),
        ("claude-3-5-sonnet-20241022", 8_192),
        ("claude-3-opus-20240229", 4_096),
        ("claude-3-haiku-20240307", 4_096),
    ],
)
def test_a_request_without_max_tokens_gets_the_claude_models_output_limit(model: str, limit: int) -> None:
    """Streamed, the model's limit; not streamed, at most 21,333: the Anthropic SDKs refuse
    a non-streaming request above it before sending ("Streaming is required for operations
    that may take longer than 10 minutes")."""
    request = {"model": model, "input": "q", "reasoning": {"effort": "medium"}, "stream": True}
    body, losses = _convert(request, "openai-responses", "anthropic")
    assert body["max_tokens"] == limit
    assert [loss.kind for loss in losses if loss.path == "$.max_tokens"] == ["default"]
    body, losses = _convert({**request, "stream": False}, "openai-responses", "anthropic")
    assert body["max_tokens"] == min(limit, 21_333)
    assert [loss.kind for loss in losses if loss.path == "$.max_tokens"] == ["default"]


def test_each_effort_keeps_its_own_budget_when_the_client_sends_no_max_tokens() -> None:
    """Codex sends no ``max_tokens`` (Responses makes it optional): on a Claude model
    without adaptive thinking, ``medium`` and ``high`` are 8,192 and 24,576, not one capped
    budget. Nothing chatcodec filled in is a loss that refuses: under ``on_loss="error"``
    only the ``default`` loss for the filled value and the crossing to a budget (a
    ``setting``) are recorded."""
    for stream in (True, False):
        budgets = {}
        for effort in ("medium", "high", "xhigh"):
            request = {"model": "claude-sonnet-4-5", "input": "q", "reasoning": {"effort": effort}, "stream": stream}
            body, losses = _convert(request, "openai-responses", "anthropic")
            budgets[effort] = body["thinking"]["budget_tokens"]
            assert body["thinking"]["budget_tokens"] < body["max_tokens"]
            assert {loss.kind for loss in losses} <= {"default", "setting"}, losses
        assert budgets == {effort: EFFORT_BUDGETS[effort] for effort in budgets}


def test_a_budget_the_client_gave_gets_room_on_a_model_without_a_known_limit() -> None:
    """Gemini's ``thinkingBudget`` to a model chatcodec does not know: the budget is the
    client's, so it is sent, and the filled ``max_tokens`` leaves room for it and an answer."""
    gemini = {
        "model": "proxy-model",
        "contents": [{"role": "user", "parts": [{"text": "q"}]}],
        "generationConfig": {"thinkingConfig": {"thinkingBudget": 24576}},
    }
    body, losses = _convert(gemini, "gemini", "anthropic")
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 24576}
    assert body["max_tokens"] == 24576 + 4096
    assert [loss.kind for loss in losses if loss.path == "$.max_tokens"] == ["default"]


# --- issue 62: a model without extended thinking, or one chatcodec does not know ---------------


def _claude_effort_fields(body: dict[str, Any], target: str) -> tuple[Any, Any]:
    """The thinking object and the effort a body carries (None where it carries none)."""
    if target == "anthropic":
        return body.get("thinking"), (body.get("output_config") or {}).get("effort")
    fields = body.get("additionalModelRequestFields") or {}
    return fields.get("thinking"), (body.get("outputConfig") or {}).get("effort")


@pytest.mark.parametrize("target", ["anthropic", "bedrock-converse"])
@pytest.mark.parametrize(
    "model",
    [
        "claude-3-5-haiku-20241022",
        "claude-3-5-sonnet-20241022",
        "claude-3-opus-20240229",
        "anthropic.claude-3-haiku-20240307-v1:0",
        "proxy-model",
        "deepseek-chat",
        "claude-2.1",
    ],
)
def test_an_effort_makes_no_thinking_for_a_model_not_known_to_think(target: str, model: str) -> None:
    """``reasoning_effort: high`` on Claude 3.5 Haiku was sent as ``budget_tokens: 24576``,
    which a model without extended thinking refuses; a model chatcodec does not know may
    refuse it too. Neither thinking nor the effort is sent, a ``default`` loss says so."""
    chat = {"model": model, "reasoning_effort": "high", "messages": [{"role": "user", "content": "q"}]}
    body, losses = _convert(chat, "openai-chat", target)
    assert _claude_effort_fields(body, target) == (None, None)
    reasoning = [(loss.path, loss.kind) for loss in losses if loss.path.startswith("$.reasoning")]
    assert reasoning == [("$.reasoning.enabled", "default")]
    assert "not known to have extended thinking" in next(loss.why for loss in losses if loss.path.startswith("$.reas"))


@pytest.mark.parametrize("target", ["anthropic", "bedrock-converse"])
@pytest.mark.parametrize("model", ["claude-3-7-sonnet-20250219", "us.anthropic.claude-sonnet-4-20250514-v1:0"])
def test_an_effort_still_makes_a_budget_for_an_older_claude_that_thinks(target: str, model: str) -> None:
    chat = {
        "model": model,
        "reasoning_effort": "high",
        "max_tokens": 30000,
        "messages": [{"role": "user", "content": "q"}],
    }
    body, _ = _convert(chat, "openai-chat", target)
    assert _claude_effort_fields(body, target) == ({"type": "enabled", "budget_tokens": 24576}, None)


@pytest.mark.parametrize(
    ("target", "thinking_at"),
    [("anthropic", ("thinking",)), ("bedrock-converse", ("additionalModelRequestFields", "thinking"))],
)
def test_thinking_the_client_gave_is_not_sent_to_a_claude_without_extended_thinking(
    target: str, thinking_at: tuple[str, ...]
) -> None:
    """An Anthropic request with a thinking budget, sent to Claude 3.5 Haiku: the
    ``no_extended_thinking`` rule takes it off (a ``rule`` loss); to a model chatcodec does
    not know, the client's own thinking goes as given."""
    anthropic = {
        "model": "claude-3-5-haiku-20241022",
        "max_tokens": 8000,
        "thinking": {"type": "enabled", "budget_tokens": 2048},
        "messages": [{"role": "user", "content": "q"}],
    }
    body, losses = _convert(anthropic, "anthropic", target)
    assert _claude_effort_fields(body, target)[0] is None
    assert [(loss.path, loss.kind) for loss in losses if loss.kind == "rule"] == [
        ("$." + ".".join(thinking_at), "rule")
    ]
    assert any(f"{target}.no_extended_thinking" in str(loss) for loss in losses), losses
    body, losses = _convert({**anthropic, "model": "proxy-model"}, "anthropic", target)
    assert _claude_effort_fields(body, target)[0] == {"type": "enabled", "budget_tokens": 2048}
    assert [loss for loss in losses if loss.kind == "rule"] == []


def test_an_anthropic_effort_without_thinking_stays_without_thinking() -> None:
    anthropic = {
        "model": "claude-opus-4-7",
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "q"}],
        "output_config": {"effort": "low"},
    }
    body, losses = _convert(anthropic, "anthropic", "anthropic")
    assert body == anthropic
    assert losses == []
    body, losses = _convert(anthropic, "anthropic", "openai-chat")
    assert body["reasoning_effort"] == "low"
    assert [(loss.path, loss.kind) for loss in losses] == [("$.reasoning.effort", "setting")]


# --- 9. Claude thinking -> OpenAI effort -------------------------------------------------------


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses"])
@pytest.mark.parametrize(
    ("thinking", "effort"),
    [
        ({"type": "disabled"}, "none"),
        ({"type": "enabled", "budget_tokens": 1024}, "low"),
        ({"type": "enabled", "budget_tokens": 10000}, "medium"),
        ({"type": "enabled", "budget_tokens": 32000}, "high"),
        ({"type": "adaptive"}, "high"),
    ],
)
def test_claude_thinking_reaches_openai_as_the_effort_of_the_table(
    target: str, thinking: dict[str, Any], effort: str
) -> None:
    anthropic = {
        "model": "gpt-5.2",
        "max_tokens": 40000,
        "messages": [{"role": "user", "content": "q"}],
        "thinking": thinking,
    }
    body, losses = _convert(anthropic, "anthropic", target)
    sent = body["reasoning_effort"] if target == "openai-chat" else body["reasoning"]["effort"]
    assert sent == effort
    kinds = [loss.kind for loss in losses]
    assert kinds == ([] if thinking["type"] == "disabled" else ["setting"])


def test_a_budget_reads_as_the_effort_whose_range_holds_it() -> None:
    assert [effort_for_budget(budget) for budget in (0, 1, 4095, 4096, 16383, 16384, 100000)] == [
        "none",
        "low",
        "low",
        "medium",
        "medium",
        "high",
        "high",
    ]


def test_the_docs_document_the_effort_budget_table() -> None:
    page = (Path(__file__).parents[2] / "docs" / "converting.md").read_text(encoding="utf-8")
    assert budget_table() in page, "run: make docs"


# --- 10. Gemini 2.5 takes a budget, Gemini 3 a level -----------------------------------------


def test_gemini_2_5_gets_a_thinking_budget_for_an_effort_and_gemini_3_a_level() -> None:
    body, losses = _convert(_openai("gemini-2.5-flash", "low"), "openai-chat", "gemini")
    thinking = body["generationConfig"]["thinkingConfig"]
    assert (thinking.get("thinkingBudget"), "thinkingLevel" in thinking) == (EFFORT_BUDGETS["low"], False)
    assert [loss.kind for loss in losses] == ["rule"]
    body, losses = _convert(_openai("gemini-3-pro-preview", "low"), "openai-chat", "gemini")
    thinking = body["generationConfig"]["thinkingConfig"]
    assert (thinking.get("thinkingLevel"), "thinkingBudget" in thinking) == ("LOW", False)
    assert losses == []


# --- an effort without thinking keeps no thinking through Gemini ---------------------


@pytest.mark.parametrize("source", ["anthropic", "bedrock-converse"])
def test_a_claude_effort_without_thinking_does_not_gain_thinking_through_gemini(source: str) -> None:
    request = chatcodec.ChatRequest(messages=[], model="claude-opus-4-7", max_tokens=100, reasoning={"effort": "high"})
    payload = chatcodec.encode_request(source, request, on_loss="error")
    gemini, _ = _convert(payload, source, "gemini")
    assert gemini["generationConfig"]["thinkingConfig"] == {"thinkingLevel": "HIGH"}
    back, _ = _convert(gemini, "gemini", source)
    assert chatcodec.decode_request(source, back).reasoning == request.reasoning


def test_gemini_reads_a_level_with_thoughts_as_adaptive_thinking_and_writes_thoughts_for_thinking_on() -> None:
    body = {
        "contents": [{"role": "user", "parts": [{"text": "q"}]}],
        "generationConfig": {"thinkingConfig": {"thinkingLevel": "LOW", "includeThoughts": True}},
    }
    reasoning = chatcodec.decode_request("gemini", body).reasoning
    assert reasoning is not None
    assert (reasoning.adaptive, reasoning.effort) == (True, "low")
    claude = chatcodec.ChatRequest(messages=[], reasoning={"adaptive": True, "effort": "low"})
    written = chatcodec.encode_request("gemini", claude, on_loss="error")
    assert written["generationConfig"]["thinkingConfig"] == {"thinkingLevel": "LOW", "includeThoughts": True}
