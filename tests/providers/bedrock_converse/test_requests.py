"""The Converse API's request rules, each on a small named case: tool ids and names, media
sources, document names, blank text, cache points, tool-result status, thinking replay,
settings, and the botocore oracle itself."""

from __future__ import annotations

import json
from typing import Any

import pytest

import chatcodec
from chatcodec._providers.bedrock_converse.request import tool_id_map
from chatcodec._providers.families.aws.tool_ids import restore_tool_use_id
from providers.bedrock_converse.bedrock_support import MODEL, assert_valid_request, assert_valid_response

PROVIDER = "bedrock-converse"
CLAUDE = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
NOVA = "us.amazon.nova-pro-v1:0"
SIGNATURE = "EvYBCkgICxABGAIqQA9E9VC377UnbjdfXCw4RwQaaIXsqocZKzI3WwWtXT"
PNG = "iVBORw0KGgo="


def _request(messages: list[Any], **fields: Any) -> chatcodec.ChatRequest:
    return chatcodec.validate_model(chatcodec.ChatRequest, {"messages": messages, **fields})


def _encode(request: chatcodec.ChatRequest) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(PROVIDER, request, on_loss="ignore", losses=losses)
    assert_valid_request(body)
    return body, losses


def _paths(losses: list[chatcodec.Loss]) -> list[str]:
    return [loss.path for loss in losses]


def _call_and_result(call_id: str, name: str = "get_weather") -> chatcodec.ChatRequest:
    return _request(
        [
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": call_id, "name": name, "arguments": "{}"}]},
            {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": "sunny"}]},
        ]
    )


def _ids(body: dict[str, Any]) -> tuple[str, str]:
    return (
        body["messages"][1]["content"][0]["toolUse"]["toolUseId"],
        body["messages"][2]["content"][0]["toolResult"]["toolUseId"],
    )


# --- tool ids and names ----------------------------------------------------------------------


@pytest.mark.parametrize("call_id", ["functions.write:0", "tooluse_Mj06ft-ITJik1Otgpkc1uA", "a" * 64])
def test_tool_ids_bedrock_accepts_are_sent_unchanged(call_id: str) -> None:
    """``.`` and ``:`` are valid here (Anthropic rejects them), up to 64 characters."""
    body, losses = _encode(_call_and_result(call_id))
    assert _ids(body) == (call_id, call_id)
    assert losses == []


@pytest.mark.parametrize("call_id", ["call|abc", "call abc", "é", ""])
def test_invalid_tool_ids_are_escaped_reversibly_without_loss(call_id: str) -> None:
    body, losses = _encode(_call_and_result(call_id))
    sent, result = _ids(body)
    assert sent == result != call_id
    assert restore_tool_use_id(sent) == call_id
    assert chatcodec.decode_request(PROVIDER, body).messages[1].parts[0].id == call_id  # type: ignore[union-attr]
    assert losses == []
    assert tool_id_map(_call_and_result(call_id)) == {call_id: sent}


def test_escapes_that_cannot_collide() -> None:
    first, _ = _encode(_call_and_result("a.b|"))
    second, _ = _encode(_call_and_result("a:b|"))
    assert _ids(first)[0] != _ids(second)[0]


@pytest.mark.parametrize("call_id", ["x" * 65, "call|" + "y" * 60])
def test_ids_too_long_for_bedrock_are_hashed_the_same_way_twice_and_reported(call_id: str) -> None:
    body, losses = _encode(_call_and_result(call_id))
    sent, result = _ids(body)
    assert sent == result
    assert len(sent) <= 64
    assert sent.startswith("cc.")
    assert _paths(losses) == ["$.messages[1].content[0].id", "$.messages[2].content[0]"]


def test_tool_names_outside_bedrocks_pattern_are_rewritten_everywhere_and_reported() -> None:
    request = _call_and_result("t1", name="weather.get").model_copy(
        update={
            "tools": [chatcodec.ToolDefinition(name="weather.get")],
            "tool_choice": chatcodec.ToolChoice(type="tool", name="weather.get"),
        }
    )
    body, losses = _encode(request)
    sent = body["messages"][1]["content"][0]["toolUse"]["name"]
    assert sent.startswith("weather_get_")  # then 8 hex digits of the name's hash: weather:get differs
    assert body["toolConfig"]["tools"][0]["toolSpec"]["name"] == sent
    assert body["toolConfig"]["toolChoice"] == {"tool": {"name": sent}}
    assert sorted(_paths(losses)) == ["$.messages[1].content[0].name", "$.tool_choice.name", "$.tools[0].name"]


# --- media -----------------------------------------------------------------------------------


def _user(*parts: dict[str, Any]) -> chatcodec.ChatRequest:
    return _request([{"role": "user", "content": [{"type": "text", "text": "look"}, *parts]}])


def test_url_images_are_never_sent_and_are_a_loss_or_an_error_by_policy() -> None:
    image = {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}
    body, losses = _encode(_user(image))
    assert body["messages"][0]["content"] == [{"text": "look"}]
    assert _paths(losses) == ["$.messages[0].content[1].source"]
    with pytest.raises(chatcodec.LossError):
        chatcodec.encode_request(PROVIDER, _user(image), on_loss="error")


def test_s3_and_base64_images_are_sent_as_bedrock_takes_them() -> None:
    s3 = {"type": "image", "source": {"type": "url", "url": "s3://bucket/kiwi.jpg", "media_type": "image/jpeg"}}
    inline = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}
    body, losses = _encode(_user(s3, inline))
    assert body["messages"][0]["content"][1:] == [
        {"image": {"format": "jpeg", "source": {"s3Location": {"uri": "s3://bucket/kiwi.jpg"}}}},
        {"image": {"format": "png", "source": {"bytes": PNG}}},
    ]
    assert losses == []


