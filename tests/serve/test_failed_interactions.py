"""An Interactions upstream answering a failed Interaction (HTTP 200, ``status: "failed"``,
google-genai 3.6.1 ``Interaction.errors``), plain or as a stream's ``interaction.completed``,
reaches an OpenAI Chat or Anthropic caller as the error it is, read by its own SDK: never a
successful answer that stopped (``stop``, ``end_turn``) with the failure only in a header."""

from __future__ import annotations

import json
from typing import Any

import anthropic
import openai
import pytest

from serve.harness import FakeUpstream, proxy

pytestmark = pytest.mark.usefixtures("fresh_fake")

HELLO: list[Any] = [{"role": "user", "content": "Hello"}]


def _failed(errors: list[dict[str, str]] | None) -> dict[str, Any]:
    interaction: dict[str, Any] = {
        "id": "v1_failed",
        "object": "interaction",
        "model": "gemini-3-flash-preview",
        "status": "failed",
        "created": "2026-06-10T10:00:00Z",
        "updated": "2026-06-10T10:00:02Z",
        "steps": [],
    }
    if errors is not None:
        interaction["errors"] = errors
    return interaction


WITH_ERRORS = _failed([{"code": "https://example.invalid/errors/internal", "message": "The model broke down."}])


def test_a_failed_interaction_is_an_error_for_an_openai_chat_client(fake: FakeUpstream) -> None:
    fake.reply(WITH_ERRORS)
    with (
        proxy("openai-chat", "gemini-interactions", fake.base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
        pytest.raises(openai.InternalServerError) as raised,
    ):
        client.chat.completions.create(model="m", messages=HELLO)
    assert raised.value.status_code == 500
    assert "The model broke down." in raised.value.message


def test_a_failed_interaction_is_an_error_for_an_anthropic_client(fake: FakeUpstream) -> None:
    fake.reply(WITH_ERRORS)
    with (
        proxy("anthropic", "gemini-interactions", fake.base) as origin,
        anthropic.Anthropic(base_url=origin, api_key="k", max_retries=0) as claude,
        pytest.raises(anthropic.InternalServerError) as raised,
    ):
        claude.messages.create(model="m", max_tokens=10, messages=HELLO)
    body = raised.value.body
    assert isinstance(body, dict)
    assert body["error"] == {"type": "api_error", "message": "The model broke down."}


def test_a_failed_interaction_naming_no_error_is_still_an_error(fake: FakeUpstream) -> None:
    fake.reply(_failed(None))
    with (
        proxy("openai-chat", "gemini-interactions", fake.base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
        pytest.raises(openai.InternalServerError) as raised,
    ):
        client.chat.completions.create(model="m", messages=HELLO)
    assert 'the interaction failed (its status is "failed" and it names no error)' in raised.value.message


def _failed_stream() -> bytes:
    events: list[dict[str, Any]] = [
        {"event_type": "interaction.created", "interaction": {"id": "v1_failed", "status": "in_progress"}},
        {"event_type": "step.start", "index": 0, "step": {"type": "model_output"}},
        {"event_type": "step.delta", "index": 0, "delta": {"type": "text", "text": "Partly"}},
        {"event_type": "step.stop", "index": 0},
        {"event_type": "interaction.completed", "interaction": {**WITH_ERRORS, "steps": []}},
    ]
    return b"".join(f"event: {event['event_type']}\ndata: {json.dumps(event)}\n\n".encode() for event in events)


def test_a_stream_ending_in_a_failed_interaction_ends_in_an_openai_clients_error(fake: FakeUpstream) -> None:
    fake.reply(_failed_stream(), content_type="text/event-stream")
    with (
        proxy("openai-chat", "gemini-interactions", fake.base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
        pytest.raises(openai.APIError) as raised,
    ):
        list(client.chat.completions.create(model="m", messages=HELLO, stream=True))
    assert "The model broke down." in raised.value.message


def test_a_stream_ending_in_a_failed_interaction_ends_in_an_anthropic_clients_error(fake: FakeUpstream) -> None:
    fake.reply(_failed_stream(), content_type="text/event-stream")
    with (
        proxy("anthropic", "gemini-interactions", fake.base) as origin,
        anthropic.Anthropic(base_url=origin, api_key="k", max_retries=0) as claude,
        pytest.raises(anthropic.APIStatusError) as raised,
    ):
        list(claude.messages.create(model="m", max_tokens=10, messages=HELLO, stream=True))
    assert raised.value.body == {"type": "error", "error": {"type": "api_error", "message": "The model broke down."}}
