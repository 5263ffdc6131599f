"""``chatcodec serve --api anthropic --upstream openai-chat`` (an Anthropic-API
endpoint in front of an OpenAI-compatible server), driven by the official ``anthropic``
client against a fake OpenAI-compatible server replaying recorded traffic."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import anthropic
import httpx
import pytest

from providers.openai_chat.openai_chat_support import assert_request_matches_sdk
from serve.harness import FakeUpstream, fixture_bytes, fixture_json, proxy, serving_fake

KEY = "sk-openai-caller"
SSE = "text/event-stream"
QUESTION: list[Any] = [{"role": "user", "content": "How do I cross the street?"}]
ROBOT: list[Any] = [{"role": "robot", "content": "hi"}]


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


@pytest.fixture(scope="module")
def client(fake: FakeUpstream) -> Iterator[anthropic.Anthropic]:
    with (
        proxy("anthropic", "openai-chat", f"{fake.base}/v1") as origin,
        anthropic.Anthropic(base_url=origin, api_key=KEY, max_retries=0) as sdk,
    ):
        yield sdk


@pytest.fixture(autouse=True)
def fresh(fake: FakeUpstream) -> None:
    fake.replies.clear()
    fake.received.clear()
    fake.stream_closed.clear()


def test_plain_answer_with_reasoning(fake: FakeUpstream, client: anthropic.Anthropic) -> None:
    fake.reply(fixture_json("openai-chat", "response", "deepseek_reasoner.json"))
    message = client.messages.create(model="deepseek-reasoner", max_tokens=1000, messages=QUESTION)
    kinds = [block.type for block in message.content]
    assert kinds == ["thinking", "text"]
    assert message.content[1].model_dump()["text"].startswith("Crossing the street safely")
    assert message.stop_reason == "end_turn"
    sent = fake.last
    assert (sent.path, sent.headers["authorization"]) == ("/v1/chat/completions", f"Bearer {KEY}")
    assert sent.body["model"] == "deepseek-reasoner"
    assert_request_matches_sdk(sent.body)


def test_plain_tool_call(fake: FakeUpstream, client: anthropic.Anthropic) -> None:
    fake.reply(fixture_json("openai-chat", "response", "single_tool_call.json"))
    tools: list[Any] = [{"name": "get_weather", "input_schema": {"type": "object", "properties": {}}}]
    message = client.messages.create(model="gpt-4o", max_tokens=100, messages=QUESTION, tools=tools)
    calls = [block for block in message.content if block.type == "tool_use"]
    assert len(calls) == 1
    assert message.stop_reason == "tool_use"
    assert fake.last.body["tools"][0]["function"]["name"] == "get_weather"
    assert_request_matches_sdk(fake.last.body)


def test_streamed_tool_calls(fake: FakeUpstream, client: anthropic.Anthropic) -> None:
    fake.reply(fixture_bytes("openai-chat", "stream", "parallel_tool_calls.sse"), content_type=SSE)
    with client.messages.stream(model="gpt-4o", max_tokens=100, messages=QUESTION) as stream:
        message = stream.get_final_message()
    assert [block.type for block in message.content].count("tool_use") == 2
    assert message.stop_reason == "tool_use"
    assert fake.last.body["stream"] is True
    assert fake.last.body["stream_options"] == {"include_usage": True}
    assert_request_matches_sdk(fake.last.body)


def test_streamed_text_with_usage(fake: FakeUpstream, client: anthropic.Anthropic) -> None:
    fake.reply(fixture_bytes("openai-chat", "stream", "text_with_usage_obfuscation.sse"), content_type=SSE)
    with client.messages.stream(model="gpt-4o", max_tokens=100, messages=QUESTION) as stream:
        text = "".join(stream.text_stream)
        message = stream.get_final_message()
    assert text
    assert message.content[0].model_dump()["text"] == text
    assert message.usage.output_tokens > 0


def test_streamed_reasoning_becomes_thinking(fake: FakeUpstream, client: anthropic.Anthropic) -> None:
    fake.reply(fixture_bytes("openai-chat", "stream", "openrouter_reasoning.sse"), content_type=SSE)
    with client.messages.stream(model="anthropic/claude-sonnet-4.5", max_tokens=100, messages=QUESTION) as stream:
        message = stream.get_final_message()
    assert message.content[0].type == "thinking"


def test_a_bad_request_is_a_400_in_anthropic_shape(fake: FakeUpstream, client: anthropic.Anthropic) -> None:
    with pytest.raises(anthropic.BadRequestError) as raised:
        client.messages.create(model="gpt-4o", max_tokens=10, messages=ROBOT)
    assert raised.value.status_code == 400
    assert isinstance(raised.value.body, dict)
    assert raised.value.body["type"] == "error"
    assert raised.value.body["error"]["type"] == "invalid_request_error"
    assert fake.received == []


def test_an_upstream_error_keeps_its_status_and_message(fake: FakeUpstream, client: anthropic.Anthropic) -> None:
    body = {
        "error": {"message": "Incorrect API key provided", "type": "invalid_request_error", "code": "invalid_api_key"}
    }
    fake.reply(body, status=401)
    with pytest.raises(anthropic.AuthenticationError) as raised:
        client.messages.create(model="gpt-4o", max_tokens=10, messages=QUESTION)
    assert raised.value.status_code == 401
    assert "Incorrect API key provided" in raised.value.message
    assert isinstance(raised.value.body, dict)
    assert raised.value.body["error"]["type"] == "authentication_error"


def test_a_mid_stream_upstream_error_is_an_anthropic_error_event(
    fake: FakeUpstream, client: anthropic.Anthropic
) -> None:
    first = fixture_bytes("openai-chat", "stream", "text_with_usage_obfuscation.sse").split(b"\n\n")[0] + b"\n\n"
    error = json.dumps({"error": {"message": "The server had an error", "type": "server_error"}}).encode()
    fake.reply(first + b"data: " + error + b"\n\n", content_type=SSE)
    with (
        pytest.raises(anthropic.APIStatusError, match="The server had an error"),
        client.messages.stream(model="gpt-4o", max_tokens=100, messages=QUESTION) as stream,
    ):
        stream.get_final_message()


def test_a_client_that_goes_away_cancels_the_upstream_request(
    fake: FakeUpstream, client: anthropic.Anthropic, caplog: pytest.LogCaptureFixture
) -> None:
    """The Anthropic front, as the OpenAI front's test: a client that leaves
    mid-stream closes the upstream stream, and the request's log line says cancelled."""
    chunks = fixture_bytes("openai-chat", "stream", "text_with_usage_obfuscation.sse").split(b"\n\n")
    head = b"\n\n".join(chunks[:3]) + b"\n\n"  # the answer begins; no finish ever comes
    fake.reply(head, content_type=SSE, endless=True)
    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    with httpx.Client(base_url=str(client.base_url), timeout=10) as http:
        body = {"model": "gpt-4o", "max_tokens": 10, "messages": QUESTION, "stream": True}
        headers = {"x-api-key": KEY, "anthropic-version": "2023-06-01"}
        with http.stream("POST", "/v1/messages", json=body, headers=headers) as response:
            assert response.status_code == 200
            next(response.iter_bytes())
    assert fake.stream_closed.wait(10), "the upstream stream was not closed after the client left"
    deadline = time.monotonic() + 10
    while not any('"cancelled": true' in record.getMessage() for record in caplog.records):
        assert time.monotonic() < deadline, "no log line for the cancelled request"
        time.sleep(0.05)


def test_a_gzip_encoded_stream_is_decoded_before_it_is_converted(
    fake: FakeUpstream, client: anthropic.Anthropic
) -> None:
    """The stream step reads an upstream body as it arrives when it has no content encoding,
    and decodes one that has (a proxy that compresses): both give the same answer."""
    import gzip

    plain = fixture_bytes("openai-chat", "stream", "text_with_usage_obfuscation.sse")
    answers: list[str] = []
    for body, headers in ((plain, {}), (gzip.compress(plain), {"content-encoding": "gzip"})):
        fake.reply(body, content_type=SSE, headers=headers)
        with client.messages.stream(model="gpt-4o", max_tokens=100, messages=QUESTION) as stream:
            answers.append("".join(stream.text_stream))
    assert answers[0]
    assert answers[1] == answers[0]
