"""Issue 23/24 leftovers on Responses output built from another format: ``created_at``
stamped (issue 23), reasoning items and made-up item ids in responses and streams
(issue 24 items 2 and 7), blank tool names reported in streams (issue 24 item 5)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import chatcodec

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


def test_item1_converted_response_created_at_is_the_current_time() -> None:
    before = int(time.time())
    wire = chatcodec.convert_response(
        _anthropic_response(), source="anthropic", target="openai-responses", on_loss="ignore"
    )
    assert before <= wire["created_at"] <= int(time.time())


def test_item1_converted_stream_created_at_is_the_current_time_and_the_same_on_every_event() -> None:
    before = int(time.time())
    events = _anthropic_stream_events()
    stamped = [event["response"]["created_at"] for event in events if "response" in event]
    assert [events[0]["type"], events[-1]["type"]] == ["response.created", "response.completed"]
    assert len(stamped) == 2
    assert before <= stamped[0] == stamped[1] <= int(time.time())


def test_item1_a_responses_body_without_created_at_gets_none_back() -> None:
    body = {"id": "resp_1", "model": "m", "object": "response", "output": [], "status": "completed"}
    decoded = chatcodec.decode_response("openai-responses", body)
    assert "created_at" not in chatcodec.encode_response("openai-responses", decoded, on_loss="ignore")
