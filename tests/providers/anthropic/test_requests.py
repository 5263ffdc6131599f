"""The API's request rules, each on a small named case: thinking replay, cache markers,
empty text, tool arguments, tool-result grouping, system placement, settings."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec.testing._laws.built_in.anthropic import meaning
from providers.anthropic.anthropic_support import assert_valid_request, encode_request, load_json

SIGNATURE = "EqEECkYICxgCKkAo3UA4WwDbB8ihhpykVCsPx6iMzwNTNP8dePIgYjNpu2EWrt5JbApWWONEZaf5w46939Vu1SDU1"


def _request(messages: list[Any], **fields: Any) -> chatcodec.ChatRequest:
    # validate_model reads the dialects (Anthropic blocks, tool_call_id) these tests write
    fields = {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": messages, **fields}
    return chatcodec.validate_model(chatcodec.ChatRequest, fields)


def _turn(thinking: dict[str, Any]) -> chatcodec.ChatRequest:
    """User question, assistant turn with ``thinking`` then a tool call, and the result."""
    assistant = {
        "role": "assistant",
        "content": [thinking, {"type": "tool_use", "id": "toolu_1", "name": "f", "arguments": "{}"}],
    }
    return _request([{"role": "user", "content": "q"}, assistant, {"role": "tool", "tool_call_id": "toolu_1"}])


def _paths(losses: list[chatcodec.Loss]) -> list[str]:
    return [loss.path for loss in losses]


# --- thinking ------------------------------------------------------------------------------


def test_signed_anthropic_thinking_is_replayed_byte_for_byte() -> None:
    thinking = {"type": "thinking", "text": "hmm", "signature": SIGNATURE, "provider": "anthropic"}
    body, losses = encode_request(_turn(thinking))
    assert body["messages"][1]["content"][0] == {"type": "thinking", "thinking": "hmm", "signature": SIGNATURE}
    assert losses == []
    assert_valid_request(body)


@pytest.mark.parametrize("signature", [None, ""])
def test_unsigned_thinking_is_dropped_and_reported(signature: str | None) -> None:
    """OpenAI reasoning or an interrupted stream: replaying it gets 400 Invalid signature."""
    body, losses = encode_request(_turn({"type": "thinking", "text": "hmm", "signature": signature}))
    assert [block["type"] for block in body["messages"][1]["content"]] == ["tool_use"]
    assert _paths(losses) == ["$.messages[1].content[0]"]


def test_unsigned_thinking_can_be_sent_as_text_when_asked() -> None:
    request = _turn({"type": "thinking", "text": "hmm", "provider": "openai"})
    request = request.model_copy(update={"provider_options": {"anthropic": {"unsigned_thinking": "text"}}})
    body, losses = encode_request(request)
    assert body["messages"][1]["content"][0] == {"type": "text", "text": "hmm"}
    assert "unsigned_thinking" not in body
    assert "plain text" in losses[0].why


@pytest.mark.parametrize("provider", ["gemini", "bedrock", "openai"])
def test_thinking_from_another_provider_is_never_replayed_as_thinking(provider: str) -> None:
    """Gemini and Bedrock sign their thinking too, but Anthropic cannot verify it."""
    thinking = {"type": "thinking", "text": "hmm", "signature": SIGNATURE, "provider": provider}
    body, losses = encode_request(_turn(thinking))
    assert all(block["type"] != "thinking" for block in body["messages"][1]["content"])
    assert provider in losses[0].why


def test_thinking_of_unknown_origin_with_a_signature_is_trusted() -> None:
    """Stored histories (litellm ``thinking_blocks``) carry Anthropic signatures without a
    provider; they are replayed as they are."""
    body, losses = encode_request(_turn({"type": "thinking", "text": "hmm", "signature": SIGNATURE}))
    assert body["messages"][1]["content"][0]["type"] == "thinking"
    assert losses == []


def test_redacted_thinking_goes_back_opaque_never_as_text() -> None:
    redacted = {"type": "redacted_thinking", "data": "EvgFCkYIBxgCKkBmxKtCnM3xlr1zpw0Ik4FY"}
    request = _turn(redacted).model_copy(update={"provider_options": {"anthropic": {"unsigned_thinking": "text"}}})
    body, losses = encode_request(request)
    assert body["messages"][1]["content"][0] == redacted
    assert losses == []


def test_encrypted_reasoning_from_openai_is_dropped_and_reported() -> None:
    thinking = {"type": "thinking", "encrypted": "gAAAA...", "redacted": True, "provider": "openai"}
    body, losses = encode_request(_turn(thinking))
    assert [block["type"] for block in body["messages"][1]["content"]] == ["tool_use"]
    assert len(losses) == 1


def test_cache_control_is_never_put_on_thinking() -> None:
    thinking = {"type": "thinking", "text": "hmm", "signature": SIGNATURE, "cache_control": {"type": "ephemeral"}}
    body, losses = encode_request(_turn(thinking))
    assert "cache_control" not in body["messages"][1]["content"][0]
    assert _paths(losses) == ["$.messages[1].content[0].cache_control"]


def test_message_cache_marker_cannot_land_on_a_trailing_thinking_block() -> None:
    assistant = {
        "role": "assistant",
        "content": [{"type": "thinking", "text": "t", "signature": SIGNATURE}],
        "cache_control": {"type": "ephemeral"},
    }
    body, losses = encode_request(_request([{"role": "user", "content": "q"}, assistant]))
    assert "cache_control" not in body["messages"][1]["content"][0]
    assert _paths(losses) == ["$.messages[1].cache_control"]


# --- cache breakpoints ---------------------------------------------------------------------


def _cached_text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text, "cache_control": {"type": "ephemeral"}}


def test_at_most_four_breakpoints_and_the_last_ones_are_kept() -> None:
    """The last breakpoint caches the longest prefix (tools, then system, then messages)."""
    tool = {"name": "f", "cache_control": {"type": "ephemeral", "ttl": "1h"}}
    messages = [
        {"role": "system", "content": [_cached_text("sys")]},
        {"role": "user", "content": [_cached_text("a"), _cached_text("b")]},
        {"role": "assistant", "content": [_cached_text("c")]},
        {"role": "user", "content": [_cached_text("d")]},
    ]
    body, losses = encode_request(_request(messages, tools=[tool]))
    assert "cache_control" not in body["tools"][0]
    assert "cache_control" not in body["system"][0]
    kept = [block for message in body["messages"] for block in message["content"] if "cache_control" in block]
    assert [block["text"] for block in kept] == ["a", "b", "c", "d"]
    assert _paths(losses) == ["$.tools[0].cache_control", "$.messages[0].content[0].cache_control"]
    assert_valid_request(body)


def test_top_level_automatic_caching_takes_one_of_the_four() -> None:
    messages = [{"role": "user", "content": [_cached_text(text) for text in "abcd"]}]
    body, losses = encode_request(_request(messages, cache_control={"type": "ephemeral", "ttl": "5m"}))
    assert body["cache_control"] == {"type": "ephemeral", "ttl": "5m"}
    assert ["cache_control" in block for block in body["messages"][0]["content"]] == [False, True, True, True]
    assert len(losses) == 1


def test_message_level_cache_marker_lands_on_its_last_block() -> None:
    messages = [{"role": "user", "content": "hello", "cache_control": {"type": "ephemeral"}}]
    body, losses = encode_request(_request(messages))
    assert body["messages"][0]["content"] == [{"type": "text", "text": "hello", "cache_control": {"type": "ephemeral"}}]
    assert losses == []


# --- empty text ----------------------------------------------------------------------------


def test_empty_text_blocks_are_dropped_and_reported() -> None:
    messages = [{"role": "user", "content": [{"type": "text", "text": ""}, {"type": "text", "text": "hi"}]}]
    body, losses = encode_request(_request(messages))
    assert body["messages"][0]["content"] == [{"type": "text", "text": "hi"}]
    assert _paths(losses) == ["$.messages[0].content[0]"]


def test_whitespace_text_is_kept_beside_real_text() -> None:
    """The API accepts ``[" ", "real"]`` (the adaptive-thinking response starts with "\\n\\n")."""
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [{"type": "text", "text": "\n\n"}, {"type": "text", "text": "4"}]},
    ]
    body, losses = encode_request(_request(messages))
    assert body["messages"][1]["content"][0] == {"type": "text", "text": "\n\n"}
    assert losses == []


def test_whitespace_only_text_is_dropped_when_it_is_all_the_text() -> None:
    assistant = {
        "role": "assistant",
        "content": [{"type": "text", "text": " \n"}, {"type": "tool_use", "id": "t1", "name": "f"}],
    }
    body, losses = encode_request(_request([{"role": "user", "content": "q"}, assistant]))
    assert [block["type"] for block in body["messages"][1]["content"]] == ["tool_use"]
    assert _paths(losses) == ["$.messages[1].content[0]"]


@pytest.mark.parametrize("content", ["", "   ", []])
def test_an_empty_message_is_dropped_and_reported(content: Any) -> None:
    body, losses = encode_request(_request([{"role": "user", "content": "a"}, {"role": "user", "content": content}]))
    assert body["messages"] == [{"role": "user", "content": "a"}]
    assert _paths(losses) == ["$.messages[1]"]


# --- tool arguments ------------------------------------------------------------------------


@pytest.mark.parametrize("arguments", ['{"a": ', "[1, 2]", '"text"', "nonsense"])
def test_arguments_that_are_not_an_object_are_sent_wrapped(arguments: str) -> None:
    assistant = {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "arguments": arguments}]}
    body, losses = encode_request(_request([{"role": "user", "content": "q"}, assistant]))
    assert body["messages"][1]["content"][0]["input"] == {"INVALID_JSON": arguments}
    assert _paths(losses) == ["$.messages[1].content[0].arguments"]


def test_bad_arguments_raise_under_the_error_policy() -> None:
    assistant = {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "arguments": "[]"}]}
    with pytest.raises(chatcodec.LossError) as caught:
        chatcodec.encode_request("anthropic", _request([{"role": "user", "content": "q"}, assistant]), on_loss="error")
    assert caught.value.losses[0].path == "$.messages[1].content[0].arguments"


def test_input_objects_survive_decode_and_encode_unchanged() -> None:
    tool_input = {"é": [1.5, -0.0, 10**20, None, True], "nested": {"k": "ü\n\u2028"}, "z": {}, "a": 1e-7}
    payload = {
        "model": "m",
        "max_tokens": 5,
        "messages": [
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": tool_input}]}
        ],
    }
    request = chatcodec.decode_request("anthropic", payload)
    assert request.messages[0].tool_calls[0].arguments.startswith('{"é":[1.5')
    assert encode_request(request)[0] == payload


# --- tool results --------------------------------------------------------------------------


def test_parallel_results_sent_as_separate_messages_share_one_user_turn() -> None:
    calls = [{"type": "tool_use", "id": f"call_{index}", "name": "f"} for index in range(3)]
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": calls},
        *({"role": "tool", "tool_call_id": f"call_{index}", "content": str(index)} for index in range(3)),
        {"role": "user", "content": "and now?"},
    ]
    body, losses = encode_request(_request(messages))
    assert [message["role"] for message in body["messages"]] == ["user", "assistant", "user"]
    last = body["messages"][2]["content"]
    assert [block["type"] for block in last] == ["tool_result"] * 3 + ["text"]
    assert [block["tool_use_id"] for block in last[:3]] == ["call_0", "call_1", "call_2"]
    assert losses == []
    assert_valid_request(body)


def test_text_written_before_results_goes_after_them() -> None:
    """A stored Anthropic turn with text before its tool_result is reordered, results first."""
    payload = load_json("request", "thinking_replay_with_tool_result.json")
    payload["messages"][2]["content"].insert(0, {"type": "text", "text": "here you go"})
    body, _ = encode_request(chatcodec.decode_request("anthropic", payload))
    assert [block["type"] for block in body["messages"][2]["content"]] == ["tool_result", "text"]


def test_consecutive_user_messages_stay_separate() -> None:
    body, _ = encode_request(_request([{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]))
    assert body["messages"] == [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]


def test_a_user_turn_after_a_results_turn_stays_separate_on_round_trip() -> None:
    payload = load_json("request", "thinking_replay_with_tool_result.json")
    payload["messages"].append({"role": "user", "content": "thanks"})
    assert encode_request(chatcodec.decode_request("anthropic", payload))[0] == payload


def test_images_in_tool_results_are_kept() -> None:
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
    messages = [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "shot"}]},
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "see"}, image]},
    ]
    body, losses = encode_request(_request(messages))
    result = body["messages"][1]["content"][0]
    assert result["content"][1] == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
    }
    assert losses == []


def test_error_results_and_names_implied_by_the_call() -> None:
    messages = [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "f"}]},
        {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c1", "is_error": True, "name": "f"}]},
        {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c2", "name": "g"}]},
    ]
    body, losses = encode_request(_request(messages))
    assert body["messages"][1]["content"][0] == {
        "type": "tool_result",
        "tool_use_id": "c1",
        "content": "",
        "is_error": True,
    }
    assert _paths(losses) == ["$.messages[2].content[0].name"]


# --- system --------------------------------------------------------------------------------


def test_several_leading_system_messages_become_system_blocks() -> None:
    messages = [
        {"role": "system", "content": "one"},
        {"role": "developer", "content": "two"},
        {"role": "user", "content": "q"},
    ]
    body, losses = encode_request(_request(messages))
    assert body["system"] == [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}]
    assert [loss.what for loss in losses] == ["developer role"]


def test_a_system_message_mid_conversation_becomes_a_system_turn() -> None:
    """On Opus 4.8+, the only models with such turns (others: ``test_target_rules.py``)."""
    messages = [{"role": "user", "content": "q"}, {"role": "system", "content": "be brief"}]
    body, losses = encode_request(_request(messages, model="claude-opus-4-8"))
    assert body["messages"][1] == {"role": "system", "content": "be brief"}
    assert losses == []
    assert_valid_request(body)


def test_system_turns_inside_messages_round_trip() -> None:
    payload = {
        "model": "m",
        "max_tokens": 8,
        "system": [{"type": "text", "text": "s", "cache_control": {"type": "ephemeral"}}],
        "messages": [{"role": "system", "content": "inline"}, {"role": "user", "content": "q"}],
    }
    request = chatcodec.decode_request("anthropic", payload)
    assert [message.role for message in request.messages] == ["system", "system", "user"]
    assert encode_request(request)[0] == payload


def test_participant_names_are_reported() -> None:
    body, losses = encode_request(_request([{"role": "user", "content": "q", "name": "ann"}]))
    assert body["messages"] == [{"role": "user", "content": "q"}]
    assert _paths(losses) == ["$.messages[0].name"]


# --- settings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("thinking", "reasoning"),
    [
        ({"type": "enabled", "budget_tokens": 3000}, {"enabled": True, "budget_tokens": 3000}),
        ({"type": "adaptive"}, {"adaptive": True}),
        ({"type": "disabled"}, {"enabled": False}),
    ],
)
def test_thinking_settings_map_both_ways(thinking: dict[str, Any], reasoning: dict[str, Any]) -> None:
    payload = {
        "model": "m",
        "max_tokens": 4000,
        "messages": [],
        "thinking": thinking,
        "output_config": {"effort": "max"},
    }
    request = chatcodec.decode_request("anthropic", payload)
    assert request.reasoning == chatcodec.ReasoningConfig(**reasoning, effort="max")
    assert encode_request(request)[0] == payload


def test_unknown_thinking_types_and_fields_are_kept() -> None:
    payload = {
        "model": "m",
        "max_tokens": 9,
        "messages": [],
        "thinking": {"type": "between_tools"},
        "output_config": {"format": {"type": "json_schema", "schema": {"type": "object"}, "name": "x"}},
    }
    request = chatcodec.decode_request("anthropic", payload)
    assert request.reasoning is None
    assert encode_request(request)[0] == payload


@pytest.mark.parametrize(
    ("reasoning", "thinking", "effort"),
    [
        ({"effort": "minimal"}, None, "low"),
        ({"effort": "none"}, {"type": "disabled"}, None),
        ({"enabled": True}, {"type": "enabled", "budget_tokens": 1024}, None),  # no adaptive on 4.5: a budget
        ({"effort": "high", "summary": "auto"}, None, "high"),
    ],
)
def test_reasoning_anthropic_cannot_say_is_sent_closest_and_reported(
    reasoning: dict[str, Any], thinking: dict[str, Any] | None, effort: str | None
) -> None:
    body, losses = encode_request(_request([], reasoning=reasoning))
    assert body.get("thinking") == thinking
    assert body.get("output_config", {}).get("effort") == effort
    assert len(losses) == 1


def test_structured_output_maps_to_output_config_format() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}
    request = _request([], response_format={"type": "json_schema", "json_schema": schema, "name": "answer"})
    body, losses = encode_request(request)
    assert body["output_config"] == {"format": {"type": "json_schema", "schema": schema}}
    assert _paths(losses) == ["$.response_format.name"]
    _, losses = encode_request(_request([], response_format={"type": "json_object"}))
    assert _paths(losses) == ["$.response_format"]


@pytest.mark.parametrize(
    ("choice", "parallel", "wire"),
    [
        ({"type": "required"}, None, {"type": "any"}),
        ({"type": "tool", "name": "f"}, False, {"type": "tool", "name": "f", "disable_parallel_tool_use": True}),
        (None, False, {"type": "auto", "disable_parallel_tool_use": True}),
        ({"type": "auto"}, True, {"type": "auto", "disable_parallel_tool_use": False}),
        ({"type": "none"}, None, {"type": "none"}),
    ],
)
def test_tool_choice_and_parallel_calls(choice: dict[str, Any] | None, parallel: bool | None, wire: Any) -> None:
    body, losses = encode_request(_request([], tool_choice=choice, parallel_tool_calls=parallel))
    assert body["tool_choice"] == wire
    assert losses == []
    decoded = chatcodec.decode_request("anthropic", body)
    assert decoded.parallel_tool_calls == parallel
    assert decoded.tool_choice == chatcodec.ToolChoice(**(choice or {"type": "auto"}))


def test_no_parallel_setting_with_tool_choice_none_is_reported() -> None:
    body, losses = encode_request(_request([], tool_choice={"type": "none"}, parallel_tool_calls=False))
    assert body["tool_choice"] == {"type": "none"}
    assert _paths(losses) == ["$.parallel_tool_calls"]


def test_server_tools_keep_their_place_among_client_tools() -> None:
    payload = {
        "model": "m",
        "max_tokens": 9,
        "messages": [],
        "tools": [
            {"type": "web_search_20250305", "name": "web_search", "max_uses": 3},
            {"name": "f", "input_schema": {"type": "object"}, "type": "custom", "defer_loading": True},
            {"type": "code_execution_20250522", "name": "code_execution"},
        ],
    }
    request = chatcodec.decode_request("anthropic", payload)
    assert [tool.name for tool in request.tools] == ["f"]
    assert [tool.data["name"] for tool in request.provider_tools] == ["web_search", "code_execution"]
    assert encode_request(request)[0] == payload


def test_other_providers_server_tools_are_reported() -> None:
    request = _request([], provider_tools=[{"type": "opaque", "provider": "openai", "data": {"type": "web_search"}}])
    body, losses = encode_request(request)
    assert "tools" not in body
    assert _paths(losses) == ["$.provider_tools[0]"]


def test_max_tokens_is_always_sent() -> None:
    request = chatcodec.ChatRequest(messages=[{"role": "user", "content": "q"}])
    assert encode_request(request)[0]["max_tokens"] == 4096
    optioned = request.model_copy(update={"provider_options": {"anthropic": {"max_tokens": 123}}})
    assert encode_request(optioned)[0]["max_tokens"] == 123
    warm = {"model": "m", "max_tokens": 0, "messages": [{"role": "user", "content": "q"}]}
    assert encode_request(chatcodec.decode_request("anthropic", warm))[0] == warm


def test_unknown_top_level_fields_and_sampling_are_kept() -> None:
    payload = {
        "model": "m",
        "max_tokens": 9,
        "messages": [],
        "temperature": 0.2,
        "top_p": 0.9,
        "top_k": 40,
        "metadata": {"user_id": "u"},
        "service_tier": "auto",
        "container": "container_1",
        "stop_sequences": [],
        "tools": [],
    }
    request = chatcodec.decode_request("anthropic", payload)
    assert request.top_k == 40
    assert encode_request(request)[0] == payload


def test_openai_only_settings_are_reported() -> None:
    _, losses = encode_request(_request([], frequency_penalty=0.5, presence_penalty=0.1, seed=7))
    assert _paths(losses) == ["$.frequency_penalty", "$.presence_penalty", "$.seed"]


def test_a_zero_penalty_is_left_out_without_a_loss_and_means_the_same() -> None:
    request = _request([], max_tokens=1, presence_penalty=0.0, frequency_penalty=0)
    body, losses = encode_request(request)
    assert "presence_penalty" not in body
    assert "frequency_penalty" not in body
    assert losses == []
    assert meaning(chatcodec.decode_request("anthropic", body)) == meaning(request)


def test_every_user_block_kind_round_trips() -> None:
    pdf = {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0xLjQK"}
    content = [
        {"type": "document", "source": pdf, "title": "Spec", "context": "v2", "citations": {"enabled": True}},
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "plain"}, "title": None},
        {"type": "document", "source": {"type": "content", "content": [{"type": "text", "text": "chunk"}]}},
        {"type": "document", "source": {"type": "file", "file_id": "file_01"}, "cache_control": {"type": "ephemeral"}},
        {"type": "image", "source": {"type": "file", "file_id": "file_02"}},
        {"type": "image", "source": {"type": "url", "url": "https://x/y.png"}, "transformations": {"crop": [0, 0]}},
        {"type": "search_result", "source": "https://x", "title": "t", "content": [{"type": "text", "text": "r"}]},
        {"type": "text", "text": "and?", "citations": [{"type": "char_location", "cited_text": "p"}]},
    ]
    payload = {"model": "m", "max_tokens": 9, "messages": [{"role": "user", "content": content}]}
    request = chatcodec.decode_request("anthropic", payload)
    kinds = [part.type for part in request.messages[0].parts]
    assert kinds == ["document", "document", "opaque", "document", "image", "image", "opaque", "text"]
    assert encode_request(request) == (payload, [])


def test_blocks_out_of_place_stay_opaque() -> None:
    """A tool_use in a user turn or a document in an assistant turn is kept verbatim."""
    payload = {
        "model": "m",
        "max_tokens": 9,
        "messages": [
            {"role": "user", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}}]},
            {"role": "assistant", "content": [{"type": "document", "source": {"type": "file", "file_id": "f"}}]},
        ],
    }
    request = chatcodec.decode_request("anthropic", payload)
    assert [part.type for message in request.messages for part in message.parts] == ["opaque", "opaque"]
    assert encode_request(request) == (payload, [])


@pytest.mark.parametrize(
    "tool",
    [
        {"type": "computer_toolset_20260801"},
        {"type": "browser_toolset_20260801", "configs": {"find": {}}, "cache_control": {"type": "ephemeral"}},
    ],
)
def test_an_sdk_toolset_entry_without_a_name_is_read_and_goes_back_as_it_came(tool: dict[str, Any]) -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": "q"}],
        "tools": [tool],
    }
    losses: list[chatcodec.Loss] = []
    assert chatcodec.convert_request(body, source="anthropic", target="anthropic", losses=losses) == body
    assert chatcodec.convert_request(body, source="anthropic", target="anthropic", strict=True) == body
    assert losses == []
    assert chatcodec.decode_request("anthropic", body).provider_tools is not None


def test_strict_reading_of_a_block_whose_type_is_an_object_is_a_validation_error() -> None:
    """A fuzz find (convert_request_strict, seed 0): the strict turn-order rule put every
    block's ``type`` in a set, so an object there raised ``TypeError: unhashable type``
    instead of the block being refused at its path."""
    body = {
        "model": "m",
        "max_tokens": 5,
        "messages": [
            {"role": "user", "content": [{"type": {}, "text": "x"}, {"type": "tool_result", "tool_use_id": "t"}]}
        ],
    }
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.convert_request(body, source="anthropic", target="openai-chat", strict=True)
    assert raised.value.paths == ["$.messages[0].content[1].tool_use_id"]  # the rule it breaks: no call answered
