"""Custom (freeform) tool definitions between OpenAI Chat and the Responses API.

The shapes are the OpenAI SDK's (openai 3.54): Chat's ``ChatCompletionCustomToolParam``
(``{"type": "custom", "custom": {"name", "description", "format"}}``, a grammar as
``{"type": "grammar", "grammar": {"definition", "syntax"}}``) and Responses'
``CustomToolParam`` (the same fields flat, a grammar as ``CustomToolInputFormat``'s
``{"type": "grammar", "definition", "syntax"}``). Before, each was dropped crossing to the
other wire while the calls to it were carried, leaving calls to a tool no longer defined.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from providers.openai_chat.openai_chat_support import assert_request_matches_sdk as assert_chat_request
from providers.openai_responses.responses_support import assert_request_matches_sdk as assert_responses_request

GRAMMAR_TOOL_CHAT = {
    "type": "custom",
    "custom": {
        "name": "code_exec",
        "description": "Runs Python",
        "format": {"type": "grammar", "grammar": {"definition": "start: /.+/", "syntax": "lark"}},
    },
}
GRAMMAR_TOOL_RESPONSES = {
    "type": "custom",
    "name": "code_exec",
    "description": "Runs Python",
    "format": {"type": "grammar", "definition": "start: /.+/", "syntax": "lark"},
}
LOOKUP_CHAT = {"type": "function", "function": {"name": "lookup", "parameters": {"type": "object", "properties": {}}}}

CHAT_REQUEST: dict[str, Any] = {
    "model": "gpt-5",
    "messages": [
        {"role": "user", "content": "run it"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_1", "type": "custom", "custom": {"name": "code_exec", "input": "print(1)"}}],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "1"},
    ],
    "tools": [LOOKUP_CHAT, GRAMMAR_TOOL_CHAT],
}


def test_chat_to_responses_carries_the_definition_beside_its_call() -> None:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(CHAT_REQUEST, source="openai-chat", target="openai-responses", losses=losses)
    assert_responses_request(body)
    assert GRAMMAR_TOOL_RESPONSES in body["tools"]
    assert [item["name"] for item in body["input"] if item.get("type") == "custom_tool_call"] == ["code_exec"]
    assert losses == []


def test_responses_to_chat_and_back_is_exact() -> None:
    responses = chatcodec.convert_request(CHAT_REQUEST, source="openai-chat", target="openai-responses")
    losses: list[chatcodec.Loss] = []
    chat = chatcodec.convert_request(
        copy.deepcopy(responses), source="openai-responses", target="openai-chat", losses=losses
    )
    assert_chat_request(chat)
    assert chat == CHAT_REQUEST
    assert losses == []


@pytest.mark.parametrize("fmt", [None, {"type": "text"}])
def test_a_text_or_no_format_goes_as_it_is(fmt: dict[str, Any] | None) -> None:
    tool: dict[str, Any] = {"type": "custom", "name": "shell"}
    if fmt is not None:
        tool["format"] = fmt
    request = {"model": "gpt-5", "input": "hi", "tools": [tool]}
    chat = chatcodec.convert_request(request, source="openai-responses", target="openai-chat")
    assert_chat_request(chat)
    assert chat["tools"] == [{"type": "custom", "custom": {key: value for key, value in tool.items() if key != "type"}}]


def test_a_field_chat_lacks_is_reported() -> None:
    request = {"model": "gpt-5", "input": "hi", "tools": [{**GRAMMAR_TOOL_RESPONSES, "defer_loading": True}]}
    losses: list[chatcodec.Loss] = []
    chat = chatcodec.convert_request(
        request, source="openai-responses", target="openai-chat", losses=losses, on_loss="ignore"
    )
    assert chat["tools"] == [GRAMMAR_TOOL_CHAT]
    assert [loss.path for loss in losses] == ["$.provider_tools[0].defer_loading"]


@pytest.mark.parametrize("target", ["anthropic", "gemini", "bedrock-converse", "ollama"])
def test_a_format_without_custom_tools_is_not_sent_it_reported(target: str) -> None:
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(CHAT_REQUEST, source="openai-chat", target=target, losses=losses, on_loss="ignore")
    assert "$.provider_tools[0]" in [loss.path for loss in losses]
