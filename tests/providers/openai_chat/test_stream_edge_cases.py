"""OpenAI Chat stream edge cases: an empty ``reasoning_content`` delta and a blank tool
name in a stream."""

from __future__ import annotations

from typing import Any

import chatcodec
from chatcodec import FinishEvent, FinishReason, Loss, ResponseStartEvent, ThinkingPart, ToolCallStartEvent

ENVELOPE = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m"}


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {**ENVELOPE, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _body(message: dict[str, Any]) -> dict[str, Any]:
    choice = {"index": 0, "message": {"role": "assistant", **message}, "finish_reason": "stop"}
    return {**ENVELOPE, "object": "chat.completion", "choices": [choice]}


def test_a_stream_of_only_empty_reasoning_content_reads_as_the_non_streamed_answer() -> None:
    chunks = [
        _chunk({"role": "assistant", "content": "", "reasoning_content": ""}),
        _chunk({"reasoning_content": ""}),
        _chunk({"content": "Hi"}),
        _chunk({}, "stop"),
    ]
    streamed = chatcodec.accumulate_stream("openai-chat", chunks)
    plain = chatcodec.decode_response("openai-chat", _body({"content": "Hi", "reasoning_content": ""}))
    assert streamed.message.content == plain.message.content
    assert [part.type for part in plain.message.content] == ["thinking", "text"]


def test_an_empty_reasoning_content_delta_adds_nothing_to_the_reasoning() -> None:
    chunks = [
        _chunk({"role": "assistant", "reasoning_content": "Let "}),
        _chunk({"reasoning_content": ""}),
        _chunk({"reasoning_content": "me think"}),
        _chunk({"content": "Hi", "reasoning_content": ""}),
        _chunk({}, "stop"),
    ]
    content = chatcodec.accumulate_stream("openai-chat", chunks).message.content
    assert isinstance(content, list)
    thinking = [part for part in content if isinstance(part, ThinkingPart)]
    assert [part.text for part in thinking] == ["Let me think"]
    plain = chatcodec.decode_response("openai-chat", _body({"content": "Hi", "reasoning_content": "Let me think"}))
    assert content == plain.message.content


def test_a_streamed_call_with_a_blank_name_is_reported_as_the_response_reports_it() -> None:
    events = [
        ResponseStartEvent(id="c1", model="m"),
        ToolCallStartEvent(index=0, id="call_1", name=" "),
        FinishEvent(finish_reason=FinishReason(unified="tool_calls")),
    ]
    losses: list[Loss] = []
    chunks = list(chatcodec.encode_stream("openai-chat", events, on_loss="ignore", losses=losses))
    assert chunks[0]["choices"][0]["delta"]["tool_calls"][0]["function"]["name"] == " "
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$[0].created", "invented created"),  # the start event gives none
        ("$[1].name", "blank tool name"),
    ]
    response = chatcodec.accumulate_stream("openai-chat", chunks)
    plain_losses: list[Loss] = []
    chatcodec.encode_response("openai-chat", response, on_loss="ignore", losses=plain_losses)
    assert [loss.what for loss in plain_losses] == ["blank tool name"]
