"""Custom (freeform) tool calls: OpenAI's tools whose call carries free text, not a JSON
object (Chat ``{"type": "custom", "custom": {"name", "input"}}``, Responses
``custom_tool_call`` / ``custom_tool_call_output``, their streams' ``custom.input``
fragments and ``response.custom_tool_call_input.*`` events). Canonically a ``tool_use``
part of ``kind: custom``: OpenAI Chat and the Responses API carry it exactly; the other
formats have no freeform call, so they drop it (with its results), reported, and an
answer whose only call was dropped finishes with ``stop``, not ``tool_use``."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec.streams._replay import events_from_response
from providers.openai_responses.responses_support import assert_request_matches_sdk, assert_stream_matches_sdk

CHAT = "openai-chat"
RESPONSES = "openai-responses"
WITHOUT_FREEFORM = ["anthropic", "gemini", "bedrock-converse", "ollama"]

CUSTOM_CALL = {"id": "call_1", "type": "custom", "custom": {"name": "code_exec", "input": "print(1)"}}
FUNCTION_CALL = {"id": "call_2", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}


def _chat_request(*calls: dict[str, Any], results: bool = True) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "run it"},
        {"role": "assistant", "content": None, "tool_calls": list(calls)},
    ]
    if results:
        messages += [{"role": "tool", "tool_call_id": call["id"], "content": "1"} for call in calls]
    return {"model": "gpt-5", "messages": messages}


def _chat_response(*calls: dict[str, Any]) -> dict[str, Any]:
    message = {"role": "assistant", "content": None, "tool_calls": list(calls)}
    choice = {"index": 0, "message": message, "finish_reason": "tool_calls"}
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-5", "choices": [choice]}


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-5", "choices": [choice]}


CHAT_STREAM = [
    _chunk({"role": "assistant", "content": None}),
    _chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "custom", "custom": {"name": "sh", "input": "ls"}}]}),
    _chunk({"tool_calls": [{"index": 0, "custom": {"input": " -l"}}]}),
    _chunk({}, "tool_calls"),
]


# --- reading ---------------------------------------------------------------------------------


def test_an_openai_chat_custom_call_reads_as_a_tool_use_of_kind_custom() -> None:
    request = chatcodec.decode_request(CHAT, _chat_request(CUSTOM_CALL, FUNCTION_CALL))
    custom, function = request.messages[1].content  # type: ignore[misc]
    assert isinstance(custom, chatcodec.ToolUsePart)
    assert (custom.kind, custom.id, custom.name, custom.arguments) == ("custom", "call_1", "code_exec", "print(1)")
    assert function.kind == "function"
    response = chatcodec.decode_response(CHAT, _chat_response(CUSTOM_CALL))
    assert response.choices[0].message.content[0].kind == "custom"  # type: ignore[index, union-attr]


def test_validate_messages_takes_the_nested_custom_call_convert_request_round_trips() -> None:
    message = {"role": "assistant", "content": None, "tool_calls": [CUSTOM_CALL]}
    (read,) = chatcodec.validate_messages([message])
    (call,) = read.content  # type: ignore[misc]
    assert isinstance(call, chatcodec.ToolUsePart)
    assert (call.kind, call.name, call.arguments) == ("custom", "code_exec", "print(1)")
    body = chatcodec.encode_request(CHAT, chatcodec.ChatRequest(model="m", messages=[read]), on_loss="error")
    assert body["messages"] == [{"role": "assistant", "content": None, "tool_calls": [CUSTOM_CALL]}]


@pytest.mark.parametrize("text_key", ["arguments", "input"])
def test_a_flat_custom_call_keeps_its_type(text_key: str) -> None:
    call = {"id": "call_1", "type": "custom", "name": "code_exec", text_key: "print(1)"}
    (read,) = chatcodec.validate_messages([{"role": "assistant", "content": "", "tool_calls": [call]}])
    (part,) = read.content  # type: ignore[misc]
    assert (part.kind, part.arguments) == ("custom", "print(1)")  # type: ignore[union-attr]


def test_a_custom_calls_input_is_no_keyword_arguments() -> None:
    call = chatcodec.ToolUsePart(id="c", name="sh", arguments='{"a": 1}', kind="custom")
    with pytest.raises(chatcodec.ToolArgumentsError, match="free text"):
        call.keyword_arguments()
    assert not call.arguments_are_valid_json
    assert call.model_dump()["kind"] == "custom"
    assert "kind" not in chatcodec.ToolUsePart(id="c", name="f").model_dump()  # a function call's is left out


# --- OpenAI Chat <-> the Responses API ------------------------------------------------------


def test_a_chat_custom_call_and_its_result_become_responses_custom_items() -> None:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        _chat_request(CUSTOM_CALL, FUNCTION_CALL), source=CHAT, target=RESPONSES, on_loss="ignore", losses=losses
    )
    assert_request_matches_sdk(body)
    assert body["input"][1:] == [
        {"type": "custom_tool_call", "call_id": "call_1", "name": "code_exec", "input": "print(1)"},
        {"type": "function_call", "call_id": "call_2", "name": "lookup", "arguments": "{}"},
        {"type": "custom_tool_call_output", "call_id": "call_1", "output": "1"},
        {"type": "function_call_output", "call_id": "call_2", "output": "1"},
    ]
    assert not losses


def test_a_responses_custom_call_becomes_a_chat_custom_call_and_comes_back_exactly() -> None:
    items = [
        {"role": "user", "content": "run it"},
        {"type": "custom_tool_call", "call_id": "call_1", "name": "code_exec", "input": "print(1)"},
        {"type": "custom_tool_call_output", "call_id": "call_1", "output": "1"},
    ]
    payload = {"model": "gpt-5", "input": items}
    losses: list[chatcodec.Loss] = []
    chat = chatcodec.convert_request(payload, source=RESPONSES, target=CHAT, on_loss="ignore", losses=losses)
    assert chat["messages"][1]["tool_calls"] == [CUSTOM_CALL]
    back = chatcodec.convert_request(chat, source=CHAT, target=RESPONSES, on_loss="ignore", losses=losses)
    assert back == payload
    assert not losses


def test_a_responses_custom_output_without_its_call_keeps_its_type() -> None:
    """A chain through ``previous_response_id`` sends the output alone: its type is all that
    says it answers a custom call."""
    payload = {
        "model": "gpt-5",
        "previous_response_id": "resp_1",
        "input": [{"type": "custom_tool_call_output", "call_id": "call_1", "output": "1"}],
    }
    request = chatcodec.decode_request(RESPONSES, payload)
    assert chatcodec.encode_request(RESPONSES, request, on_loss="error") == payload


def test_a_chat_custom_call_stream_becomes_responses_custom_tool_call_events() -> None:
    events = list(chatcodec.decode_stream(CHAT, CHAT_STREAM))
    written = list(chatcodec.encode_stream(RESPONSES, events, on_loss="ignore"))
    assert_stream_matches_sdk(written)
    kinds = [event["type"] for event in written]
    assert "response.custom_tool_call_input.delta" in kinds
    (done,) = [event for event in written if event["type"] == "response.custom_tool_call_input.done"]
    assert done["input"] == "ls -l"
    (call,) = chatcodec.accumulate_stream(RESPONSES, written).choices[0].message.content  # type: ignore[misc]
    assert (call.kind, call.name, call.arguments) == ("custom", "sh", "ls -l")  # type: ignore[union-attr]


def test_a_responses_custom_call_stream_becomes_chat_custom_fragments() -> None:
    response = chatcodec.decode_response(CHAT, _chat_response(CUSTOM_CALL))
    responses_stream = list(
        chatcodec.encode_stream(RESPONSES, events_from_response(response, split=lambda text: [text[:3], text[3:]]))
    )
    events = list(chatcodec.decode_stream(RESPONSES, responses_stream))
    (start,) = [event for event in events if isinstance(event, chatcodec.ToolCallStartEvent)]
    assert start.kind == "custom"
    chunks = list(chatcodec.encode_stream(CHAT, events, on_loss="ignore"))
    fragments = [
        call for chunk in chunks for choice in chunk["choices"] for call in choice["delta"].get("tool_calls", [])
    ]
    assert fragments[0]["type"] == "custom"
    assert all("function" not in fragment for fragment in fragments)
    (call,) = chatcodec.accumulate_stream(CHAT, chunks).choices[0].message.content  # type: ignore[misc]
    assert (call.kind, call.arguments) == ("custom", "print(1)")  # type: ignore[union-attr]


# --- formats without freeform calls -----------------------------------------------------------


@pytest.mark.parametrize("target", WITHOUT_FREEFORM)
def test_an_unanswered_custom_call_is_dropped_with_a_loss(target: str) -> None:
    losses: list[chatcodec.Loss] = []
    payload = {**_chat_request(CUSTOM_CALL, FUNCTION_CALL, results=False), "max_tokens": 64}
    body = chatcodec.convert_request(payload, source=CHAT, target=target, on_loss="ignore", losses=losses)
    assert "print(1)" not in str(body)
    assert "call_2" in str(body)
    assert [loss.path for loss in losses if loss.what == "custom tool call 'call_1'"] == ["$.messages[1].tool_calls[0]"]


@pytest.mark.parametrize("target", WITHOUT_FREEFORM)
def test_a_response_holding_only_a_custom_call_does_not_finish_with_tool_use(target: str) -> None:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_response(
        _chat_response(CUSTOM_CALL), source=CHAT, target=target, on_loss="ignore", losses=losses
    )
    assert "print(1)" not in str(body)
    assert "tool_use" not in str(body)
    assert [loss.path for loss in losses if "custom tool call" in loss.what] == ["$.choices[0].message.content[0]"]
    finish = chatcodec.decode_response(target, body).choices[0].finish_reason
    assert finish is not None
    assert finish.unified == "stop"


@pytest.mark.parametrize("target", WITHOUT_FREEFORM)
def test_a_response_with_a_function_call_beside_the_dropped_one_still_says_tool_calls(target: str) -> None:
    body = chatcodec.convert_response(
        _chat_response(CUSTOM_CALL, FUNCTION_CALL), source=CHAT, target=target, on_loss="ignore"
    )
    response = chatcodec.decode_response(target, body)
    assert response.choices[0].finish_reason.unified == "tool_calls"  # type: ignore[union-attr]
    assert [part.name for part in response.choices[0].message.content] == ["lookup"]  # type: ignore[union-attr]


@pytest.mark.parametrize("target", WITHOUT_FREEFORM)
def test_a_stream_holding_only_a_custom_call_does_not_finish_with_tool_use(target: str) -> None:
    losses: list[chatcodec.Loss] = []
    events = chatcodec.decode_stream(CHAT, CHAT_STREAM)
    written = list(chatcodec.encode_stream(target, events, on_loss="ignore", losses=losses))
    response = chatcodec.accumulate_stream(target, written)
    assert response.choices[0].finish_reason.unified == "stop"  # type: ignore[union-attr]
    assert not [part for part in response.choices[0].message.content if part.type == "tool_use"]
    assert [loss.what for loss in losses if "custom" in loss.what] == ["custom tool call 'call_1'"]


@pytest.mark.parametrize("target", WITHOUT_FREEFORM)
def test_a_custom_call_answered_only_before_it_is_dropped_too(target: str) -> None:
    """A result before its call answers nothing: the call is still never sent as a
    function call."""
    payload = _chat_request(CUSTOM_CALL, results=False)
    payload["messages"].insert(1, {"role": "tool", "tool_call_id": "call_1", "content": "early"})
    body = chatcodec.convert_request({**payload, "max_tokens": 64}, source=CHAT, target=target, on_loss="ignore")
    assert "print(1)" not in str(body)
