"""An upstream stream that goes on after its own last event (Anthropic's ``message_stop``, an
Interaction's ``interaction.completed``): what follows is dropped and counted in the log line
(``after_end``), so the caller's stream ends at its finish, never with content after it."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import openai
import pytest

from serve.harness import FakeUpstream, fixture_bytes, proxy

pytestmark = pytest.mark.usefixtures("fresh_fake")

HELLO: list[Any] = [{"role": "user", "content": "Hello"}]
SSE = "text/event-stream"
AFTER_STOP = (
    b"event: content_block_start\n"
    b'data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}\n\n'
    b"event: content_block_delta\n"
    b'data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":" AFTER THE END"}}\n\n'
    b"event: content_block_stop\n"
    b'data: {"type":"content_block_stop","index":1}\n\n'
)
"""A text block sent after ``message_stop``: three events."""


def _request_lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 5  # a stream's line is written as its body ends
    while time.monotonic() < deadline:
        lines = [json.loads(entry.message) for entry in caplog.records if entry.message.startswith("{")]
        if lines:
            return lines
        time.sleep(0.01)
    return []


@pytest.mark.parametrize("chunk_size", [7, 1 << 20], ids=["events one by one", "the stream in one chunk"])
def test_anthropic_events_after_message_stop_never_reach_an_openai_client(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture, chunk_size: int
) -> None:
    body = fixture_bytes("anthropic", "stream", "text_basic.sse") + AFTER_STOP
    fake.reply(body, content_type=SSE, chunk_size=chunk_size)
    with (
        caplog.at_level(logging.INFO, logger="chatcodec.serve"),
        proxy("openai-chat", "anthropic", fake.base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
    ):
        chunks = list(client.chat.completions.create(model="m", messages=HELLO, stream=True))
        (line,) = _request_lines(caplog)
    text = "".join(chunk.choices[0].delta.content or "" for chunk in chunks if chunk.choices)
    finishes = [index for index, chunk in enumerate(chunks) if chunk.choices and chunk.choices[0].finish_reason]
    assert "AFTER THE END" not in text
    assert finishes == [len(chunks) - 1]  # the finish chunk is the last
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert (line["status"], line["after_end"]) == (200, 3)
    assert "error" not in line


def test_interaction_events_after_completion_never_reach_an_openai_client(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    events: list[dict[str, Any]] = [
        {"event_type": "interaction.created", "interaction": {"id": "v1_s", "status": "in_progress"}},
        {"event_type": "step.start", "index": 0, "step": {"type": "model_output"}},
        {"event_type": "step.delta", "index": 0, "delta": {"type": "text", "text": "Hi"}},
        {"event_type": "step.stop", "index": 0},
        {"event_type": "interaction.completed", "interaction": {"id": "v1_s", "status": "completed"}},
        {"event_type": "step.start", "index": 1, "step": {"type": "model_output"}},
        {"event_type": "step.delta", "index": 1, "delta": {"type": "text", "text": " AFTER THE END"}},
    ]
    body = b"".join(f"event: {event['event_type']}\ndata: {json.dumps(event)}\n\n".encode() for event in events)
    fake.reply(body, content_type=SSE)
    with (
        caplog.at_level(logging.INFO, logger="chatcodec.serve"),
        proxy("openai-chat", "gemini-interactions", fake.base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
    ):
        chunks = list(client.chat.completions.create(model="m", messages=HELLO, stream=True))
        (line,) = _request_lines(caplog)
    text = "".join(chunk.choices[0].delta.content or "" for chunk in chunks if chunk.choices)
    assert text == "Hi"
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert (line["status"], line["after_end"]) == (200, 2)
