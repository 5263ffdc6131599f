"""Anthropic stream output opens one block at a time: a thinking block still open when the
answer's text begins (an OpenAI-compatible upstream streams ``reasoning_content`` then
``content``, and ends both at the finish) is stopped before the text block starts."""

from __future__ import annotations

from typing import Any

import chatcodec


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "deepseek-reasoner",
        "choices": [choice],
    }


def _blocks(events: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return [(event["type"], event["index"]) for event in events if event["type"].startswith("content_block_")]


def test_a_thinking_block_stops_before_the_text_block_starts() -> None:
    stream = [
        _chunk({"role": "assistant", "reasoning_content": "think"}),
        _chunk({"content": "Hi"}),
        _chunk({"content": " there"}, "stop"),
    ]
    events = list(
        chatcodec.encode_stream("anthropic", chatcodec.decode_stream("openai-chat", stream), on_loss="ignore")
    )
    blocks = _blocks(events)
    assert [kind for kind, _ in blocks] == [
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "content_block_start",
        "content_block_delta",
        "content_block_delta",
        "content_block_stop",
    ]
    assert [index for _, index in blocks] == [0, 0, 0, 1, 1, 1, 1]
    accumulated = chatcodec.accumulate_stream("anthropic", events)
    assert [part.type for part in accumulated.choices[0].message.content] == ["thinking", "text"]


def test_reasoning_that_goes_on_after_the_text_began_goes_in_a_block_of_its_own() -> None:
    stream = [
        _chunk({"role": "assistant", "reasoning_content": "a"}),
        _chunk({"content": "Hi"}),
        _chunk({"reasoning_content": "b"}, "stop"),
    ]
    events = list(
        chatcodec.encode_stream("anthropic", chatcodec.decode_stream("openai-chat", stream), on_loss="ignore")
    )
    opened = [event["index"] for event in events if event["type"] == "content_block_start"]
    stopped = [event["index"] for event in events if event["type"] == "content_block_stop"]
    assert opened == stopped == sorted(opened)  # each block stops before the next starts
    text = chatcodec.accumulate_stream("anthropic", events).choices[0].message.content
    assert [(part.type, getattr(part, "text", None)) for part in text] == [
        ("thinking", "a"),
        ("text", "Hi"),
        ("thinking", "b"),
    ]


def _call(index: int, arguments: str, name: str | None = None) -> dict[str, Any]:
    call: dict[str, Any] = {"index": index, "function": {"arguments": arguments}}
    if name is not None:
        call.update(id=f"call_{name}", type="function")
        call["function"]["name"] = name
    return call


def test_parallel_tool_calls_with_interleaved_argument_deltas_go_out_one_block_after_the_other() -> None:
    stream = [
        _chunk({"role": "assistant", "tool_calls": [_call(0, "", "f")]}),
        _chunk({"tool_calls": [_call(1, "", "g")]}),
        _chunk({"tool_calls": [_call(1, '{"b":')]}),
        _chunk({"tool_calls": [_call(0, '{"a":1}')]}),
        _chunk({"tool_calls": [_call(1, "2}")]}),
        _chunk({}, "tool_calls"),
    ]
    losses: list[chatcodec.Loss] = []
    events = list(
        chatcodec.encode_stream(
            "anthropic", chatcodec.decode_stream("openai-chat", stream), on_loss="ignore", losses=losses
        )
    )
    assert [(loss.path, loss.what) for loss in losses] == [("$.usage", "invented usage")]  # the chunks had none
    blocks = _blocks(events)
    opened = [index for kind, index in blocks if kind == "content_block_start"]
    stopped = [index for kind, index in blocks if kind == "content_block_stop"]
    assert opened == stopped == [0, 1]
    assert blocks.index(("content_block_stop", 0)) < blocks.index(("content_block_start", 1))
    message = chatcodec.accumulate_stream("anthropic", events).choices[0].message
    assert [(call.name, call.parsed_arguments()) for call in message.tool_calls or []] == [
        ("f", {"a": 1}),
        ("g", {"b": 2}),
    ]
