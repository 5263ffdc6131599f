"""Claude's signed thinking through OpenRouter comes back as Claude's signed thinking.

OpenRouter carries Claude's thinking in ``reasoning_details`` entries of format
``anthropic-claude-v1`` with the signature, and asks for them back unchanged
(https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks);
chatcodec writes Anthropic's thinking that way for ``server="openrouter"``. Read back, such
an entry is Claude's thinking, so Anthropic (``anthropic.types.ThinkingBlockParam``,
anthropic 2.12) and Bedrock Converse (``ReasoningContentBlock.reasoningText.signature``,
botocore 1.44.5) get it as a signed thinking block, where before it was dropped as another
provider's signature.
"""

from __future__ import annotations

import copy
from typing import Any

from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

import chatcodec
from sdk_oracle import check

ANTHROPIC: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Look it up.", "signature": "EqQBCkYIBxgCKkB"},
                {"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {"city": "Paris"}},
            ],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "Sunny"}]},
    ],
}

OPENROUTER_ANSWER: dict[str, Any] = {
    "id": "gen-1",
    "object": "chat.completion",
    "created": 1760000000,
    "model": "anthropic/claude-sonnet-4.5",
    "choices": [
        {
            "index": 0,
            "finish_reason": "stop",
            "message": {
                "role": "assistant",
                "content": "Sunny.",
                "reasoning": "Say it.",
                "reasoning_details": [
                    {
                        "type": "reasoning.text",
                        "text": "Say it.",
                        "signature": "EqQBCkYIBxgCKkB",
                        "format": "anthropic-claude-v1",
                        "index": 0,
                    }
                ],
            },
        }
    ],
}


def _through_openrouter() -> dict[str, Any]:
    return chatcodec.convert_request(
        ANTHROPIC, source="anthropic", target="openai-chat", options={"server": "openrouter"}
    )


def test_the_entry_written_for_openrouter_holds_the_signature() -> None:
    details = _through_openrouter()["messages"][1]["reasoning_details"]
    assert details == [
        {
            "type": "reasoning.text",
            "text": "Look it up.",
            "format": "anthropic-claude-v1",
            "signature": "EqQBCkYIBxgCKkB",
            "index": 0,
        }
    ]


def test_it_comes_back_to_anthropic_as_the_signed_block() -> None:
    back = chatcodec.convert_request(_through_openrouter(), source="openai-chat", target="anthropic", on_loss="ignore")
    check(MessageCreateParamsNonStreaming, back)
    assert back["messages"] == ANTHROPIC["messages"]


def test_it_comes_back_to_bedrock_as_signed_reasoning() -> None:
    back = chatcodec.convert_request(
        _through_openrouter(), source="openai-chat", target="bedrock-converse", on_loss="ignore"
    )
    assert back["messages"][1]["content"][0] == {
        "reasoningContent": {"reasoningText": {"text": "Look it up.", "signature": "EqQBCkYIBxgCKkB"}}
    }


def test_the_openai_chat_body_round_trips_exactly() -> None:
    body = _through_openrouter()
    losses: list[chatcodec.Loss] = []
    again = chatcodec.convert_request(copy.deepcopy(body), source="openai-chat", target="openai-chat", losses=losses)
    assert again == body
    assert losses == []


def test_an_openrouter_answer_gives_anthropic_a_signed_thinking_block() -> None:
    message = chatcodec.convert_response(OPENROUTER_ANSWER, source="openai-chat", target="anthropic", on_loss="ignore")
    assert message["content"][0] == {"type": "thinking", "thinking": "Say it.", "signature": "EqQBCkYIBxgCKkB"}


def test_an_openrouter_stream_gives_anthropic_the_signature() -> None:
    head = {"id": "gen-1", "object": "chat.completion.chunk", "created": 1760000000, "model": "m"}
    entry = {"type": "reasoning.text", "format": "anthropic-claude-v1", "index": 0}
    chunks = [
        {
            **head,
            "choices": [
                {"index": 0, "delta": {"role": "assistant", "reasoning_details": [{**entry, "text": "Say it."}]}}
            ],
        },
        {
            **head,
            "choices": [{"index": 0, "delta": {"reasoning_details": [{**entry, "signature": "EqQBCkYIBxgCKkB"}]}}],
        },
        {**head, "choices": [{"index": 0, "delta": {"content": "Sunny."}}]},
        {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ]
    events = chatcodec.decode_stream("openai-chat", chunks)
    written = list(chatcodec.encode_stream("anthropic", events, on_loss="ignore"))
    deltas = [event["delta"] for event in written if event["type"] == "content_block_delta"]
    assert {"type": "signature_delta", "signature": "EqQBCkYIBxgCKkB"} in deltas
    assert {"type": "thinking_delta", "thinking": "Say it."} in deltas
    same = list(chatcodec.encode_stream("openai-chat", chatcodec.decode_stream("openai-chat", chunks)))
    details = [
        detail
        for chunk in same
        for choice in chunk["choices"]
        for detail in choice["delta"].get("reasoning_details", [])
    ]
    assert details == [{**entry, "text": "Say it."}, {**entry, "signature": "EqQBCkYIBxgCKkB"}]
