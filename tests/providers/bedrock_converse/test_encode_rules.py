"""Converse request rules, each a 400 from Bedrock when broken: role
alternation, prefill whitespace, thinking of unknown origin, the empty text between signed
reasoning blocks, and tool arguments that are not a JSON object. Every body is checked by
botocore's own validator."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from providers.bedrock_converse.bedrock_support import assert_valid_request

PROVIDER = "bedrock-converse"
CLAUDE = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
DEEPSEEK = "us.deepseek.r1-v1:0"
SIGNATURE = "EvYBCkgICxABGAIqQA9E9VC377UnbjdfXCw4RwQaaIXsqocZKzI3WwWtXT"


def _encode(messages: list[Any], **fields: Any) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    request = chatcodec.validate_model(chatcodec.ChatRequest, {"messages": messages, **fields})
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(PROVIDER, request, on_loss="ignore", losses=losses)
    assert_valid_request(body)
    return body, losses


# --- alternation -----------------------------------------------------------------------------


def test_bedrock_merges_consecutive_same_role_messages() -> None:
    """Converse: "A conversation must alternate between user and assistant roles"."""
    body, losses = _encode(
        [
            {"role": "user", "content": "one"},
            {"role": "user", "content": "two"},
            {"role": "assistant", "content": "a"},
            {"role": "assistant", "content": "b"},
            {"role": "user", "content": "three"},
        ]
    )
    assert [message["role"] for message in body["messages"]] == ["user", "assistant", "user"]
    assert body["messages"][0]["content"] == [{"text": "one"}, {"text": "two"}]
    assert body["messages"][1]["content"] == [{"text": "a"}, {"text": "b"}]
    assert [loss.path for loss in losses] == ["$.messages[1]", "$.messages[3]"]
    assert all("alternat" in loss.why for loss in losses)


def test_bedrock_keeps_apart_consecutive_turns_it_read_apart() -> None:
    """What a Bedrock request said goes back as it was (its own round trip is exact)."""
    body = {
        "messages": [
            {"role": "user", "content": [{"text": "one"}]},
            {"role": "user", "content": [{"text": "two"}]},
            {"role": "assistant", "content": [{"text": "a"}]},
        ]
    }
    decoded = chatcodec.decode_request(PROVIDER, body)
    assert chatcodec.encode_request(PROVIDER, decoded, on_loss="error") == body


def test_bedrock_merges_a_user_message_into_the_turn_left_after_a_dropped_one() -> None:
    body, losses = _encode(
        [
            {"role": "user", "content": "one"},
            {"role": "assistant", "content": "  "},
            {"role": "user", "content": "two"},
        ]
    )
    assert body["messages"] == [{"role": "user", "content": [{"text": "one"}, {"text": "two"}]}]
    assert [loss.path for loss in losses][-1] == "$.messages[2]"


# --- prefill ---------------------------------------------------------------------------------


@pytest.mark.parametrize("model", [CLAUDE, None])
def test_bedrock_trims_a_final_assistant_prefill_ending_in_whitespace(model: str | None) -> None:
    fields = {} if model is None else {"model": model}
    body, losses = _encode(
        [{"role": "user", "content": "q"}, {"role": "assistant", "content": "The answer is: "}], **fields
    )
    assert body["messages"][-1]["content"] == [{"text": "The answer is:"}]
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.messages[1]", "trailing whitespace of the final assistant turn")
    ]


def test_bedrock_trims_the_prefill_text_before_its_cache_point() -> None:
    prefill = {
        "role": "assistant",
        "content": [{"type": "text", "text": "So ", "cache_control": {"type": "ephemeral"}}],
    }
    body, losses = _encode([{"role": "user", "content": "q"}, prefill], model=CLAUDE)
    assert body["messages"][-1]["content"] == [{"text": "So"}, {"cachePoint": {"type": "default"}}]
    assert [loss.path for loss in losses] == ["$.messages[1].content[0]"]


def test_bedrock_leaves_a_prefill_alone_for_a_model_that_is_not_claude() -> None:
    body, losses = _encode([{"role": "user", "content": "q"}, {"role": "assistant", "content": "So "}], model=DEEPSEEK)
    assert body["messages"][-1]["content"] == [{"text": "So "}]
    assert losses == []


# --- thinking --------------------------------------------------------------------------------


def _thinking_history(thinking: dict[str, Any], **fields: Any) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    assistant = {"role": "assistant", "content": [thinking, {"type": "text", "text": "answer"}]}
    return _encode([{"role": "user", "content": "q"}, assistant, {"role": "user", "content": "more"}], **fields)


@pytest.mark.parametrize("model", [CLAUDE, None])
def test_bedrock_never_sends_unsigned_thinking_of_unknown_origin_to_claude(model: str | None) -> None:
    fields = {} if model is None else {"model": model}
    body, losses = _thinking_history({"type": "thinking", "text": "hmm"}, **fields)
    assert body["messages"][1]["content"] == [{"text": "answer"}]
    assert [loss.path for loss in losses] == ["$.messages[1].content[0]"]


def test_bedrock_sends_unsigned_thinking_of_unknown_origin_to_a_model_that_is_not_claude() -> None:
    body, losses = _thinking_history({"type": "thinking", "text": "hmm"}, model=DEEPSEEK)
    assert body["messages"][1]["content"][0] == {"reasoningContent": {"reasoningText": {"text": "hmm"}}}
    assert losses == []


def test_bedrock_keeps_an_empty_text_block_between_signed_reasoning_blocks() -> None:
    """Claude answers with reasoning, an empty text, reasoning; dropping the text is
    "thinking blocks in the latest assistant message cannot be modified"."""
    reasoning = {"reasoningContent": {"reasoningText": {"text": "r", "signature": SIGNATURE}}}
    body = {
        "modelId": CLAUDE,
        "messages": [
            {"role": "user", "content": [{"text": "q"}]},
            {"role": "assistant", "content": [reasoning, {"text": ""}, reasoning, {"text": "answer"}]},
        ],
    }
    decoded = chatcodec.decode_request(PROVIDER, body)
    assert chatcodec.encode_request(PROVIDER, decoded, on_loss="error") == body


def test_bedrock_still_drops_an_empty_text_block_not_between_reasoning() -> None:
    body, losses = _encode(
        [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "text", "text": ""}, {"type": "text", "text": "a"}]},
        ]
    )
    assert body["messages"][1]["content"] == [{"text": "a"}]
    assert [loss.path for loss in losses] == ["$.messages[1].content[0]"]
