"""Another provider's reasoning in a request to Anthropic: a part of its text alone (an OpenAI
Chat ``reasoning_content``, the common one) is written by a shortcut in ``encode_thinking``; a
part with anything more (a signature, a model, a redacted payload, a cache marker) takes the
full checks. Both must give what the full checks give: the part dropped (or sent as text with
``unsigned_thinking``), and the same losses."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec import Loss

_REPLAY = "replaying it would get 400 'Invalid signature'"


def _written(thinking: dict[str, Any], **options: Any) -> tuple[list[Any], list[tuple[str, str]]]:
    losses: list[Loss] = []
    request: dict[str, Any] = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,
        "messages": [
            {"role": "user", "content": "list the files"},
            {"role": "assistant", "content": [thinking, {"type": "text", "text": "Listing."}]},
            {"role": "user", "content": "go on"},
        ],
    }
    if options:
        request["provider_options"] = {"anthropic": options}
    body = chatcodec.encode_request("anthropic", request, on_loss="ignore", losses=losses)
    return body["messages"][1]["content"], [(loss.what, loss.why) for loss in losses]


@pytest.mark.parametrize("metadata", [None, {"openai-chat": {"field": "reasoning_content"}}])
def test_reasoning_text_of_another_provider_is_dropped_and_reported(metadata: dict[str, Any] | None) -> None:
    thinking: dict[str, Any] = {"type": "thinking", "text": "look first", "provider": "openai-chat"}
    if metadata is not None:
        thinking["provider_metadata"] = metadata
    blocks, losses = _written(thinking)
    assert blocks == [{"type": "text", "text": "Listing."}]
    assert losses == [("thinking part", f"produced by 'openai-chat', not Anthropic; {_REPLAY}")]


def test_reasoning_text_of_another_provider_is_sent_as_text_when_asked() -> None:
    blocks, losses = _written(
        {"type": "thinking", "text": "look first", "provider": "openai-chat"}, unsigned_thinking="text"
    )
    assert blocks[0] == {"type": "text", "text": "look first"}
    assert losses == [("thinking part", "produced by 'openai-chat', not Anthropic; sent as plain text")]


def test_more_than_text_takes_the_full_checks() -> None:
    """A redacted payload, a cache marker or a Claude model on Bedrock are not the shortcut's."""
    redacted = {"type": "thinking", "text": "", "redacted": True, "encrypted": "e", "provider": "openai-chat"}
    assert _written(redacted)[1] == [("redacted thinking", "its payload is not Anthropic's")]
    cached = {"type": "thinking", "text": "x", "provider": "gemini", "cache_control": {"type": "ephemeral"}}
    assert [what for what, _ in _written(cached)[1]] == ["cache_control on thinking", "thinking part"]
    bedrock_claude = {
        "type": "thinking",
        "text": "x",
        "signature": "c2lnbmF0dXJl",
        "provider": "bedrock-converse",
        "model": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    }
    blocks, losses = _written(bedrock_claude)
    assert blocks[0] == {"type": "thinking", "thinking": "x", "signature": "c2lnbmF0dXJl"}
    assert losses == []
    unnamed_bedrock = {"type": "thinking", "text": "x", "provider": "bedrock-converse"}  # no model: not Claude's
    assert _written(unnamed_bedrock)[1] == [
        ("thinking part", f"produced by 'bedrock-converse', not Anthropic; {_REPLAY}")
    ]
