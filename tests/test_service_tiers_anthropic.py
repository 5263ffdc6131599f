"""Service tier between OpenAI and Anthropic: OpenAI's ``auto`` is Anthropic's ``auto``
(priority capacity when available) and OpenAI's ``default`` is Anthropic's
``standard_only``, both ways; a tier the other has no word for stays in its bag."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec

HELLO = [{"role": "user", "content": "hi"}]


@pytest.mark.parametrize("source", ["openai-chat", "openai-responses"])
@pytest.mark.parametrize(("openai", "anthropic"), [("auto", "auto"), ("default", "standard_only")])
def test_an_openai_service_tier_reaches_anthropic_and_back(source: str, openai: str, anthropic: str) -> None:
    body: dict[str, Any] = {"model": "m", "service_tier": openai}
    body.update({"messages": HELLO} if source == "openai-chat" else {"input": "hi"})
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(body, source=source, target="anthropic", on_loss="ignore", losses=losses)
    assert converted["service_tier"] == anthropic
    assert not [loss for loss in losses if loss.path == "$.service_tier"]
    back = chatcodec.convert_request(converted, source="anthropic", target=source, on_loss="ignore")
    assert back["service_tier"] == openai


def test_an_openai_tier_anthropic_has_no_word_for_is_reported() -> None:
    body = {"model": "m", "service_tier": "flex", "messages": HELLO}
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(
        body, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses
    )
    assert "service_tier" not in converted
    assert [loss.path for loss in losses if loss.path == "$.service_tier"] == ["$.service_tier"]
