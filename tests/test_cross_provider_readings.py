"""Readings, streams and round trips across providers, each found by
other projects' cases, differential fuzzing or recorded traffic chatcodec had not seen."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

import chatcodec
from chatcodec._model import stream_events
from chatcodec.streams._replay import events_from_response

RESPONSES = "openai-responses"


def convert_response(payload: dict[str, Any], source: str, target: str) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_response(payload, source=source, target=target, on_loss="ignore", losses=losses)
    return out, losses


def encode_events(
    target: str, events: list[chatcodec.AnyStreamEvent]
) -> tuple[list[dict[str, Any]], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    return list(chatcodec.encode_stream(target, events, on_loss="ignore", losses=losses)), losses


# --- Responses output shows other providers' reasoning --------------------------------------

ANTHROPIC_THINKING = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude",
    "content": [{"type": "thinking", "thinking": "Let me think", "signature": "sig"}, {"type": "text", "text": "Hi"}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 1, "output_tokens": 2},
}
SUMMARY = [{"type": "summary_text", "text": "Let me think"}]


def test_responses_output_gets_foreign_reasoning_as_a_reasoning_item() -> None:
    out, losses = convert_response(ANTHROPIC_THINKING, "anthropic", RESPONSES)
    assert [item["type"] for item in out["output"]] == ["reasoning", "message"]
    assert out["output"][0]["summary"] == SUMMARY
    assert [(loss.path, loss.what) for loss in losses if not loss.what.startswith("invented ")] == [
        ("$.choices[0].message.content[0]", "signature of reasoning from anthropic")
    ]
    # what a Responses Response requires and an Anthropic message has no value for
    assert [loss.path for loss in losses if loss.what.startswith("invented ")] == [
        "$.created",
        "$.usage.cache_read_tokens",
        "$.usage.cache_write_tokens",
        "$.usage.reasoning_tokens",
    ]
    assert chatcodec.decode_response(RESPONSES, out).choices[0].message.content[0].text == "Let me think"  # type: ignore[union-attr]


def test_responses_stream_gets_foreign_reasoning_as_a_reasoning_item() -> None:
    response = chatcodec.decode_response("anthropic", ANTHROPIC_THINKING)
    events, _ = encode_events(RESPONSES, list(events_from_response(response)))
    added = [event["item"]["type"] for event in events if event["type"] == "response.output_item.added"]
    assert added == ["reasoning", "message"]
    deltas = [event["delta"] for event in events if event["type"] == "response.reasoning_summary_text.delta"]
    assert "".join(deltas) == "Let me think"
    assert events[-1]["response"]["output"][0]["summary"] == SUMMARY


def test_cache_marker_on_a_string_message_becomes_a_prompt_cache_breakpoint() -> None:
    request = {
        "model": "m",
        "messages": [
            {"role": "system", "content": "sys", "cache_control": {"type": "ephemeral"}},
            {"role": "user", "content": "hi"},
        ],
    }
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_request(request, source="openai-chat", target=RESPONSES, on_loss="ignore", losses=losses)
    assert out["input"][0]["content"] == [
        {"type": "input_text", "text": "sys", "prompt_cache_breakpoint": {"mode": "explicit"}}
    ]
    assert out["input"][1]["content"] == "hi"
    assert [loss.path for loss in losses if "cache_control" in loss.path] == []


# --- a tool call with id "" gets a made-up id ------------------------------------------------

GEMINI_EMPTY_ID = {
    "candidates": [
        {
            "content": {"role": "model", "parts": [{"functionCall": {"id": "", "name": "f", "args": {}}}]},
            "finishReason": "STOP",
        }
    ],
    "modelVersion": "g",
}
BEDROCK_EMPTY_ID = {
    "output": {"message": {"role": "assistant", "content": [{"toolUse": {"toolUseId": "", "name": "f", "input": {}}}]}},
    "stopReason": "tool_use",
    "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
    "metrics": {"latencyMs": 1},
}


def test_gemini_call_with_empty_id_gets_a_made_up_id_and_round_trips() -> None:
    call = chatcodec.decode_response("gemini", GEMINI_EMPTY_ID).choices[0].message.tool_calls[0]
    without = {**GEMINI_EMPTY_ID, "candidates": [{**GEMINI_EMPTY_ID["candidates"][0]}]}
    without["candidates"][0]["content"] = {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]}
    assert call.id == chatcodec.decode_response("gemini", without).choices[0].message.tool_calls[0].id
    assert call.id
    assert chatcodec.encode_response("gemini", chatcodec.decode_response("gemini", GEMINI_EMPTY_ID)) == GEMINI_EMPTY_ID


def test_gemini_result_with_empty_id_pairs_with_its_call_by_position() -> None:
    request = {
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {"role": "model", "parts": [{"functionCall": {"id": "", "name": "f", "args": {}}}]},
            {"role": "user", "parts": [{"functionResponse": {"id": "", "name": "f", "response": {"ok": 1}}}]},
        ]
    }
    decoded = chatcodec.decode_request("gemini", request)
    call, result = decoded.messages[1].content[0], decoded.messages[2].content[0]
    assert call.id  # type: ignore[union-attr]
    assert result.tool_use_id == call.id  # type: ignore[union-attr]
    assert chatcodec.encode_request("gemini", decoded) == request


@pytest.mark.parametrize("provider", ["bedrock-converse", "bedrock-nova"])
def test_bedrock_call_with_empty_id_gets_a_made_up_id_in_responses_and_streams(provider: str) -> None:
    """A call with ``toolUseId: ""`` (Nova's answers are Converse-shaped) gets a made-up id
    a result can name, and is written back with its empty id."""
    body = BEDROCK_EMPTY_ID if provider == "bedrock-converse" else {**BEDROCK_EMPTY_ID, "metrics": None}
    body = {key: value for key, value in body.items() if value is not None}
    response = chatcodec.decode_response(provider, body)
    call = response.choices[0].message.tool_calls[0]
    assert call.id == "bedrock_call_0"
    assert chatcodec.encode_response(provider, response) == body
    stream = [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockStart": {"contentBlockIndex": 0, "start": {"toolUse": {"toolUseId": "", "name": "f"}}}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"toolUse": {"input": "{}"}}}},
        {"contentBlockStop": {"contentBlockIndex": 0}},
        {"messageStop": {"stopReason": "tool_use"}},
    ]
    if provider == "bedrock-nova":
        stream = [{"chunk": {"bytes": base64.b64encode(json.dumps(event).encode()).decode()}} for event in stream]
    streamed = chatcodec.accumulate_stream(provider, stream)
    assert streamed.choices[0].message.tool_calls[0].id == "bedrock_call_0"
    anthropic, _ = convert_response(body, provider, "anthropic")
    assert anthropic["content"][0]["id"] == "bedrock_call_0"


# --- a stream read in chunks reads as it reads whole -----------------------------------------

GEMINI_SSE = (
    'data: {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hel"}]}}], "modelVersion": "g"}\n\n'
    'data: {"candidates": [{"content": {"role": "model", "parts": [{"text": "lo"}]}, "finishReason": "STOP"}],'
    ' "modelVersion": "g"}\n\n'
)


def test_sse_whose_first_chunk_is_shorter_than_a_field_name_is_read_as_sse() -> None:
    whole = chatcodec.accumulate_stream("gemini", GEMINI_SSE)
    for size in (1, 2, 4, 5):
        chunks = [GEMINI_SSE[:size], GEMINI_SSE[size:]]
        assert chatcodec.accumulate_stream("gemini", chunks) == whole
        assert chatcodec.accumulate_stream("gemini", [chunk.encode() for chunk in chunks]) == whole
    event_first = "event: message\n" + GEMINI_SSE
    assert chatcodec.accumulate_stream("gemini", ["e", event_first[1:]]) == whole


def test_gemini_json_array_stream_read_in_chunks_reads_as_whole() -> None:
    array = (
        '[{"candidates": [{"content": {"role": "model", "parts": [{"text": "Hel"}]}}], "modelVersion": "g"},\n'
        '{"candidates": [{"content": {"role": "model", "parts": [{"text": "lo"}]}, "finishReason": "STOP"}],'
        ' "modelVersion": "g"}]'
    )
    whole = chatcodec.accumulate_stream("gemini", array)
    assert whole == chatcodec.accumulate_stream("gemini", GEMINI_SSE)
    for size in (1, 7, 64):
        chunks = [array[start : start + size] for start in range(0, len(array), size)]
        assert chatcodec.accumulate_stream("gemini", chunks) == whole
        assert chatcodec.accumulate_stream("gemini", [chunk.encode() for chunk in chunks]) == whole


# --- Responses streams in order, read once ---------------------------------------------------


def test_responses_stream_encoder_numbers_items_in_answer_order() -> None:
    events: list[chatcodec.AnyStreamEvent] = [
        stream_events.ResponseStartEvent(id="resp_1", model="m"),
        stream_events.ThinkingStartEvent(index=0, provider=RESPONSES),
        stream_events.ThinkingDeltaEvent(index=0, delta="think"),
        stream_events.TextStartEvent(index=1),
        stream_events.TextDeltaEvent(index=1, delta="Hi"),
        stream_events.TextEndEvent(index=1),  # the answer's text ends before the reasoning
        stream_events.ThinkingEndEvent(index=0),
        stream_events.FinishEvent(finish_reason=chatcodec.FinishReason(unified="stop")),
    ]
    wire, _ = encode_events(RESPONSES, events)
    added = [(event["output_index"], event["item"]["type"]) for event in wire if event["type"].endswith("item.added")]
    assert added == [(0, "reasoning"), (1, "message")]
    assert [item["type"] for item in wire[-1]["response"]["output"]] == ["reasoning", "message"]
    content = chatcodec.accumulate_stream(RESPONSES, wire).choices[0].message.content
    assert [part.type for part in content] == ["thinking", "text"]  # type: ignore[union-attr]


def _responses_text_stream() -> list[dict[str, Any]]:
    response = chatcodec.decode_response(
        RESPONSES,
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 1,
            "status": "completed",
            "model": "m",
            "output": [
                {
                    "type": "message",
                    "id": "msg_1",
                    "status": "completed",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": "Hello", "annotations": []}],
                }
            ],
        },
    )
    wire, _ = encode_events(RESPONSES, list(events_from_response(response, split=lambda text: [text[:3], text[3:]])))
    return wire


def test_responses_decoder_ignores_repeated_delta_by_sequence_number() -> None:
    wire = _responses_text_stream()
    first_delta = next(index for index, event in enumerate(wire) if event["type"] == "response.output_text.delta")
    repeated = [*wire[: first_delta + 1], wire[first_delta], *wire[first_delta + 1 :]]  # "Hel" delivered twice
    assert chatcodec.accumulate_stream(RESPONSES, repeated) == chatcodec.accumulate_stream(RESPONSES, wire)
    text = chatcodec.accumulate_stream(RESPONSES, repeated).choices[0].message.content[0].text  # type: ignore[union-attr,index]
    assert text == "Hello"
    streamed = [event for event in chatcodec.decode_stream(RESPONSES, repeated) if event.type == "text_delta"]
    assert "".join(event.delta for event in streamed) == "Hello"  # type: ignore[union-attr]


def test_gemini_encoder_reports_a_canonical_empty_call_id() -> None:
    response = chatcodec.ChatResponse.model_validate(
        {"choices": [{"message": {"role": "assistant", "content": [{"type": "tool_use", "id": "", "name": "f"}]}}]}
    )
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_response("gemini", response, on_loss="ignore", losses=losses)
    assert [(loss.path, loss.what) for loss in losses] == [("$.choices[0].message.content[0].id", "empty tool call id")]


def test_a_tool_result_with_an_empty_id_sent_to_gemini_is_reported() -> None:
    """Like a call's ``""`` id: Gemini reads it as none, so it reads back with a made-up id
    (the there-and-back law found the result side silent)."""
    request = chatcodec.validate_model(
        chatcodec.ChatRequest,
        {
            "messages": [
                {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "", "content": "", "name": "A"}]}
            ]
        },
    )
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_request("gemini", request, on_loss="ignore", losses=losses)
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.messages[0].content[0].tool_use_id", "empty tool result id")
    ]