def test_image_types_bedrock_does_not_take_are_reported() -> None:
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/bmp", "data": PNG}}
    body, losses = _encode(_user(image))
    assert len(body["messages"][0]["content"]) == 1
    assert _paths(losses) == ["$.messages[0].content[1].source.media_type"]


def test_document_names_are_made_valid_and_unique_and_reported() -> None:
    def document(name: str | None) -> dict[str, Any]:
        source = {"type": "base64", "media_type": "application/pdf", "data": PNG}
        return {"type": "document", "source": source, **({"filename": name} if name else {})}

    body, losses = _encode(
        _user(document("report.pdf"), document("Report (v2)"), document("Report (v2)"), document(None))
    )
    names = [block["document"]["name"] for block in body["messages"][0]["content"][1:]]
    assert names == ["report-pdf", "Report (v2)", "Report (v2) (2)", "document"]
    assert _paths(losses) == [f"$.messages[0].content[{index}].filename" for index in (1, 3, 4)]


def test_a_valid_document_name_round_trips_without_loss() -> None:
    source = {"type": "text", "text": "hello", "media_type": "text/plain"}
    request = _user({"type": "document", "source": source, "filename": "Notes 1"})
    body, losses = _encode(request)
    assert body["messages"][0]["content"][1] == {
        "document": {"format": "txt", "name": "Notes 1", "source": {"text": "hello"}}
    }
    assert losses == []
    assert chatcodec.decode_request(PROVIDER, body) == request


# --- text ------------------------------------------------------------------------------------


def test_blank_text_blocks_are_dropped_and_reported() -> None:
    """Bedrock: "text content blocks must contain non-whitespace text"."""
    request = _request(
        [
            {"role": "user", "content": [{"type": "text", "text": " \n"}, {"type": "text", "text": "hi"}]},
            {"role": "assistant", "content": ""},
            {"role": "user", "content": "again"},
        ]
    )
    body, losses = _encode(request)
    assert body["messages"] == [{"role": "user", "content": [{"text": "hi"}, {"text": "again"}]}]  # roles alternate
    assert _paths(losses) == ["$.messages[0].content[0]", "$.messages[1]", "$.messages[1]", "$.messages[2]"]


# --- cache points ----------------------------------------------------------------------------


def test_cache_markers_become_cache_points_after_their_block_and_back() -> None:
    marker = {"type": "ephemeral"}
    request = _request(
        [
            {"role": "system", "content": [{"type": "text", "text": "be brief", "cache_control": marker}]},
            {"role": "user", "content": "q", "cache_control": {"type": "ephemeral", "ttl": "1h"}},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": "f", "arguments": "{}", "cache_control": marker}],
            },
            {
                "role": "tool",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok", "cache_control": marker}],
            },
        ],
        tools=[{"name": "f", "cache_control": marker}],
    )
    body, losses = _encode(request)
    point = {"cachePoint": {"type": "default"}}
    assert body["system"] == [{"text": "be brief"}, point]
    assert body["messages"][0]["content"] == [{"text": "q"}, {"cachePoint": {"type": "default", "ttl": "1h"}}]
    assert body["messages"][1]["content"][1] == point
    assert body["messages"][2]["content"][1] == point
    assert body["toolConfig"]["tools"][1] == point
    assert losses == []
    decoded = chatcodec.decode_request(PROVIDER, body)
    assert decoded.tools[0].cache_control == chatcodec.CacheControl()
    assert decoded.messages[1].parts[-1].cache_control == chatcodec.CacheControl(ttl="1h")
    assert decoded.messages[3].parts[0].cache_control == chatcodec.CacheControl()


