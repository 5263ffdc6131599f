"""An answer's tool call with an empty name (found by the fuzz, issue 87): Gemini's and Google
ADK's readers refuse ``functionCall.name: ""``, so their writers send the kit's blank-name
rewrite, reported, as a request's call already is; the answer written reads back."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec

ANSWER: dict[str, Any] = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1,
    "model": "m",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "", "arguments": "{}"}}],
            },
            "finish_reason": "tool_calls",
        }
    ],
}


@pytest.mark.parametrize("target", ["gemini", "google-adk"])
def test_an_answers_nameless_call_is_written_as_a_call_its_reader_takes(target: str) -> None:
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_response(ANSWER, source="openai-chat", target=target, on_loss="ignore", losses=losses)
    content = written["candidates"][0]["content"] if target == "gemini" else written["content"]
    name = content["parts"][0]["functionCall"]["name"]
    assert name.startswith("_")
    assert "blank tool name" in [loss.what for loss in losses]
    read = chatcodec.decode_response(target, written)
    assert [part.type for part in read.choices[0].message.parts] == ["tool_use"]


def test_a_streamed_nameless_call_is_written_for_gemini_too() -> None:
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    call = {"index": 0, "id": "c1", "type": "function", "function": {"name": "", "arguments": "{}"}}
    chunks = [
        {
            **head,
            "choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [call]}, "finish_reason": None}],
        },
        {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    ]
    written = b"".join(chatcodec.convert_stream(chunks, source="openai-chat", target="gemini", on_loss="ignore"))
    assert chatcodec.accumulate_stream("gemini", written).choices[0].message.parts[0].type == "tool_use"
