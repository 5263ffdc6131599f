"""Conversions between bedrock-converse and the other codecs: what crosses exactly, and
every loss reported where it does not."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from providers.anthropic.anthropic_support import assert_valid_request as assert_valid_anthropic_request
from providers.bedrock_converse.bedrock_support import assert_valid_request, assert_valid_response

BEDROCK = "bedrock-converse"


def _convert(payload: dict[str, Any], source: str, target: str) -> tuple[dict[str, Any], list[str]]:
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(payload, source=source, target=target, on_loss="ignore", losses=losses)
    return converted, [loss.path for loss in losses]


def test_an_openai_history_with_kimi_style_ids_crosses_to_bedrock_unchanged() -> None:
    openai = {
        "model": "kimi-k2",
        "max_completion_tokens": 100,  # Anthropic requires max_tokens: given, so no loss for it
        "messages": [
            {"role": "user", "content": "weather?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "functions.get_weather:0",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": "{}"},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "functions.get_weather:0", "content": "sunny"},
        ],
    }
    bedrock, losses = _convert(openai, "openai-chat", BEDROCK)
    assert losses == []
    assert bedrock["messages"][1]["content"][0]["toolUse"]["toolUseId"] == "functions.get_weather:0"
    assert bedrock["messages"][2]["content"][0]["toolResult"]["toolUseId"] == "functions.get_weather:0"
    assert_valid_request(bedrock)
    anthropic, losses = _convert(bedrock, BEDROCK, "anthropic")
    assert anthropic["messages"][1]["content"][0]["id"] == "cc-functions_2eget_5fweather_3a0"
    assert losses == []
    assert_valid_anthropic_request(anthropic)
    back, losses = _convert(anthropic, "anthropic", BEDROCK)
    assert back["messages"][1]["content"][0]["toolUse"]["toolUseId"] == "functions.get_weather:0"


def test_anthropic_cache_markers_and_documents_cross_to_bedrock() -> None:
    anthropic = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "system": [{"type": "text", "text": "be brief", "cache_control": {"type": "ephemeral"}}],
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "notes"}},
                    {"type": "text", "text": "summarize", "cache_control": {"type": "ephemeral", "ttl": "1h"}},
                ],
            }
        ],
    }
    bedrock, losses = _convert(anthropic, "anthropic", BEDROCK)
    assert bedrock["system"] == [{"text": "be brief"}, {"cachePoint": {"type": "default"}}]
    assert bedrock["messages"][0]["content"] == [
        {"document": {"format": "txt", "name": "document", "source": {"text": "notes"}}},
        {"text": "summarize"},
        {"cachePoint": {"type": "default", "ttl": "1h"}},
    ]
    assert losses == [
        "$.messages[0].content[0].filename"
    ]  # Bedrock needs a name: "document" was made up (input numbering)
    assert_valid_request(bedrock)


def test_openai_image_urls_are_a_loss_on_bedrock() -> None:
    openai = {
        "model": "gpt-4o",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "what is this?"},
                    {"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}},
                ],
            }
        ],
    }
    bedrock, losses = _convert(openai, "openai-chat", BEDROCK)
    assert bedrock["messages"][0]["content"] == [{"text": "what is this?"}]
    assert losses == ["$.messages[0].content[1].source"]
    with pytest.raises(chatcodec.LossError):
        chatcodec.convert_request(openai, source="openai-chat", target=BEDROCK, on_loss="error")


def test_bedrock_server_tool_blocks_are_reported_when_leaving_bedrock() -> None:
    nova = {
        "output": {
            "message": {
                "role": "assistant",
                "content": [
                    {
                        "toolUse": {
                            "toolUseId": "t1",
                            "name": "nova_code_interpreter",
                            "input": {},
                            "type": "server_tool_use",
                        }
                    },
                    {"text": "done"},
                ],
            }
        },
        "stopReason": "end_turn",
        "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
        "metrics": {"latencyMs": 1},
    }
    response = chatcodec.decode_response(BEDROCK, nova)
    assert_valid_response(chatcodec.encode_response(BEDROCK, response, on_loss="error"))
    losses: list[chatcodec.Loss] = []
    openai = chatcodec.encode_response("openai-chat", response, on_loss="ignore", losses=losses)
    assert openai["choices"][0]["message"]["content"] == "done"
    assert "$.choices[0].message.content[0]" in [loss.path for loss in losses]


def test_bedrock_metrics_and_guardrail_settings_are_reported_elsewhere() -> None:
    bedrock = {
        "modelId": "us.amazon.nova-micro-v1:0",
        "messages": [{"role": "user", "content": [{"text": "hi"}]}],
        "guardrailConfig": {"guardrailIdentifier": "g", "guardrailVersion": "DRAFT", "trace": "enabled"},
    }
    openai, losses = _convert(bedrock, BEDROCK, "openai-chat")
    assert "guardrailConfig" not in openai
    assert losses == ["$.provider_options"]