def test_a_cache_point_with_nothing_before_it_is_kept_whole() -> None:
    body = {"messages": [{"role": "user", "content": [{"cachePoint": {"type": "default"}}, {"text": "q"}]}]}
    decoded = chatcodec.decode_request(PROVIDER, body)
    assert decoded.messages[0].parts[0].type == "opaque"
    assert chatcodec.encode_request(PROVIDER, decoded, on_loss="error") == body


# --- tool results ----------------------------------------------------------------------------


def _result(**fields: Any) -> chatcodec.ChatRequest:
    return _request(
        [
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "arguments": "{}"}]},
            {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "x", **fields}]},
        ]
    )


def _status(body: dict[str, Any]) -> str | None:
    result: dict[str, Any] = body["messages"][1]["content"][0]["toolResult"]
    return result.get("status")


def test_tool_result_status_is_written_only_where_the_source_had_it() -> None:
    assert _status(_encode(_result())[0]) is None
    assert _status(_encode(_result(is_error=True))[0]) == "error"
    spelled = {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [], "status": "success"}}]}
    decoded = chatcodec.decode_request(PROVIDER, {"messages": [spelled]})
    assert _status({"messages": [None, *_encode(decoded)[0]["messages"]]}) == "success"


@pytest.mark.parametrize(("policy", "ok", "failed"), [("always", "success", "error"), ("never", None, None)])
def test_tool_result_status_option(policy: str, ok: str | None, failed: str | None) -> None:
    options = {"provider_options": {PROVIDER: {"tool_result_status": policy}}}
    body, losses = _encode(_result().model_copy(update=options))
    assert _status(body) == ok
    assert losses == []
    body, losses = _encode(_result(is_error=True).model_copy(update=options))
    assert _status(body) == failed
    assert _paths(losses) == ([] if failed else ["$.messages[1].content[0].is_error"])
    assert "tool_result_status" not in body


def test_json_tool_results_come_back_as_json() -> None:
    result = {"toolResult": {"toolUseId": "t1", "content": [{"json": {"stdOut": "7", "exitCode": 0}}]}}
    body = {"messages": [{"role": "user", "content": [result]}]}
    decoded = chatcodec.decode_request(PROVIDER, body)
    assert decoded.messages[0].parts[0].text == '{"stdOut":"7","exitCode":0}'  # type: ignore[union-attr]
    assert chatcodec.encode_request(PROVIDER, decoded, on_loss="error") == body


# --- thinking --------------------------------------------------------------------------------


def _thinking_turn(thinking: dict[str, Any], model: str | None) -> chatcodec.ChatRequest:
    assistant = {"role": "assistant", "content": [thinking, {"type": "text", "text": "answer"}]}
    fields = {} if model is None else {"model": model}
    return _request([{"role": "user", "content": "q"}, assistant, {"role": "user", "content": "more"}], **fields)


def test_anthropic_signed_thinking_replays_to_claude_on_bedrock() -> None:
    thinking = {"type": "thinking", "text": "hmm", "signature": SIGNATURE, "provider": "anthropic"}
    body, losses = _encode(_thinking_turn(thinking, CLAUDE))
    assert body["messages"][1]["content"][0] == {
        "reasoningContent": {"reasoningText": {"text": "hmm", "signature": SIGNATURE}}
    }
    assert losses == []


@pytest.mark.parametrize("model", [NOVA, None])
def test_anthropic_signed_thinking_is_not_sent_where_it_cannot_be_verified(model: str | None) -> None:
    thinking = {"type": "thinking", "text": "hmm", "signature": SIGNATURE, "provider": "anthropic"}
    body, losses = _encode(_thinking_turn(thinking, model))
    assert body["messages"][1]["content"] == [{"text": "answer"}]
    assert _paths(losses) == ["$.messages[1].content[0]"]


def test_foreign_reasoning_can_be_sent_as_text_when_asked() -> None:
    request = _thinking_turn({"type": "thinking", "text": "hmm", "provider": "openai-chat"}, CLAUDE)
    request = request.model_copy(update={"provider_options": {PROVIDER: {"unsigned_thinking": "text"}}})
    body, losses = _encode(request)
    assert body["messages"][1]["content"][0] == {"text": "hmm"}
    assert "plain text" in losses[0].why


