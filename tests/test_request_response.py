"""ChatRequest, ChatResponse and the StreamAccumulator."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec import (
    AssistantMessage,
    ChatRequest,
    ChatResponse,
    StreamAccumulator,
    SystemMessage,
    UserMessage,
)

# --- ChatRequest -----------------------------------------------------------------------


def test_system_convenience_prepends_a_system_message() -> None:
    request = ChatRequest(system="be brief", messages=[{"role": "user", "content": "hi"}])
    assert request.model_dump() == {
        "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}]
    }
    assert request.system == [SystemMessage(content="be brief")]
    assert request.system_text == "be brief"
    assert request.conversation == [UserMessage(content="hi")]
    assert "system" not in request


def test_system_convenience_with_parts_and_no_messages() -> None:
    request = chatcodec.validate_model(ChatRequest, {"system": [{"type": "text", "text": "a"}]})
    assert request.model_dump() == {"messages": [{"role": "system", "content": [{"type": "text", "text": "a"}]}]}
    assert request.conversation == []


def test_system_none_is_ignored() -> None:
    request = ChatRequest(system=None, messages=[{"role": "user", "content": "x"}])
    assert request.system == []
    assert request.system_text == ""
    assert len(request.messages) == 1


def test_leading_system_messages_and_conversation() -> None:
    request = chatcodec.validate_model(
        ChatRequest,
        {
            "system": "one",
            "messages": [
                {"role": "developer", "content": [{"type": "text", "text": "two"}]},
                {"role": "user", "content": "u"},
                {"role": "system", "content": "mid-conversation"},
                {"role": "assistant", "content": "a"},
            ],
        },
    )
    assert [message.role for message in request.system] == ["system", "developer"]
    assert request.system_text == "one\n\ntwo"
    assert [message.role for message in request.conversation] == ["user", "system", "assistant"]


def test_request_messages_get_compat_normalization() -> None:
    request = chatcodec.validate_model(
        ChatRequest,
        {
            "messages": [
                {"role": "assistant", "content": None, "tool_calls": [{"id": "c", "name": "f", "arguments": "{}"}]},
                {"role": "tool", "tool_call_id": "c", "content": "r"},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "d", "content": "s"}]},
            ]
        },
    )
    assert [message.role for message in request.messages] == ["assistant", "tool", "tool"]
    assert isinstance(request.messages[0], AssistantMessage)
    assert request.messages[0].tool_calls[0].id == "c"


_FULL_REQUEST: dict[str, Any] = {
    "model": "some-model",
    "messages": [{"role": "user", "content": "hi"}],
    "tools": [
        {
            "type": "function",
            "name": "get_weather",
            "description": "Weather for a city",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            "strict": True,
            "cache_control": {"type": "ephemeral"},
        }
    ],
    "provider_tools": [{"type": "opaque", "provider": "anthropic", "data": {"type": "web_search_20250305"}}],
    "tool_choice": {"type": "tool", "name": "get_weather"},
    "parallel_tool_calls": False,
    "max_tokens": 256,
    "stop": ["END", "\n\n"],
    "temperature": 0.2,
    "top_p": 0.9,
    "top_k": 40,
    "frequency_penalty": 0.1,
    "presence_penalty": -0.1,
    "seed": 7,
    "reasoning": {
        "enabled": True,
        "effort": "high",
        "budget_tokens": 1024,
        "summary": "auto",
        "include_thoughts": True,
    },
    "response_format": {
        "type": "json_schema",
        "name": "answer",
        "description": "The answer",
        "json_schema": {"type": "object"},
        "strict": True,
    },
    "stream": True,
    "cache_control": {"type": "ephemeral", "ttl": "1h"},
    "metadata": {"user_id": "u1"},
    "provider_options": {"anthropic": {"betas": ["x"]}, "openai-chat": {"store": False}},
}


def test_full_request_round_trips() -> None:
    request = chatcodec.validate_model(ChatRequest, _FULL_REQUEST)
    assert request.model_dump(mode="json") == _FULL_REQUEST
    assert chatcodec.validate_model(ChatRequest, request.model_dump_json()) == request
    assert request.tools[0].name == "get_weather"
    assert request.tool_choice == chatcodec.ToolChoice(type="tool", name="get_weather")
    assert request.reasoning is not None
    assert request.reasoning.effort == "high"
    assert request.response_format is not None
    assert request.response_format.json_schema == {"type": "object"}
    assert request.provider_options == {"anthropic": {"betas": ["x"]}, "openai-chat": {"store": False}}


@pytest.mark.parametrize("kind", ["auto", "none", "required"])
def test_tool_choice_kinds_without_name(kind: str) -> None:
    assert chatcodec.ToolChoice(type=kind).model_dump() == {"type": kind}


def test_tool_definition_default_parameters() -> None:
    tool = chatcodec.ToolDefinition(name="f")
    assert tool.parameters == {"type": "object", "properties": {}}
    other = chatcodec.ToolDefinition(name="g")
    assert tool.parameters is not other.parameters


@pytest.mark.parametrize("effort", ["none", "minimal", "low", "medium", "high", "xhigh", "max"])
def test_reasoning_effort_levels(effort: str) -> None:
    assert chatcodec.ReasoningConfig(effort=effort).model_dump() == {"effort": effort}


@pytest.mark.parametrize("kind", ["text", "json_object"])
def test_response_format_kinds(kind: str) -> None:
    assert chatcodec.ResponseFormat(type=kind).model_dump() == {"type": kind}


# --- ChatResponse ----------------------------------------------------------------------


def test_message_convenience_builds_one_choice() -> None:
    response = ChatResponse(
        id="r1",
        model="m",
        created=123,
        message={"role": "assistant", "content": "hi"},
        finish_reason={"unified": "stop", "raw": "end_turn"},
        usage={"input_tokens": 3, "output_tokens": 4, "cache_read_tokens": 1, "reasoning_tokens": 2},
        provider_metadata={"openai-chat": {"system_fingerprint": "fp"}},
    )
    assert response.model_dump() == {
        "id": "r1",
        "model": "m",
        "created": 123,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "hi"},
                "finish_reason": {"unified": "stop", "raw": "end_turn"},
            }
        ],
        "usage": {"input_tokens": 3, "output_tokens": 4, "cache_read_tokens": 1, "reasoning_tokens": 2},
        "provider_metadata": {"openai-chat": {"system_fingerprint": "fp"}},
    }
    assert response.message == AssistantMessage(content="hi")
    assert response.finish_reason == chatcodec.FinishReason(unified="stop", raw="end_turn")
    assert response.usage is not None
    assert response.usage.total_tokens == 7


def test_message_convenience_without_finish_reason() -> None:
    response = ChatResponse(message={"content": "x"}, finish_reason=None)
    assert response.finish_reason is None
    assert response.model_dump() == {"choices": [{"index": 0, "message": {"role": "assistant", "content": "x"}}]}


def test_several_choices() -> None:
    response = chatcodec.validate_model(
        ChatResponse,
        {
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": "a"}, "finish_reason": {"unified": "length"}},
                {
                    "index": 1,
                    "message": {"role": "assistant", "content": "b"},
                    "finish_reason": {"unified": "content_filter", "raw": "SAFETY"},
                    "provider_metadata": {"openai-chat": {"logprobs": None}},
                },
            ]
        },
    )
    assert [choice.message.text for choice in response.choices] == ["a", "b"]
    assert response.message.text == "a"
    assert response.finish_reason == chatcodec.FinishReason(unified="length")
    assert response.choices[1].finish_reason == chatcodec.FinishReason(unified="content_filter", raw="SAFETY")


@pytest.mark.parametrize(
    "unified", ["stop", "length", "tool_calls", "content_filter", "refusal", "pause", "error", "other"]
)
def test_unified_finish_reasons(unified: str) -> None:
    reason = chatcodec.FinishReason(unified=unified, raw=f"raw-{unified}")
    assert reason.model_dump() == {"unified": unified, "raw": f"raw-{unified}"}


@pytest.mark.parametrize(
    ("usage", "total"),
    [
        ({"input_tokens": 10, "output_tokens": 5}, 15),
        ({"input_tokens": 10}, None),
        ({"output_tokens": 5}, None),
        ({}, None),
    ],
)
def test_usage_total_tokens(usage: dict[str, int], total: int | None) -> None:
    assert chatcodec.Usage(**usage).total_tokens == total


# --- StreamAccumulator -----------------------------------------------------------------


def _events(raw: list[dict[str, Any]]) -> list[chatcodec.AnyStreamEvent]:
    return [chatcodec.STREAM_EVENT_ADAPTER.validate_python(event) for event in raw]


def _accumulate(raw: list[dict[str, Any]], **options: Any) -> ChatResponse:
    accumulator = StreamAccumulator()
    accumulator.extend(_events(raw))
    return accumulator.response(**options)


def test_accumulates_thinking_text_tool_calls_and_parts() -> None:
    response = _accumulate(
        [
            {"type": "response_start", "id": "r1", "model": "m", "created": 5, "provider_metadata": {"p": {"a": 1}}},
            {"type": "thinking_start", "index": 0, "provider": "anthropic", "model": "claude"},
            {"type": "thinking_delta", "index": 0, "delta": "hm"},
            {"type": "thinking_delta", "index": 0, "delta": "m"},
            {"type": "thinking_signature_delta", "index": 0, "delta": "si"},
            {"type": "thinking_signature_delta", "index": 0, "delta": "g=="},
            {"type": "thinking_end", "index": 0},
            {"type": "text_start", "index": 1},
            {"type": "text_delta", "index": 1, "delta": "Hel"},
            {"type": "text_delta", "index": 1, "delta": "lo"},
            {"type": "text_end", "index": 1},
            {"type": "tool_call_start", "index": 2, "id": "c1", "name": "f"},
            {"type": "tool_call_delta", "index": 2, "delta": '{"a"'},
            {"type": "tool_call_delta", "index": 2, "delta": ":1}"},
            {"type": "tool_call_end", "index": 2},
            {"type": "part", "index": 3, "part": {"type": "thinking", "encrypted": "E", "redacted": True}},
            {"type": "finish", "finish_reason": {"unified": "tool_calls", "raw": "tool_use"}},
        ]
    )
    assert response.model_dump() == {
        "id": "r1",
        "model": "m",
        "created": 5,
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": [
                        {
                            "type": "thinking",
                            "text": "hmm",
                            "signature": "sig==",
                            "provider": "anthropic",
                            "model": "claude",
                        },
                        {"type": "text", "text": "Hello"},
                        {"type": "tool_use", "id": "c1", "name": "f", "arguments": '{"a":1}'},
                        {"type": "thinking", "text": "", "encrypted": "E", "redacted": True},
                    ],
                },
                "finish_reason": {"unified": "tool_calls", "raw": "tool_use"},
            }
        ],
        "provider_metadata": {"p": {"a": 1}},
    }
    assert response.message.tool_calls[0].parsed_arguments() == {"a": 1}


def test_thinking_end_carries_encrypted_and_metadata() -> None:
    response = _accumulate(
        [
            {"type": "thinking_start", "index": 0, "provider_metadata": {"openai-responses": {"id": "rs_1"}}},
            {"type": "thinking_delta", "index": 0, "delta": "sum"},
            {
                "type": "thinking_end",
                "index": 0,
                "encrypted": "ENC",
                "provider_metadata": {"openai-responses": {"n": 2}},
            },
        ]
    )
    assert response.message.model_dump()["content"] == [
        {
            "type": "thinking",
            "text": "sum",
            "encrypted": "ENC",
            "provider_metadata": {"openai-responses": {"id": "rs_1", "n": 2}},
        }
    ]


def test_refusal_deltas_start_and_grow_a_refusal_part() -> None:
    response = _accumulate(
        [
            {"type": "refusal_delta", "index": 0, "delta": "I can"},
            {"type": "refusal_delta", "index": 0, "delta": "'t."},
            {"type": "finish", "finish_reason": {"unified": "refusal"}},
        ]
    )
    assert response.message.model_dump()["content"] == [{"type": "refusal", "text": "I can't."}]
    assert response.finish_reason == chatcodec.FinishReason(unified="refusal")


def test_parts_ordered_by_index_not_arrival() -> None:
    response = _accumulate(
        [
            {"type": "text_start", "index": 5},
            {"type": "text_delta", "index": 5, "delta": "second"},
            {"type": "text_start", "index": 2},
            {"type": "text_delta", "index": 2, "delta": "first"},
        ]
    )
    assert [part.text for part in response.message.parts] == ["first", "second"]


def test_unfinished_parts_are_kept() -> None:
    response = _accumulate([{"type": "text_start", "index": 0}, {"type": "text_delta", "index": 0, "delta": "partial"}])
    assert response.message.text == "partial"
    assert response.finish_reason is None


def test_empty_stream_gives_one_empty_choice() -> None:
    response = StreamAccumulator().response()
    assert response.model_dump() == {"choices": [{"index": 0, "message": {"role": "assistant", "content": []}}]}


def test_usage_merges_field_by_field() -> None:
    response = _accumulate(
        [
            {
                "type": "usage",
                "usage": {"input_tokens": 10, "cache_read_tokens": 4, "provider_metadata": {"p": {"x": 1}}},
            },
            {
                "type": "usage",
                "usage": {"output_tokens": 5, "reasoning_tokens": 2, "provider_metadata": {"p": {"y": 2}}},
            },
            {"type": "usage", "usage": {"input_tokens": 11, "provider_metadata": {"q": {"z": 3}}}},
        ]
    )
    assert response.usage is not None
    assert response.usage.model_dump() == {
        "input_tokens": 11,
        "output_tokens": 5,
        "cache_read_tokens": 4,
        "reasoning_tokens": 2,
        "provider_metadata": {"p": {"x": 1, "y": 2}, "q": {"z": 3}},
    }
    assert response.usage.total_tokens == 16


def test_no_usage_events_means_no_usage() -> None:
    assert _accumulate([{"type": "text_start", "index": 0}]).usage is None


def test_accumulates_several_choices() -> None:
    response = _accumulate(
        [
            {"type": "text_start", "index": 0, "choice": 1},
            {"type": "text_delta", "index": 0, "choice": 1, "delta": "B"},
            {"type": "text_start", "index": 0},
            {"type": "text_delta", "index": 0, "delta": "A"},
            {"type": "finish", "choice": 1, "finish_reason": {"unified": "length"}},
            {"type": "finish", "finish_reason": {"unified": "stop"}},
        ]
    )
    assert [(choice.index, choice.message.text) for choice in response.choices] == [(0, "A"), (1, "B")]
    assert [choice.finish_reason.unified for choice in response.choices if choice.finish_reason] == ["stop", "length"]


def test_part_event_metadata_merged_into_part() -> None:
    response = _accumulate(
        [
            {
                "type": "part",
                "index": 0,
                "part": {"type": "text", "text": "x", "provider_metadata": {"p": {"a": 1}}},
                "provider_metadata": {"p": {"b": 2}},
            },
            {"type": "finish", "finish_reason": {"unified": "stop"}, "provider_metadata": {"p": {"c": 3}}},
        ]
    )
    assert response.message.parts[0].provider_metadata == {"p": {"a": 1, "b": 2}}
    assert response.provider_metadata == {"p": {"c": 3}}


def test_add_one_event_at_a_time() -> None:
    accumulator = StreamAccumulator()
    for event in _events([{"type": "text_start", "index": 0}, {"type": "text_delta", "index": 0, "delta": "hi"}]):
        accumulator.add(event)
    assert accumulator.response().message.text == "hi"
    assert accumulator.response().message.text == "hi"  # response() can be called again


_TEXT_START = {"type": "text_start", "index": 0}
_TEXT_END = {"type": "text_end", "index": 0}
_TEXT_DELTA = {"type": "text_delta", "index": 0, "delta": "x"}
_CALL_START = {"type": "tool_call_start", "index": 0, "id": "a", "name": "f"}
_THINK_START = {"type": "thinking_start", "index": 0}
_THINK_END = {"type": "thinking_end", "index": 0}

_OUT_OF_ORDER: list[tuple[str, list[dict[str, Any]], int, str]] = [
    ("delta before start", [_TEXT_DELTA], 0, "never started"),
    ("end before start", [_TEXT_END], 0, "never started"),
    ("start twice", [_TEXT_START, _TEXT_START], 1, "already started"),
    ("tool call start twice", [_CALL_START, {**_CALL_START, "id": "b"}], 1, "already started"),
    ("delta after end", [_TEXT_START, _TEXT_END, _TEXT_DELTA], 2, "already ended"),
    ("end twice", [_THINK_START, _THINK_END, _THINK_END], 2, "already ended"),
    ("wrong kind of delta", [_TEXT_START, {**_TEXT_DELTA, "type": "thinking_delta"}], 1, "which is a text part"),
    (
        "signature on a tool call",
        [_CALL_START, {**_TEXT_DELTA, "type": "thinking_signature_delta"}],
        1,
        "which is a tool_use part",
    ),
    ("refusal into a text part", [_TEXT_START, {**_TEXT_DELTA, "type": "refusal_delta"}], 1, "which is a text part"),
    (
        "whole part over a started one",
        [_TEXT_START, {"type": "part", "index": 0, "part": {"type": "text", "text": "x"}}],
        1,
        "already started",
    ),
    ("delta for another choice", [_TEXT_START, {**_TEXT_DELTA, "choice": 1}], 1, "never started"),
]


@pytest.mark.parametrize(
    ("raw", "event_index", "message"),
    [case[1:] for case in _OUT_OF_ORDER],
    ids=[case[0] for case in _OUT_OF_ORDER],
)
def test_out_of_order_events_raise_stream_error(raw: list[dict[str, Any]], event_index: int, message: str) -> None:
    accumulator = StreamAccumulator()
    events = _events(raw)
    for event in events[:-1]:
        accumulator.add(event)
    with pytest.raises(chatcodec.StreamError) as info:
        accumulator.add(events[-1])
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, chatcodec.ChatcodecError)
    assert info.value.event_index == event_index
    assert message in str(info.value)
    assert f"event {event_index}" in str(info.value)


def test_error_event_raises_provider_api_error() -> None:
    accumulator = StreamAccumulator()
    accumulator.extend(
        _events(
            [
                {"type": "text_start", "index": 0},
                {"type": "text_delta", "index": 0, "delta": "so far"},
                {"type": "error", "message": "Overloaded", "error_type": "overloaded_error", "body": {"type": "error"}},
            ]
        )
    )
    with pytest.raises(chatcodec.ProviderAPIError) as info:
        accumulator.response()
    assert isinstance(info.value, chatcodec.ChatcodecError)
    assert str(info.value) == "overloaded_error: Overloaded"
    assert info.value.error_type == "overloaded_error"
    assert info.value.body == {"type": "error"}
    assert [error.message for error in accumulator.errors] == ["Overloaded"]
    assert accumulator.response(allow_errors=True).message.text == "so far"


def test_error_event_without_type() -> None:
    accumulator = StreamAccumulator()
    accumulator.add(chatcodec.ErrorEvent(message="boom"))
    with pytest.raises(chatcodec.ProviderAPIError) as info:
        accumulator.response()
    assert str(info.value) == "boom"
    assert info.value.error_type is None
