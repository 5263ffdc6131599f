"""A deprecated ``function`` message answering a ``tool_calls`` entry is paired with that
call, by its ``tool_call_id`` or its function's name, so Anthropic gets a ``tool_result``
whose ``tool_use_id`` names a ``tool_use`` of the turn before (Anthropic answers 400
otherwise: "each tool_result block must have a corresponding tool_use block")."""

from __future__ import annotations

from typing import Any

from anthropic.types import MessageCreateParams

import chatcodec
from sdk_oracle import assert_matches

FORMAT = "openai-chat"


def _call(call_id: str, name: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": "{}"}}


def _body(*results: dict[str, Any]) -> dict[str, Any]:
    calls = [_call("call_a", "get_weather"), _call("call_b", "get_time")]
    return {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "weather and time?"},
            {"role": "assistant", "content": None, "tool_calls": calls},
            *results,
        ],
    }


def _result_ids(body: dict[str, Any]) -> list[str]:
    converted = chatcodec.convert_request(body, source=FORMAT, target="anthropic", on_loss="ignore")
    assert_matches(converted, MessageCreateParams)
    return [block["tool_use_id"] for block in converted["messages"][-1]["content"]]


def test_a_function_result_after_tool_calls_answers_the_call_of_its_name() -> None:
    body = _body(
        {"role": "function", "name": "get_time", "content": "noon"},
        {"role": "function", "name": "get_weather", "content": "sunny"},
    )
    assert _result_ids(body) == ["call_b", "call_a"]


def test_a_function_result_with_a_tool_call_id_answers_that_call_and_keeps_the_id() -> None:
    body = _body(
        {"role": "function", "name": "get_weather", "content": "sunny", "tool_call_id": "call_a"},
        {"role": "function", "name": "get_time", "content": "noon", "tool_call_id": "call_b"},
    )
    assert _result_ids(body) == ["call_a", "call_b"]
    assert chatcodec.convert_request(body, source=FORMAT, target=FORMAT, on_loss="error") == body


def test_a_function_result_does_not_answer_a_call_a_tool_message_already_answered() -> None:
    body = _body(
        {"role": "tool", "tool_call_id": "call_a", "content": "sunny"},
        {"role": "function", "name": "get_weather", "content": "sunny again"},
        {"role": "function", "name": "get_time", "content": "noon"},
    )
    request = chatcodec.decode_request(FORMAT, body)
    results = request.messages[-1].content
    assert [result.tool_use_id for result in results] == ["call_a", "function_call_0", "call_b"]
    assert chatcodec.convert_request(body, source=FORMAT, target=FORMAT, on_loss="error") == body


def test_function_call_results_still_answer_the_oldest_function_call() -> None:
    body = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": None, "function_call": {"name": "lookup", "arguments": "{}"}},
            {"role": "function", "name": "renamed", "content": "ok"},
        ],
    }
    assert _result_ids(body) == ["function_call_0"]
