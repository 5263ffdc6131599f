"""OpenRouter's ``reasoning`` setting on a Chat Completions body (issue 107's noted gap):
``{effort, max_tokens, enabled}`` mean canonical ``effort``, ``budget_tokens`` and ``enabled``
(https://openrouter.ai/docs/use-cases/reasoning-tokens), so they reach Responses as
``reasoning.effort`` and Claude as thinking, where they were kept in the bag and reported lost
(``openai-chat data ['reasoning']``) before; ``exclude: true`` has no canonical field and is
still reported; an OpenAI Chat write gives the object back exactly."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec

_BODY: dict[str, Any] = {
    "model": "anthropic/claude-sonnet-4.5",
    "messages": [{"role": "user", "content": "hi"}],
    "max_tokens": 32_000,
}


def _convert(body: dict[str, Any], target: str, **keywords: Any) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_request(
        copy.deepcopy(body), source="openai-chat", target=target, on_loss="ignore", losses=losses, **keywords
    )
    return out, losses


_OBJECTS = [
    {"effort": "high"},
    {"effort": "none"},
    {"max_tokens": 2048},
    {"max_tokens": 2048, "exclude": True},
    {"exclude": False, "effort": "low", "enabled": True},
    {"enabled": True},
    {"enabled": False},
    {"effort": "medium", "exclude": True, "note": "kept"},
    {"effort": "a word canonical does not know"},
    {"exclude": True},
    {},
]


@pytest.mark.parametrize("setting", _OBJECTS, ids=str)
def test_an_openai_chat_write_gives_the_body_back(setting: dict[str, Any]) -> None:
    body = {**_BODY, "reasoning": setting}
    out, losses = _convert(body, "openai-chat")
    assert (out, losses) == (body, [])
    assert list(out["reasoning"]) == list(setting)  # the object's keys in their order


@pytest.mark.parametrize(
    ("setting", "reasoning"),
    [
        ({"effort": "high"}, {"effort": "high", "enabled": True}),
        ({"effort": "none"}, {"effort": "none"}),
        ({"max_tokens": 2048, "exclude": True}, {"budget_tokens": 2048, "enabled": True}),
        ({"max_tokens": 0}, {"budget_tokens": 0}),
        ({"enabled": False}, {"enabled": False}),
        ({"effort": "low", "enabled": False}, {"effort": "low", "enabled": False}),
    ],
    ids=str,
)
def test_the_object_reads_as_canonical_reasoning(setting: dict[str, Any], reasoning: dict[str, Any]) -> None:
    read = chatcodec.decode_request("openai-chat", {**_BODY, "reasoning": setting})
    assert read.reasoning is not None
    assert read.reasoning.model_dump() == reasoning


@pytest.mark.parametrize("effort", ["minimal", "low", "medium", "high", "xhigh"])
def test_an_effort_reaches_responses_with_no_loss(effort: str) -> None:
    out, losses = _convert({**_BODY, "reasoning": {"effort": effort}}, "openai-responses")
    assert out["reasoning"] == {"effort": effort}
    assert losses == []


def test_an_effort_reaches_claude_as_thinking_with_no_bag_reported() -> None:
    out, losses = _convert({**_BODY, "reasoning": {"effort": "high"}}, "anthropic")
    assert out["thinking"]["type"] == "enabled"
    assert not [loss for loss in losses if loss.path == "$.provider_options"]


def test_a_budget_reaches_claude_as_its_budget() -> None:
    out, losses = _convert({**_BODY, "reasoning": {"max_tokens": 2048}}, "anthropic")
    assert out["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert losses == []


def test_reasoning_switched_off_reaches_claude_as_thinking_disabled() -> None:
    out, losses = _convert({**_BODY, "reasoning": {"enabled": False}}, "anthropic")
    assert out["thinking"] == {"type": "disabled"}
    assert losses == []


@pytest.mark.parametrize("target", ["openai-responses", "anthropic"])
def test_exclude_is_reported_where_the_target_cannot_carry_it(target: str) -> None:
    out, losses = _convert({**_BODY, "reasoning": {"max_tokens": 4096, "exclude": True}}, target)
    assert [loss.what for loss in losses if loss.path == "$.provider_options"] == ["openai-chat data ['reasoning']"]
    assert "exclude" not in str(out)


def test_exclude_false_is_the_default_and_says_nothing() -> None:
    out, losses = _convert({**_BODY, "reasoning": {"effort": "low", "exclude": False}}, "openai-responses")
    assert (out["reasoning"], losses) == ({"effort": "low"}, [])


def test_reasoning_effort_wins_and_the_object_is_kept_as_it_came() -> None:
    body = {**_BODY, "reasoning_effort": "low", "reasoning": {"effort": "high"}}
    read = chatcodec.decode_request("openai-chat", body)
    assert read.reasoning is not None
    assert read.reasoning.effort == "low"
    assert read.provider_options is not None
    assert read.provider_options["openai-chat"]["reasoning"] == {"effort": "high"}
    assert _convert(body, "openai-chat") == (body, [])


def test_values_of_another_kind_are_not_read() -> None:
    setting = {"effort": ["high"], "max_tokens": -1, "enabled": "yes"}
    read = chatcodec.decode_request("openai-chat", {**_BODY, "reasoning": setting})
    assert read.reasoning is None
    assert read.provider_options is not None
    assert read.provider_options["openai-chat"]["reasoning"] == setting


def test_canonical_reasoning_the_object_cannot_say_is_reported() -> None:
    """A canonical change to a request read from the object is written into the object, and
    what the object has no key for is reported."""
    read = chatcodec.decode_request("openai-chat", {**_BODY, "reasoning": {"effort": "high"}})
    assert read.reasoning is not None
    changed = read.model_copy(update={"reasoning": read.reasoning.model_copy(update={"summary": "auto"})})
    losses: list[chatcodec.Loss] = []
    out = chatcodec.encode_request("openai-chat", changed, on_loss="ignore", losses=losses)
    assert out["reasoning"] == {"effort": "high"}
    assert [(loss.path, loss.what) for loss in losses] == [("$.reasoning.summary", "reasoning summary")]


def test_claude_thinking_is_written_as_reasoning_effort_for_openai() -> None:
    """Without the object's marker the writer sends OpenAI's own field, as before."""
    anthropic = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 4096,
        "messages": [{"role": "user", "content": "hi"}],
        "thinking": {"type": "enabled", "budget_tokens": 2048},
    }
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_request(
        anthropic, source="anthropic", target="openai-chat", on_loss="ignore", losses=losses
    )
    assert "reasoning" not in out
    assert out["reasoning_effort"] in ("minimal", "low", "medium", "high")


_CLAUDE_THINKING: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 16_000,
    "messages": [{"role": "user", "content": "hi"}],
}


@pytest.mark.parametrize(
    ("thinking", "written"),
    [
        ({"type": "enabled", "budget_tokens": 4000}, {"max_tokens": 4000}),
        ({"type": "enabled", "budget_tokens": 1024}, {"max_tokens": 1024}),
    ],
)
def test_a_thinking_budget_reaches_openrouter_as_its_budget(thinking: dict[str, Any], written: dict[str, Any]) -> None:
    """Claude's budget is what OpenRouter's ``max_tokens`` says (the reasoning-tokens page):
    written there when OpenRouter is the server, with no loss, where ``reasoning_effort``
    would turn it into an effort and report the budget; read back, it is the same budget."""
    body = {**_CLAUDE_THINKING, "thinking": thinking}
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_request(
        copy.deepcopy(body),
        source="anthropic",
        target="openai-chat",
        options={"server": "openrouter"},
        on_loss="ignore",
        losses=losses,
    )
    assert out["reasoning"] == written
    assert "reasoning_effort" not in out
    assert losses == []
    back = chatcodec.convert_request(out, source="openai-chat", target="anthropic", on_loss="error")
    assert back["thinking"] == thinking


def test_without_openrouter_a_budget_is_still_an_effort_reported() -> None:
    """For OpenAI (the default server) the object would be an unknown field: the effort, reported."""
    body = {**_CLAUDE_THINKING, "thinking": {"type": "enabled", "budget_tokens": 4000}}
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_request(body, source="anthropic", target="openai-chat", on_loss="ignore", losses=losses)
    assert "reasoning" not in out
    assert out["reasoning_effort"] == "low"
    assert [loss.path for loss in losses] == ["$.reasoning.budget_tokens"]


def test_an_effort_for_openrouter_stays_its_reasoning_effort() -> None:
    """What ``reasoning_effort`` says exactly is written there for OpenRouter too (it takes both)."""
    body = {"model": "gpt-5", "input": "hi", "reasoning": {"effort": "high"}}
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_request(
        body,
        source="openai-responses",
        target="openai-chat",
        options={"server": "openrouter"},
        on_loss="ignore",
        losses=losses,
    )
    assert out["reasoning_effort"] == "high"
    assert "reasoning" not in out
    assert losses == []
