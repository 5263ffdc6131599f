"""Request bodies: the issue's named cases, the losses, and bad input."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec import (
    AssistantMessage,
    ChatRequest,
    DocumentPart,
    ImagePart,
    OpaquePart,
    RefusalPart,
    SystemMessage,
    TextPart,
    ThinkingPart,
    ToolMessage,
    ToolUsePart,
    UserMessage,
)
from providers.openai_chat.openai_chat_support import FORMAT, assert_request_matches_sdk, encode_request

USER = {"role": "user", "content": "hi"}
CALL = {"id": "call_1", "type": "function", "function": {"name": "get", "arguments": '{"a":1}'}}


def round_trip(payload: dict[str, Any], *, sdk: bool = True) -> ChatRequest:
    """Decode, check the exact re-encode (no loss; SDK-valid unless the payload uses parts the
    SDK does not know) and return the canonical request."""
    request = chatcodec.decode_request(FORMAT, payload)
    encoded, losses = encode_request(request)
    assert encoded == payload
    assert losses == []
    if sdk:
        assert_request_matches_sdk(encoded)
    return request


def request_with(*messages: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"model": "gpt-4o", "messages": list(messages), **fields}


def loss_paths(request: ChatRequest | dict[str, Any]) -> list[str]:
    return [loss.path for loss in encode_request(request)[1]]


# --- messages --------------------------------------------------------------------------


def test_developer_role_stays_developer() -> None:
    request = round_trip(request_with({"role": "developer", "content": "Be brief.", "name": "ops"}, USER))
    assert request.messages[0] == SystemMessage(role="developer", content="Be brief.", name="ops")


@pytest.mark.parametrize(
    ("assistant", "parts"),
    [
        ({"role": "assistant", "content": None, "tool_calls": [CALL]}, ["tool_use"]),
        ({"role": "assistant", "content": "", "tool_calls": [CALL]}, ["tool_use"]),  # spelling: written back
        ({"role": "assistant", "tool_calls": [CALL]}, ["tool_use"]),
        ({"role": "assistant", "content": [{"type": "text", "text": "x"}], "tool_calls": [CALL]}, ["text", "tool_use"]),
        ({"role": "assistant", "content": None}, []),
        ({"role": "assistant", "content": []}, []),
    ],
    ids=["null", "empty-string", "absent", "list", "null-alone", "empty-list"],
)
def test_assistant_content_null_empty_absent_and_list_are_kept_apart(
    assistant: dict[str, Any], parts: list[str]
) -> None:
    request = round_trip(request_with(USER, assistant))
    assert [part.type for part in request.messages[1].parts] == parts


@pytest.mark.parametrize("target", ["anthropic", "openai-responses", "openai-chat"])
@pytest.mark.parametrize("reasoning", [{}, {"reasoning_content": "I look."}])
def test_an_empty_text_beside_calls_is_spelling_not_a_loss(target: str, reasoning: dict[str, Any]) -> None:
    """``content: ""`` beside calls (clients that always send a string) says nothing: no empty text
    block reported into Anthropic or Responses (which hold none), ``""`` written back into OpenAI Chat."""
    assistant = {"role": "assistant", "content": "", **reasoning, "tool_calls": [CALL]}
    result = {"role": "tool", "tool_call_id": "call_1", "content": "42"}
    body = request_with(USER, assistant, result, {"role": "user", "content": "and?"})
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(body, source=FORMAT, target=target, on_loss="ignore", losses=losses)
    assert not [loss for loss in losses if loss.path.startswith("$.messages[1].content")]
    if target == FORMAT:
        assert written["messages"][1]["content"] == ""


@pytest.mark.parametrize("target", ["anthropic", "openai-responses", "openai-chat"])
def test_an_empty_list_of_calls_is_spelling_not_a_loss(target: str) -> None:
    """``"tool_calls": []`` on a turn of text (clients that always send the list) says there is none:
    no data reported into Anthropic or Responses, the list written back into OpenAI Chat."""
    answer = {"role": "assistant", "content": "It is 42.", "tool_calls": []}
    body = request_with(USER, answer, {"role": "user", "content": "thanks"})
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(body, source=FORMAT, target=target, on_loss="ignore", losses=losses)
    assert not [loss for loss in losses if loss.path.startswith("$.messages")]
    if target == FORMAT:
        assert written["messages"][1] == answer


def test_assistant_string_content_alone_stays_a_string() -> None:
    request = round_trip(request_with(USER, {"role": "assistant", "content": "Hello", "name": "bot"}))
    assert request.messages[1] == AssistantMessage(content="Hello", name="bot")


def test_refusal_and_tool_calls_decode_in_openai_order() -> None:
    assistant = {"role": "assistant", "content": "Partly.", "refusal": "Not that part.", "tool_calls": [CALL]}
    request = round_trip(request_with(USER, assistant))
    assert request.messages[1].content == [
        TextPart(text="Partly."),
        RefusalPart(text="Not that part."),
        ToolUsePart(id="call_1", name="get", arguments='{"a":1}'),
    ]


def test_refusal_field_next_to_list_content_stays_a_field() -> None:
    assistant = {"role": "assistant", "content": [{"type": "refusal", "refusal": "no"}], "refusal": "also no"}
    round_trip(request_with(USER, assistant))


def test_arguments_are_kept_as_text_even_when_not_json() -> None:
    broken = {**CALL, "function": {"name": "get", "arguments": '{"a": '}}
    request = round_trip(request_with(USER, {"role": "assistant", "tool_calls": [broken]}))
    call = request.messages[1].parts[0]
    assert isinstance(call, ToolUsePart)
    assert call.arguments == '{"a": '
    assert not call.arguments_are_valid_json


def test_user_media_parts() -> None:
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo=", "detail": "low"}}
    original = {"type": "image_url", "image_url": {"url": "https://example.com/a.png", "detail": "original"}}
    audio = {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}}
    by_id = {"type": "file", "file": {"file_id": "file-abc", "filename": "a.pdf"}}
    inline = {"type": "file", "file": {"file_data": "data:application/pdf;base64,JVBERi0=", "filename": "b.pdf"}}
    request = round_trip(request_with({"role": "user", "content": [image, original, audio, by_id, inline]}))
    image_part, original_part, audio_part, file_part, inline_part = request.messages[0].parts
    assert isinstance(image_part, ImagePart)
    assert image_part.detail == "low"
    assert image_part.source.model_dump() == {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}
    assert isinstance(original_part, ImagePart)
    assert original_part.detail is None  # "original" has no canonical value: kept in the bag
    assert original_part.provider_metadata == {FORMAT: {"image_url": {"detail": "original"}}}
    assert audio_part.model_dump()["source"]["media_type"] == "audio/wav"
    assert isinstance(file_part, DocumentPart)
    assert file_part.filename == "a.pdf"
    assert isinstance(inline_part, DocumentPart)
    assert inline_part.source.type == "base64"


def test_unknown_and_unusual_parts_are_kept_opaque() -> None:
    raw_file = {"type": "file", "file": {"file_data": "JVBERi0=", "filename": "raw.pdf"}}  # not a data URL
    future = {"type": "hologram_url", "hologram_url": {"url": "https://example.com/v.holo"}}
    request = round_trip(request_with({"role": "user", "content": [raw_file, future]}), sdk=False)
    assert request.messages[0].parts == [
        OpaquePart(provider=FORMAT, data=raw_file),
        OpaquePart(provider=FORMAT, data=future),
    ]


def test_unusual_audio_format_spelling_survives() -> None:
    audio = {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "mpeg"}}  # not an SDK format
    round_trip(request_with({"role": "user", "content": [audio]}), sdk=False)


def test_cache_breakpoints_map_to_cache_control() -> None:
    text = {"type": "text", "text": "long", "prompt_cache_breakpoint": {"mode": "explicit", "ttl": "12h"}}
    request = round_trip(request_with({"role": "system", "content": [text]}, USER))
    assert request.messages[0].parts[0].cache_control == chatcodec.CacheControl(ttl="12h")


def test_cache_ttl_openai_lacks_is_a_loss() -> None:
    part = TextPart(text="long", cache_control=chatcodec.CacheControl(ttl="5m"))
    encoded, losses = encode_request(ChatRequest(messages=[UserMessage(content=[part])]))
    assert encoded["messages"][0]["content"][0]["prompt_cache_breakpoint"] == {"mode": "explicit"}
    assert [loss.path for loss in losses] == ["$.messages[0].content[0].cache_control.ttl"]


# --- tool results ----------------------------------------------------------------------


def test_consecutive_tool_messages_group_into_one_and_split_back() -> None:
    payload = request_with(
        USER,
        {"role": "assistant", "content": None, "tool_calls": [CALL, {**CALL, "id": "call_2"}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "one"},
        {"role": "tool", "tool_call_id": "call_2", "content": [{"type": "text", "text": "two"}]},
    )
    request = round_trip(payload)
    assert len(request.messages) == 3
    assert isinstance(request.messages[2], ToolMessage)
    assert request.messages[2].tool_use_ids == ["call_1", "call_2"]


def test_error_flag_on_a_tool_result_is_a_loss_but_the_content_is_sent() -> None:
    request = ChatRequest(
        messages=[
            ToolMessage(content=[{"type": "tool_result", "tool_use_id": "c1", "content": "boom", "is_error": True}])
        ]
    )
    encoded, losses = encode_request(request)
    assert encoded["messages"] == [{"role": "tool", "tool_call_id": "c1", "content": "boom"}]
    assert [loss.path for loss in losses] == ["$.messages[0].content[0].is_error"]


def test_images_in_tool_results_move_to_a_user_message_after_the_group_and_are_reported() -> None:
    """The move changes where the image is, so each is a loss; a result
    left with no text is ``""`` (OpenAI rejects ``content: []``)."""
    image = {"type": "image", "source": {"type": "url", "url": "https://example.com/chart.png"}}
    request = ChatRequest(
        messages=[
            UserMessage(content="plot"),
            AssistantMessage(content=[ToolUsePart(id="c1", name="plot"), ToolUsePart(id="c2", name="plot")]),
            ToolMessage(
                content=[
                    {"type": "tool_result", "tool_use_id": "c1", "content": [{"type": "text", "text": "done"}, image]},
                    {"type": "tool_result", "tool_use_id": "c2", "content": [image]},
                ]
            ),
            UserMessage(content="thanks"),
        ]
    )
    encoded, losses = encode_request(request)
    assert [loss.path for loss in losses] == [
        "$.messages[2].content[0].content[1]",
        "$.messages[2].content[1].content[0]",
    ]
    assert_request_matches_sdk(encoded)
    wire_image = {"type": "image_url", "image_url": {"url": "https://example.com/chart.png"}}
    assert encoded["messages"][2:] == [
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "done"}]},
        {"role": "tool", "tool_call_id": "c2", "content": ""},
        {"role": "user", "content": [wire_image, wire_image]},
        {"role": "user", "content": "thanks"},
    ]
    decoded = chatcodec.decode_request(FORMAT, encoded)
    assert [message.role for message in decoded.messages] == ["user", "assistant", "tool", "user", "user"]


# --- tools and knobs -------------------------------------------------------------------


def test_tools_tool_choice_and_custom_tools() -> None:
    function = {
        "type": "function",
        "function": {"name": "get", "description": "Get.", "parameters": {"type": "object"}},
    }
    bare = {"type": "function", "function": {"name": "ping"}}
    custom = {"type": "custom", "custom": {"name": "sql", "format": {"type": "text"}}}
    payload = request_with(
        USER,
        tools=[custom, function, bare],
        tool_choice={"type": "function", "function": {"name": "get"}},
        parallel_tool_calls=False,
    )
    request = round_trip(payload)
    assert [tool.name for tool in request.tools] == ["get", "ping"]
    assert request.provider_tools[0].data == custom
    assert request.tool_choice == chatcodec.ToolChoice(type="tool", name="get")
    assert request.parallel_tool_calls is False


@pytest.mark.parametrize(
    "choice",
    ["auto", "none", "required", {"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": []}}],
)
def test_tool_choice_forms(choice: object) -> None:
    request = round_trip(
        request_with(USER, tools=[{"type": "function", "function": {"name": "f"}}], tool_choice=choice)
    )
    assert (request.tool_choice is None) == isinstance(choice, dict)


def test_response_formats() -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    json_schema = {"name": "city", "description": "A city.", "schema": schema, "strict": True}
    request = round_trip(request_with(USER, response_format={"type": "json_schema", "json_schema": json_schema}))
    assert request.response_format == chatcodec.ResponseFormat(
        type="json_schema", name="city", description="A city.", json_schema=schema, strict=True
    )
    round_trip(request_with(USER, response_format={"type": "json_object"}))
    round_trip(request_with(USER, response_format={"type": "text"}))


@pytest.mark.parametrize("key", ["max_tokens", "max_completion_tokens"])
def test_both_token_limits_map_to_max_tokens_and_keep_their_key(key: str) -> None:
    assert round_trip(request_with(USER, **{key: 50})).max_tokens == 50


def test_max_tokens_from_elsewhere_uses_the_newer_key_unless_asked() -> None:
    assert "max_completion_tokens" in encode_request(ChatRequest(max_tokens=9))[0]
    asked = ChatRequest(max_tokens=9, provider_options={FORMAT: {"_max_tokens_key": "max_tokens"}})
    assert encode_request(asked)[0] == {"messages": [], "max_tokens": 9}


@pytest.mark.parametrize("stop", ["END", ["END"], ["a", "b"]])
def test_stop_keeps_its_form(stop: object) -> None:
    assert round_trip(request_with(USER, stop=stop)).stop == ([stop] if isinstance(stop, str) else stop)


def test_sampling_stream_and_unknown_fields() -> None:
    payload = request_with(
        USER,
        temperature=0.2,
        top_p=1,
        frequency_penalty=0.5,
        presence_penalty=-0.5,
        seed=7,
        stream=True,
        stream_options={"include_usage": True},
        reasoning_effort="low",
        metadata={"team": "a"},
        n=2,
        logprobs=True,
        user="u1",
        thinking={"type": "enabled"},  # z.ai / DeepSeek switch: kept as it is (not an SDK field)
    )
    request = round_trip(payload, sdk=False)
    assert request.reasoning == chatcodec.ReasoningConfig(effort="low", enabled=True)
    assert request.user == "u1"
    assert request.logprobs is True
    assert request.provider_options == {  # asking for a stream's usage is the writer's default: not kept
        FORMAT: {
            "n": 2,
            "thinking": {"type": "enabled"},
            "_integers": ["top_p"],  # spelled ``1``, held as ``1.0``: written ``1`` again
        }
    }


def test_nulls_are_kept_as_nulls() -> None:
    payload = request_with(USER, temperature=None, stop=None, tools=None, max_tokens=None, response_format=None)
    request = round_trip(payload, sdk=False)  # the SDK types do not allow null tools
    assert request.temperature is None


# --- reasoning -------------------------------------------------------------------------


def thinking(part: ThinkingPart) -> tuple[str, object]:
    return part.text, (part.provider_metadata or {}).get(FORMAT, {}).get("field")


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"reasoning_content": "deep"}, [("deep", "reasoning_content")]),
        ({"reasoning": "groq"}, [("groq", "reasoning")]),
        ({"reasoning_content": "same", "reasoning": "same"}, [("same", "reasoning_content")]),
        ({"reasoning_content": "a", "reasoning": "b"}, [("a", "reasoning_content"), ("b", "reasoning")]),
    ],
    ids=["deepseek", "groq", "vllm-copy", "both"],
)
def test_string_reasoning_fields(fields: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    request = round_trip(request_with(USER, {"role": "assistant", "content": "Answer.", **fields}))
    parts = request.messages[1].parts
    assert [thinking(part) for part in parts if isinstance(part, ThinkingPart)] == expected
    assert all(part.provider == FORMAT for part in parts if isinstance(part, ThinkingPart))


def test_openrouter_reasoning_details() -> None:
    details = [
        {"type": "reasoning.text", "text": "Step.", "signature": "sig", "format": "anthropic-claude-v1", "index": 0},
        {"type": "reasoning.summary", "summary": "Short.", "format": "openai-responses-v1", "index": 1},
        {"type": "reasoning.encrypted", "data": "ENC", "format": "openai-responses-v1", "index": 2, "id": "rs_1"},
    ]
    assistant = {"role": "assistant", "content": "4", "reasoning": "Step.Short.", "reasoning_details": details}
    request = round_trip(request_with(USER, assistant))
    first, second, third, _ = request.messages[1].parts
    assert isinstance(first, ThinkingPart)
    assert (first.text, first.signature) == ("Step.", "sig")
    assert first.provider_metadata == {
        FORMAT: {
            "field": "reasoning_details",
            "type": "reasoning.text",
            "format": "anthropic-claude-v1",
            "index": 0,
            "_also": ["reasoning"],
        }
    }
    assert isinstance(second, ThinkingPart)
    assert second.text == "Short."
    assert isinstance(third, ThinkingPart)
    assert (third.encrypted, third.redacted, third.text) == ("ENC", True, "")


def test_signature_only_detail_keeps_its_missing_text() -> None:
    details = [{"type": "reasoning.text", "signature": "AY89", "format": "google-gemini-v1", "index": 0}]
    round_trip(
        request_with(USER, {"role": "assistant", "content": "ok", "reasoning": None, "reasoning_details": details})
    )


def test_mistral_thinking_parts_inside_content() -> None:
    chunks = [{"type": "text", "text": "Let me see."}]
    several = [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    content = [
        {"type": "thinking", "thinking": chunks},
        {"type": "thinking", "thinking": several},
        {"type": "text", "text": "4"},
    ]
    request = round_trip(request_with(USER, {"role": "assistant", "content": content}))
    first, second, answer = request.messages[1].parts
    assert isinstance(first, ThinkingPart)
    assert thinking(first) == ("Let me see.", "content")
    assert isinstance(second, ThinkingPart)
    assert second.text == "ab"
    assert answer == TextPart(text="4")


SIGNED = ThinkingPart(text="Hmm.", signature="EqQB", provider="anthropic", model="claude")


def anthropic_turn(**options: Any) -> ChatRequest:
    return ChatRequest(
        messages=[UserMessage(content="hi"), AssistantMessage(content=[SIGNED, TextPart(text="Hello")])],
        provider_options={FORMAT: options} if options else None,
    )


def test_foreign_thinking_is_a_loss_and_no_field_is_invented() -> None:
    encoded, losses = encode_request(anthropic_turn())
    assert encoded["messages"][1] == {"role": "assistant", "content": [{"type": "text", "text": "Hello"}]}
    assert [loss.path for loss in losses] == ["$.messages[1].content[0]"]
    assert "reasoning_field" in losses[0].why


def test_foreign_thinking_goes_where_the_option_says() -> None:
    encoded, losses = encode_request(anthropic_turn(), {"reasoning_field": "reasoning_content"})
    assert encoded["messages"][1] == {"role": "assistant", "content": "Hello", "reasoning_content": "Hmm."}
    assert [loss.path for loss in losses] == ["$.messages[1].content[0].signature"]
    encoded, losses = encode_request(anthropic_turn(), {"reasoning_field": "reasoning_details"})
    details = [
        {"type": "reasoning.text", "text": "Hmm.", "signature": "EqQB", "format": "anthropic-claude-v1", "index": 0}
    ]
    assert encoded["messages"][1]["reasoning_details"] == details
    assert losses == []
    assert_request_matches_sdk(encoded)


def test_a_bad_reasoning_option_is_an_error() -> None:
    with pytest.raises(chatcodec.PayloadError, match=r"\$\.options\.reasoning_field: reasoning_field must be"):
        encode_request(anthropic_turn(), {"reasoning_field": "thoughts"})


def test_interleaved_parts_lose_their_order_with_a_loss() -> None:
    message = AssistantMessage(
        content=[TextPart(text="Let me check."), ToolUsePart(id="c1", name="get"), TextPart(text="Checking.")]
    )
    encoded, losses = encode_request(ChatRequest(messages=[UserMessage(content="hi"), message]))
    assert [loss.path for loss in losses] == ["$.messages[1].content"]
    assert "order" in losses[0].what
    wire = encoded["messages"][1]
    assert [part["text"] for part in wire["content"]] == ["Let me check.", "Checking."]
    assert wire["tool_calls"][0]["id"] == "c1"


# --- what another provider's request loses -------------------------------------------


def test_what_openai_cannot_carry_is_listed() -> None:
    request = ChatRequest(
        model="m",
        messages=[
            UserMessage(
                content=[
                    {"type": "document", "source": {"type": "url", "url": "https://x/a.pdf"}},
                    {"type": "image", "source": {"type": "file", "file_id": "f1"}},
                    {"type": "audio", "source": {"type": "url", "url": "https://x/a.wav"}},
                    {
                        "type": "document",
                        "source": {"type": "base64", "media_type": "application/pdf", "data": "JV"},
                        "title": "T",
                    },
                    {"type": "document", "source": {"type": "text", "text": "notes"}},
                    OpaquePart(provider="anthropic", data={"type": "search_result"}),
                ],
                cache_control=chatcodec.CacheControl(),
            ),
            chatcodec.TextMessage(content="raw"),
        ],
        top_k=5,
        cache_control=chatcodec.CacheControl(),
        metadata={"user_id": "u", "n": 1},
        reasoning=chatcodec.ReasoningConfig(budget_tokens=1024),
        provider_tools=[OpaquePart(provider="anthropic", data={"type": "web_search_20250305"})],
        provider_options={"anthropic": {"betas": ["x"]}},
    )
    encoded, losses = encode_request(request)
    assert sorted(loss.path for loss in losses) == sorted(
        [
            "$.provider_options",
            "$.messages[0].content[0]",
            "$.messages[0].content[1]",
            "$.messages[0].content[2]",
            "$.messages[0].content[4]",
            "$.messages[0].content[5]",
            "$.messages[0].cache_control",
            "$.messages[1]",
            "$.provider_tools[0]",
            "$.top_k",
            "$.metadata.n",
            "$.reasoning.budget_tokens",
            "$.cache_control",
        ]
    )
    assert_request_matches_sdk(encoded)
    assert [part["type"] for part in encoded["messages"][0]["content"]] == ["file", "text"]


def test_loss_policy_warns_by_default() -> None:
    with pytest.warns(chatcodec.LossWarning, match="top_k"):
        chatcodec.encode_request(FORMAT, ChatRequest(model="m", top_k=3))


# --- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        (request_with({"role": "robot", "content": "x"}), "$.messages[0].role"),
        (request_with({"content": "x"}), "$.messages[0].role"),
        (request_with({"role": "function", "content": "x"}), "$.messages[0].name"),
        (request_with({"role": "user", "content": 5}), "$.messages[0].content"),
        (request_with({"role": "user", "content": [{"type": "text", "text": 5}]}), "$.messages[0].content[0].text"),
        (
            request_with(
                USER, {"role": "assistant", "tool_calls": [{**CALL, "function": {"name": "f", "arguments": 1}}]}
            ),
            "$.messages[1].tool_calls[0].function.arguments",
        ),
        (request_with(USER, {"role": "tool", "content": "x"}), "$.messages[1].tool_call_id"),
        (request_with(USER, temperature="hot"), "$.temperature"),
        (request_with(USER, max_tokens="100"), "$.max_tokens"),
        (request_with(USER, tools=[{"type": "function", "function": {"name": ""}}]), "$.tools[0].function.name"),
        (
            request_with({"role": "user", "content": [{"type": "image_url", "image_url": {}}]}),
            "$.messages[0].content[0].image_url.url",
        ),
        ({"model": "m"}, "$.messages"),
        (request_with(USER, reasoning_effort=3), "$.reasoning_effort"),
    ],
    ids=[
        "unknown-role",
        "missing-role",
        "function-role-without-name",
        "content-type",
        "text-type",
        "arguments-a-number",
        "tool-call-id-missing",
        "temperature-text",
        "max-tokens-text",
        "empty-tool-name",
        "image-url-missing",
        "messages-missing",
        "effort-number",
    ],
)
def test_bad_input_names_the_path(payload: dict[str, Any], path: str) -> None:
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request(FORMAT, payload)
    assert raised.value.paths[0] == path


def test_decode_messages_reads_a_bare_conversation() -> None:
    codec = chatcodec.get_codec(FORMAT)
    assert isinstance(codec, chatcodec.SupportsMessageDecoding)
    messages = codec.decode_messages([USER, {"role": "assistant", "content": "yo", "reasoning_content": "r"}])
    assert [message.role for message in messages] == ["user", "assistant"]
    with pytest.raises(chatcodec.ValidationError) as raised:
        codec.decode_messages([{"role": "robot", "content": "x"}])
    assert raised.value.paths == ["$[0].role"]
