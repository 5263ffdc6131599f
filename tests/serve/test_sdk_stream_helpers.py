"""The official SDKs' stream helpers read serve's streams whole, on every front, from every
upstream that streams reasoning: ``client.chat.completions.stream()`` and
``client.responses.stream()`` (openai) and ``client.messages.stream()`` (anthropic) fold the
events into the final answer the way an application gets it.

The OpenAI Chat helper merges every list in a delta by its entries' ``index``
(``openai/lib/streaming/_deltas.py``) and raised ``RuntimeError: Expected list delta entry
to have an `index` key`` on Claude's ``thinking_blocks`` fragments, on turn one without
tools: every entry of a streamed list now carries its index.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anthropic
import openai
import pytest

import chatcodec
from chatcodec import (
    FinishEvent,
    FinishReason,
    ResponseStartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ThinkingDeltaEvent,
    ThinkingEndEvent,
    ThinkingSignatureDeltaEvent,
    ThinkingStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
)
from chatcodec.streams._framing import WireEventWriter
from serve.harness import FakeUpstream, proxy

pytestmark = pytest.mark.usefixtures("fresh_fake")

THOUGHT = "The user greets me; a greeting back, then the weather."
SIGNATURE = "c2lnbmVkIGJ5IHRoZSB1cHN0cmVhbQ=="
ANSWER = "Hello there."
ARGUMENTS = '{"location":"Paris"}'
SIGNERS = ("anthropic", "bedrock-converse")
"""The upstreams whose thinking comes signed (Claude's, on its API and on Bedrock)."""
MODELS = {
    "anthropic": "claude-sonnet-4-5",
    "bedrock-converse": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "gemini": "gemini-3-pro-preview",
    "openai-responses": "gpt-5",
    "openai-chat": "deepseek-reasoner",
    "ollama": "qwen3",
}
STREAM_TYPES = {"bedrock-converse": "application/vnd.amazon.eventstream", "ollama": "application/x-ndjson"}


def _events(upstream: str, *, tools: bool) -> list[Any]:
    signed = upstream in SIGNERS
    events: list[Any] = [
        ResponseStartEvent(id="answer_1", model=MODELS[upstream]),
        ThinkingStartEvent(index=0, provider=upstream, model=MODELS[upstream] if signed else None),
        ThinkingDeltaEvent(index=0, delta=THOUGHT[:12]),
        ThinkingDeltaEvent(index=0, delta=THOUGHT[12:30]),
        ThinkingDeltaEvent(index=0, delta=THOUGHT[30:]),
    ]
    if signed:
        events.append(ThinkingSignatureDeltaEvent(index=0, delta=SIGNATURE))
    events += [
        ThinkingEndEvent(index=0),
        TextStartEvent(index=1),
        TextDeltaEvent(index=1, delta=ANSWER[:6]),
        TextDeltaEvent(index=1, delta=ANSWER[6:]),
        TextEndEvent(index=1),
    ]
    if tools:
        events += [
            ToolCallStartEvent(index=2, id="call_1", name="get_weather"),
            ToolCallDeltaEvent(index=2, delta=ARGUMENTS[:8]),
            ToolCallDeltaEvent(index=2, delta=ARGUMENTS[8:]),
            ToolCallEndEvent(index=2),
        ]
    finish = FinishReason(unified="tool_calls" if tools else "stop")
    return [*events, FinishEvent(finish_reason=finish)]


def _queue(fake: FakeUpstream, upstream: str, *, tools: bool) -> None:
    writer = WireEventWriter(upstream)
    wire = chatcodec.encode_stream(upstream, _events(upstream, tools=tools), on_loss="ignore")
    body = b"".join(writer.write(event) for event in wire) + writer.close()
    fake.reply(body, content_type=STREAM_TYPES.get(upstream, "text/event-stream"))


# --- each front's SDK helper, and what the folded answer must hold -----------------------------


def _chat(origin: str, upstream: str, tools: bool) -> None:
    extra: dict[str, Any] = {"tools": [_CHAT_TOOL]} if tools else {}
    messages: Any = [{"role": "user", "content": "Hi"}]
    with (
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
        client.chat.completions.stream(model="m", messages=messages, **extra) as stream,
    ):
        for _ in stream:
            pass
        message = stream.get_final_completion().choices[0].message
    assert message.content == ANSWER
    fields = message.model_extra or {}
    if upstream in SIGNERS:  # litellm's field, which carries the signature back
        assert fields["thinking_blocks"] == [
            {"index": 0, "type": "thinking", "thinking": THOUGHT, "signature": SIGNATURE}
        ]
    else:
        assert THOUGHT in (fields.get("reasoning_content"), fields.get("reasoning"))
    if tools:
        assert message.tool_calls is not None
        assert [(call.function.name, call.function.arguments) for call in message.tool_calls] == [
            ("get_weather", ARGUMENTS)
        ]


def _responses(origin: str, upstream: str, tools: bool) -> None:
    extra: dict[str, Any] = {"tools": [_RESPONSES_TOOL]} if tools else {}
    with (
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
        client.responses.stream(model="m", input="Hi", store=False, **extra) as stream,
    ):
        for _ in stream:
            pass
        response = stream.get_final_response()
    assert response.output_text == ANSWER
    reasoning = [item for item in response.output if item.type == "reasoning"]
    texts = [part.text for item in reasoning for part in (item.content or item.summary or [])]
    assert "".join(texts) == THOUGHT  # (a Gemini call's state rides in a reasoning item of its own)
    if tools:
        calls = [item for item in response.output if item.type == "function_call"]
        assert [(call.name, call.arguments) for call in calls] == [("get_weather", ARGUMENTS)]


def _anthropic(origin: str, upstream: str, tools: bool) -> None:
    extra: dict[str, Any] = {"tools": [_ANTHROPIC_TOOL]} if tools else {}
    messages: Any = [{"role": "user", "content": "Hi"}]
    with (
        anthropic.Anthropic(base_url=origin, api_key="k", max_retries=0) as client,
        client.messages.stream(model="m", max_tokens=1024, messages=messages, **extra) as stream,
    ):
        for _ in stream:
            pass
        message = stream.get_final_message()
    thinking, text, *calls = message.content
    assert thinking.type == "thinking"
    assert thinking.thinking == THOUGHT
    if upstream == "anthropic":  # Bedrock's stream names no model, so its signature is not vouched for
        assert thinking.signature == SIGNATURE
    assert text.type == "text"
    assert text.text == ANSWER
    if tools:
        assert [(call.type, getattr(call, "input", None)) for call in calls] == [("tool_use", {"location": "Paris"})]


_CHAT_TOOL: Any = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
_RESPONSES_TOOL: Any = {"type": "function", "name": "get_weather", "parameters": {"type": "object"}, "strict": False}
_ANTHROPIC_TOOL: Any = {"name": "get_weather", "input_schema": {"type": "object"}}

HELPERS: dict[str, Callable[[str, str, bool], None]] = {
    "openai-chat": _chat,
    "openai-responses": _responses,
    "anthropic": _anthropic,
}


@pytest.mark.parametrize("tools", [False, True], ids=["turn-one", "with-a-call"])
@pytest.mark.parametrize("upstream", list(MODELS))
@pytest.mark.parametrize("front", list(HELPERS))
def test_the_sdk_stream_helper_folds_a_thinking_stream(
    fake: FakeUpstream, front: str, upstream: str, tools: bool
) -> None:
    _queue(fake, upstream, tools=tools)
    with proxy(front, upstream, fake.base, model_map={"m": MODELS[upstream]}) as origin:
        HELPERS[front](origin, upstream, tools)
