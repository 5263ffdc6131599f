"""Responses output built from another format: ``created_at`` stamped, reasoning items
and made-up item ids in responses and streams, blank tool names reported in streams."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec import (
    FinishEvent,
    FinishReason,
    Loss,
    ResponseStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
)

FIXTURES = Path(__file__).parents[2] / "fixtures"


def _anthropic_response() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / "anthropic/response/thinking_text_tool_use.json").read_text())
    return data


def _anthropic_stream_events() -> list[dict[str, Any]]:
    converted = chatcodec.convert_stream(
        [(FIXTURES / "anthropic/stream/thinking_signature_delta.sse").read_bytes()],
        source="anthropic",
        target="openai-responses",
        on_loss="ignore",
    )
    text = b"".join(converted).decode()
    return [json.loads(line[len("data: ") :]) for line in text.splitlines() if line.startswith("data: ")]


def test_converted_response_created_at_is_the_current_time() -> None:
    before = int(time.time())
    wire = chatcodec.convert_response(
        _anthropic_response(), source="anthropic", target="openai-responses", on_loss="ignore"
    )
    assert before <= wire["created_at"] <= int(time.time())


def test_converted_stream_created_at_is_the_current_time_and_the_same_on_every_event() -> None:
    before = int(time.time())
    events = _anthropic_stream_events()
    stamped = [event["response"]["created_at"] for event in events if "response" in event]
    assert [events[0]["type"], events[-1]["type"]] == ["response.created", "response.completed"]
    assert len(stamped) == 3  # created, in_progress, completed
    assert before <= stamped[0] == stamped[1] == stamped[2] <= int(time.time())


def test_a_responses_body_without_created_at_gets_none_back() -> None:
    body = {"id": "resp_1", "model": "m", "object": "response", "output": [], "status": "completed"}
    decoded = chatcodec.decode_response("openai-responses", body)
    assert "created_at" not in chatcodec.encode_response("openai-responses", decoded, on_loss="ignore")


def _converted_stream(fixture: str, losses: list[Loss] | None = None) -> list[dict[str, Any]]:
    events = chatcodec.encode_stream(
        "openai-responses",
        chatcodec.decode_stream("anthropic", [(FIXTURES / "anthropic/stream" / fixture).read_bytes()]),
        on_loss="ignore",
        losses=losses,
    )
    return list(events)


def _non_streamed_ids(fixture: str) -> list[str]:
    response = chatcodec.accumulate_stream("anthropic", [(FIXTURES / "anthropic/stream" / fixture).read_bytes()])
    wire = chatcodec.encode_response("openai-responses", response, on_loss="ignore")
    return [item["id"] for item in wire["output"]]


@pytest.mark.parametrize("fixture", ["thinking_signature_delta.sse", "tool_use_input_json_delta.sse"])
def test_streamed_items_from_another_format_have_the_non_streamed_prefixed_ids(fixture: str) -> None:
    events = _converted_stream(fixture)
    final = [item["id"] for item in events[-1]["response"]["output"]]
    assert final == _non_streamed_ids(fixture)
    prefixes = {"message": "msg_", "reasoning": "rs_", "function_call": "fc_"}
    for item in events[-1]["response"]["output"]:
        assert item["id"].startswith(prefixes[item["type"]])
    added = [event["item"]["id"] for event in events if event["type"] == "response.output_item.added"]
    done = [event["item"]["id"] for event in events if event["type"] == "response.output_item.done"]
    assert added == done == final
    by_index = dict(enumerate(final))
    for event in events:
        if "item_id" in event:
            assert event["item_id"] == by_index[event["output_index"]], event["type"]


def test_a_streamed_call_with_a_blank_name_is_reported() -> None:
    events = [
        ResponseStartEvent(id="msg_1", model="m"),
        ToolCallStartEvent(index=0, id="call_1", name=" "),
        ToolCallDeltaEvent(index=0, delta="{}"),
        ToolCallEndEvent(index=0),
        FinishEvent(finish_reason=FinishReason(unified="tool_calls")),
    ]
    losses: list[Loss] = []
    wire = list(chatcodec.encode_stream("openai-responses", events, on_loss="ignore", losses=losses))
    assert wire[-1]["response"]["output"][0]["name"] == " "
    assert [loss.what for loss in losses if loss.path.endswith("name")] == ["blank tool name"]
