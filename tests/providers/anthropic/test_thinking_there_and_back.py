"""Claude's thinking settings through another wire and back (the law
``no_loss_there_and_back_means_nothing_changed``, on the requests a random draw found it wrong
on): what a hop through Gemini adds (its ``includeThoughts`` beside thinking turned on, no switch
beside a budget) is what Anthropic leaves unsaid, and its silent rewrites say so."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec.testing._laws.law_losses import there_and_back
from conformance.providers import PROVIDER

_REQUESTS: list[dict[str, Any]] = [
    {"messages": [], "reasoning": {"adaptive": True}},
    {"messages": [], "reasoning": {"adaptive": True, "include_thoughts": True}},
    {"messages": [], "reasoning": {"enabled": True}},
    {"messages": [], "reasoning": {"budget_tokens": 2048}, "max_tokens": 8000},
    {"messages": [], "reasoning": {"budget_tokens": 2048, "include_thoughts": False}, "max_tokens": 8000},
    {"messages": [{"role": "user", "content": "Go."}], "reasoning": {"adaptive": True, "effort": "high"}},
]


@pytest.mark.parametrize("via", ["gemini", "openai-chat", "openai-responses", "bedrock-converse"])
@pytest.mark.parametrize("request_fields", _REQUESTS, ids=repr)
def test_claudes_thinking_through_another_wire_and_back(request_fields: dict[str, Any], via: str) -> None:
    request = chatcodec.ChatRequest.model_validate(request_fields)
    payload = chatcodec.encode_request("anthropic", request, on_loss="ignore")
    there_and_back(payload, PROVIDER["anthropic"], PROVIDER[via])  # raises when the law does not hold


def test_a_hop_through_gemini_is_the_law_s_case_here() -> None:
    """The first request goes to Gemini and back with no loss: the law judges it (it is no vacuous case)."""
    payload = chatcodec.encode_request(
        "anthropic", chatcodec.ChatRequest.model_validate(_REQUESTS[0]), on_loss="ignore"
    )
    assert there_and_back(payload, PROVIDER["anthropic"], PROVIDER["gemini"]) is True
