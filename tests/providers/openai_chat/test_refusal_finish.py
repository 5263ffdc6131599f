"""Anthropic's ``stop_reason: "refusal"`` becomes OpenAI's ``content_filter`` (the word for
an answer a policy stopped), not ``stop``, which says the answer is whole."""

from __future__ import annotations

from typing import Any

import chatcodec
from chatcodec.streams._replay import events_from_response

REFUSED: dict[str, Any] = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [{"type": "text", "text": "I can't help with that."}],
    "stop_reason": "refusal",
    "stop_sequence": None,
    "usage": {"input_tokens": 10, "output_tokens": 5},
}


def test_an_anthropic_refusal_is_content_filter_in_openai_chat() -> None:
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_response(
        REFUSED, source="anthropic", target="openai-chat", losses=losses, on_loss="ignore"
    )
    assert converted["choices"][0]["finish_reason"] == "content_filter"
    # an Anthropic message has no creation time: the one OpenAI requires is invented, reported
    assert [loss.what for loss in losses] == ["invented created", "finish reason 'refusal'"]


def test_an_anthropic_refusal_streams_as_content_filter() -> None:
    response = chatcodec.decode_response("anthropic", REFUSED)
    chunks = list(chatcodec.encode_stream("openai-chat", events_from_response(response), on_loss="ignore"))
    assert [choice["finish_reason"] for chunk in chunks for choice in chunk["choices"] if choice["finish_reason"]] == [
        "content_filter"
    ]
