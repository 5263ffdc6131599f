"""Response bodies: choices, finish reasons, usage, reasoning, and what another provider's
response loses on the way to OpenAI's shape."""

from __future__ import annotations

import time
from typing import Any

import pytest

import chatcodec
from chatcodec import (
    AssistantMessage,
    ChatResponse,
    FinishReason,
    ResponseChoice,
    TextPart,
    ThinkingPart,
    ToolUsePart,
    Usage,
)
from providers.openai_chat.openai_chat_support import (
    FORMAT,
    assert_response_matches_sdk,
    encode_response,
    load_json,
)


def completion(message: dict[str, Any], finish_reason: str | None = "stop", **fields: Any) -> dict[str, Any]:
    choice = {"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish_reason}
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m", "choices": [choice], **fields}


def round_trip(payload: dict[str, Any]) -> ChatResponse:
    response = chatcodec.decode_response(FORMAT, payload)
    encoded, losses = encode_response(response)
    assert encoded == payload
    assert losses == []
    return response


@pytest.mark.parametrize(
    ("unified", "raw", "word", "lost"),
    [
        ("stop", "end_turn", "stop", False),
        ("length", "max_tokens", "length", False),
        ("tool_calls", "tool_use", "tool_calls", False),
        ("content_filter", "SAFETY", "content_filter", False),
        ("refusal", "refusal", "content_filter", True),  # a policy stopped it: not a whole answer
        ("pause", "pause_turn", "stop", True),
        ("error", None, "stop", True),
        ("other", "RECITATION", "stop", True),
        ("other", "eos", "stop", True),  # another provider's word, not one this codec read
    ],
)
def test_finish_reasons_from_elsewhere(unified: str, raw: str | None, word: str, lost: bool) -> None:
    reason = FinishReason(unified=unified, raw=raw)  # type: ignore[arg-type]
    named = {"id": "r1", "model": "m", "created": 1}  # nothing invented: only the finish may be lost
    encoded, losses = encode_response(
        ChatResponse(message=AssistantMessage(content="x"), finish_reason=reason, **named)
    )
    assert encoded["choices"][0]["finish_reason"] == word
    assert bool(losses) is lost
    assert_response_matches_sdk(encoded)


def test_missing_fields_get_placeholders_and_a_missing_finish_reason_a_loss() -> None:
    before = int(time.time())
    encoded, losses = encode_response(ChatResponse(message=AssistantMessage(content="hi")))
    assert before <= encoded["created"] <= time.time()  # stamped now, not 0 (1970)
    assert {key: value for key, value in encoded.items() if key != "created"} == {
        "id": "",
        "object": "chat.completion",
        "model": "",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "length"}],
    }  # an unknown end is cut short, never "stop"
    # the placeholders are values the answer never had: each reported once, a default
    assert [(loss.path, loss.kind) for loss in losses] == [
        ("$.id", "default"),
        ("$.created", "default"),
        ("$.model", "default"),
        ("$.choices[0].finish_reason", "content"),
    ]
    assert_response_matches_sdk(encoded)


def test_usage_details_map_to_canonical_counts() -> None:
    response = chatcodec.decode_response(FORMAT, load_json("response", "cached_tokens_usage"))
    assert response.usage == Usage(
        input_tokens=4020,
        output_tokens=4,
        cache_read_tokens=4012,
        cache_write_tokens=0,
        reasoning_tokens=0,
        provider_metadata={
            FORMAT: {  # zero counts say nothing: a marker another format drops unreported
                "_zero_details": {
                    "prompt_tokens_details": {"audio_tokens": 0},
                    "completion_tokens_details": {
                        "accepted_prediction_tokens": 0,
                        "audio_tokens": 0,
                        "rejected_prediction_tokens": 0,
                    },
                }
            }
        },
    )


def test_usage_from_elsewhere() -> None:
    usage = Usage(input_tokens=100, output_tokens=20, cache_read_tokens=80, cache_write_tokens=10, reasoning_tokens=5)
    response = ChatResponse(
        id="r1",
        model="m",
        created=1,
        message=AssistantMessage(content="x"),
        finish_reason=FinishReason(unified="stop"),
        usage=usage,
    )
    encoded, losses = encode_response(response)
    assert losses == []
    assert encoded["usage"] == {
        "prompt_tokens": 100,
        "completion_tokens": 20,
        "total_tokens": 120,
        "prompt_tokens_details": {"cached_tokens": 80, "cache_write_tokens": 10},
        "completion_tokens_details": {"reasoning_tokens": 5},
    }
    assert_response_matches_sdk(encoded)


