"""A Gemini 3 ``thinkingLevel`` is an effort; with ``includeThoughts: true`` it is thinking
shown at that level (https://ai.google.dev/gemini-api/docs/thinking): it reads as
``adaptive`` with an effort, so Claude's adaptive thinking survives a trip through Gemini
(found by the there-and-back law, bedrock-converse -> gemini), and Claude's effort without
thinking comes back without thinking."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec


def _body(**thinking: Any) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [{"text": "q"}]}], "generationConfig": {"thinkingConfig": thinking}}


@pytest.mark.parametrize("source", ["bedrock-converse", "anthropic"])
def test_claude_adaptive_thinking_comes_back_from_gemini(source: str) -> None:
    request = chatcodec.ChatRequest(
        messages=[], model="claude-opus-4-6", max_tokens=100, reasoning={"effort": "high", "adaptive": True}
    )
    payload = chatcodec.encode_request(source, request, on_loss="error")
    losses: list[chatcodec.Loss] = []
    gemini = chatcodec.convert_request(payload, source=source, target="gemini", on_loss="ignore", losses=losses)
    assert gemini["generationConfig"]["thinkingConfig"] == {"thinkingLevel": "HIGH", "includeThoughts": True}
    assert [loss for loss in losses if loss.kind != "required"] == []
    final = chatcodec.convert_request(gemini, source="gemini", target=source, on_loss="ignore", losses=losses)
    assert [loss for loss in losses if loss.kind != "required"] == []  # the model rides in Gemini's URL
    assert chatcodec.decode_request(source, final).reasoning == request.reasoning


def test_a_thinking_level_alone_reads_as_an_effort_and_with_thoughts_as_adaptive_thinking() -> None:
    decoded = chatcodec.decode_request("gemini", _body(thinkingLevel="LOW"))
    assert decoded.reasoning is not None
    assert decoded.reasoning.model_dump(exclude_none=True) == {"effort": "low"}
    decoded = chatcodec.decode_request("gemini", _body(thinkingLevel="LOW", includeThoughts=True))
    assert decoded.reasoning is not None
    expected = {"effort": "low", "adaptive": True, "include_thoughts": True}
    assert decoded.reasoning.model_dump(exclude_none=True) == expected


@pytest.mark.parametrize("budget", [0, 1024])
def test_a_thinking_level_beside_a_budget_is_not_adaptive(budget: int) -> None:
    decoded = chatcodec.decode_request("gemini", _body(thinkingLevel="LOW", thinkingBudget=budget))
    assert decoded.reasoning is not None
    assert decoded.reasoning.model_dump(exclude_none=True) == {"effort": "low", "budget_tokens": budget}


@pytest.mark.parametrize("thinking", [{"thinkingLevel": "LOW"}, {"thinkingLevel": "MINIMAL", "includeThoughts": True}])
def test_a_thinking_level_goes_back_to_gemini_as_it_came(thinking: dict[str, Any]) -> None:
    body = _body(**thinking)
    losses: list[chatcodec.Loss] = []
    assert chatcodec.convert_request(body, source="gemini", target="gemini", losses=losses) == body
    assert losses == []


def test_the_reader_gives_a_level_as_the_model_dumps_it() -> None:
    body = _body(thinkingLevel="HIGH")
    canonical = chatcodec.get_codec("gemini").read_request(body)
    assert canonical["reasoning"] == {"effort": "high"}
    assert chatcodec.decode_request("gemini", body).model_dump() == canonical
