"""The Anthropic stream encoder on a replayed response: fields of the end go where the wire has them."""

from __future__ import annotations

import chatcodec
from chatcodec.streams._replay import events_from_response

FORMAT = "anthropic"
MESSAGE = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude",
    "content": [
        {"type": "text", "text": "Hi"},
        {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}, "caller": {"type": "direct"}},
    ],
    "stop_reason": "stop_sequence",
    "stop_sequence": "END",
    "usage": {"input_tokens": 1, "output_tokens": 2},
}


def test_anthropic_stream_encoder_keeps_stop_sequence_and_tool_use_caller_on_a_replay() -> None:
    response = chatcodec.decode_response(FORMAT, MESSAGE)
    losses: list[chatcodec.Loss] = []
    wire = list(chatcodec.encode_stream(FORMAT, list(events_from_response(response)), on_loss="ignore", losses=losses))
    starts = [event["content_block"] for event in wire if event["type"] == "content_block_start"]
    assert starts[1]["caller"] == {"type": "direct"}
    delta = next(event for event in wire if event["type"] == "message_delta")
    assert delta["delta"] == {"stop_reason": "stop_sequence", "stop_sequence": "END"}
    assert losses == []
    assert chatcodec.accumulate_stream(FORMAT, wire) == response
