"""Claude thinking replayed to Mistral reaches only the models that take reasoning back.

Mistral's reasoning page (https://docs.mistral.ai/capabilities/reasoning/) names the models
that reason and take their ``thinking`` chunks back: ``mistral-small-latest`` (Small 4,
``mistral-small-2603``) and ``mistral-medium-3-5`` (``mistral-medium-latest``,
zed-industries/zed#61393), and the deprecated native Magistral models. Other models
(``mistral-large-latest``: truefoundry/models#488) answer reasoning input with 400, code 3051.
"""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from providers.openai_chat.servers_support import assert_valid_for

ANTHROPIC: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 100,
    "messages": [
        {"role": "user", "content": "What is 2 + 2?"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Add them.", "signature": "c2ln"},
                {"type": "text", "text": "4"},
            ],
        },
        {"role": "user", "content": "And 3 + 3?"},
    ],
}


def _to_mistral(model: str, request: dict[str, Any] = ANTHROPIC) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        {**request, "model": model},
        source="anthropic",
        target="openai-chat",
        options={"server": "mistral"},
        losses=losses,
        on_loss="ignore",
    )
    return body, [loss for loss in losses if loss.what == "thinking"]


@pytest.mark.parametrize(
    "model", ["mistral-large-latest", "mistral-large-2512", "codestral-latest", "mistral-small-2506"]
)
def test_a_model_that_does_not_reason_gets_no_thinking_reported(model: str) -> None:
    body, losses = _to_mistral(model)
    assert body["messages"][1]["content"] == [{"type": "text", "text": "4"}]
    assert len(losses) == 1
    assert losses[0].path == "$.messages[1].content"
    assert "reasoning_models" in losses[0].why
    assert_valid_for("mistral", body)


@pytest.mark.parametrize(
    "model", ["magistral-medium-latest", "magistral-small-2509", "mistral-small-latest", "mistral-medium-3-5"]
)
def test_a_reasoning_model_gets_its_thinking_chunk(model: str) -> None:
    body, losses = _to_mistral(model)
    assert body["messages"][1]["content"] == [
        {"type": "thinking", "thinking": [{"type": "text", "text": "Add them."}]},
        {"type": "text", "text": "4"},
    ]
    assert losses == []


def test_a_turn_of_thinking_and_a_call_keeps_the_call() -> None:
    request = {
        **ANTHROPIC,
        "messages": [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "Look it up.", "signature": "c2ln"},
                    {"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {"city": "Paris"}},
                ],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "Sunny"}]},
        ],
    }
    body, losses = _to_mistral("mistral-large-latest", request)
    assistant = body["messages"][1]
    assert not any(part.get("type") == "thinking" for part in assistant.get("content") or [])
    assert [call["id"] for call in assistant["tool_calls"]] == ["toolu_1"]
    assert len(losses) == 1
    assert_valid_for("mistral", body)


@pytest.mark.parametrize(
    ("source", "request_body"),
    [
        (
            "gemini",
            {
                "contents": [
                    {"role": "user", "parts": [{"text": "What is 2 + 2?"}]},
                    {"role": "model", "parts": [{"text": "Add them.", "thought": True}, {"text": "4"}]},
                    {"role": "user", "parts": [{"text": "And 3 + 3?"}]},
                ]
            },
        ),
        (
            "ai-sdk-model",
            {
                "messages": [
                    {"role": "user", "content": "What is 2 + 2?"},
                    {
                        "role": "assistant",
                        "content": [{"type": "reasoning", "text": "Add them."}, {"type": "text", "text": "4"}],
                    },
                    {"role": "user", "content": "And 3 + 3?"},
                ]
            },
        ),
    ],
)
def test_thinking_of_other_formats_is_written_as_mistral_thinking_chunks(
    source: str, request_body: dict[str, Any]
) -> None:
    """Issue 101: reasoning from any format reaches a Mistral reasoning model as its own
    ``thinking`` chunk, in its place (https://docs.mistral.ai/capabilities/reasoning/)."""
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        request_body,
        source=source,
        target="openai-chat",
        options={"server": "mistral", "model": "mistral-small-latest"},
        losses=losses,
        on_loss="ignore",
    )
    assert body["messages"][1]["content"] == [
        {"type": "thinking", "thinking": [{"type": "text", "text": "Add them."}]},
        {"type": "text", "text": "4"},
    ]
    assert not [loss for loss in losses if "thinking" in loss.what]
    assert_valid_for("mistral", body)


def test_redacted_thinking_is_not_sent_as_an_empty_thinking_chunk() -> None:
    """A redacted block holds its reasoning only encrypted: a Mistral chunk of no text says
    nothing the model wrote, so it is left out, reported (issue 101)."""
    redacted = {
        **ANTHROPIC,
        "messages": [
            ANTHROPIC["messages"][0],
            {
                "role": "assistant",
                "content": [{"type": "redacted_thinking", "data": "ZW5jcnlwdGVk"}, {"type": "text", "text": "4"}],
            },
            ANTHROPIC["messages"][2],
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        {**redacted, "model": "mistral-small-latest"},
        source="anthropic",
        target="openai-chat",
        options={"server": "mistral"},
        losses=losses,
        on_loss="ignore",
    )
    assert body["messages"][1]["content"] == [{"type": "text", "text": "4"}]
    assert [(loss.path, loss.what) for loss in losses if "thinking" in loss.what] == [
        ("$.messages[1].content[0]", "redacted thinking")
    ]
    assert_valid_for("mistral", body)


def test_a_pdf_data_url_with_parameters_is_sent_as_a_document_url() -> None:
    url = "data:application/pdf;name=report.pdf;base64,JVBERi0="
    request = {
        "model": "mistral-small-latest",
        "messages": [{"role": "user", "content": [{"type": "file", "file": {"file_data": url, "filename": "r.pdf"}}]}],
    }
    body = chatcodec.convert_request(
        request, source="openai-chat", target="openai-chat", options={"server": "mistral"}, on_loss="ignore"
    )
    assert body["messages"][0]["content"] == [{"type": "document_url", "document_url": url}]
