"""The Gemini API's rules on encode, and the quirks the codec reads, each a named test
(signatures, ids, roles, spellings, finish reasons, usage, errors)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import chatcodec
from providers.gemini.gemini_support import (
    assert_valid_request,
    assert_valid_response,
    encode_request,
    encode_response,
    load_json,
)

SIGNATURE = "EqQBCqEBAXLI2nw="


def _model_turn(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"role": "model", "parts": list(parts)}


def _user(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "parts": list(parts)}


def _call(name: str, args: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"functionCall": {"name": name, "args": args}, **extra}


def _response(name: str, output: str) -> dict[str, Any]:
    return {"functionResponse": {"name": name, "response": {"output": output}}}


# --- thought signatures --------------------------------------------------------------------------


def test_a_signature_goes_back_inside_the_part_it_came_with() -> None:
    body = load_json("request", "parallel_function_responses_empty_text.json")
    request = chatcodec.decode_request("gemini", body)
    calls = request.messages[2].parts  # three parallel calls, only the first signed
    assert "thoughtSignature" in (calls[0].provider_metadata or {})["gemini"]
    encoded, losses = encode_request(request)
    assert encoded == body
    assert losses == []
    parts = encoded["contents"][1]["parts"]
    assert ["thoughtSignature" in part for part in parts] == [True, False, False]


def test_signed_parts_are_never_merged() -> None:
    assistant = chatcodec.AssistantMessage(
        content=[
            chatcodec.TextPart(text="a", provider_metadata={"gemini": {"thoughtSignature": "czE="}}),
            chatcodec.TextPart(text="b", provider_metadata={"gemini": {"thoughtSignature": "czI="}}),
            chatcodec.TextPart(text="c"),
        ]
    )
    encoded, losses = encode_request(chatcodec.ChatRequest(messages=[chatcodec.UserMessage(content="hi"), assistant]))
    assert encoded["contents"][1]["parts"] == [
        {"text": "a", "thoughtSignature": "czE="},
        {"text": "b", "thoughtSignature": "czI="},
        {"text": "c"},
    ]
    assert losses == []


def test_a_thought_keeps_its_signature_on_the_thinking_part() -> None:
    response = chatcodec.decode_response("gemini", load_json("response", "thought_parts.json"))
    thought, answer = response.message.parts
    assert isinstance(thought, chatcodec.ThinkingPart)
    assert thought.provider == "gemini"
    assert thought.model == "gemini-3-pro-preview"
    assert isinstance(answer, chatcodec.TextPart)
    assert "thoughtSignature" in (answer.provider_metadata or {})["gemini"]


def _foreign_history(model: str | None = None, **options: Any) -> chatcodec.ChatRequest:
    return chatcodec.ChatRequest(
        model=model,
        messages=[
            chatcodec.UserMessage(content="weather?"),
            chatcodec.AssistantMessage(content=[chatcodec.ToolUsePart(id="call_1", name="get", arguments='{"c":"x"}')]),
            chatcodec.ToolMessage(content=[chatcodec.ToolResultPart(tool_use_id="call_1", content="sunny")]),
        ],
        provider_options={"gemini": options} if options else None,
    )


def test_an_unsigned_first_call_is_reported_by_default() -> None:
    encoded, losses = encode_request(_foreign_history())
    assert "thoughtSignature" not in encoded["contents"][1]["parts"][0]
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[1].content[0]", "thought signature")]


def test_the_skip_policy_writes_the_documented_sentinel() -> None:
    encoded, losses = encode_request(_foreign_history(missing_signature="skip"))
    assert encoded["contents"][1]["parts"][0]["thoughtSignature"] == "skip_thought_signature_validator"
    assert losses == []
    assert "missing_signature" not in json.dumps(encoded)
    again = chatcodec.decode_request("gemini", encoded)
    call = again.messages[1].parts[0]
    assert (call.provider_metadata or {})["gemini"] == {"_skip_signature": True}
    assert encode_request(again)[0] == encoded


def test_models_that_do_not_validate_signatures_are_left_alone() -> None:
    encoded, losses = encode_request(_foreign_history(model="gemini-2.5-flash"))
    assert losses == []
    assert "thoughtSignature" not in encoded["contents"][1]["parts"][0]


def test_only_the_current_turn_is_checked() -> None:
    history = _foreign_history().messages
    request = chatcodec.ChatRequest(messages=[*history, chatcodec.UserMessage(content="and tomorrow?")])
    encoded, losses = encode_request(request)
    assert losses == []
    assert len(encoded["contents"]) == 4


def test_calls_gemini_sent_unsigned_are_not_reported() -> None:
    body = load_json("request", "parallel_function_responses_empty_text.json")
    second_only = copy.deepcopy(body)
    del second_only["contents"][1]["parts"][0]["thoughtSignature"]
    encoded, losses = encode_request(chatcodec.decode_request("gemini", second_only))
    assert encoded == second_only
    assert losses == []


def test_another_providers_thinking_is_never_sent_as_a_gemini_thought() -> None:
    assistant = chatcodec.AssistantMessage(
        content=[
            chatcodec.ThinkingPart(text="hm", signature="anthropic-sig", provider="anthropic"),
            chatcodec.TextPart(text="ok", provider_metadata={"anthropic": {"citations": []}}),
        ]
    )
    encoded, losses = encode_request(chatcodec.ChatRequest(messages=[chatcodec.UserMessage(content="q"), assistant]))
    assert encoded["contents"][1]["parts"] == [{"text": "ok"}]
    assert "anthropic-sig" not in json.dumps(encoded)
    assert {loss.what for loss in losses} == {"thinking", "anthropic data ['citations']"}


def test_a_gemini_signature_is_never_replayed_to_anthropic() -> None:
    body = load_json("request", "vertex_snake_case_function_error_responses.json")
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(body, source="gemini", target="anthropic", on_loss="ignore", losses=losses)
    signature = body["contents"][1]["parts"][0]["thought_signature"]
    assert signature not in json.dumps(converted)
    assert any("thoughtSignature" in loss.what for loss in losses)


# --- ids and pairing -----------------------------------------------------------------------------


def test_ids_are_made_up_deterministically_and_not_written_back() -> None:
    body = {
        "contents": [
            _user({"text": "two cities"}),
            _model_turn(
                _call("weather", {"city": "Paris"}, thoughtSignature=SIGNATURE), _call("weather", {"city": "Rome"})
            ),
            _user(_response("weather", "rain"), _response("weather", "sun")),
        ]
    }
    request = chatcodec.decode_request("gemini", body)
    calls = request.messages[1].parts
    results = request.messages[2].parts
    assert [call.id for call in calls] == ["gemini_call_1_0", "gemini_call_1_1"]  # type: ignore[union-attr]
    assert [(result.tool_use_id, result.content) for result in results] == [  # type: ignore[union-attr]
        ("gemini_call_1_0", "rain"),
        ("gemini_call_1_1", "sun"),
    ]
    assert chatcodec.decode_request("gemini", body) == request
    encoded, losses = encode_request(request)
    assert encoded == body
    assert losses == []


def test_a_result_pairs_with_its_call_by_id_when_two_calls_share_a_name() -> None:
    request = chatcodec.ChatRequest(
        messages=[
            chatcodec.UserMessage(content="q"),
            chatcodec.AssistantMessage(
                content=[
                    chatcodec.ToolUsePart(id="a", name="f", arguments="{}"),
                    chatcodec.ToolUsePart(id="b", name="f", arguments="{}"),
                ]
            ),
            chatcodec.ToolMessage(content=[chatcodec.ToolResultPart(tool_use_id="b", content="second")]),
            chatcodec.ToolMessage(content=[chatcodec.ToolResultPart(tool_use_id="a", content="first")]),
        ],
        provider_options={"gemini": {"missing_signature": "skip"}},
    )
    encoded, _ = encode_request(request)
    results = encoded["contents"][2]["parts"]
    assert [part["functionResponse"]["id"] for part in results] == ["b", "a"]
    decoded = chatcodec.decode_request("gemini", encoded)
    assert [(part.tool_use_id, part.text) for part in decoded.messages[2].parts] == [  # type: ignore[union-attr]
        ("b", "second"),
        ("a", "first"),
    ]


def test_an_openai_history_becomes_user_and_model_turns() -> None:
    openai = {
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "weather in Paris?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "call_9", "type": "function", "function": {"name": "get", "arguments": '{"c": "Paris"}'}}
                ],
            },
            {"role": "tool", "tool_call_id": "call_9", "content": "rain"},
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(openai, source="openai-chat", target="gemini", on_loss="ignore", losses=losses)
    assert body["systemInstruction"] == {"parts": [{"text": "be brief"}]}
    assert [content["role"] for content in body["contents"]] == ["user", "model", "user"]
    assert body["contents"][1]["parts"][0]["functionCall"] == {"name": "get", "args": {"c": "Paris"}, "id": "call_9"}
    assert body["contents"][2]["parts"] == [
        {"functionResponse": {"name": "get", "response": {"output": "rain"}, "id": "call_9"}}
    ]
    assert [loss.what for loss in losses] == ["thought signature"]
    assert_valid_request(body)


def test_tool_results_of_one_turn_go_in_one_user_turn() -> None:
    request = _foreign_history(missing_signature="skip")
    two = request.model_copy(
        update={
            "messages": [
                *request.messages[:2],
                chatcodec.ToolMessage(
                    content=[chatcodec.ToolResultPart(tool_use_id="call_1", content="a", name="get")]
                ),
                chatcodec.ToolMessage(
                    content=[chatcodec.ToolResultPart(tool_use_id="call_2", content="b", name="get")]
                ),
            ]
        }
    )
    encoded, _ = encode_request(two)
    assert len(encoded["contents"]) == 3
    assert [list(part) for part in encoded["contents"][2]["parts"]] == [["functionResponse"], ["functionResponse"]]


def test_result_texts_and_objects_are_told_apart() -> None:
    results = [
        chatcodec.ToolResultPart(tool_use_id="1", name="f", content='{"a":1}'),
        chatcodec.ToolResultPart(tool_use_id="2", name="f", content='{"a": 1}'),
        chatcodec.ToolResultPart(tool_use_id="3", name="f", content="boom", is_error=True),
        chatcodec.ToolResultPart(tool_use_id="4", name="f", content='{"output":"x"}'),
    ]
    request = chatcodec.ChatRequest(messages=[chatcodec.ToolMessage(content=results)])
    encoded, losses = encode_request(request)
    responses = [part["functionResponse"]["response"] for part in encoded["contents"][0]["parts"]]
    assert responses == [{"a": 1}, {"output": '{"a": 1}'}, {"error": "boom"}, {"output": '{"output":"x"}'}]
    assert chatcodec.decode_request("gemini", encoded).messages[0].content == results
    assert losses == []


def test_tool_objects_keep_their_grouping() -> None:
    body: dict[str, Any] = {
        "contents": [],
        "tools": [
            {"googleSearch": {}},
            {"functionDeclarations": [{"name": "a"}]},
            {"functionDeclarations": [{"name": "b"}], "codeExecution": {}},
        ],
    }
    request = chatcodec.decode_request("gemini", body)
    assert [tool.name for tool in request.tools] == ["a", "b"]
    assert [tool.data for tool in request.provider_tools] == [{"googleSearch": {}}, {"codeExecution": {}}]
    assert encode_request(request) == (body, [])
    edited = request.model_copy(update={"tools": request.tools[:1]})  # the grouping no longer fits
    assert encode_request(edited)[0]["tools"] == [
        {"functionDeclarations": [{"name": "a"}]},
        {"googleSearch": {}},
        {"codeExecution": {}},
    ]


def test_a_string_system_instruction_is_read_and_written_back() -> None:
    body = {"contents": [_user({"text": "hi"})], "system_instruction": "be brief"}
    request = chatcodec.decode_request("gemini", body)
    assert request.system_text == "be brief"
    assert encode_request(request) == (body, [])
    edited = request.model_copy(
        update={"messages": [chatcodec.SystemMessage(content="be kind"), *request.messages[1:]]}
    )
    assert encode_request(edited)[0]["system_instruction"] == {"parts": [{"text": "be kind"}]}  # spelled as it came


# --- spelling ------------------------------------------------------------------------------------


def test_snake_case_comes_back_snake_case_and_new_data_goes_camel_case() -> None:
    body = load_json("request", "vertex_snake_case_function_error_responses.json")
    request = chatcodec.decode_request("gemini", body)
    assert encode_request(request)[0] == body
    fresh = request.model_copy(update={"provider_options": None})
    encoded = encode_request(fresh)[0]
    assert "function_call" not in json.dumps(encoded)
    assert "functionCall" in json.dumps(encoded)


def test_an_error_names_the_path_as_the_payload_spelled_it() -> None:
    body = load_json("request", "vertex_snake_case_function_error_responses.json")
    body["contents"][1]["parts"][0]["function_call"]["args"] = 5
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_request("gemini", body)
    assert raised.value.paths == ["$.contents[1].parts[0].function_call.args"]


# --- responses -----------------------------------------------------------------------------------


def test_a_blocked_prompt_is_a_content_filter_response_not_a_crash() -> None:
    body = load_json("response", "prompt_blocked_model_armor.json")
    response = chatcodec.decode_response("gemini", body)
    assert response.finish_reason == chatcodec.FinishReason(unified="content_filter", raw="MODEL_ARMOR")
    assert response.message.parts == []
    assert encode_response(response) == (body, [])


@pytest.mark.parametrize("name", ["error_404_model_not_found.json", "error_400_invalid_argument_vertex.json"])
def test_error_bodies_are_provider_errors(name: str) -> None:
    body = load_json("response", name)
    with pytest.raises(chatcodec.ProviderAPIError) as raised:
        chatcodec.decode_response("gemini", body)
    assert raised.value.error_type == body["error"]["status"]
    assert raised.value.body == body


def test_stop_with_a_function_call_means_tool_calls() -> None:
    response = chatcodec.decode_response("gemini", load_json("response", "function_call_thought_signature.json"))
    assert response.finish_reason == chatcodec.FinishReason(unified="tool_calls", raw="STOP")
    call = response.message.parts[0]
    assert isinstance(call, chatcodec.ToolUsePart)
    assert call.id == "gemini_call_7UJaaubyNKDXz7IP_9HOUA_0_0"


def test_usage_counts_nothing_twice() -> None:
    usage = chatcodec.decode_response("gemini", load_json("response", "code_execution_parts.json")).usage
    assert usage is not None
    # prompt 343 + tool-use prompt 877 read; candidates 82 + thoughts 159 written; total 1461
    assert (usage.input_tokens, usage.output_tokens, usage.reasoning_tokens) == (1220, 241, 159)
    assert usage.total_tokens == 1461
    cached = {"promptTokenCount": 100, "cachedContentTokenCount": 60, "candidatesTokenCount": 5, "totalTokenCount": 105}
    body = {
        "candidates": [{"content": {"parts": [{"text": "x"}], "role": "model"}, "index": 0}],
        "usageMetadata": cached,
    }
    read = chatcodec.decode_response("gemini", body).usage
    assert read is not None
    assert (read.input_tokens, read.cache_read_tokens, read.output_tokens) == (100, 60, 5)
    assert encode_response(chatcodec.decode_response("gemini", body)) == (body, [])


def test_an_encoded_response_passes_the_sdk() -> None:
    response = chatcodec.ChatResponse(
        id="r",
        model="m",
        message=chatcodec.AssistantMessage(
            content=[
                chatcodec.ThinkingPart(text="t", signature="c2ln", provider="gemini"),
                chatcodec.TextPart(text="a"),
                chatcodec.ToolUsePart(id="x", name="f", arguments='{"k": 1}'),
            ]
        ),
        finish_reason=chatcodec.FinishReason(unified="tool_calls"),
        usage=chatcodec.Usage(input_tokens=3, output_tokens=4, reasoning_tokens=1),
    )
    body, losses = encode_response(response)
    assert losses == []
    assert_valid_response(body)
    assert body["usageMetadata"] == {
        "promptTokenCount": 3,
        "candidatesTokenCount": 3,
        "thoughtsTokenCount": 1,
        "totalTokenCount": 7,
    }


def test_the_oracle_rejects_unknown_fields() -> None:
    body = load_json("request", "safety_settings.json")
    with pytest.raises(Exception, match="extra"):
        assert_valid_request({**body, "generationConfig": {"temprature": 1}})
    with pytest.raises(Exception, match="extra"):
        assert_valid_response({"candidates": [{"content": {"parts": [{"txt": "a"}]}}]})


# --- streams -------------------------------------------------------------------------------------


def test_a_json_array_stream_reads_like_sse() -> None:
    """``streamGenerateContent`` without ``alt=sse`` sends one JSON array of chunks."""
    text = (load_json.__globals__["FIXTURES"] / "stream" / "text.sse").read_text(encoding="utf-8")
    chunks = [json.loads(line[len("data: ") :]) for line in text.splitlines() if line.startswith("data: ")]
    expected = chatcodec.accumulate_stream("gemini", text)
    assert chatcodec.accumulate_stream("gemini", json.dumps(chunks, indent=2)) == expected
    assert chatcodec.accumulate_stream("gemini", json.dumps(chunks).encode()) == expected
    assert chatcodec.accumulate_stream("gemini", chunks) == expected
    with pytest.raises(chatcodec.StreamError, match="not a valid JSON array"):
        chatcodec.accumulate_stream("gemini", json.dumps(chunks)[:-1])


def test_parallel_streamed_calls_do_not_overwrite_each_other() -> None:
    chunks = [
        {
            "candidates": [
                {"content": {"parts": [_call("f", {"a": 1}, thoughtSignature="s")], "role": "model"}, "index": 0}
            ]
        },
        {
            "candidates": [
                {"content": {"parts": [_call("f", {"a": 2})], "role": "model"}, "index": 0, "finishReason": "STOP"}
            ]
        },
    ]
    response = chatcodec.accumulate_stream("gemini", chunks)
    assert [(part.id, part.arguments) for part in response.message.parts] == [  # type: ignore[union-attr]
        ("gemini_call_0_0", '{"a":1}'),
        ("gemini_call_0_1", '{"a":2}'),
    ]
    assert response.finish_reason == chatcodec.FinishReason(unified="tool_calls", raw="STOP")


def test_vertex_partial_arguments_assemble_into_whole_calls() -> None:
    text = (load_json.__globals__["FIXTURES"] / "stream" / "vertex_partial_args_will_continue.jsonl").read_text()
    response = chatcodec.accumulate_stream("gemini", text)
    assert [(part.name, part.arguments) for part in response.message.parts] == [  # type: ignore[union-attr]
        ("getWeather", '{"location":"Boston"}'),
        ("getWeather", '{"location":"San Francisco"}'),
    ]


def test_a_trailing_signature_chunk_signs_the_text_it_follows() -> None:
    text = (load_json.__globals__["FIXTURES"] / "stream" / "gemini3_trailing_signature_chunk.jsonl").read_text()
    response = chatcodec.accumulate_stream("gemini", text)
    (part,) = response.message.parts
    assert isinstance(part, chatcodec.TextPart)
    assert part.text.endswith("St**r**awbe**rr**y")
    assert (part.provider_metadata or {})["gemini"]["thoughtSignature"].startswith("EpAICo0I")


def test_usage_mid_stream_is_live_and_final_at_the_end() -> None:
    text = (load_json.__globals__["FIXTURES"] / "stream" / "usage_mid_stream.sse").read_text()
    usages = [
        event.usage for event in chatcodec.decode_stream("gemini", text) if isinstance(event, chatcodec.UsageEvent)
    ]
    assert [usage.output_tokens for usage in usages] == [66, 114, 115, 115]
    assert usages[-1].provider_metadata == {
        "gemini": {"promptTokensDetails": [{"modality": "TEXT", "tokenCount": 18}], "serviceTier": "standard"}
    }


@pytest.mark.parametrize("key", ["fileData", "file_data"])
def test_an_empty_file_uri_is_refused_at_its_wire_path(key: str) -> None:
    """A URL source names something: refused at the wire path, not at the canonical
    ``source.url`` the input does not have (found by the long fuzz run)."""
    uri = "fileUri" if key == "fileData" else "file_uri"
    body = {"contents": [{"role": "user", "parts": [{"text": "see"}, {key: {uri: "", "mimeType": "image/png"}}]}]}
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.decode_request("gemini", body)
    assert caught.value.paths == [f"$.contents[0].parts[1].{key}.{uri}"]
