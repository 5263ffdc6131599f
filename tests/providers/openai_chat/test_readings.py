"""Readings chatcodec used to refuse or misread: what OpenAI-format
traffic from OpenRouter, litellm and older OpenAI clients looks like, read and written back."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec import StreamError

FORMAT = "openai-chat"


def chunk(*choices: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": list(choices),
        **fields,
    }


def delta(finish_reason: str | None = None, **fields: Any) -> dict[str, Any]:
    return {"index": 0, "delta": fields, "finish_reason": finish_reason}


USAGE = {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}


# --- benign repetitions in a stream --------------------------------------------------------


def test_finish_reason_repeated_on_trailing_usage_chunk_streams_fine() -> None:
    stream = [
        chunk(delta(role="assistant", content="Hi")),
        chunk({**delta("stop", role="assistant", content="!"), "native_finish_reason": "stop"}),
        chunk({**delta("stop", role="assistant", content=""), "native_finish_reason": "stop"}, usage=USAGE),
    ]
    response = chatcodec.accumulate_stream(FORMAT, stream)
    dumped = response.model_dump(mode="json", exclude_none=True)
    assert dumped["choices"][0]["message"]["content"] == [{"type": "text", "text": "Hi!"}]
    assert dumped["choices"][0]["finish_reason"] == {"unified": "stop", "raw": "stop"}
    assert dumped["usage"] == {"input_tokens": 3, "output_tokens": 2}
    events = list(chatcodec.decode_stream(FORMAT, stream))
    assert [event.type for event in events].count("finish") == 1
    accumulator = chatcodec.StreamAccumulator()
    accumulator.extend(events)
    assert accumulator.response() == response


def test_same_role_id_and_model_again_stream_fine() -> None:
    stream = [
        chunk(delta(role="assistant", content="a")),
        chunk(delta(role="assistant", content="b")),
        chunk(delta("stop", role="assistant")),
    ]
    response = chatcodec.accumulate_stream(FORMAT, stream)
    assert (response.id, response.model) == ("c1", "m")
    assert response.model_dump(mode="json")["choices"][0]["message"]["content"] == [{"type": "text", "text": "ab"}]


def test_new_choice_fields_on_a_repeated_finish_are_kept() -> None:
    stream = [chunk(delta("stop", content="a")), chunk({**delta("stop"), "native_finish_reason": "end_turn"})]
    response = chatcodec.accumulate_stream(FORMAT, stream)
    assert response.choices[0].provider_metadata == {FORMAT: {"native_finish_reason": "end_turn"}}


@pytest.mark.parametrize(
    ("stream", "message"),
    [
        (
            [chunk(delta("stop", content="a")), chunk(delta("length"), usage=USAGE)],
            "$.choices[0].finish_reason: choice 0 finished again with 'length' after 'stop'",
        ),
        (
            [chunk(delta("stop", content="a")), chunk(delta("stop", content="more"))],
            "$.choices[0].delta: choice 0 continues after its finish_reason",
        ),
        (
            [chunk(delta(role="assistant", content="a")), chunk(delta(role="user", content="b"))],
            "$.choices[0].delta.role: choice 0 changed its role from 'assistant' to 'user'",
        ),
    ],
)
def test_conflicting_repetition_is_still_an_error(stream: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(StreamError) as accumulated:
        chatcodec.accumulate_stream(FORMAT, stream)
    with pytest.raises(StreamError) as decoded:
        list(chatcodec.decode_stream(FORMAT, stream))
    assert message in str(accumulated.value)
    assert str(accumulated.value) == str(decoded.value)


# --- cache_control in OpenAI-format requests (OpenRouter, litellm) -------------------------

EPHEMERAL = {"type": "ephemeral"}

CACHED_REQUEST: dict[str, Any] = {
    "model": "anthropic/claude-sonnet-4.5",
    "messages": [
        {
            "role": "system",
            "content": [
                {"type": "text", "text": "You are terse."},
                {"type": "text", "text": "<long document>", "cache_control": {"type": "ephemeral", "ttl": "1h"}},
            ],
        },
        {"role": "user", "content": "Summarise it.", "cache_control": EPHEMERAL},
        {
            "role": "assistant",
            "content": "Calling.",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "lookup", "arguments": "{}"},
                    "cache_control": EPHEMERAL,
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "found", "cache_control": EPHEMERAL},
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}, "cache_control": EPHEMERAL},
                {"type": "text", "text": "And this?"},
            ],
        },
    ],
    "tools": [
        {
            "type": "function",
            "function": {"name": "lookup", "parameters": {"type": "object"}},
            "cache_control": EPHEMERAL,
        }
    ],
}


def test_cache_control_on_openai_parts_and_messages_round_trips_exactly() -> None:
    request = chatcodec.decode_request(FORMAT, CACHED_REQUEST)
    system, user, assistant, tool, last = request.messages
    assert system.content[1].cache_control == chatcodec.CacheControl(ttl="1h")  # type: ignore[index, union-attr]
    assert user.cache_control == chatcodec.CacheControl()
    assert user.content == "Summarise it."
    assert assistant.content[1].cache_control == chatcodec.CacheControl()  # type: ignore[index, union-attr]
    assert tool.content[0].cache_control == chatcodec.CacheControl()  # type: ignore[index, union-attr]
    assert last.content[0].cache_control == chatcodec.CacheControl()  # type: ignore[index, union-attr]
    assert request.tools[0].cache_control == chatcodec.CacheControl()
    losses: list[chatcodec.Loss] = []
    assert chatcodec.encode_request(FORMAT, request, on_loss="error", losses=losses) == CACHED_REQUEST
    assert losses == []


def test_cache_control_from_openai_format_reaches_anthropic() -> None:
    payload = copy.deepcopy(CACHED_REQUEST)
    del payload["tools"][0]["cache_control"]  # Anthropic takes four breakpoints
    del payload["messages"][4]["content"][0]["cache_control"]
    losses: list[chatcodec.Loss] = []
    anthropic = chatcodec.convert_request(payload, source=FORMAT, target="anthropic", on_loss="ignore", losses=losses)
    # every breakpoint reaches Anthropic; what is reported is only the gateway spelling,
    # which a trip back to OpenAI Chat would write as prompt_cache_breakpoint
    cache_losses = [loss for loss in losses if "cache" in loss.path or "cache" in loss.what]
    assert {loss.what for loss in cache_losses} == {'openai-chat spelling _cache="cache_control"'}
    assert [loss.path for loss in cache_losses] == [
        "$.messages[0].content[1]",
        "$.messages[1]",
        "$.messages[2].tool_calls[0]",  # the input's places: the call, the tool message
        "$.messages[3]",
    ]
    assert anthropic["system"][1]["cache_control"] == {"type": "ephemeral", "ttl": "1h"}
    user, assistant, results = anthropic["messages"][:3]
    # the message-level marker lands on the message's last (here: only) block
    assert user["content"] == [{"type": "text", "text": "Summarise it.", "cache_control": EPHEMERAL}]
    assert assistant["content"][1]["cache_control"] == EPHEMERAL
    assert results["content"][0] == {
        "type": "tool_result",
        "tool_use_id": "call_1",
        "content": "found",
        "cache_control": EPHEMERAL,
    }


def test_cache_control_from_anthropic_keeps_openai_own_spelling() -> None:
    anthropic = {
        "model": "claude",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi", "cache_control": EPHEMERAL}]}],
    }
    openai = chatcodec.convert_request(anthropic, source="anthropic", target=FORMAT, on_loss="error")
    part = openai["messages"][0]["content"][0]
    assert part == {"type": "text", "text": "hi", "prompt_cache_breakpoint": {"mode": "explicit"}}


def test_cache_control_of_another_shape_stays_as_it_is() -> None:
    odd = {"type": "persistent", "scope": "org"}
    payload = {"model": "m", "messages": [{"role": "user", "content": "hi", "cache_control": odd}]}
    request = chatcodec.decode_request(FORMAT, payload)
    assert request.messages[0].cache_control is None
    assert chatcodec.encode_request(FORMAT, request, on_loss="error") == payload
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(payload, source=FORMAT, target="anthropic", on_loss="ignore", losses=losses)
    assert any("cache_control" in loss.what for loss in losses)


# --- deprecated function calling, object arguments, custom tool calls ---------------------

LEGACY_REQUEST: dict[str, Any] = {
    "model": "gpt-3.5-turbo-0613",
    "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": None,
            "function_call": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
        },
        {"role": "function", "name": "get_weather", "content": "sunny"},
        {"role": "assistant", "content": "Sunny. And Rome?"},
        {
            "role": "assistant",
            "content": None,
            "function_call": {"name": "get_weather", "arguments": '{"city":"Rome"}'},
        },
        {"role": "function", "name": "get_weather", "content": None},
    ],
}


def test_function_role_and_function_call_decode_to_tool_use_and_result() -> None:
    request = chatcodec.decode_request(FORMAT, LEGACY_REQUEST)
    calls = [part for message in request.messages if message.role == "assistant" for part in message.content]
    uses = [part for part in calls if isinstance(part, chatcodec.ToolUsePart)]
    results = [part for message in request.messages if message.role == "tool" for part in message.content]
    assert [(use.id, use.name, use.arguments) for use in uses] == [
        ("function_call_0", "get_weather", '{"city":"Paris"}'),
        ("function_call_1", "get_weather", '{"city":"Rome"}'),
    ]
    assert [(result.tool_use_id, result.name, result.content) for result in results] == [  # type: ignore[union-attr]
        ("function_call_0", "get_weather", "sunny"),
        ("function_call_1", "get_weather", ""),
    ]
    losses: list[chatcodec.Loss] = []
    assert chatcodec.encode_request(FORMAT, request, on_loss="error", losses=losses) == LEGACY_REQUEST
    assert losses == []


def test_function_calls_reach_anthropic_as_paired_tool_use() -> None:
    losses: list[chatcodec.Loss] = []
    payload = {**LEGACY_REQUEST, "max_tokens": 50}
    anthropic = chatcodec.convert_request(payload, source=FORMAT, target="anthropic", on_loss="ignore", losses=losses)
    assert anthropic["messages"][1] == {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "function_call_0", "name": "get_weather", "input": {"city": "Paris"}}],
    }
    assert anthropic["messages"][2]["content"][0] == {
        "type": "tool_result",
        "tool_use_id": "function_call_0",
        "content": "sunny",
    }
    assert [loss for loss in losses if "messages" in loss.path] == []


def test_legacy_function_call_in_a_response_round_trips() -> None:
    response = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-3.5-turbo-0613",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": None, "function_call": {"name": "f", "arguments": "{}"}},
                "finish_reason": "function_call",
            }
        ],
    }
    decoded = chatcodec.decode_response(FORMAT, response)
    part = decoded.choices[0].message.content[0]  # type: ignore[index]
    assert isinstance(part, chatcodec.ToolUsePart)
    assert chatcodec.encode_response(FORMAT, decoded, on_loss="error") == response


def test_arguments_given_as_a_json_object_are_kept_exactly() -> None:
    arguments = {"city": "Zürich", "days": 3, "ratio": 0.5, "big": 12345678901234567890, "tags": ["a"]}
    payload = {
        "model": "m",
        "messages": [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": arguments}}],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
        ],
    }
    request = chatcodec.decode_request(FORMAT, payload)
    call = request.messages[0].content[0]  # type: ignore[index]
    assert isinstance(call, chatcodec.ToolUsePart)
    assert call.parsed_arguments() == arguments
    assert chatcodec.encode_request(FORMAT, request, on_loss="error") == payload
    # to a provider that takes an object: the same object, nothing reported
    losses: list[chatcodec.Loss] = []
    anthropic = chatcodec.convert_request(
        {**payload, "max_tokens": 5}, source=FORMAT, target="anthropic", on_loss="ignore", losses=losses
    )
    assert anthropic["messages"][0]["content"][0]["input"] == arguments
    assert [loss for loss in losses if "arguments" in loss.path] == []
    # an edit that leaves no object behind is written as the text it is
    edited = call.model_copy(update={"arguments": "not json"})
    message = request.messages[0].model_copy(update={"content": [edited]})
    written = chatcodec.encode_request(FORMAT, request.model_copy(update={"messages": [message]}))
    assert written["messages"][0]["tool_calls"][0]["function"]["arguments"] == "not json"


CUSTOM_CALL = {"id": "call_c", "type": "custom", "custom": {"name": "shell", "input": "ls -l"}}


def test_custom_tool_call_in_a_message_is_a_custom_call_and_a_loss_elsewhere() -> None:
    payload = {"model": "m", "messages": [{"role": "assistant", "content": None, "tool_calls": [CUSTOM_CALL]}]}
    request = chatcodec.decode_request(FORMAT, payload)
    (call,) = request.messages[0].content  # type: ignore[misc]
    assert isinstance(call, chatcodec.ToolUsePart)
    assert (call.kind, call.name, call.arguments) == ("custom", "shell", "ls -l")
    assert chatcodec.encode_request(FORMAT, request, on_loss="error") == payload
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(
        {**payload, "max_tokens": 5}, source=FORMAT, target="anthropic", on_loss="ignore", losses=losses
    )
    assert [loss.path for loss in losses if "custom tool call" in loss.what] == ["$.messages[0].tool_calls[0]"]


def test_custom_tool_call_in_a_stream_is_no_function_call() -> None:
    stream = [
        chunk(delta(role="assistant", content="Running.")),
        chunk(
            delta(
                tool_calls=[{"index": 0, "id": "call_c", "type": "custom", "custom": {"name": "shell", "input": "ls"}}]
            )
        ),
        chunk(delta(tool_calls=[{"index": 0, "custom": {"input": " -l"}}])),
        chunk(
            delta(
                tool_calls=[
                    {"index": 1, "id": "call_f", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                ]
            )
        ),
        chunk(delta("tool_calls")),
    ]
    response = chatcodec.accumulate_stream(FORMAT, stream)
    content = response.choices[0].message.content
    assert isinstance(content, list)
    assert [part.type for part in content] == ["text", "tool_use", "tool_use"]
    assert [part.kind for part in content[1:]] == ["custom", "function"]  # type: ignore[union-attr]
    assert content[1].arguments == "ls -l"  # type: ignore[union-attr]
    non_streamed = {
        "id": "c1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": "Running.",
                    "tool_calls": [
                        CUSTOM_CALL,
                        {"id": "call_f", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                    ],
                },
                "finish_reason": "tool_calls",
            }
        ],
    }
    assert chatcodec.decode_response(FORMAT, non_streamed) == response
    # streamed again: one fragment holding the whole call, at its place
    events = list(chatcodec.decode_stream(FORMAT, stream))
    losses: list[chatcodec.Loss] = []
    chunks = list(chatcodec.encode_stream(FORMAT, events, on_loss="error", losses=losses))
    assert chatcodec.accumulate_stream(FORMAT, chunks) == response
    # to Anthropic, which has no custom tools: a reported loss
    anthropic_losses: list[chatcodec.Loss] = []
    list(chatcodec.encode_stream("anthropic", events, on_loss="ignore", losses=anthropic_losses))
    assert [loss.what for loss in anthropic_losses if "custom" in loss.what] == ["custom tool call 'call_c'"]


def test_custom_tool_call_cut_off_is_given_as_far_as_it_came() -> None:
    stream = [
        chunk(delta(tool_calls=[{"index": 0, "id": "c", "type": "custom", "custom": {"name": "sh", "input": "l"}}]))
    ]
    response = chatcodec.accumulate_stream(FORMAT, stream, partial=True)
    (call,) = response.choices[0].message.content  # type: ignore[misc]
    assert isinstance(call, chatcodec.ToolUsePart)
    assert (call.kind, call.name, call.arguments) == ("custom", "sh", "l")


# --- Anthropic server-tool blocks in OpenAI-format assistant messages (litellm) ------------

SEARCH_RESULT = {
    "type": "web_search_tool_result",
    "tool_use_id": "srvtoolu_01",
    "content": [
        {"type": "web_search_result", "url": "https://otters.example", "title": "Otters", "encrypted_content": "e"}
    ],
}
LITELLM_TURN = {
    "role": "assistant",
    "content": "Otters hold hands while sleeping.",
    "tool_calls": [
        {
            "id": "srvtoolu_01",
            "type": "function",
            "function": {"name": "web_search", "arguments": '{"query": "otters"}'},
        },
        {"id": "toolu_02", "type": "function", "function": {"name": "add", "arguments": '{"a":1,"b":2}'}},
    ],
    "provider_specific_fields": {"web_search_results": [SEARCH_RESULT]},
}
LITELLM_REQUEST = {
    "model": "anthropic/claude-sonnet-4-5",
    "max_tokens": 100,
    "messages": [
        {"role": "user", "content": "Search otters, then add 1 and 2."},
        LITELLM_TURN,
        {"role": "tool", "tool_call_id": "toolu_02", "content": "3"},
    ],
}


def test_litellm_server_tool_blocks_reach_anthropic_as_server_tool_blocks() -> None:
    losses: list[chatcodec.Loss] = []
    anthropic = chatcodec.convert_request(
        LITELLM_REQUEST, source=FORMAT, target="anthropic", on_loss="ignore", losses=losses
    )
    assert anthropic["messages"][1]["content"] == [
        {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {"query": "otters"}},
        SEARCH_RESULT,
        {"type": "text", "text": "Otters hold hands while sleeping."},
        {"type": "tool_use", "id": "toolu_02", "name": "add", "input": {"a": 1, "b": 2}},
    ]
    assert [loss for loss in losses if loss.path.startswith("$.messages")] == []
    # the same blocks as the anthropic codec reads from Anthropic's own message
    native = chatcodec.decode_request("anthropic", anthropic).messages[1].content
    ours = chatcodec.decode_request(FORMAT, LITELLM_REQUEST).messages[1].content
    assert [part.model_dump(exclude={"provider_metadata"}) for part in ours] == [  # type: ignore[union-attr]
        part.model_dump(exclude={"provider_metadata"})
        for part in native  # type: ignore[union-attr]
    ]


def test_litellm_server_tool_blocks_round_trip_exactly() -> None:
    request = chatcodec.decode_request(FORMAT, LITELLM_REQUEST)
    losses: list[chatcodec.Loss] = []
    assert chatcodec.encode_request(FORMAT, request, on_loss="error", losses=losses) == LITELLM_REQUEST
    assert losses == []


def test_a_call_without_its_result_stays_a_tool_call() -> None:
    turn = {**LITELLM_TURN, "provider_specific_fields": {"other": 1}}
    request = chatcodec.decode_request(FORMAT, {**LITELLM_REQUEST, "messages": [LITELLM_REQUEST["messages"][0], turn]})
    kinds = [part.type for part in request.messages[1].content]  # type: ignore[union-attr]
    assert kinds == ["text", "tool_use", "tool_use"]


_LITELLM_DUMP = {  # litellm's Message.model_dump() of a Claude answer, sent back as it came
    "content": None,
    "role": "assistant",
    "tool_calls": [{"id": "toolu_02", "type": "function", "function": {"name": "add", "arguments": "{}"}}],
    "function_call": None,
    "provider_specific_fields": None,
}


@pytest.mark.parametrize("target", ["anthropic", "openai-responses", "gemini"])
def test_litellms_null_provider_specific_fields_is_spelling_on_both_paths(target: str) -> None:
    """A ``null`` there carries nothing, as the SDK's nulls: no loss on the direct path nor
    on its oracle, and the key given back as it came to OpenAI Chat."""
    from chatcodec._direct.table import canonical_only

    payload = {
        **LITELLM_REQUEST,
        "messages": [LITELLM_REQUEST["messages"][0], _LITELLM_DUMP, LITELLM_REQUEST["messages"][2]],
    }
    outcomes = []
    for canonical in (False, True):
        losses: list[chatcodec.Loss] = []
        if canonical:
            with canonical_only():
                written = chatcodec.convert_request(
                    payload, source=FORMAT, target=target, on_loss="ignore", losses=losses
                )
        else:
            written = chatcodec.convert_request(payload, source=FORMAT, target=target, on_loss="ignore", losses=losses)
        assert [loss for loss in losses if "provider_specific_fields" in repr(loss)] == []
        outcomes.append(written)
    assert outcomes[0] == outcomes[1]
    request = chatcodec.decode_request(FORMAT, payload)
    assert chatcodec.encode_request(FORMAT, request, on_loss="error") == payload


def test_a_provider_specific_fields_value_is_still_data_lost_elsewhere() -> None:
    turn = {**_LITELLM_DUMP, "provider_specific_fields": {"other": 1}}
    payload = {**LITELLM_REQUEST, "messages": [LITELLM_REQUEST["messages"][0], turn, LITELLM_REQUEST["messages"][2]]}
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(payload, source=FORMAT, target="anthropic", on_loss="ignore", losses=losses)
    assert any("provider_specific_fields" in str(loss) for loss in losses)


def test_a_server_tool_alone_keeps_the_string_content() -> None:
    turn = {**LITELLM_TURN, "tool_calls": LITELLM_TURN["tool_calls"][:1]}
    payload = {**LITELLM_REQUEST, "messages": [LITELLM_REQUEST["messages"][0], turn]}
    request = chatcodec.decode_request(FORMAT, payload)
    assert chatcodec.encode_request(FORMAT, request, on_loss="error") == payload


def test_a_hosted_tool_without_a_type_is_a_loss_not_a_tool_the_api_rejects() -> None:
    """Found by the single-hop loss law: ``data: {}`` was written as ``{}``, which OpenAI
    and this codec's own decoder refuse (``$.tools[0].type`` missing)."""
    request = chatcodec.ChatRequest.model_validate(
        {
            "model": "m",
            "messages": [{"role": "user", "content": "q"}],
            "provider_tools": [{"type": "opaque", "provider": "openai-chat", "data": {}}],
        }
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("openai-chat", request, on_loss="ignore", losses=losses)
    assert "tools" not in body
    assert [loss.path for loss in losses] == ["$.provider_tools[0]"]
    assert chatcodec.decode_request("openai-chat", body).provider_tools == []
