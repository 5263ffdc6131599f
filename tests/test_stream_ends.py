"""How a stream ends: one with no events, or none of its format's (a 200 answer holding a
JSON body or an HTML page), is an error, not an empty answer that looks successful; one
cut at an event boundary is not given a finish the upstream never sent."""

from __future__ import annotations

import json
from typing import Any

import pytest

import chatcodec
from chatcodec import PROVIDER_NAMES

EMPTY_BODIES = [b"", b"\n\n", []]


@pytest.mark.parametrize("provider", PROVIDER_NAMES)
@pytest.mark.parametrize("body", EMPTY_BODIES, ids=["empty", "blank-lines", "no-events"])
def test_a_stream_with_no_events_is_an_error(provider: str, body: Any) -> None:
    with pytest.raises(chatcodec.StreamError, match="no events"):
        chatcodec.accumulate_stream(provider, body)
    with pytest.raises(chatcodec.StreamError, match="no events"):
        list(chatcodec.decode_stream(provider, body))


def test_a_json_body_answered_for_a_stream_is_an_error() -> None:
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-x",
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    with pytest.raises(chatcodec.StreamError, match="says nothing"):
        chatcodec.accumulate_stream("anthropic", json.dumps(message).encode())


@pytest.mark.parametrize("provider", PROVIDER_NAMES)
def test_an_html_page_answered_for_a_stream_is_an_error(provider: str) -> None:
    with pytest.raises(chatcodec.StreamError):
        chatcodec.accumulate_stream(provider, b"<!DOCTYPE html><html><body>502 Bad Gateway</body></html>")


CUT: dict[str, list[dict[str, Any]]] = {
    "anthropic": [
        {
            "type": "message_start",
            "message": {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "model": "claude-x",
                "content": [],
                "stop_reason": None,
                "usage": {"input_tokens": 3, "output_tokens": 1},
            },
        },
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hel"}},
    ],
    "openai-chat": [
        {
            "id": "c",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "m",
            "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hel"}, "finish_reason": None}],
        }
    ],
    "bedrock-converse": [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Hel"}}},
    ],
}
FINISHES = {
    "anthropic": ('"message_stop"', '"end_turn"'),
    "openai-chat": ('"finish_reason": "stop"',),
    "bedrock-converse": ('"messageStop"',),
    "gemini": ('"finishReason"',),
    "ollama": ('"done": true',),
    "openai-responses": ('"response.completed"',),
}


@pytest.mark.parametrize("source", sorted(CUT))
@pytest.mark.parametrize("target", sorted(FINISHES))
def test_a_stream_cut_at_an_event_boundary_is_given_no_finish(source: str, target: str) -> None:
    events = CUT[source]
    assert chatcodec.accumulate_stream(source, events).choices[0].finish_reason is None
    written = json.dumps(
        list(chatcodec.encode_stream(target, chatcodec.decode_stream(source, events), on_loss="ignore"))
    )
    assert "Hel" in written
    assert not [finish for finish in FINISHES[target] if finish in written]
