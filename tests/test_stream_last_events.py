"""Which event ends each format's stream, from each provider's documentation: a stream is
whole when that event came (or an error event did), whatever came before it; cut one event
short of it, reading refuses it unless ``partial=True`` (docs/streams.md).

- Anthropic: "a final ``message_stop`` event" (platform.claude.com/docs/en/build-with-claude/streaming);
  the ``message_delta`` before it already carries ``stop_reason``.
- OpenAI Chat: each choice's last chunk carries ``finish_reason``; a usage chunk with no
  choices may follow, then ``data: [DONE]`` (platform.openai.com/docs/api-reference/chat-streaming).
- Responses: ``response.completed``, ``response.incomplete`` or ``response.failed``
  (platform.openai.com/docs/api-reference/responses-streaming).
- Gemini: the chunk whose candidate carries ``finishReason``, or ``promptFeedback.blockReason``
  for a blocked prompt (ai.google.dev/api/generate-content).
- Bedrock: ``messageStop``, then ``metadata`` with the usage (API_runtime_ConverseStreamOutput).
- Ollama: the line with ``"done": true`` (docs.ollama.com/api/streaming).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec.streams._input import iter_event_payloads

FIXTURES = Path(__file__).parent / "fixtures"


def _events(provider: str, name: str) -> list[dict[str, Any]]:
    return list(iter_event_payloads((FIXTURES / provider / "stream" / name).read_bytes()))


def test_anthropic_without_message_stop_is_cut_even_after_its_stop_reason() -> None:
    events = _events("anthropic", "text_basic.sse")
    assert events[-1]["type"] == "message_stop"
    assert events[-2]["type"] == "message_delta"
    assert events[-2]["delta"]["stop_reason"] == "end_turn"
    with pytest.raises(chatcodec.StreamError, match="message_stop"):
        chatcodec.accumulate_stream("anthropic", events[:-1])
    partial = chatcodec.accumulate_stream("anthropic", events[:-1], partial=True)
    assert partial == chatcodec.accumulate_stream("anthropic", events)  # nothing but the end is missing


def test_openai_chat_is_whole_at_its_finish_chunk_without_the_usage_chunk() -> None:
    events = _events("openai-chat", "text_with_usage_obfuscation.sse")
    assert events[-1]["choices"] == []
    assert "usage" in events[-1]
    response = chatcodec.accumulate_stream("openai-chat", events[:-1])
    assert response.choices[0].finish_reason is not None
    assert response.usage is None


def test_openai_chat_with_several_choices_is_whole_when_each_has_finished() -> None:
    events = _events("openai-chat", "n3_choices_interleaved.sse")
    assert len(chatcodec.accumulate_stream("openai-chat", events).choices) == 3
    last_finish = max(
        position
        for position, event in enumerate(events)
        for choice in event.get("choices", [])
        if choice.get("finish_reason")
    )
    with pytest.raises(chatcodec.StreamError, match="finish_reason for choice"):
        chatcodec.accumulate_stream("openai-chat", events[:last_finish])


def test_responses_without_its_terminal_event_is_cut() -> None:
    events = _events("openai-responses", "text_output.sse")
    assert events[-1]["type"] == "response.completed"
    with pytest.raises(chatcodec.StreamError, match=r"response\.completed"):
        chatcodec.accumulate_stream("openai-responses", events[:-1])


def test_responses_incomplete_ends_a_stream() -> None:
    events = _events("openai-responses", "text_output.sse")
    incomplete = json.loads(json.dumps(events[-1]))
    incomplete["type"] = "response.incomplete"
    incomplete["response"]["status"] = "incomplete"
    incomplete["response"]["incomplete_details"] = {"reason": "max_output_tokens"}
    response = chatcodec.accumulate_stream("openai-responses", [*events[:-1], incomplete])
    assert response.choices[0].finish_reason is not None
    assert response.choices[0].finish_reason.unified == "length"


def test_bedrock_is_whole_at_message_stop_without_its_metadata() -> None:
    events = _events("bedrock-converse", "redacted_reasoning.jsonl")
    assert "metadata" in events[-1]
    assert "messageStop" in events[-2]
    response = chatcodec.accumulate_stream("bedrock-converse", events[:-1])
    assert response.choices[0].finish_reason is not None
    with pytest.raises(chatcodec.StreamError, match="messageStop"):
        chatcodec.accumulate_stream("bedrock-converse", events[:-2])


def test_gemini_blocked_prompt_is_a_whole_stream() -> None:
    chunk = {"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 5}}
    response = chatcodec.accumulate_stream("gemini", [chunk])
    assert response.choices[0].finish_reason is not None


def test_gemini_without_the_finishing_chunk_is_cut() -> None:
    events = _events("gemini", "text.sse")
    finishing = [position for position, event in enumerate(events) if "finishReason" in event["candidates"][0]]
    assert finishing == [len(events) - 1]
    with pytest.raises(chatcodec.StreamError, match="finishReason"):
        chatcodec.accumulate_stream("gemini", events[:-1])


def test_ollama_without_its_done_line_is_cut() -> None:
    events = _events("ollama", "text.jsonl")
    assert events[-1]["done"] is True
    with pytest.raises(chatcodec.StreamError, match='"done": true'):
        chatcodec.accumulate_stream("ollama", events[:-1])


@pytest.mark.parametrize(
    ("provider", "error"),
    [
        ("anthropic", {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
        ("ollama", {"error": "model runner crashed"}),
        ("gemini", {"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}}),
    ],
)
def test_an_error_event_ends_a_stream_as_the_providers_error(provider: str, error: dict[str, Any]) -> None:
    first = {"anthropic": "text_basic.sse", "ollama": "text.jsonl", "gemini": "text.sse"}[provider]
    events = [*_events(provider, first)[:2], error]
    with pytest.raises(chatcodec.ProviderAPIError):
        chatcodec.accumulate_stream(provider, events)
    decoded = list(chatcodec.decode_stream(provider, events))  # no cut-off error: the error event ended it
    assert [event.type for event in decoded].count("error") == 1


WHOLE_STREAMS = [
    pytest.param("anthropic", "text_basic.sse", "message_stop", id="anthropic"),
    pytest.param("openai-chat", "text_with_usage_obfuscation.sse", "finish_reason", id="openai-chat"),
    pytest.param("openai-responses", "text_output.sse", r"response\.completed", id="openai-responses"),
    pytest.param("gemini", "text.sse", "finishReason", id="gemini"),
    pytest.param("bedrock-converse", "redacted_reasoning.jsonl", "messageStop", id="bedrock-converse"),
    pytest.param("ollama", "text.jsonl", '"done": true', id="ollama"),
    pytest.param("bedrock-nova", "text.jsonl", "messageStop", id="bedrock-nova"),
]
"""A recorded stream per format, and what its documented last event is called."""


def _cut_before_last_event(provider: str, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` up to (not including) the one that ends the stream: the last for most formats;
    OpenAI Chat's finishing chunk may be followed by a usage chunk, Bedrock's (and Nova's)
    ``messageStop`` by its ``metadata``."""
    if provider == "openai-chat":
        return events[
            : max(n for n, event in enumerate(events) for c in event.get("choices", []) if c.get("finish_reason"))
        ]
    if provider.startswith("bedrock-"):
        return events[: next(n for n, event in enumerate(events) if "messageStop" in event)]
    return events[:-1]


@pytest.mark.parametrize(("provider", "name", "awaited"), WHOLE_STREAMS)
def test_a_conversation_refuses_a_stream_cut_before_its_last_event(provider: str, name: str, awaited: str) -> None:
    whole = _events(provider, name)
    finished = chatcodec.Conversation()
    for event in whole:
        finished.append_chunk(provider, event)
    message = finished.finish_stream()
    assert message == chatcodec.accumulate_stream(provider, whole).message
    cut = chatcodec.Conversation()
    for event in _cut_before_last_event(provider, whole):
        cut.append_chunk(provider, event)
    with pytest.raises(chatcodec.StreamError, match=awaited):
        cut.finish_stream()
    assert cut.messages == []
    with pytest.raises(chatcodec.StreamError, match=r"partial=True"):  # the stream was closed: nothing more is fed
        cut.append_chunk(provider, whole[-1])
    partial = cut.finish_stream(partial=True)  # the refused stream is still there to take as it stands
    assert (
        partial == chatcodec.accumulate_stream(provider, _cut_before_last_event(provider, whole), partial=True).message
    )
    assert cut.messages == [partial]
