"""``convert_stream`` as a user first calls it (issue 87): with the SDKs' own event objects, as
every other entry point takes them, and with an Anthropic stream that ended (``message_stop``)
without a ``stop_reason``, which every target writes with its own end, not as a cut stream."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from anthropic.types import RawMessageStreamEvent
from openai.types.chat import ChatCompletionChunk
from pydantic import TypeAdapter

import chatcodec

CHUNKS: list[dict[str, Any]] = [
    {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-4.1",
        "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}, "finish_reason": None}],
    },
    {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-4.1",
        "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
    },
]


def _text_of(stream: bytes) -> str:
    return chatcodec.accumulate_stream("anthropic", stream).choices[0].message.text


def test_openai_sdk_chunks_convert_as_their_bytes_do() -> None:
    sdk_chunks = [ChatCompletionChunk.model_validate(chunk) for chunk in CHUNKS]
    convert = {"source": "openai-chat", "target": "anthropic", "on_loss": "ignore"}
    from_objects = b"".join(chatcodec.convert_stream(sdk_chunks, **convert))
    from_dicts = b"".join(chatcodec.convert_stream(CHUNKS, **convert))
    body = "".join(chatcodec.to_sse("openai-chat", CHUNKS))
    from_bytes = b"".join(chatcodec.convert_stream(body, **convert))
    assert from_objects == from_dicts == from_bytes
    assert _text_of(from_objects) == "Hi"


def test_an_async_sdk_stream_converts_too() -> None:
    async def chunks() -> AsyncIterator[ChatCompletionChunk]:
        for chunk in CHUNKS:
            yield ChatCompletionChunk.model_validate(chunk)

    async def converted() -> bytes:
        return b"".join(
            [
                part
                async for part in chatcodec.aconvert_stream(
                    chunks(), source="openai-chat", target="anthropic", on_loss="ignore"
                )
            ]
        )

    assert _text_of(asyncio.run(converted())) == "Hi"


def test_a_chunk_that_is_no_event_names_its_place() -> None:
    with pytest.raises(chatcodec.StreamError) as caught:
        list(chatcodec.convert_stream([CHUNKS[0], 3.5], source="openai-chat", target="anthropic"))
    assert "float" in str(caught.value)


UNSAID: list[dict[str, Any]] = [
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
            "usage": {"input_tokens": 3, "output_tokens": 0},
        },
    },
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
    {"type": "content_block_stop", "index": 0},
    {"type": "message_delta", "delta": {"stop_reason": None, "stop_sequence": None}, "usage": {"output_tokens": 1}},
    {"type": "message_stop"},
]


@pytest.mark.parametrize(
    ("target", "end"),
    [
        ("openai-chat", b'"finish_reason":"stop"'),
        ("openai-responses", b'"status":"completed"'),
        ("gemini", b'"finishReason":"OTHER"'),
        ("bedrock-converse", b"messageStop"),
        ("ollama", b'"done":true'),
        ("gemini-interactions", b'"status":"completed"'),
        ("anthropic", b'"type":"message_stop"'),
    ],
)
def test_an_anthropic_stream_ending_without_a_stop_reason_gets_each_targets_end(target: str, end: bytes) -> None:
    events = TypeAdapter(list[RawMessageStreamEvent]).validate_python(UNSAID)  # the SDK's own events
    losses: list[chatcodec.Loss] = []
    written = b"".join(
        chatcodec.convert_stream(events, source="anthropic", target=target, on_loss="ignore", losses=losses)
    )
    assert end in written
    assert [loss.what for loss in losses if loss.what == "finish reason"] == ["finish reason"]
    assert chatcodec.accumulate_stream(target, written).choices[0].finish_reason is not None  # read back, not cut
