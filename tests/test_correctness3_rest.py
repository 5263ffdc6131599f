"""Issue 24 (items 6, 12, 14, 15): finish reasons that never claim too much, same-format
round trips that keep what they read, and freeform tool calls that stay consistent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec.stream_replay import events_from_response

FIXTURES = Path(__file__).parent / "fixtures"
PROVIDERS = ("anthropic", "bedrock-converse", "gemini", "openai-chat", "openai-responses")
RESPONSES = "openai-responses"
BEDROCK = "bedrock-converse"


def encode_response(target: str, response: chatcodec.ChatResponse) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    return chatcodec.encode_response(target, response, on_loss="ignore", losses=losses), losses


def encode_stream(target: str, response: chatcodec.ChatResponse) -> tuple[list[dict[str, Any]], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    events = list(chatcodec.encode_stream(target, events_from_response(response), on_loss="ignore", losses=losses))
    return events, losses


# --- item 12: a cut-off stream is never written as complete ---------------------------------


def cut_off_response() -> chatcodec.ChatResponse:
    """A recorded Anthropic stream cut before its ``message_delta``: no finish reason."""
    blocks = (FIXTURES / "anthropic" / "stream" / "text_basic.sse").read_text().strip().split("\n\n")
    kept = [block for block in blocks if "message_delta" not in block and "message_stop" not in block]
    response = chatcodec.accumulate_stream("anthropic", "\n\n".join(kept) + "\n\n")
    assert response.finish_reason is None
    return response


COMPLETE_WORDS = {"end_turn", "completed", "STOP", "stop", "stop_sequence"}


def finish_word(target: str, body: dict[str, Any]) -> object:
    """The wire word saying why the answer ended, or None when the body has none."""
    if target == "anthropic":
        return body.get("stop_reason")
    if target == BEDROCK:
        return body.get("stopReason")
    if target == "gemini":
        return body["candidates"][0].get("finishReason")
    if target == "openai-chat":
        return body["choices"][0].get("finish_reason")
    return body.get("status")


@pytest.mark.parametrize("target", PROVIDERS)
def test_item_12_cut_off_stream_is_never_written_as_complete(target: str) -> None:
    body, losses = encode_response(target, cut_off_response())
    assert finish_word(target, body) not in COMPLETE_WORDS
    again = chatcodec.decode_response(target, body).finish_reason
    finish_losses = [loss for loss in losses if loss.path == "$.choices[0].finish_reason"]
    assert (again is not None) == bool(finish_losses), (again, losses)
    assert again is None or again.unified == "length"


@pytest.mark.parametrize("target", PROVIDERS)
def test_item_12_cut_off_stream_is_never_streamed_as_complete(target: str) -> None:
    events, _ = encode_stream(target, cut_off_response())
    again = chatcodec.accumulate_stream(target, events)
    assert again.finish_reason is None
    assert not any(event.get("type") == "response.completed" for event in events)
    assert not any("messageStop" in event for event in events)
