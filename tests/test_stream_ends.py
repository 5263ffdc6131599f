"""How a stream ends: one with no events, or none of its format's (a 200 answer holding a
JSON body or an HTML page), is an error, not an empty answer that looks successful; one
cut at an event boundary is not given a finish the upstream never sent."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import chatcodec
import chatcodec.streams._framing
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
    # Gemini's streamGenerateContent: the last chunk's candidate carries finishReason
    # (ai.google.dev/api/generate-content#method:-models.streamgeneratecontent).
    "gemini": [{"candidates": [{"content": {"role": "model", "parts": [{"text": "Hel"}]}, "index": 0}]}],
    # Ollama's /api/chat stream: "done": false on each chunk until the final one
    # (docs.ollama.com/api/chat).
    "ollama": [
        {
            "model": "m",
            "created_at": "2025-01-01T00:00:00Z",
            "message": {"role": "assistant", "content": "Hel"},
            "done": False,
        }
    ],
    # Responses: response.completed (or .incomplete/.failed) ends every stream
    # (platform.openai.com/docs/api-reference/responses-streaming).
    "openai-responses": [
        {
            "type": "response.created",
            "sequence_number": 0,
            "response": {
                "id": "resp_1",
                "object": "response",
                "created_at": 1,
                "status": "in_progress",
                "model": "m",
                "output": [],
            },
        },
        {
            "type": "response.output_item.added",
            "sequence_number": 1,
            "output_index": 0,
            "item": {"id": "msg_1", "type": "message", "status": "in_progress", "role": "assistant", "content": []},
        },
        {
            "type": "response.content_part.added",
            "sequence_number": 2,
            "item_id": "msg_1",
            "output_index": 0,
            "content_index": 0,
            "part": {"type": "output_text", "text": "", "annotations": []},
        },
        {
            "type": "response.output_text.delta",
            "sequence_number": 3,
            "item_id": "msg_1",
            "output_index": 0,
            "content_index": 0,
            "delta": "Hel",
        },
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


MISSING = {
    "anthropic": "message_stop",
    "openai-chat": "finish_reason for choice 0",
    "bedrock-converse": "messageStop",
    "gemini": "finishReason for candidate 0",
    "ollama": '"done": true',
    "openai-responses": "response.completed, response.incomplete or response.failed",
}
"""What each format's documentation says ends its stream, as the error names it."""


@pytest.mark.parametrize("source", sorted(CUT))
def test_a_stream_cut_at_an_event_boundary_is_an_error_naming_its_missing_end(source: str) -> None:
    events = CUT[source]
    with pytest.raises(chatcodec.StreamError, match=re.escape(MISSING[source])):
        chatcodec.accumulate_stream(source, events)
    decoded: list[chatcodec.StreamEvent] = []
    with pytest.raises(chatcodec.StreamError, match="cut off"):
        decoded.extend(chatcodec.decode_stream(source, events))
    assert decoded == list(chatcodec.decode_stream(source, events, partial=True))  # what came, before the error
    with pytest.raises(chatcodec.StreamError, match=re.escape(MISSING[source])):
        b"".join(chatcodec.convert_stream(_framed(source, events), source=source, target="openai-chat"))


@pytest.mark.parametrize("source", sorted(CUT))
@pytest.mark.parametrize("target", sorted(FINISHES))
def test_a_cut_stream_read_as_partial_is_given_no_finish(source: str, target: str) -> None:
    events = CUT[source]
    assert chatcodec.accumulate_stream(source, events, partial=True).choices[0].finish_reason is None
    written = json.dumps(
        list(chatcodec.encode_stream(target, chatcodec.decode_stream(source, events, partial=True), on_loss="ignore"))
    )
    assert "Hel" in written
    assert not [finish for finish in FINISHES[target] if finish in written]
    converter = chatcodec.StreamConverter(source, target, on_loss="ignore")
    converter.feed_events(events)
    closing = converter.close(cut_off="cut off")  # a proxy's stream ends with an error, not a finish
    assert b"cut off" in closing
    assert not [finish for finish in FINISHES[target] if finish.encode() in closing]
    assert not converter.ended
    converter = chatcodec.StreamConverter(source, target, on_loss="ignore")
    converter.feed_events(events)
    closing = converter.close(partial=True)
    assert not [finish for finish in FINISHES[target] if finish.encode() in closing]


def _framed(source: str, events: list[dict[str, Any]]) -> bytes:
    """``events`` as the source's body on the wire (SSE, JSON lines, event-stream binary)."""
    writer = chatcodec.streams._framing.WireEventWriter(source)
    return b"".join(writer.write(event) for event in events) + writer.close()


def test_one_of_several_answers_left_unfinished_has_no_finish() -> None:
    """OpenAI's n=2: each choice's chunks end with its own finish_reason."""
    chunk = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    events = [
        {**chunk, "choices": [{"index": 0, "delta": {"role": "assistant", "content": "A"}, "finish_reason": None}]},
        {**chunk, "choices": [{"index": 1, "delta": {"role": "assistant", "content": "B"}, "finish_reason": None}]},
        {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ]
    with pytest.raises(chatcodec.StreamError, match="finish_reason for choice 1"):
        chatcodec.accumulate_stream("openai-chat", events)
    choices = chatcodec.accumulate_stream("openai-chat", events, partial=True).choices
    assert [choice.finish_reason is None for choice in choices] == [False, True]
