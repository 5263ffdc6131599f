"""Bedrock ``guardContent`` text reaches other formats as text, reported as losing the
guard (a guardrail assessed only those blocks), and comes back to Bedrock as it was."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec

FORMAT = "bedrock-converse"


def _body() -> dict[str, Any]:
    guarded = {"guardContent": {"text": {"text": "is this ok?", "qualifiers": ["guard_content"]}}}
    return {
        "modelId": "anthropic.claude-sonnet-4-5",
        "system": [{"text": "be brief"}, {"guardContent": {"text": {"text": "house policy"}}}],
        "messages": [{"role": "user", "content": [{"text": "hi"}, guarded]}],
    }


@pytest.mark.parametrize("target", ["anthropic", "openai-chat", "gemini", "openai-responses", "ollama"])
def test_guarded_text_reaches_another_format_as_text_reporting_the_guard(target: str) -> None:
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(_body(), source=FORMAT, target=target, on_loss="ignore", losses=losses)
    assert "is this ok?" in str(converted)
    assert "house policy" in str(converted)
    guards = sorted(loss.path for loss in losses if "_guard" in loss.what)
    assert guards == ["$.messages[0].content[1]", "$.system[1]"]  # where the input has them


def test_guarded_text_round_trips_through_bedrock() -> None:
    body = _body()
    assert chatcodec.convert_request(body, source=FORMAT, target=FORMAT, on_loss="error") == body


def test_a_guarded_image_stays_whole() -> None:
    image = {"guardContent": {"image": {"format": "png", "source": {"bytes": "aGk="}}}}
    body = {"modelId": "m", "messages": [{"role": "user", "content": [{"text": "look"}, image]}]}
    request = chatcodec.decode_request(FORMAT, body)
    assert request.messages[0].content[1].type == "opaque"