def test_usage_oddities_are_kept() -> None:
    """A total that is not the sum and a count of no one's are data; a documented details
    object that is ``null`` is spelling (vLLM's on every answer), written back as it came."""
    usage = {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 9, "prompt_tokens_details": None, "cost": 0.1}
    response = round_trip(completion({"content": "x"}, usage=usage))
    assert response.usage is not None
    assert response.usage.provider_metadata == {
        FORMAT: {"total_tokens": 9, "_nulls": ["prompt_tokens_details"], "cost": 0.1}
    }


def test_n_choices_and_per_choice_logprobs() -> None:
    logprobs = {"content": [{"token": "a", "logprob": -0.1, "bytes": [97], "top_logprobs": []}], "refusal": None}
    payload = completion({"content": "a"})
    payload["choices"].append(
        {"index": 1, "message": {"role": "assistant", "content": "b"}, "finish_reason": "length", "logprobs": logprobs}
    )
    response = round_trip(payload)
    assert [choice.message.text for choice in response.choices] == ["a", "b"]
    assert response.choices[1].provider_metadata is None  # the canonical tokens, every key read
    assert response.choices[1].logprobs == [chatcodec.TokenLogprob(token="a", logprob=-0.1, bytes=[97])]
    assert response.choices[0].logprobs is None


def test_citations_audio_and_legacy_function_call_are_kept() -> None:
    annotation = {
        "type": "url_citation",
        "url_citation": {"start_index": 0, "end_index": 4, "title": "T", "url": "https://x"},
    }
    audio = {"id": "audio_1", "data": "UklG", "expires_at": 1, "transcript": "hi"}
    message = {"content": "Paris", "annotations": [annotation], "audio": audio, "function_call": None, "refusal": None}
    response = round_trip(completion(message))
    # the SDK dump's nulls are spelling (written back here, dropped unreported elsewhere);
    # the url citation is the text's canonical citation (the rest of the message's bag)
    assert response.message.provider_metadata == {FORMAT: {"audio": audio, "_nulls": ["refusal", "function_call"]}}
    cited = {"type": "url_citation", "url": "https://x", "title": "T", "start_index": 0, "end_index": 4}
    order = {FORMAT: {"_citation_keys": ["start_index", "end_index", "title", "url"]}}  # not the writer's order
    citation = chatcodec.UrlCitation.model_validate(cited)
    assert response.message.parts == [TextPart(text="Paris", citations=[citation], provider_metadata=order)]


def test_reasoning_in_responses() -> None:
    response = chatcodec.decode_response(FORMAT, load_json("response", "deepseek_reasoner"))
    thinking, text = response.message.parts
    assert isinstance(thinking, ThinkingPart)
    assert thinking.provider == FORMAT
    assert thinking.text.startswith("Okay, the user is asking how to cross the street.")
    assert isinstance(text, TextPart)
    signed = chatcodec.decode_response(FORMAT, load_json("response", "openrouter_gemini_reasoning_signature_only"))
    detail = signed.message.parts[0]
    assert isinstance(detail, ThinkingPart)
    assert (detail.text, detail.signature is not None) == ("", True)


def anthropic_response(**options: Any) -> ChatResponse:
    return ChatResponse(
        id="msg_1",
        model="claude",
        message=AssistantMessage(
            content=[
                ThinkingPart(text="Plan.", signature="sig", provider="anthropic"),
                TextPart(text="Calling."),
                ToolUsePart(id="toolu_1", name="get", arguments="{}"),
                TextPart(text="Done."),
            ]
        ),
        finish_reason=FinishReason(unified="tool_calls", raw="tool_use"),
        provider_metadata={FORMAT: options} if options else None,
    )


def test_an_anthropic_response_in_openai_shape_with_reasoning_off() -> None:
    encoded, losses = encode_response(anthropic_response(), {"reasoning_field": None})
    message = encoded["choices"][0]["message"]
    assert message == {
        "role": "assistant",
        "content": "Calling.Done.",
        "tool_calls": [{"id": "toolu_1", "type": "function", "function": {"name": "get", "arguments": "{}"}}],
    }
    assert encoded["choices"][0]["finish_reason"] == "tool_calls"
    assert sorted(loss.path for loss in losses) == [
        "$.choices[0].message.content",
        "$.choices[0].message.content",
        "$.choices[0].message.content[0]",
        "$.created",  # an Anthropic message has no creation time: now is invented
    ]
    assert_response_matches_sdk(encoded)


