"""OpenAI Chat streams keep a Gemini tool call's thought signature as responses do: read
from ``extra_content.google.thought_signature`` into the call's ``gemini`` bag, and written
there from a Gemini stream (Gemini 3 answers 400 "Function call is missing a
thought_signature" without it; ai.google.dev/gemini-api/docs/thought-signatures)."""

from __future__ import annotations

from typing import Any

import chatcodec

FORMAT = "openai-chat"
SIGNATURE = {"google": {"thought_signature": "c2ln"}}


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gemini-3-pro", "choices": [choice]}


def _compat_stream() -> list[dict[str, Any]]:
    call = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "get", "arguments": '{"a":1}'}}
    return [
        _chunk({"role": "assistant", "tool_calls": [{**call, "extra_content": SIGNATURE}]}),
        _chunk({}, "tool_calls"),
    ]


def test_a_streamed_call_keeps_its_gemini_signature_where_a_response_does() -> None:
    (streamed,) = chatcodec.accumulate_stream(FORMAT, _compat_stream()).choices[0].message.content
    call = {"id": "call_1", "type": "function", "function": {"name": "get", "arguments": '{"a":1}'}}
    message = {"role": "assistant", "content": None, "tool_calls": [{**call, "extra_content": SIGNATURE}]}
    body = {
        "id": "c1",
        "object": "chat.completion",
        "created": 1,
        "model": "gemini-3-pro",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
    }
    (answered,) = chatcodec.decode_response(FORMAT, body).choices[0].message.content
    assert streamed.provider_metadata == answered.provider_metadata == {"gemini": {"thoughtSignature": "c2ln"}}


def test_a_gemini_stream_written_as_openai_chat_carries_the_signature() -> None:
    part = {"functionCall": {"name": "get", "args": {"a": 1}}, "thoughtSignature": "c2ln"}
    gemini = [
        {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP"}], "responseId": "r"}
    ]
    losses: list[chatcodec.Loss] = []
    events = chatcodec.decode_stream("gemini", gemini)
    chunks = list(chatcodec.encode_stream(FORMAT, events, on_loss="ignore", losses=losses))
    (call,) = chunks[0]["choices"][0]["delta"]["tool_calls"]
    assert call["extra_content"] == SIGNATURE
    # a Gemini chunk has no creation time and this one no modelVersion: both invented
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$[0].created", "invented created"),
        ("$[0].model", "invented model"),
    ]


def test_an_openai_chat_stream_with_a_signature_is_written_back_with_it() -> None:
    stream = _compat_stream()
    written = list(chatcodec.encode_stream(FORMAT, chatcodec.decode_stream(FORMAT, stream), on_loss="error"))
    (call,) = written[0]["choices"][0]["delta"]["tool_calls"]
    assert call["extra_content"] == SIGNATURE
    assert chatcodec.accumulate_stream(FORMAT, written) == chatcodec.accumulate_stream(FORMAT, stream)
