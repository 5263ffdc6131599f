"""Encode rules that hold across providers: tool arguments that are not a JSON object,
blank tool names and the developer role, unknown null fields. Each encoded body is checked
by the provider's SDK oracle."""

from __future__ import annotations

import json
from typing import Any

import pytest
from anthropic.types import MessageCreateParams

import chatcodec
from providers.bedrock_converse.bedrock_support import assert_valid_request as assert_valid_bedrock
from sdk_oracle import assert_matches

ANTHROPIC = "anthropic"
BEDROCK = "bedrock-converse"


def _history(arguments: str) -> chatcodec.ChatRequest:
    call = {"type": "tool_use", "id": "call_1", "name": "lookup", "arguments": arguments}
    result = {"type": "tool_result", "tool_use_id": "call_1", "content": "ok"}
    messages = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [call]},
        {"role": "tool", "content": [result]},
    ]
    return chatcodec.validate_model(chatcodec.ChatRequest, {"messages": messages, "model": "claude-x", "max_tokens": 9})


def _encoded_input(target: str, arguments: str) -> tuple[Any, list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(target, _history(arguments), on_loss="ignore", losses=losses)
    text = json.dumps(body, allow_nan=False)  # what goes on the wire must be JSON
    if target == ANTHROPIC:
        assert_matches(body, MessageCreateParams)
        return json.loads(text)["messages"][1]["content"][0]["input"], losses
    assert_valid_bedrock(body)
    return json.loads(text)["messages"][1]["content"][0]["toolUse"]["input"], losses


@pytest.mark.parametrize("target", [ANTHROPIC, BEDROCK])
@pytest.mark.parametrize("arguments", ['["a", "b"]', '"Paris"', "42", "null", '{"city": "Par'])
def test_arguments_that_are_not_an_object_are_wrapped_not_sent_as_empty(target: str, arguments: str) -> None:
    sent, losses = _encoded_input(target, arguments)
    assert sent == {"INVALID_JSON": arguments}
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[1].content[0].arguments", "tool arguments")]


@pytest.mark.parametrize("target", [ANTHROPIC, BEDROCK])
@pytest.mark.parametrize(("arguments", "expected"), [("", {}), ("  ", {}), ('{"city": "Paris"}', {"city": "Paris"})])
def test_empty_arguments_and_objects_are_sent_without_a_loss(
    target: str, arguments: str, expected: dict[str, Any]
) -> None:
    sent, losses = _encoded_input(target, arguments)
    assert sent == expected
    assert losses == []


@pytest.mark.parametrize("target", [ANTHROPIC, BEDROCK])
@pytest.mark.parametrize("arguments", ['{"x": 1e400}', '{"x": [-1e999]}'])
def test_a_number_past_a_double_never_reaches_the_wire_as_infinity(target: str, arguments: str) -> None:
    sent, losses = _encoded_input(target, arguments)  # json.dumps(allow_nan=False) would raise on Infinity
    assert sent == {"INVALID_JSON": arguments}
    assert len(losses) == 1


def test_an_anthropic_response_with_such_arguments_is_json_too() -> None:
    response = chatcodec.decode_response(
        "openai-chat",
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": '{"x": 1e400}'}}
                        ],
                    },
                }
            ],
        },
    )
    body = chatcodec.encode_response(ANTHROPIC, response, on_loss="ignore")
    assert "Infinity" not in json.dumps(body, allow_nan=False)


# --- blank tool names and the developer role ---------------------------------------------------


def _blank_name_response() -> chatcodec.ChatResponse:
    return chatcodec.decode_response(
        ANTHROPIC,
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-x",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "", "input": {}}],
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        },
    )


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses"])
def test_a_blank_tool_name_is_never_forwarded_to_openai_without_a_loss(target: str) -> None:
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_response(target, _blank_name_response(), on_loss="ignore", losses=losses)
    assert "blank tool name" in [loss.what for loss in losses]


@pytest.mark.parametrize("target", [ANTHROPIC, "gemini", BEDROCK])
def test_the_developer_role_is_not_turned_into_system_without_a_loss(target: str) -> None:
    request = chatcodec.validate_model(
        chatcodec.ChatRequest,
        {"messages": [{"role": "developer", "content": "be brief"}, {"role": "user", "content": "q"}], "max_tokens": 5},
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(target, request, on_loss="ignore", losses=losses)
    assert chatcodec.decode_request(target, body).messages[0].role == "system"
    content_losses = [(loss.path, loss.what) for loss in losses if loss.kind != "required"]  # no model given
    assert content_losses == [("$.messages[0].role", "developer role")]


# --- unknown null fields -----------------------------------------------------------------------


def _assistant_text_with_a_null(source: str) -> chatcodec.ChatRequest:
    if source == ANTHROPIC:
        text = {"type": "text", "text": "hi", "foo": None, "citations": None}
        body: dict[str, Any] = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "q"}]}
        body["messages"].append({"role": "assistant", "content": [text]})
    else:
        text = {"type": "output_text", "text": "hi", "annotations": [], "foo": None}
        item = {"type": "message", "role": "assistant", "id": "msg_1", "content": [text]}
        body = {"model": "m", "input": [{"role": "user", "content": "q"}, item]}
    request = chatcodec.decode_request(source, body)
    assert chatcodec.encode_request(source, request, on_loss="error") == body  # its own round trip stays exact
    return request


_FORMATS = ["openai-chat", "gemini", BEDROCK, ANTHROPIC, "openai-responses"]


@pytest.mark.parametrize(
    ("source", "target"),
    [(source, target) for source in (ANTHROPIC, "openai-responses") for target in _FORMATS if target != source],
)
def test_an_unknown_null_key_on_an_assistant_text_block_is_not_dropped_silently(source: str, target: str) -> None:
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_request(target, _assistant_text_with_a_null(source), on_loss="ignore", losses=losses)
    assert any("foo" in loss.what for loss in losses)


def test_an_unknown_null_key_on_a_streamed_anthropic_text_block_reads_as_in_a_response() -> None:
    """The stream decoder keeps an unknown ``null`` as data too, so a streamed answer equals
    the same answer not streamed (found by the stream property test after the fix)."""
    block = {"type": "text", "text": "hi", "foo": None}
    body = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-x",
        "content": [block],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    stream = [
        {"type": "message_start", "message": {**body, "content": [], "stop_reason": None}},
        {"type": "content_block_start", "index": 0, "content_block": {**block, "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hi"}},
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": 1},
        },
        {"type": "message_stop"},
    ]
    streamed = chatcodec.accumulate_stream(ANTHROPIC, stream).message.parts[0]
    assert streamed.provider_metadata == chatcodec.decode_response(ANTHROPIC, body).message.parts[0].provider_metadata
    assert streamed.provider_metadata == {ANTHROPIC: {"foo": None}}


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses", "gemini", BEDROCK])
def test_a_blank_tool_name_in_a_request_is_sent_fitted_and_reported_not_refused(target: str) -> None:
    anthropic = {
        "model": "claude-x",
        "max_tokens": 5,
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]},
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(anthropic, source=ANTHROPIC, target=target, on_loss="ignore", losses=losses)
    messages = chatcodec.decode_request(target, body).messages
    calls = [call for message in messages if message.role == "assistant" for call in message.tool_calls or []]
    assert [call.name.strip() != "" for call in calls] == [True]
    assert [(loss.path, loss.what) for loss in losses if loss.path.endswith("name")] == [
        ("$.messages[1].content[0].name", "blank tool name")
    ]
