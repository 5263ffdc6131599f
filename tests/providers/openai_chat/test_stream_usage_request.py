"""A streaming request written for OpenAI Chat asks for the stream's usage
(``stream_options.include_usage``): OpenAI sends it only when asked, while the source
formats' streams always carry it, so their clients expect it."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec

FORMAT = "openai-chat"
HELLO = [{"role": "user", "content": "hi"}]


@pytest.mark.parametrize(
    ("source", "body"),
    [
        ("anthropic", {"model": "claude-x", "max_tokens": 10, "stream": True, "messages": HELLO}),
        ("gemini", {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}),
        ("openai-responses", {"model": "gpt-5", "stream": True, "input": "hi"}),
    ],
)
def test_a_streaming_request_converted_to_openai_chat_asks_for_usage(source: str, body: dict[str, Any]) -> None:
    options = {"stream": True} if source == "gemini" else None  # Gemini says stream in its URL
    request = chatcodec.decode_request(source, body)
    if options:
        request = request.model_copy(update=options)
    converted = chatcodec.encode_request(FORMAT, request, on_loss="ignore")
    assert converted["stream"] is True
    assert converted["stream_options"] == {"include_usage": True}


def test_a_request_that_does_not_stream_asks_for_no_usage_chunk() -> None:
    body = {"model": "claude-x", "max_tokens": 10, "messages": HELLO}
    assert "stream_options" not in chatcodec.convert_request(body, source="anthropic", target=FORMAT)


@pytest.mark.parametrize(
    "stream_options", [None, {"include_usage": True}, {"include_usage": False}, {"include_obfuscation": False}]
)
def test_an_openai_chat_streaming_request_round_trips_with_or_without_stream_options(
    stream_options: dict[str, Any] | None,
) -> None:
    body: dict[str, Any] = {"model": "gpt-4o", "stream": True, "messages": HELLO}
    if stream_options is not None:
        body["stream_options"] = stream_options
    assert chatcodec.convert_request(body, source=FORMAT, target=FORMAT, on_loss="error") == body


def test_asking_for_usage_is_no_loss_when_converted_elsewhere() -> None:
    body = {"model": "gpt-4o", "stream": True, "stream_options": {"include_usage": True}, "messages": HELLO}
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(body, source=FORMAT, target="openai-responses", losses=losses)
    assert losses == []
