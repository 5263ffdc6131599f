"""Nova's turns on the AWS family's turn code (``families/aws/turns.py``), each rule from the
Nova user guide's request schema (https://docs.aws.amazon.com/nova/latest/nova2-userguide/request-response-schema.html:
``system`` top-level, turns ``user`` / ``assistant``, "first turn must be user"; "Amazon Nova
models are trained to operate on alternating user and assistant conversational turns") and
the Runtime's content checks it shares with Converse; what Nova cannot carry is reported."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec import Loss


def _to_nova(messages: list[dict[str, Any]]) -> tuple[dict[str, Any], list[Loss]]:
    losses: list[Loss] = []
    body = chatcodec.convert_request(
        {"model": "m", "messages": messages}, source="anthropic", target="bedrock-nova", on_loss="ignore", losses=losses
    )
    return body, losses


def _whats(losses: list[Loss]) -> dict[str, str]:
    return {loss.path: loss.what for loss in losses}


def test_a_later_system_message_is_a_user_turn_nova_has_no_system_turn() -> None:
    messages = [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello"},
        {"role": "system", "content": "now in French"},
    ]
    losses: list[Loss] = []
    body = chatcodec.convert_request(
        {"model": "m", "messages": messages},
        source="openai-chat",
        target="bedrock-nova",
        on_loss="ignore",
        losses=losses,
    )
    assert body["system"] == [{"text": "be brief"}]
    assert [turn["role"] for turn in body["messages"]] == ["user", "assistant", "user"]
    assert body["messages"][-1]["content"] == [{"text": "now in French"}]
    assert _whats(losses)["$.messages[3]"] == "system message"


def test_a_system_turn_in_nova_messages_is_refused_at_its_path() -> None:
    body = {"messages": [{"role": "user", "content": [{"text": "hi"}]}, {"role": "system", "content": [{"text": "x"}]}]}
    with pytest.raises(chatcodec.ChatcodecError, match=r"messages\[1\]\.role"):
        chatcodec.decode_request("bedrock-nova", body)


@pytest.mark.parametrize("blank", ["", "  \n"])
def test_blank_text_is_dropped_and_reported_and_a_turn_left_empty_too(blank: str) -> None:
    body, losses = _to_nova(
        [
            {"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "text", "text": blank}]},
            {"role": "assistant", "content": blank},
            {"role": "user", "content": "again"},
        ]
    )
    assert body["messages"] == [{"role": "user", "content": [{"text": "hi"}, {"text": "again"}]}]
    whats = _whats(losses)
    assert whats["$.messages[0].content[1]"] == "blank text block"
    assert whats["$.messages[1]"] == "empty message"
    assert whats["$.messages[2]"] == "consecutive user message"


def test_consecutive_user_messages_are_one_turn_and_the_merge_is_reported() -> None:
    body, losses = _to_nova([{"role": "user", "content": "a"}, {"role": "user", "content": "b"}])
    assert body["messages"] == [{"role": "user", "content": [{"text": "a"}, {"text": "b"}]}]
    assert _whats(losses) == {"$.messages[1]": "consecutive user message"}


def test_turns_a_nova_body_had_apart_stay_apart() -> None:
    body = {"messages": [{"role": "user", "content": [{"text": "a"}]}, {"role": "user", "content": [{"text": "b"}]}]}
    assert chatcodec.encode_request("bedrock-nova", chatcodec.decode_request("bedrock-nova", body)) == body


def test_tool_results_go_first_in_their_user_turn() -> None:
    call: dict[str, Any] = {"type": "tool_use", "id": "t1", "name": "f", "input": {}}
    result = {"type": "tool_result", "tool_use_id": "t1", "content": "42"}
    body, _ = _to_nova(
        [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [call]},
            {"role": "user", "content": [result, {"type": "text", "text": "thanks"}]},
        ]
    )
    last = body["messages"][-1]
    assert [next(iter(block)) for block in last["content"]] == ["toolResult", "text"]


def test_a_cache_ttl_is_reported_and_a_point_with_one_is_kept_whole() -> None:
    marker = {"type": "ephemeral", "ttl": "1h"}
    body, losses = _to_nova([{"role": "user", "content": [{"type": "text", "text": "hi", "cache_control": marker}]}])
    assert body["messages"][0]["content"] == [{"text": "hi", "cachePoint": {"type": "default"}}]
    assert _whats(losses)["$.messages[0].content[0].cache_control.ttl"] == "cache ttl"
    wire = {
        "messages": [{"role": "user", "content": [{"text": "hi"}, {"cachePoint": {"type": "default", "ttl": "1h"}}]}]
    }
    request = chatcodec.decode_request("bedrock-nova", wire)
    content = request.messages[0].content
    assert not isinstance(content, str)
    assert [part.type for part in content] == ["text", "opaque"]
    assert chatcodec.encode_request("bedrock-nova", request) == wire


def test_an_answer_without_a_finish_reason_gets_the_required_stop_reason_reported() -> None:
    response = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "partial"}}]}
    losses: list[Loss] = []
    body = chatcodec.convert_response(
        response, source="canonical", target="bedrock-nova", on_loss="ignore", losses=losses
    )
    converse = chatcodec.convert_response(response, source="canonical", target="bedrock-converse", on_loss="ignore")
    assert body["stopReason"] == converse["stopReason"] == "max_tokens"
    assert _whats(losses)["$.choices[0].finish_reason"] == "missing finish reason"


def test_an_empty_thinking_signature_is_reported_not_dropped_silently() -> None:
    """Nova's reasoning carries no signature: a thinking part's ``signature: ""`` reads back
    as none, so it is reported like a signature with text (the losses law found it silent)."""
    thinking = {"type": "thinking", "text": "step", "signature": "", "provider": "bedrock-nova"}
    request = chatcodec.validate_model(
        chatcodec.ChatRequest,
        {"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": [thinking]}]},
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("bedrock-nova", request, on_loss="ignore", losses=losses)
    assert body["messages"][1]["content"] == [{"reasoningContent": {"reasoningText": {"text": "step"}}}]
    assert [loss.path for loss in losses] == ["$.messages[1].content[0].signature"]
