"""An OpenAI Chat custom (freeform) tool call keeps its type
within OpenAI Chat (and the Responses API: ``test_custom_tool_calls.py``); a format with
no freeform tool type gets neither the call nor the tool result answering it (a result
whose call was not sent is a 400 there), one loss naming both
(``_providers/history/turns.py``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from anthropic.types import MessageCreateParams

import chatcodec
from providers.bedrock_converse.bedrock_support import assert_valid_request as assert_valid_bedrock
from providers.gemini.gemini_support import assert_valid_request as assert_valid_gemini
from sdk_oracle import assert_matches

_CUSTOM_CALL = {"id": "call_1", "type": "custom", "custom": {"name": "code_exec", "input": "print(1)"}}
_FUNCTION_CALL = {"id": "call_2", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
_TOOLS = [
    {"type": "custom", "custom": {"name": "code_exec", "description": "runs code"}},
    {"type": "function", "function": {"name": "lookup", "parameters": {"type": "object"}}},
]


def _oracle(target: str) -> Callable[[dict[str, Any]], None]:
    def anthropic(body: dict[str, Any]) -> None:
        assert_matches(body, MessageCreateParams)

    oracles: dict[str, Callable[[dict[str, Any]], None]] = {
        "anthropic": anthropic,
        "gemini": assert_valid_gemini,
        "bedrock-converse": assert_valid_bedrock,
    }
    return oracles[target]


def _request(calls: list[dict[str, Any]], results: list[dict[str, Any]]) -> dict[str, Any]:
    messages = [
        {"role": "user", "content": "run it"},
        {"role": "assistant", "content": None, "tool_calls": calls},
        *results,
        {"role": "user", "content": "and now?"},
    ]
    return {"model": "m", "max_tokens": 64, "tools": _TOOLS, "messages": messages}


def _convert(payload: dict[str, Any], target: str) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(payload, source="openai-chat", target=target, on_loss="ignore", losses=losses)
    _oracle(target)(body)
    return body, losses


_TARGETS = ["anthropic", "gemini", "bedrock-converse"]
_CUSTOM_RESULT = {"role": "tool", "tool_call_id": "call_1", "content": "1"}
_FUNCTION_RESULT = {"role": "tool", "tool_call_id": "call_2", "content": "ok"}


@pytest.mark.parametrize("target", _TARGETS)
def test_a_custom_tool_call_and_its_result_are_dropped_together_with_one_loss(target: str) -> None:
    payload = _request([_CUSTOM_CALL, _FUNCTION_CALL], [_CUSTOM_RESULT, _FUNCTION_RESULT])
    body, losses = _convert(payload, target)
    text = json.dumps(body)
    assert "call_1" not in text  # neither the call nor the result answering it
    assert "unknown_function" not in text  # Gemini used to name the orphaned result so
    assert "call_2" in text  # the function call and its result are sent as before
    named = [loss for loss in losses if "call_1" in loss.what]
    assert len(named) == 1
    assert named[0].path == "$.messages[1].tool_calls[0]"  # as the input numbers it
    assert "tool result ($.messages[2])" in named[0].what
    assert not [loss for loss in losses if loss.path.startswith("$.messages[2]")]


@pytest.mark.parametrize("target", _TARGETS)
def test_a_turn_holding_only_a_custom_call_goes_with_the_results_turn(target: str) -> None:
    body, losses = _convert(_request([_CUSTOM_CALL], [_CUSTOM_RESULT]), target)
    text = json.dumps(body)
    assert "call_1" not in text
    assert "print(1)" not in text
    assert "run it" in text
    assert "and now?" in text
    assert [loss.path for loss in losses if "call_1" in loss.what] == ["$.messages[1].tool_calls[0]"]


@pytest.mark.parametrize("target", _TARGETS)
def test_every_result_answering_the_dropped_call_is_named(target: str) -> None:
    results = [_CUSTOM_RESULT, {"role": "tool", "tool_call_id": "call_1", "content": "again"}]
    body, losses = _convert(_request([_CUSTOM_CALL, _FUNCTION_CALL], [*results, _FUNCTION_RESULT]), target)
    assert "call_1" not in json.dumps(body)
    (named,) = [loss for loss in losses if "call_1" in loss.what]
    assert "($.messages[2], $.messages[3])" in named.what  # each tool message of the input


@pytest.mark.parametrize("target", _TARGETS)
def test_a_custom_call_nothing_answers_is_still_reported_by_the_encoder(target: str) -> None:
    payload = _request([_CUSTOM_CALL, _FUNCTION_CALL], [_FUNCTION_RESULT])
    body, losses = _convert(payload, target)
    assert "call_1" not in json.dumps(body)
    assert [loss.path for loss in losses if loss.path.startswith("$.messages[1]")] == ["$.messages[1].tool_calls[0]"]
    assert "call_2" in json.dumps(body)


def test_a_custom_tool_call_keeps_its_type_within_openai_chat() -> None:
    payload = _request([_CUSTOM_CALL, _FUNCTION_CALL], [_CUSTOM_RESULT, _FUNCTION_RESULT])
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(
        "openai-chat", chatcodec.decode_request("openai-chat", payload), on_loss="ignore", losses=losses
    )
    assert body["messages"] == payload["messages"]
    assert body["tools"] == payload["tools"]
    assert not losses


@pytest.mark.parametrize("target", _TARGETS)
def test_encoding_a_decoded_request_drops_the_custom_call_with_one_loss(target: str) -> None:
    request = chatcodec.decode_request("openai-chat", _request([_CUSTOM_CALL, _FUNCTION_CALL], [_CUSTOM_RESULT]))
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(target, request, on_loss="ignore", losses=losses)
    assert "call_1" not in json.dumps(body)
    assert len([loss for loss in losses if "call_1" in loss.what]) == 1
