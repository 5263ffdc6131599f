"""The ``error`` event that ends a cut stream converted to Responses continues the stream's
``sequence_number``: the OpenAI SDK's ``ResponseErrorEvent`` carries one ("The sequence
number of this event"), and every event of one stream counts up from 0 (the streaming
guide's events), so an error numbered 0 after events up to 4 would be out of order
(found by the differential fuzz, issue 61)."""

from __future__ import annotations

import json

import chatcodec

CHUNK = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o"}
CUT = [
    {**CHUNK, "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hel"}, "finish_reason": None}]},
    {**CHUNK, "choices": [{"index": 0, "delta": {"content": "lo"}, "finish_reason": None}]},
]
"""An OpenAI Chat stream cut before its finish chunk."""


def _events(body: bytes) -> list[dict[str, object]]:
    return [json.loads(line[6:]) for line in body.decode().splitlines() if line.startswith("data: ")]


def test_the_error_that_ends_a_cut_stream_takes_the_next_sequence_number() -> None:
    converter = chatcodec.StreamConverter("openai-chat", "openai-responses", on_loss="ignore")
    events = _events(converter.feed_events(CUT) + converter.close(cut_off="upstream cut off"))
    assert events[-1]["type"] == "error"
    assert events[-1]["message"] == "upstream cut off"
    numbers = [event["sequence_number"] for event in events]
    assert numbers == list(range(len(events)))
    assert len(events) > 2  # the error came after the stream's own numbered events


def test_a_stream_failed_before_any_event_starts_at_zero() -> None:
    converter = chatcodec.StreamConverter("openai-chat", "openai-responses", on_loss="ignore")
    (event,) = _events(converter.fail("upstream unreadable"))
    assert event["sequence_number"] == 0
