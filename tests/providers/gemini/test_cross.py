"""Gemini to and from the other codecs: what crosses, and that every loss is reported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import chatcodec
from providers.gemini.gemini_support import assert_valid_request, load_json

ANTHROPIC = Path(__file__).resolve().parents[2] / "fixtures" / "anthropic" / "request"


def _convert(
    body: dict[str, Any], source: str, target: str, options: dict[str, Any] | None = None
) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(
        body, source=source, target=target, on_loss="ignore", losses=losses, options=options
    )
    return converted, losses


def test_a_vertex_history_crosses_to_openai_with_its_ids_and_signatures_and_back() -> None:
    """The signatures ride as Gemini's OpenAI-compatible ``extra_content``, for that endpoint."""
    body = load_json("request", "vertex_snake_case_function_error_responses.json")
    openai, losses = _convert(body, "gemini", "openai-chat", {"server": "gemini"})
    calls = [message["tool_calls"][0] for message in openai["messages"] if message.get("tool_calls")]
    assert [call["id"] for call in calls] == [
        "pyd_ai_643dd3d7cf8b46809ec8b53551b1b77c",
        "pyd_ai_08cb6a937520415188d39f4ee91ad388",
    ]
    sent = [content["parts"][0]["thought_signature"] for content in body["contents"] if content["role"] == "model"]
    assert [call["extra_content"]["google"]["thought_signature"] for call in calls] == sent
    assert not [loss for loss in losses if "thoughtSignature" in loss.what]
    assert "$.provider_options" in {loss.path for loss in losses}  # responseModalities stays behind
    back, back_losses = _convert(openai, "openai-chat", "gemini")
    model_parts = [content["parts"][0] for content in back["contents"] if content["role"] == "model"]
    assert [part["thoughtSignature"] for part in model_parts] == sent
    assert not [loss for loss in back_losses if loss.what == "thought signature"]
    assert_valid_request(back)


def test_anthropic_thinking_is_not_sent_to_gemini() -> None:
    body = json.loads((ANTHROPIC / "thinking_replay_with_tool_result.json").read_text(encoding="utf-8"))
    gemini, losses = _convert(body, "anthropic", "gemini")
    assert '"thought": true' not in json.dumps(gemini)
    signatures = [
        block["signature"]
        for message in body["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "thinking"
    ]
    assert signatures
    assert all(signature not in json.dumps(gemini) for signature in signatures)
    assert "thinking" in {loss.what for loss in losses}
    assert_valid_request(gemini)
    results = [
        part["functionResponse"]
        for content in gemini["contents"]
        for part in content["parts"]
        if "functionResponse" in part
    ]
    calls = [
        part["functionCall"] for content in gemini["contents"] for part in content["parts"] if "functionCall" in part
    ]
    assert [result["name"] for result in results] == [call["name"] for call in calls]
    assert [result["id"] for result in results] == [call["id"] for call in calls]


def test_a_gemini_response_crosses_to_anthropic_and_openai_reporting_what_stays_behind() -> None:
    body = load_json("response", "google_search_grounding.json")
    response = chatcodec.decode_response("gemini", body)
    for target in ("anthropic", "openai-chat"):
        losses: list[chatcodec.Loss] = []
        chatcodec.encode_response(target, response, on_loss="ignore", losses=losses)
        assert any("groundingMetadata" in loss.what for loss in losses), target
