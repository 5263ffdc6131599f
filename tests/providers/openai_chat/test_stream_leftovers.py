"""Issue 23/24 stream leftovers on OpenAI Chat: an empty ``reasoning_content`` delta
(leftover 3) and a blank tool name in a stream (issue 24 item 5, leftover 6)."""

from __future__ import annotations

from typing import Any

import chatcodec
from chatcodec import FinishEvent, FinishReason, Loss, ResponseStartEvent, ToolCallStartEvent

ENVELOPE = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m"}


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {**ENVELOPE, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def test_item6_a_streamed_call_with_a_blank_name_is_reported_as_the_response_reports_it() -> None:
    events = [
        ResponseStartEvent(id="c1", model="m"),
        ToolCallStartEvent(index=0, id="call_1", name=" "),
        FinishEvent(finish_reason=FinishReason(unified="tool_calls")),
    ]
    losses: list[Loss] = []
    chunks = list(chatcodec.encode_stream("openai-chat", events, on_loss="ignore", losses=losses))
    assert chunks[0]["choices"][0]["delta"]["tool_calls"][0]["function"]["name"] == " "
    assert [(loss.path, loss.what) for loss in losses] == [("$[1].name", "blank tool name")]
    response = chatcodec.accumulate_stream("openai-chat", chunks)
    plain_losses: list[Loss] = []
    chatcodec.encode_response("openai-chat", response, on_loss="ignore", losses=plain_losses)
    assert [loss.what for loss in plain_losses] == ["blank tool name"]