def test_bedrock_reasoning_without_signature_replays_to_bedrock() -> None:
    """DeepSeek-R1 and gpt-oss on Bedrock return reasoningText with no signature."""
    body = {
        "messages": [
            {"role": "user", "content": [{"text": "q"}]},
            {"role": "assistant", "content": [{"reasoningContent": {"reasoningText": {"text": "r"}}}, {"text": "a"}]},
        ]
    }
    decoded = chatcodec.decode_request(PROVIDER, body)
    assert chatcodec.encode_request(PROVIDER, decoded, on_loss="error") == body


def test_redacted_reasoning_goes_back_as_redacted_content() -> None:
    thinking = {"type": "thinking", "redacted": True, "encrypted": "RXU4", "provider": PROVIDER}
    body, losses = _encode(_thinking_turn(thinking, CLAUDE))
    assert body["messages"][1]["content"][0] == {"reasoningContent": {"redactedContent": "RXU4"}}
    assert losses == []


def test_claude_thinking_from_bedrock_replays_to_the_anthropic_api_when_the_model_is_known() -> None:
    reasoning = {"reasoningContent": {"reasoningText": {"text": "hmm", "signature": SIGNATURE}}}
    redacted = {"reasoningContent": {"redactedContent": "RXU4"}}
    body = {
        "modelId": CLAUDE,
        "inferenceConfig": {"maxTokens": 100},  # Anthropic requires max_tokens: given, so no loss for it
        "messages": [
            {"role": "user", "content": [{"text": "q"}]},
            {"role": "assistant", "content": [reasoning, redacted, {"text": "a"}]},
            {"role": "user", "content": [{"text": "more"}]},
        ],
    }
    losses: list[chatcodec.Loss] = []
    anthropic = chatcodec.convert_request(body, source=PROVIDER, target="anthropic", on_loss="ignore", losses=losses)
    assert anthropic["messages"][1]["content"][:2] == [
        {"type": "thinking", "thinking": "hmm", "signature": SIGNATURE},
        {"type": "redacted_thinking", "data": "RXU4"},
    ]
    assert losses == []
    back = chatcodec.convert_request(anthropic, source="anthropic", target=PROVIDER, on_loss="ignore", losses=losses)
    assert back["messages"][1]["content"][:2] == [reasoning, redacted]  # model named: Claude verifies it


def test_bedrock_thinking_of_an_unknown_model_is_not_replayed_to_anthropic() -> None:
    reasoning = {"reasoningContent": {"reasoningText": {"text": "hmm", "signature": SIGNATURE}}}
    body = {
        "inferenceConfig": {"maxTokens": 100},
        "messages": [{"role": "assistant", "content": [reasoning, {"text": "a"}]}],
    }
    losses: list[chatcodec.Loss] = []
    anthropic = chatcodec.convert_request(body, source=PROVIDER, target="anthropic", on_loss="ignore", losses=losses)
    assert anthropic["messages"][0]["content"] == [{"type": "text", "text": "a"}]
    assert _paths(losses) == ["$.messages[0].content[0]", "$.model"]  # no modelId: reported


# --- settings --------------------------------------------------------------------------------


def test_inference_settings_and_claude_thinking_map_to_canonical() -> None:
    older = "us.anthropic.claude-3-7-sonnet-20250219-v1:0"  # Claude 4.5+ takes no temperature beside topP
    body = {
        "modelId": older,
        "messages": [{"role": "user", "content": [{"text": "q"}]}],
        "inferenceConfig": {"maxTokens": 512, "temperature": 0.5, "topP": 0.9, "stopSequences": ["END"]},
        "additionalModelRequestFields": {"thinking": {"type": "enabled", "budget_tokens": 2048}, "top_k": 5},
        "guardrailConfig": {"guardrailIdentifier": "g", "guardrailVersion": "1"},
        "requestMetadata": {"team": "a"},
        "performanceConfig": {"latency": "optimized"},
        "promptVariables": {"x": {"text": "y"}},
        "additionalModelResponseFieldPaths": ["/stop_sequence"],
    }
    decoded = chatcodec.decode_request(PROVIDER, body)
    assert (decoded.model, decoded.max_tokens, decoded.temperature, decoded.top_p) == (older, 512, 0.5, 0.9)
    assert decoded.stop == ["END"]
    assert decoded.reasoning == chatcodec.ReasoningConfig(enabled=True, budget_tokens=2048)
    encoded, losses = _encode(decoded)
    assert encoded == body
    assert losses == []


