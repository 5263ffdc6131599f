"""Vertex's streamed function-call arguments: a piece holding only ``willContinue: true``
(more of the current call follows) adds nothing, and leaves no nameless part behind."""

from __future__ import annotations

from typing import Any

import chatcodec

FORMAT = "gemini"


def _chunk(*parts: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}}
    if finish is not None:
        candidate["finishReason"] = finish
    return {"candidates": [candidate], "modelVersion": "gemini-3.1-pro-preview", "responseId": "r1"}


def _pieces(*middle: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        _chunk({"functionCall": {"name": "getWeather", "willContinue": True}}),
        _chunk({"functionCall": {"willContinue": True}}),
        _chunk(
            {"functionCall": {"partialArgs": [{"jsonPath": "$.location", "stringValue": "Bos"}], "willContinue": True}}
        ),
        _chunk({"functionCall": {"willContinue": True}}),
        _chunk(
            {"functionCall": {"partialArgs": [{"jsonPath": "$.location", "stringValue": "ton"}], "willContinue": True}}
        ),
        *middle,
    ]


def test_a_will_continue_only_piece_of_a_streamed_call_adds_no_part() -> None:
    response = chatcodec.accumulate_stream(FORMAT, [*_pieces(), _chunk({"functionCall": {}}, finish="STOP")])
    content = response.choices[0].message.content
    assert [part.type for part in content] == ["tool_use"]
    (call,) = response.choices[0].message.tool_calls
    assert (call.name, call.arguments) == ("getWeather", '{"location":"Boston"}')


def test_a_piece_saying_will_continue_false_ends_the_streamed_call() -> None:
    stream = [*_pieces(_chunk({"functionCall": {"willContinue": False}})), _chunk({"text": "done"}, finish="STOP")]
    content = chatcodec.accumulate_stream(FORMAT, stream).choices[0].message.content
    assert [part.type for part in content] == ["tool_use", "text"]
    assert content[0].arguments == '{"location":"Boston"}'
