"""What a request lost on its way upstream is reported on every answer, error answers
included: the ``chatcodec-losses`` header and the log line's ``loss_summary`` of a request
the upstream refused, or the loss policy refused; and a sealed reasoning item left out
(its check failed, ``--validate`` off) is a loss like any other, under ``--on-loss`` too."""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx
import pytest

from chatcodec._providers.openai_responses.carried_reasoning import seal
from serve.harness import FakeUpstream, proxy

pytestmark = pytest.mark.usefixtures("fresh_fake")

KEY = {"authorization": "Bearer alice-key"}
PIXEL = (
    "data:image/png;base64,"
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAHnOcQAAAAABJRU5ErkJggg=="
)
IMAGE_CHAT = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 100,
    "messages": [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is it?"},
                {"type": "image_url", "image_url": {"url": PIXEL, "detail": "high"}},
            ],
        }
    ],
}
ANTHROPIC_400 = {
    "type": "error",
    "error": {"type": "invalid_request_error", "message": "messages.0.content.1: image too small"},
}
THINKING_400 = {
    "type": "error",
    "error": {
        "type": "invalid_request_error",
        "message": "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`.",
    },
}


def _lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [json.loads(record.getMessage()) for record in caplog.records if record.name == "chatcodec.serve"]


def _forged_turn() -> dict[str, Any]:
    """A Responses request replaying a tool loop whose reasoning item's seal is forged (no key)."""
    part = {"type": "thinking", "text": "I call the tool.", "signature": "c2ln", "provider": "anthropic"}
    return {
        "model": "claude-sonnet-4-5",
        "input": [
            {"role": "user", "content": "Weather in Paris?"},
            {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": seal(part)},
            {"type": "function_call", "call_id": "toolu_1", "name": "get_weather", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "toolu_1", "output": "sunny"},
        ],
        "tools": [{"type": "function", "name": "get_weather", "parameters": {"type": "object"}}],
    }


def test_an_upstream_error_answer_carries_the_requests_losses(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    fake.reply(ANTHROPIC_400, status=400)
    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    with proxy("openai-chat", "anthropic", fake.base) as origin:
        answer = httpx.post(f"{origin}/v1/chat/completions", json=IMAGE_CHAT, headers=KEY, timeout=30)
    assert answer.status_code == 400
    assert "image too small" in answer.json()["error"]["message"]
    header = answer.headers["chatcodec-losses"]
    assert header.startswith("1; ")
    assert "image detail 'high'" in header
    (line,) = _lines(caplog)
    assert (line["status"], line["losses"]) == (400, 1)
    assert "detail" in line["loss_summary"][0]


def test_a_seal_left_out_is_named_when_the_upstream_then_refuses(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    fake.reply(THINKING_400, status=400)
    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    with proxy("openai-responses", "anthropic", fake.base) as origin:
        answer = httpx.post(f"{origin}/v1/responses", json=_forged_turn(), headers=KEY, timeout=30)
    assert answer.status_code == 400
    assert "Expected `thinking`" in answer.json()["error"]["message"]
    assert "sealed reasoning this server did not write" in answer.headers["chatcodec-losses"]
    (line,) = _lines(caplog)
    assert any("sealed reasoning this server did not write" in summary for summary in line["loss_summary"])


def test_a_seal_left_out_is_refused_by_on_loss_error_as_any_content_loss(fake: FakeUpstream) -> None:
    with proxy("openai-responses", "anthropic", fake.base, on_loss="error") as origin:
        answer = httpx.post(f"{origin}/v1/responses", json=_forged_turn(), headers=KEY, timeout=30)
    assert answer.status_code == 400
    message = answer.json()["error"]["message"]
    assert message.startswith("--on-loss error: the request cannot be sent to anthropic whole")
    assert "sealed reasoning this server did not write" in message
    assert "sealed reasoning this server did not write" in answer.headers["chatcodec-losses"]
    assert fake.received == []


def test_a_seal_left_out_passes_on_loss_error_when_content_losses_are_allowed(fake: FakeUpstream) -> None:
    fake.reply(THINKING_400, status=400)
    settings: dict[str, Any] = {"on_loss": "error", "allowed_losses": ("content", "metadata", "default")}
    with proxy("openai-responses", "anthropic", fake.base, **settings) as origin:
        answer = httpx.post(f"{origin}/v1/responses", json=_forged_turn(), headers=KEY, timeout=30)
    assert answer.status_code == 400
    assert "Expected `thinking`" in answer.json()["error"]["message"]  # sent, and the upstream said why
    assert len(fake.received) == 1


def test_a_request_the_loss_policy_refuses_lists_its_losses_in_the_header(fake: FakeUpstream) -> None:
    with proxy("openai-chat", "anthropic", fake.base, on_loss="error") as origin:
        answer = httpx.post(f"{origin}/v1/chat/completions", json={**IMAGE_CHAT, "n": 2}, headers=KEY, timeout=30)
    assert answer.status_code == 400
    header = answer.headers["chatcodec-losses"]
    assert header.startswith("2; ")
    assert "openai-chat data ['n']" in header  # the loss it refused
    assert "image detail 'high'" in header  # and one it allows, reported beside it
    assert fake.received == []
