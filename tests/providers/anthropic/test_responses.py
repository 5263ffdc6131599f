"""Responses: content order, thinking attribution, finish reasons, usage without double
counting, and what a response from another provider loses on the way to Anthropic."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from providers.anthropic.anthropic_support import assert_valid_response, encode_response, load_json


def test_content_blocks_keep_their_order_and_kinds() -> None:
    response = chatcodec.decode_response("anthropic", load_json("response", "web_search_citations_thinking.json"))
    kinds = [part.type for part in response.message.parts]
    assert kinds[:3] == ["thinking", "opaque", "opaque"]
    assert set(kinds[3:]) == {"text"}
    citations = response.message.parts[4].provider_metadata
    assert citations is not None
    assert citations["anthropic"]["citations"][0]["type"] == "web_search_result_location"


def test_decoded_thinking_names_anthropic_and_the_model() -> None:
    response = chatcodec.decode_response("anthropic", load_json("response", "thinking_text_tool_use.json"))
    thinking = response.message.thinking[0]
    assert (thinking.provider, thinking.model) == ("anthropic", "claude-sonnet-4-20250514")
    assert thinking.signature is not None
    assert thinking.signature.startswith("EqEECkYICxgCKkAo3UA4")


def test_redacted_thinking_stays_encrypted() -> None:
    payload = load_json("response", "redacted_thinking.json")
    thinking = chatcodec.decode_response("anthropic", payload).message.thinking[0]
    assert thinking.redacted
    assert thinking.text == ""
    assert thinking.encrypted == payload["content"][0]["data"]


def test_server_tool_blocks_and_container_are_kept() -> None:
    payload = load_json("response", "server_tool_code_execution_result.json")
    response = chatcodec.decode_response("anthropic", payload)
    opaque = [part for part in response.message.parts if isinstance(part, chatcodec.OpaquePart)]
    assert [part.data["type"] for part in opaque] == ["server_tool_use", "code_execution_tool_result"]
    assert response.provider_metadata == {"anthropic": {"container": payload["container"], "_nulls": ["stop_details"]}}


def test_usage_counts_cache_reads_and_writes_once() -> None:
    """``input_tokens`` 3 + cache read 1111 + cache write 418 = a 1532-token prompt."""
    payload = load_json("response", "cache_read_and_creation_usage.json")
    usage = chatcodec.decode_response("anthropic", payload).usage
    assert usage is not None
    assert (usage.input_tokens, usage.cache_read_tokens, usage.cache_write_tokens) == (1532, 1111, 418)
    assert usage.total_tokens == 1532 + 33
    metadata = usage.provider_metadata
    assert metadata is not None
    assert metadata["anthropic"]["cache_creation"] == {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 418}


def test_thinking_tokens_are_reasoning_tokens() -> None:
    payload = load_json("response", "web_search_citations_thinking.json")
    usage = chatcodec.decode_response("anthropic", payload).usage
    assert usage is not None
    assert usage.reasoning_tokens == 80
    assert usage.provider_metadata is not None
    assert usage.provider_metadata["anthropic"]["server_tool_use"] == {
        "web_fetch_requests": 0,
        "web_search_requests": 1,
    }


def _named(response: dict[str, Any]) -> dict[str, Any]:
    """A response with the ``id`` and ``model`` an Anthropic ``Message`` requires."""
    return {"id": "msg_1", "model": "claude-sonnet-4-5", **response}


def test_inclusive_usage_from_another_provider_is_split_back() -> None:
    """OpenAI counts cached tokens inside ``prompt_tokens``; Anthropic outside."""
    usage = {"input_tokens": 100, "output_tokens": 7, "cache_read_tokens": 30, "reasoning_tokens": 2}
    body, losses = encode_response(_named({"message": {"role": "assistant", "content": "hi"}, "usage": usage}))
    assert body["usage"] == {
        "input_tokens": 70,
        "output_tokens": 7,
        "cache_read_input_tokens": 30,
        "output_tokens_details": {"thinking_tokens": 2},
    }
    assert losses == []


def test_inconsistent_usage_is_clamped_and_reported() -> None:
    usage = {"input_tokens": 10, "cache_read_tokens": 30}
    body, losses = encode_response(_named({"message": {"role": "assistant", "content": "hi"}, "usage": usage}))
    assert body["usage"]["input_tokens"] == 0
    # and output_tokens written as 0, reported as invented
    assert [loss.path for loss in losses] == ["$.usage.input_tokens", "$.usage.output_tokens"]


@pytest.mark.parametrize(
    ("finish_reason", "stop_reason", "lossy"),
    [
        ({"unified": "stop", "raw": "stop"}, "end_turn", False),
        ({"unified": "length", "raw": "MAX_TOKENS"}, "max_tokens", False),
        ({"unified": "tool_calls", "raw": "tool_calls"}, "tool_use", False),
        ({"unified": "content_filter", "raw": "content_filter"}, "refusal", True),
        ({"unified": "error"}, "end_turn", True),
        ({"unified": "pause"}, "pause_turn", False),
        ({"unified": "other", "raw": "STOP"}, "end_turn", True),
        # a word no Anthropic decoder read is not written back
        ({"unified": "other", "raw": "recitation_blocked"}, "end_turn", True),
    ],
)
def test_finish_reasons_from_other_providers(finish_reason: dict[str, Any], stop_reason: str, lossy: bool) -> None:
    response = {"message": {"role": "assistant", "content": "x"}, "finish_reason": finish_reason}
    body, losses = encode_response(_named(response | {"usage": {"input_tokens": 1, "output_tokens": 1}}))
    assert body["stop_reason"] == stop_reason
    assert bool(losses) is lossy


def test_stop_sequence_and_refusal_details_are_kept() -> None:
    payload = load_json("response", "refusal_stop_details.json")
    response = chatcodec.decode_response("anthropic", payload)
    assert response.message.parts == []
    assert response.finish_reason == chatcodec.FinishReason(unified="refusal", raw="refusal")
    assert response.provider_metadata is not None
    assert response.provider_metadata["anthropic"]["stop_details"]["category"] == "cyber"


def test_a_response_from_another_provider_encodes_to_a_valid_message() -> None:
    response = {
        "id": "chatcmpl-1",
        "model": "gpt-5",
        "created": 1700000000,
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "content": [
                        {"type": "thinking", "text": "plan", "provider": "openai", "encrypted": "gAAA"},
                        {"type": "text", "text": "hi"},
                        {"type": "refusal", "text": "no"},
                        {"type": "image", "source": {"type": "url", "url": "https://x/y.png"}},
                        {"type": "tool_use", "id": "call_1", "name": "f", "arguments": '{"a": 1}'},
                    ],
                },
                "finish_reason": {"unified": "tool_calls", "raw": "tool_calls"},
                "provider_metadata": {"openai": {"logprobs": None}},
            },
            {"index": 1, "message": {"role": "assistant", "content": "second"}},
        ],
        "usage": {"input_tokens": 12, "output_tokens": 3},
        "provider_metadata": {"openai": {"system_fingerprint": "fp_1"}},
    }
    body, losses = encode_response(response)
    assert_valid_response(body)
    assert [block["type"] for block in body["content"]] == ["thinking", "text", "text", "tool_use"]
    assert body["content"][0] == {"type": "thinking", "thinking": "plan", "signature": ""}
    assert body["content"][3]["input"] == {"a": 1}
    assert sorted(loss.path for loss in losses) == [
        "$",
        "$.choices[0]",
        "$.choices[0].message.content[0].encrypted",
        "$.choices[0].message.content[0].signature",
        "$.choices[0].message.content[2]",
        "$.choices[0].message.content[3]",
        "$.choices[1]",
    ]


def test_an_empty_foreign_response_still_has_the_required_fields_and_says_they_are_invented() -> None:
    """``id``, ``model`` and ``usage`` the source lacks are reported."""
    body, losses = encode_response({"message": {"role": "assistant", "content": ""}})
    assert body == {
        "type": "message",
        "role": "assistant",
        "stop_sequence": None,
        "id": "",
        "model": "",
        "content": [],
        "stop_reason": None,
        "usage": {"input_tokens": 0, "output_tokens": 0},
    }
    assert [loss.path for loss in losses] == ["$.id", "$.model", "$.usage"]
    assert_valid_response(body)


def test_a_response_without_type_or_stop_sequence_round_trips() -> None:
    """Anthropic-compatible endpoints leave fields out; absent stays absent."""
    payload = {"id": "m1", "model": "x", "content": [{"type": "text", "text": "hi"}], "usage": {"input_tokens": 1}}
    assert encode_response(chatcodec.decode_response("anthropic", payload)) == (payload, [])


@pytest.mark.parametrize("text", ["", "I can't help with that."], ids=["empty", "text"])
def test_a_refusal_part_is_reported_whether_or_not_it_has_text(text: str) -> None:
    """Anthropic has no refusal block (it says a refusal by ``stop_reason``): a refusal's text
    is sent as a text block, and an empty one is not sent at all (no empty text block), but
    the answer's refusing is gone either way, in a body and in a stream alike."""
    from chatcodec.streams._replay import events_from_response

    answer = chatcodec.ChatResponse.model_validate(
        {
            "id": "resp_1",
            "model": "gpt-5",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": [{"type": "refusal", "text": text}]}}],
            "usage": {"input_tokens": 3, "output_tokens": 0},
        }
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_response("anthropic", answer, on_loss="ignore", losses=losses)
    assert body["content"] == ([{"type": "text", "text": text}] if text else [])
    assert [loss.what for loss in losses if "refusal" in loss.what] == ["refusal part"]
    for split in (lambda whole: [whole], lambda whole: list(whole) or [""]):
        streamed: list[chatcodec.Loss] = []
        events = events_from_response(answer, split)
        wire = list(chatcodec.encode_stream("anthropic", events, on_loss="ignore", losses=streamed))
        assert [loss.what for loss in streamed if "refusal" in loss.what] == ["refusal part"]
        assert [event["type"] for event in wire].count("content_block_start") == (1 if text else 0)
