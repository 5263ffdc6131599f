"""Reasoning with no signature, written as an Anthropic stream: the block must carry
``"signature": ""`` and the stream must report it, as a non-streamed response does (a
streamed conversion used to write the empty signature silently). A signature that came,
even an empty one (a replay of a gateway's own model's answer), is not reported again."""

from __future__ import annotations

import json
from typing import Any

import chatcodec
from chatcodec import Loss

_CHUNKS: list[dict[str, Any]] = [
    {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": {"role": "assistant", "reasoning_content": "look "}}],
    },
    {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": {"reasoning_content": "first"}}],
    },
    {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": {"content": "Done."}}],
    },
    {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
    },
]
_WHOLE: dict[str, Any] = {
    "id": "c1",
    "object": "chat.completion",
    "created": 1,
    "model": "m",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "Done.", "reasoning_content": "look first"},
            "finish_reason": "stop",
        }
    ],
}


def _events(body: bytes) -> list[dict[str, Any]]:
    return [json.loads(line[6:]) for line in body.decode().splitlines() if line.startswith("data: ")]


def test_a_stream_reports_the_signature_it_made_up_as_the_response_does() -> None:
    streamed: list[Loss] = []
    body = b"".join(
        chatcodec.convert_stream(_CHUNKS, source="openai-chat", target="anthropic", on_loss="ignore", losses=streamed)
    )
    whole: list[Loss] = []
    response = chatcodec.convert_response(
        _WHOLE, source="openai-chat", target="anthropic", on_loss="ignore", losses=whole
    )
    starts = [event["content_block"] for event in _events(body) if event["type"] == "content_block_start"]
    assert starts[0] == {"type": "thinking", "thinking": "", "signature": ""}
    assert response["content"][0]["signature"] == ""
    assert [loss.what for loss in streamed if loss.what == "thinking signature"] == ["thinking signature"]
    assert {(loss.what, loss.why) for loss in streamed} >= {
        (loss.what, loss.why) for loss in whole if loss.what == "thinking signature"
    }


def test_a_signed_stream_reports_nothing_of_its_signature() -> None:
    events: list[dict[str, Any]] = [
        {
            "type": "message_start",
            "message": {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": 3, "output_tokens": 1},
            },
        },
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "thinking", "thinking": "", "signature": ""},
        },
        {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "look first"}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "EqQBsig"}},
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": 5},
        },
        {"type": "message_stop"},
    ]
    losses: list[Loss] = []
    body = b"".join(
        chatcodec.convert_stream(events, source="anthropic", target="anthropic", on_loss="ignore", losses=losses)
    )
    deltas = [event["delta"] for event in _events(body) if event["type"] == "content_block_delta"]
    assert {"type": "signature_delta", "signature": "EqQBsig"} in deltas
    assert [loss for loss in losses if "signature" in loss.what] == []