def test_foreign_reasoning_goes_to_reasoning_content_by_default_and_claudes_signature_to_thinking_blocks() -> None:
    encoded, losses = encode_response(anthropic_response())
    message = encoded["choices"][0]["message"]
    assert message["reasoning_content"] == "Plan."
    assert message["thinking_blocks"] == [{"type": "thinking", "thinking": "Plan.", "signature": "sig"}]
    assert "$.choices[0].message.content[0].signature" not in [loss.path for loss in losses]
    assert_response_matches_sdk(encoded)


def test_the_public_reasoning_field_option_names_the_field() -> None:
    converted = chatcodec.encode_response(
        FORMAT, anthropic_response(), options={"reasoning_field": "reasoning"}, on_loss="ignore"
    )
    assert converted["choices"][0]["message"]["reasoning"] == "Plan."
    assert "reasoning_content" not in converted["choices"][0]["message"]


def test_the_response_option_sends_foreign_reasoning() -> None:
    encoded, losses = encode_response(anthropic_response(), {"reasoning_field": "reasoning_content"})
    assert encoded["choices"][0]["message"]["reasoning_content"] == "Plan."
    assert "reasoning_field" not in encoded
    assert encoded["choices"][0]["message"]["thinking_blocks"][0]["signature"] == "sig"
    assert "$.choices[0].message.content[0].signature" not in [loss.path for loss in losses]


def test_mistral_list_content_stays_a_list_in_a_response() -> None:
    content = [{"type": "thinking", "thinking": [{"type": "text", "text": "hm"}]}, {"type": "text", "text": "4"}]
    round_trip(completion({"content": content}))


def test_a_lone_text_part_from_elsewhere_is_a_plain_string() -> None:
    response = ChatResponse(
        id="r1",
        model="m",
        created=1,
        message=AssistantMessage(content=[TextPart(text="hi")]),
        finish_reason=FinishReason(unified="stop"),
    )
    encoded, losses = encode_response(response)
    assert encoded["choices"][0]["message"] == {"role": "assistant", "content": "hi"}
    assert losses == []


def test_refusal_response() -> None:
    response = round_trip(completion({"content": None, "refusal": "I can't help with that."}))
    assert response.message.parts == [chatcodec.RefusalPart(text="I can't help with that.")]


def test_choice_level_fields_of_another_provider_are_reported() -> None:
    choice = ResponseChoice(
        message=AssistantMessage(content="x"),
        finish_reason=FinishReason(unified="stop"),
        provider_metadata={"gemini": {"safetyRatings": []}},
    )
    _, losses = encode_response(
        ChatResponse(
            id="r1", model="m", created=1, choices=[choice], provider_metadata={"anthropic": {"stop_sequence": None}}
        )
    )
    assert sorted(loss.path for loss in losses) == ["$", "$.choices[0]"]


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ({"id": "x", "object": "chat.completion", "created": 1, "model": "m"}, "$.choices"),
        (completion({"content": 5}), "$.choices[0].message.content"),
        (completion({"content": "x"}, finish_reason=3), "$.choices[0].finish_reason"),
        (completion({"content": "x"}, usage={"prompt_tokens": "9"}), "$.usage.prompt_tokens"),
        (
            completion({"tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": None}}]}),
            "$.choices[0].message.tool_calls[0].function.arguments",
        ),
    ],
    ids=["choices-missing", "content-type", "finish-reason-type", "usage-type", "arguments-null"],
)
def test_bad_responses_name_the_path(payload: dict[str, Any], path: str) -> None:
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_response(FORMAT, payload)
    assert raised.value.paths[0] == path


def test_an_error_body_raises_the_providers_error() -> None:
    body = {"message": "Invalid 'messages[1].role'", "type": "invalid_request_error", "param": "messages", "code": None}
    with pytest.raises(chatcodec.ProviderAPIError) as raised:
        chatcodec.decode_response(FORMAT, {"error": body})
    assert (raised.value.error_type, raised.value.body) == ("invalid_request_error", body)
    assert "Invalid 'messages[1].role'" in str(raised.value)
