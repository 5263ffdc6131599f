"""Clacky parity: the Anthropic helpers of ``chatcodec._providers.anthropic.convenience``."""

from __future__ import annotations

import json
from typing import Any

import pytest

import chatcodec
from chatcodec._providers.anthropic.convenience import (
    NOT_RUN,
    build_request_body,
    format_tool_results,
    parse_response,
    sanitize_tool_use_id,
)
from chatcodec._providers.anthropic.request import tool_id_map
from chatcodec._providers.anthropic.tool_ids import sanitize_tool_use_id as encoder_map
from providers.anthropic.anthropic_support import assert_valid_request, load_json

WEATHER = {"name": "get_weather", "description": "Weather", "parameters": {"type": "object", "properties": {}}}

HISTORY: list[dict[str, Any]] = [
    {"role": "user", "content": "weather in Paris and Rome?"},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "functions.get_weather:0",
                "type": "function",
                "function": {"name": "get_weather", "arguments": "{}"},
            },
            {
                "id": "functions.get_weather:1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": "{}"},
            },
        ],
    },
    {"role": "tool", "tool_call_id": "functions.get_weather:0", "content": "sunny"},
]


def test_build_request_body_gives_a_valid_anthropic_body() -> None:
    body = build_request_body(
        [{"role": "user", "content": "hi"}], model="claude-sonnet-4-5", max_tokens=512, system="be brief"
    )
    assert body == {
        "model": "claude-sonnet-4-5",
        "max_tokens": 512,
        "system": "be brief",
        "messages": [{"role": "user", "content": "hi"}],
    }
    assert_valid_request(body)


def test_caching_marks_system_last_tool_and_last_message() -> None:
    body = build_request_body(
        [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}, {"role": "user", "content": "c"}],
        model="m",
        tools=[WEATHER, {"type": "function", "function": {**WEATHER, "name": "get_time"}}],
        max_tokens=100,
        caching=True,
        system="sys",
    )
    marker = {"type": "ephemeral"}
    assert body["system"] == [{"type": "text", "text": "sys", "cache_control": marker}]
    assert ["cache_control" in tool for tool in body["tools"]] == [False, True]
    assert body["tools"][1]["name"] == "get_time"
    assert body["messages"][-1]["content"] == [{"type": "text", "text": "c", "cache_control": marker}]
    assert body["messages"][0] == {"role": "user", "content": "a"}
    assert_valid_request(body)


@pytest.mark.parametrize(
    ("effort", "max_tokens", "thinking"),
    [
        ("low", 8000, {"type": "enabled", "budget_tokens": 2048}),
        ("high", 8000, {"type": "enabled", "budget_tokens": 7999}),
        ("none", 8000, {"type": "disabled"}),
        (None, 8000, None),
    ],
)
def test_reasoning_effort_becomes_a_thinking_budget(effort: Any, max_tokens: int, thinking: Any) -> None:
    body = build_request_body(
        [{"role": "user", "content": "q"}], model="m", max_tokens=max_tokens, reasoning_effort=effort
    )
    assert body.get("thinking") == thinking


def test_a_budget_below_the_minimum_is_reported() -> None:
    losses: list[chatcodec.Loss] = []
    body = build_request_body(
        [{"role": "user", "content": "q"}],
        model="m",
        max_tokens=500,
        reasoning_effort="high",
        on_loss="ignore",
        losses=losses,
    )
    assert "thinking" not in body
    assert [loss.path for loss in losses] == ["$.reasoning_effort"]


def test_build_request_body_applies_the_api_rules() -> None:
    """Ids Anthropic rejects are mapped; the unanswered call still needs format_tool_results."""
    with pytest.warns(chatcodec.LossWarning):
        body = build_request_body([*HISTORY, {"role": "user", "content": ""}], model="m", max_tokens=10)
    calls = body["messages"][1]["content"]
    assert [call["id"] for call in calls] == ["cc-functions_2eget_5fweather_3a0", "cc-functions_2eget_5fweather_3a1"]
    assert body["messages"][2]["content"][0]["tool_use_id"] == calls[0]["id"]


def test_format_tool_results_answers_every_unanswered_call() -> None:
    fixed = format_tool_results(HISTORY)
    assert [message.role for message in fixed] == ["user", "assistant", "tool"]
    results = fixed[2].content
    assert isinstance(results, list)
    assert [result.tool_use_id for result in results] == ["functions.get_weather:0", "functions.get_weather:1"]
    added = results[1]
    assert isinstance(added, chatcodec.ToolResultPart)
    assert added.is_error
    assert added.text == NOT_RUN
    body = build_request_body(fixed, model="m", max_tokens=10)
    assert [block["type"] for block in body["messages"][2]["content"]] == ["tool_result", "tool_result"]
    assert_valid_request(body)


def test_format_tool_results_adds_a_tool_message_when_there_is_none() -> None:
    fixed = format_tool_results([*HISTORY[:2], {"role": "user", "content": "never mind"}])
    assert [message.role for message in fixed] == ["user", "assistant", "tool", "user"]
    assert len(fixed[2].content) == 2


def test_legacy_anthropic_native_histories_are_recognized() -> None:
    """Stored histories holding Anthropic ``tool_use``/``tool_result`` blocks as they were sent."""
    payload = load_json("request", "thinking_replay_with_tool_result.json")
    fixed = format_tool_results(payload["messages"])
    assert [message.role for message in fixed] == ["user", "assistant", "tool"]
    assert fixed[1].tool_calls[0].arguments == "{}"
    assert fixed[1].thinking[0].signature == payload["messages"][1]["content"][0]["signature"]
    body = build_request_body(fixed, model=payload["model"], max_tokens=payload["max_tokens"])
    del payload["messages"][2]["content"][0]["is_error"]  # false is the default: canonical omits it
    assert body["messages"] == payload["messages"]


def test_parse_response_reads_dicts_text_and_bytes() -> None:
    payload = load_json("response", "thinking_text_tool_use.json")
    parsed = parse_response(payload)
    assert parsed == parse_response(json.dumps(payload)) == parse_response(json.dumps(payload).encode())
    assert parsed.finish_reason == chatcodec.FinishReason(unified="tool_calls", raw="tool_use")


def test_sanitize_tool_use_id_is_the_encoders_map() -> None:
    assert sanitize_tool_use_id is encoder_map
    request = chatcodec.ChatRequest(messages=format_tool_results(HISTORY))
    assert tool_id_map(request) == {
        tool_id: sanitize_tool_use_id(tool_id) for tool_id in ("functions.get_weather:0", "functions.get_weather:1")
    }


def test_stored_anthropic_messages_join_a_conversation() -> None:
    payload = load_json("request", "tool_result_text_image_base64.json")
    conversation = chatcodec.Conversation()
    added = conversation.append_provider_messages("anthropic", payload["messages"])
    assert added == chatcodec.decode_request("anthropic", payload).messages
    with pytest.raises(chatcodec.ValidationError) as caught:
        conversation.append_provider_messages("anthropic", [{"role": "user", "content": 5}])
    assert caught.value.paths[0] == "$[0].content"