def test_json_schema_output_keeps_its_spelling_and_maps_to_response_format() -> None:
    schema_text = '{"type": "object", "properties": {"a": {"type": "number"}}}'
    text_format = {"type": "json_schema", "structure": {"jsonSchema": {"name": "A", "schema": schema_text}}}
    body = {"messages": [{"role": "user", "content": [{"text": "q"}]}], "outputConfig": {"textFormat": text_format}}
    decoded = chatcodec.decode_request(PROVIDER, body)
    assert decoded.response_format is not None
    assert decoded.response_format.json_schema == json.loads(schema_text)
    assert chatcodec.encode_request(PROVIDER, decoded, on_loss="error") == body


def test_settings_bedrock_has_no_field_for_are_reported() -> None:
    request = _request([{"role": "user", "content": "q"}], seed=1, top_k=3, parallel_tool_calls=False)
    request = request.model_copy(update={"tool_choice": chatcodec.ToolChoice(type="none")})
    _, losses = _encode(request)
    assert sorted(_paths(losses)) == ["$.parallel_tool_calls", "$.seed", "$.tool_choice", "$.top_k"]


# --- the oracle ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"messages": [], "temperature": 1},  # unknown member
        {"messages": [{"role": "user", "content": [{"text": "a", "image": {}}]}]},  # two union members
        {"messages": [{"role": "user", "content": [{"text": 1}]}]},  # wrong type
        {"messages": [{"role": "user", "content": [{"image": {"format": "png", "source": {"bytes": "%%"}}}]}]},
    ],
)
def test_the_botocore_oracle_refuses_what_boto3_refuses(body: dict[str, Any]) -> None:
    with pytest.raises(AssertionError, match="refused by botocore"):
        assert_valid_request(body)


def test_the_response_oracle_refuses_a_missing_required_member() -> None:
    with pytest.raises(AssertionError, match="refused by botocore"):
        assert_valid_response({"output": {"message": {"role": "assistant", "content": []}}, "stopReason": "end_turn"})


def test_a_tool_choice_without_tools_is_not_sent() -> None:
    """botocore: ``toolConfig.tools`` has at least one tool."""
    request = _request([{"role": "user", "content": "q"}], tool_choice={"type": "required"})
    body, losses = _encode(request)
    assert "toolConfig" not in body
    assert _paths(losses) == ["$.tool_choice"]


def test_an_output_effort_that_is_not_text_is_kept_in_the_bag() -> None:
    """``outputConfig.effort`` looked up in a set of strings raised ``TypeError`` for a list
    (generated requests found it); a value that is no known effort, of
    any type, rides in the bag and is written back as it was."""
    payload = {"messages": [], "outputConfig": {"effort": []}}
    request = chatcodec.decode_request("bedrock-converse", payload)
    assert request.reasoning is None
    assert request.provider_options == {"bedrock-converse": {"outputConfig": {"effort": []}}}
    assert chatcodec.encode_request("bedrock-converse", request, on_loss="ignore") == payload


_RESULT_MEDIA: dict[str, dict[str, Any]] = {
    "image": {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
    "document": {
        "type": "document",
        "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0x"},
        "filename": "report",
    },
    "video": {"type": "video", "source": {"type": "base64", "media_type": "video/mp4", "data": "AAAAGGZ0eXA="}},
    "audio": {"type": "audio", "source": {"type": "base64", "media_type": "audio/wav", "data": "UklGRiQ="}},
}


@pytest.mark.parametrize("kind", sorted(_RESULT_MEDIA))
def test_a_tool_result_holds_the_media_botocore_s_tool_result_content_block_has(kind: str) -> None:
    # ToolResultContentBlock's members (botocore's bedrock-runtime model): json, text, image,
    # document, video, searchResult; no audio, which a ContentBlock of a user turn has
    members = set(MODEL.shape_for("ToolResultContentBlock").members)
    call = {"type": "tool_use", "id": "t1", "name": "record", "arguments": "{}"}
    result = {
        "type": "tool_result",
        "tool_use_id": "t1",
        "content": [_RESULT_MEDIA[kind], {"type": "text", "text": "ok"}],
    }
    request = {
        "model": CLAUDE,
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [call]},
            {"role": "tool", "content": [result]},
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(request, source="canonical", target=PROVIDER, on_loss="ignore", losses=losses)
    content = body["messages"][2]["content"][0]["toolResult"]["content"]
    assert_valid_request(body)
    if kind in members:
        assert [next(iter(block)) for block in content] == [kind, "text"]
        assert losses == []
    else:
        assert content == [{"text": "ok"}]
        assert [(loss.path, loss.what) for loss in losses] == [("$.messages[2].content[0].content[0]", f"{kind} part")]
