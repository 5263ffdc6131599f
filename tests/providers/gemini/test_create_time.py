"""Gemini's ``createTime`` and another format's ``created``: google-genai's
``GenerateContentResponse.create_time`` ("Timestamp when the request is made to the
server", RFC 3339 text in the REST body, sent by Vertex AI) is the place for an answer's
creation time. Another format's ``created`` (OpenAI Chat's Unix seconds) was dropped with no
report on the way to Gemini; it is written as ``createTime``, and read back as ``created``.

The raw finish word of another format (Anthropic's ``end_turn``) is that format's spelling
of the unified reason: Gemini gets its own word for the reason (``STOP``), as every target
does, and a loss only where it has no word for it (decided in docs/converting.md)."""

from __future__ import annotations

import copy
from typing import Any

import chatcodec
from providers.gemini.gemini_support import assert_valid_response

OPENAI_ANSWER = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1717243200,
    "model": "gpt-4.1",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}],
}


def _gemini(create_time: str) -> dict[str, Any]:
    candidate = {"content": {"role": "model", "parts": [{"text": "hi"}]}, "finishReason": "STOP", "index": 0}
    return {
        "candidates": [candidate],
        "createTime": create_time,
        "responseId": "r1",
        "modelVersion": "gemini-2.5-flash",
    }


def test_created_is_written_as_create_time() -> None:
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.convert_response(
        copy.deepcopy(OPENAI_ANSWER), source="openai-chat", target="gemini", losses=losses
    )
    assert wire["createTime"] == "2024-06-01T12:00:00Z"
    assert losses == []
    assert_valid_response(wire)


def test_create_time_is_read_as_created_and_round_trips_exactly() -> None:
    for text in ("2024-06-01T12:00:00Z", "2024-06-01T12:00:00.123456Z"):
        body = _gemini(text)
        assert chatcodec.decode_response("gemini", copy.deepcopy(body)).created == 1717243200
        assert chatcodec.convert_response(copy.deepcopy(body), source="gemini", target="gemini") == body
        chat = chatcodec.convert_response(copy.deepcopy(body), source="gemini", target="openai-chat", on_loss="ignore")
        assert chat["created"] == 1717243200


def test_a_time_no_date_holds_is_reported() -> None:
    answer = {**copy.deepcopy(OPENAI_ANSWER), "created": 10**18}
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.convert_response(answer, source="openai-chat", target="gemini", on_loss="ignore", losses=losses)
    assert "createTime" not in wire
    assert [loss.path for loss in losses] == ["$.created"]


def test_another_formats_raw_finish_word_is_written_as_geminis_word_for_its_reason() -> None:
    anthropic = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 3, "output_tokens": 1},
    }
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.convert_response(anthropic, source="anthropic", target="gemini", losses=losses)
    assert wire["candidates"][0]["finishReason"] == "STOP"
    assert losses == []
    back = chatcodec.decode_response("gemini", wire).choices[0].finish_reason
    assert back is not None
    assert back.unified == "stop"
