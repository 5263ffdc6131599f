"""The other fronts and upstreams, plain and streamed, each driven by its
official client (``openai`` for Chat and Responses, ``google-genai`` for Gemini)."""

from __future__ import annotations

import json
from typing import Any

import openai
import pytest
from google import genai
from google.genai import types
from openai.types.responses import ResponseReasoningItem

from providers.anthropic.anthropic_support import assert_valid_request as assert_anthropic_request
from providers.bedrock_converse.bedrock_support import assert_valid_request as assert_bedrock_request
from providers.gemini.gemini_support import assert_valid_request as assert_gemini_request
from providers.openai_chat.openai_chat_support import assert_request_matches_sdk as assert_openai_request
from providers.openai_responses.responses_support import assert_request_matches_sdk as assert_responses_request
from serve.harness import FakeUpstream, bedrock_stream, fixture_bytes, fixture_json, proxy

SSE = "text/event-stream"
HELLO: list[Any] = [{"role": "user", "content": "Hello"}]


pytestmark = pytest.mark.usefixtures("fresh_fake")


# --- openai-responses in front of anthropic ------------------------------------------


def test_responses_front_on_anthropic_plain_and_streamed(fake: FakeUpstream) -> None:
    with (
        proxy("openai-responses", "anthropic", fake.base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
    ):
        fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
        response = client.responses.create(model="claude-sonnet-4-6", input="Largest city?", max_output_tokens=500)
        assert response.output_text.startswith("I'll help you find")
        assert [item.type for item in response.output] == ["reasoning", "message", "function_call"]
        _assert_reasoning_item(response.output[0], "thinking_text_tool_use.json")
        assert_anthropic_request(fake.last.body)

        fake.reply(fixture_bytes("anthropic", "stream", "text_basic.sse"), content_type=SSE)
        events = list(client.responses.create(model="claude-sonnet-4-6", input="Hi", stream=True))
        assert events[0].type == "response.created"
        assert events[-1].type == "response.completed"
        deltas = "".join(event.delta for event in events if event.type == "response.output_text.delta")
        assert deltas
        assert fake.last.body["stream"] is True
        assert_anthropic_request(fake.last.body)


def test_responses_front_on_anthropic_thinking_is_a_reasoning_item_streamed(fake: FakeUpstream) -> None:
    """Through the server, Anthropic's thinking is the first output item,
    a reasoning item with the thinking as its summary and an ``rs_`` id, in the stream's
    ``output_item`` events and its terminal response alike."""
    with (
        proxy("openai-responses", "anthropic", fake.base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
    ):
        fake.reply(fixture_bytes("anthropic", "stream", "thinking_signature_delta.sse"), content_type=SSE)
        events = list(client.responses.create(model="claude-sonnet-4-6", input="Hi", stream=True))
    added = [event.item for event in events if event.type == "response.output_item.added"]
    done = [event.item for event in events if event.type == "response.output_item.done"]
    assert [item.type for item in added] == [item.type for item in done] == ["reasoning", "message"]
    assert events[-1].type == "response.completed"
    final = events[-1].response.output
    assert [item.type for item in final] == ["reasoning", "message"]
    thinking = _streamed_thinking("thinking_signature_delta.sse")
    for item in (done[0], final[0]):
        assert isinstance(item, ResponseReasoningItem)
        assert [(entry.type, entry.text) for entry in item.summary] == [("summary_text", thinking)]
    assert added[0].id == done[0].id == final[0].id
    assert added[0].id.startswith("rs_")


def _assert_reasoning_item(item: object, fixture: str) -> None:
    """``item`` is a reasoning item whose one summary entry is the fixture's thinking."""
    content = fixture_json("anthropic", "response", fixture)["content"]
    thinking = [block["thinking"] for block in content if block["type"] == "thinking"]
    assert isinstance(item, ResponseReasoningItem)
    assert item.id.startswith("rs_")
    assert [(entry.type, entry.text) for entry in item.summary] == [("summary_text", thinking[0])]


def _streamed_thinking(fixture: str) -> str:
    """The thinking text an Anthropic stream fixture spells in its deltas."""
    text = fixture_bytes("anthropic", "stream", fixture).decode()
    datas = [json.loads(line[len("data: ") :]) for line in text.splitlines() if line.startswith("data: ")]
    return "".join(data["delta"]["thinking"] for data in datas if data.get("delta", {}).get("type") == "thinking_delta")


# --- gemini in front of openai-chat ---------------------------------------------------


def _gemini(origin: str) -> genai.Client:
    return genai.Client(api_key="gemini-key", http_options=types.HttpOptions(base_url=origin))


def test_gemini_front_on_openai_plain_and_streamed(fake: FakeUpstream) -> None:
    with proxy("gemini", "openai-chat", f"{fake.base}/v1") as origin:
        client = _gemini(origin)
        fake.reply(fixture_json("openai-chat", "response", "text_stop.json"))
        response = client.models.generate_content(model="gpt-4o", contents="Hello")
        assert response.text
        assert response.candidates is not None
        assert response.candidates[0].finish_reason == types.FinishReason.STOP
        sent = fake.last
        assert (sent.path, sent.headers["authorization"], sent.body["model"]) == (
            "/v1/chat/completions",
            "Bearer gemini-key",
            "gpt-4o",
        )
        assert_openai_request(sent.body)

        fake.reply(fixture_bytes("openai-chat", "stream", "text_with_usage_obfuscation.sse"), content_type=SSE)
        chunks = list(client.models.generate_content_stream(model="gpt-4o", contents="Hello"))
        assert "".join(chunk.text or "" for chunk in chunks)
        assert chunks[-1].usage_metadata is not None
        assert fake.last.body["stream"] is True


# --- openai-chat in front of gemini, openai-responses and bedrock ---------------------


def test_openai_front_on_gemini_plain_and_streamed(fake: FakeUpstream) -> None:
    with proxy("openai-chat", "gemini", fake.base) as origin:
        client = openai.OpenAI(base_url=f"{origin}/v1", api_key="gemini-key", max_retries=0)
        fake.reply(fixture_json("gemini", "response", "text_stop.json"))
        completion = client.chat.completions.create(model="gemini-2.5-flash", messages=HELLO)
        assert completion.choices[0].message.content == "Hello! How can I help you today?"
        sent = fake.last
        assert (sent.path, sent.headers["x-goog-api-key"]) == (
            "/v1beta/models/gemini-2.5-flash:generateContent",
            "gemini-key",
        )
        assert "model" not in sent.body  # the model is in the URL only
        assert_gemini_request(sent.body)

        fake.reply(fixture_bytes("gemini", "stream", "text.sse"), content_type=SSE)
        chunks = list(client.chat.completions.create(model="gemini-2.0-flash", messages=HELLO, stream=True))
        assert "".join(chunk.choices[0].delta.content or "" for chunk in chunks).startswith("The")
        assert (fake.last.path, fake.last.query) == ("/v1beta/models/gemini-2.0-flash:streamGenerateContent", "alt=sse")


def test_openai_front_on_responses_plain_and_streamed(fake: FakeUpstream) -> None:
    with proxy("openai-chat", "openai-responses", f"{fake.base}/v1") as origin:
        client = openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0)
        fake.reply(fixture_json("openai-responses", "response", "function_call_no_reasoning.json"))
        completion = client.chat.completions.create(model="gpt-4.1", messages=HELLO)
        assert completion.choices[0].message.tool_calls
        assert fake.last.path == "/v1/responses"
        assert_responses_request(fake.last.body)

        fake.reply(fixture_bytes("openai-responses", "stream", "text_output.sse"), content_type=SSE)
        chunks = list(client.chat.completions.create(model="gpt-4.1", messages=HELLO, stream=True))
        assert "".join(chunk.choices[0].delta.content or "" for chunk in chunks)
        assert fake.last.body["stream"] is True


def test_openai_front_on_bedrock_plain_and_streamed(fake: FakeUpstream) -> None:
    with proxy("openai-chat", "bedrock-converse", fake.base) as origin:
        client = openai.OpenAI(base_url=f"{origin}/v1", api_key="bedrock-api-key", max_retries=0)
        fake.reply(fixture_json("bedrock-converse", "response", "gpt_oss_reasoning.json"))
        completion = client.chat.completions.create(model="openai.gpt-oss-120b-1:0", messages=HELLO)
        assert completion.choices[0].message.content
        sent = fake.last
        assert (sent.path, sent.headers["authorization"]) == (
            "/model/openai.gpt-oss-120b-1%3A0/converse",
            "Bearer bedrock-api-key",
        )
        assert_bedrock_request(sent.body)

        fake.reply(bedrock_stream("json_schema_output.jsonl"), content_type="application/vnd.amazon.eventstream")
        chunks = list(client.chat.completions.create(model="amazon.nova-pro-v1:0", messages=HELLO, stream=True))
        assert "".join(chunk.choices[0].delta.content or "" for chunk in chunks).startswith('{"city"')
        assert fake.last.path == "/model/amazon.nova-pro-v1%3A0/converse-stream"
