"""``chatcodec serve --api openai-chat --upstream anthropic``, driven by the
official ``openai`` client against a fake Anthropic server replaying recorded traffic."""

from __future__ import annotations

import copy
import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import httpx
import openai
import pytest

import chatcodec
from chatcodec.serve._steps.stream import LOST
from providers.anthropic.anthropic_support import assert_valid_request
from serve.harness import FakeUpstream, fixture_bytes, fixture_json, proxy, serving_fake

KEY = "sk-ant-caller"
SSE = "text/event-stream"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


@pytest.fixture(scope="module")
def client(fake: FakeUpstream) -> Iterator[openai.OpenAI]:
    with (
        proxy("openai-chat", "anthropic", fake.base, model_map={"gpt-4o": "claude-sonnet-4-6"}) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key=KEY, max_retries=0) as sdk,
    ):
        yield sdk


@pytest.fixture(autouse=True)
def fresh(fake: FakeUpstream) -> None:
    fake.replies.clear()
    fake.received.clear()
    fake.stream_closed.clear()


def test_plain_answer_with_thinking_and_a_tool_call(fake: FakeUpstream, client: openai.OpenAI) -> None:
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
    before = int(time.time())
    completion = client.chat.completions.create(
        model="gpt-4o",
        messages=[{"role": "user", "content": "Largest city in my country?"}],
        max_completion_tokens=2000,
        tools=[{"type": "function", "function": {"name": "get_user_country", "parameters": {"type": "object"}}}],
    )
    message = completion.choices[0].message
    assert message.content is not None
    assert message.content.startswith("I'll help you find the largest city")
    assert message.tool_calls is not None
    assert [call.model_dump()["function"]["name"] for call in message.tool_calls] == ["get_user_country"]
    assert (message.model_extra or {})["reasoning_content"].startswith("The user is asking")
    assert completion.choices[0].finish_reason == "tool_calls"
    assert completion.created >= before
    sent = fake.last
    assert (sent.path, sent.headers["x-api-key"], sent.body["model"]) == ("/v1/messages", KEY, "claude-sonnet-4-6")
    assert sent.headers["anthropic-version"] == "2026-10-21"  # the version the library writes for (issue 87)
    assert_valid_request(sent.body)


def _stream(client: openai.OpenAI, **settings: object) -> list[openai.types.chat.ChatCompletionChunk]:
    stream = client.chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": "Are there primes ending in 2?"}], stream=True, **settings
    )
    return list(stream)


def test_streamed_answer_with_include_usage_has_one_usage_chunk_last(fake: FakeUpstream, client: openai.OpenAI) -> None:
    fake.reply(fixture_bytes("anthropic", "stream", "thinking_signature_delta.sse"), content_type=SSE)
    chunks = _stream(client, stream_options={"include_usage": True})
    assert [chunk.usage is not None for chunk in chunks].count(True) == 1
    assert chunks[-1].usage is not None
    assert chunks[-1].choices == []
    assert chunks[-1].usage.prompt_tokens == 43
    assert all(chunk.choices for chunk in chunks[:-1])
    reasoning = "".join(
        (chunk.choices[0].delta.model_extra or {}).get("reasoning_content", "") for chunk in chunks[:-1]
    )
    assert reasoning
    assert fake.last.body["stream"] is True
    assert_valid_request(fake.last.body)


def test_streamed_answer_without_include_usage_sends_no_usage_chunk(fake: FakeUpstream, client: openai.OpenAI) -> None:
    fake.reply(fixture_bytes("anthropic", "stream", "text_basic.sse"), content_type=SSE)
    chunks = _stream(client)
    text = "".join(chunk.choices[0].delta.content or "" for chunk in chunks)  # the usual loop, no IndexError
    assert text
    assert all(chunk.usage is None for chunk in chunks)


def test_streamed_tool_call(fake: FakeUpstream, client: openai.OpenAI) -> None:
    fake.reply(fixture_bytes("anthropic", "stream", "tool_use_input_json_delta.sse"), content_type=SSE)
    chunks = _stream(client, tools=[{"type": "function", "function": {"name": "get_weather", "parameters": {}}}])
    calls = [call for chunk in chunks for call in chunk.choices[0].delta.tool_calls or []]
    assert calls[0].function is not None
    assert calls[0].function.name
    arguments = "".join(call.function.arguments or "" for call in calls if call.function is not None)
    assert isinstance(json.loads(arguments), dict)
    assert chunks[-1].choices[0].finish_reason == "tool_calls"


def test_a_bad_request_is_a_400_in_openai_shape_and_never_sent(fake: FakeUpstream, client: openai.OpenAI) -> None:
    with pytest.raises(openai.BadRequestError) as raised:
        client.chat.completions.create(model="gpt-4o", messages=[{"role": "robot", "content": "hi"}], extra_body={})
    assert raised.value.status_code == 400
    assert "invalid openai-chat request" in raised.value.message
    assert isinstance(raised.value.body, dict)
    assert raised.value.body["type"] == "invalid_request_error"
    assert fake.received == []


def test_an_upstream_error_keeps_its_status_and_message(fake: FakeUpstream, client: openai.OpenAI) -> None:
    fake.reply({"type": "error", "error": {"type": "rate_limit_error", "message": "Slow down please"}}, status=429)
    with pytest.raises(openai.RateLimitError) as raised:
        client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}])
    assert raised.value.status_code == 429
    assert "Slow down please" in raised.value.message


def test_a_mid_stream_upstream_error_reaches_the_client_with_its_message(
    fake: FakeUpstream, client: openai.OpenAI
) -> None:
    start = fixture_bytes("anthropic", "stream", "text_basic.sse").split(b"\n\n")[0] + b"\n\n"
    error = b'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'
    fake.reply(start + error, content_type=SSE)
    with pytest.raises(openai.APIError, match="Overloaded"):
        _stream(client)


def test_a_client_that_goes_away_cancels_the_upstream_request(
    fake: FakeUpstream, client: openai.OpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    head = fixture_bytes("anthropic", "stream", "text_basic.sse").split(b"event: message_delta")[0]
    fake.reply(head, content_type=SSE, endless=True)
    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    with httpx.Client(base_url=str(client.base_url), timeout=10) as http:
        body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "stream": True}
        with http.stream("POST", "chat/completions", json=body, headers={"authorization": f"Bearer {KEY}"}) as response:
            assert response.status_code == 200
            next(response.iter_bytes())
    assert fake.stream_closed.wait(10), "the upstream stream was not closed after the client left"
    deadline = time.monotonic() + 10
    while not any('"cancelled": true' in record.getMessage() for record in caplog.records):
        assert time.monotonic() < deadline, "no log line for the cancelled request"
        time.sleep(0.05)
    (line,) = [
        json.loads(record.getMessage()) for record in caplog.records if '"cancelled": true' in record.getMessage()
    ]
    assert (line["status"], line["headers"], line["error"]) == (499, 200, LOST)  # why it was lost, not only that


def test_one_json_log_line_per_request_with_losses_and_the_losses_header(
    fake: FakeUpstream, client: openai.OpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    raw = client.chat.completions.with_raw_response.create(
        model="gpt-4o", messages=[{"role": "user", "content": "hi"}], max_completion_tokens=100, seed=7
    )
    lines = [json.loads(record.getMessage()) for record in caplog.records if record.name == "chatcodec.serve"]
    assert len(lines) == 1
    line = lines[0]
    assert (line["status"], line["api"], line["upstream"], line["model"], line["upstream_model"]) == (
        200,
        "openai-chat",
        "anthropic",
        "gpt-4o",
        "claude-sonnet-4-6",
    )
    assert line["latency_ms"] > 0
    assert line["losses"] >= 1
    assert any("seed" in summary for summary in line["loss_summary"])
    assert raw.headers["chatcodec-losses"].startswith(f"{line['losses']}; ")


def test_the_upstream_body_is_the_decoded_request_updated_and_encoded(
    fake: FakeUpstream, client: openai.OpenAI
) -> None:
    """The proxy converts on the one path (reader, model and stream set on the canonical
    data, writer), with the body a decoded model updated and encoded gives."""
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
    call = {"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": '{"q": "x"}'}}
    payload: dict[str, Any] = {
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Look it up."},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": "found"},
        ],
        "tools": [{"type": "function", "function": {"name": "lookup", "parameters": {"type": "object"}}}],
        "max_completion_tokens": 300,
    }
    client.chat.completions.create(**copy.deepcopy(payload))
    update = {"model": "claude-sonnet-4-6", "stream": None}
    decoded = chatcodec.decode_request("openai-chat", payload).model_copy(update=update)
    assert fake.last.body == chatcodec.encode_request("anthropic", decoded, on_loss="ignore")


@pytest.mark.parametrize("streamed", [False, True], ids=["plain", "streamed"])
def test_the_answer_is_created_at_the_gateways_clock_and_nothing_is_invented(
    fake: FakeUpstream, client: openai.OpenAI, caplog: pytest.LogCaptureFixture, streamed: bool
) -> None:
    """A Claude answer names no creation time and a ChatCompletion requires one: the gateway
    gives the time the answer arrived, so the writer reports no invented ``created``."""
    if streamed:
        fake.reply(fixture_bytes("anthropic", "stream", "text_basic.sse"), content_type=SSE)
    else:
        fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    before = int(time.time())
    if streamed:
        created = {chunk.created for chunk in _stream(client)}
    else:
        raw = client.chat.completions.with_raw_response.create(
            model="gpt-4o", messages=[{"role": "user", "content": "hi"}], max_completion_tokens=100
        )
        created = {raw.parse().created}
        assert "created" not in raw.headers.get("chatcodec-losses", "")
    assert len(created) == 1
    assert before <= created.pop() <= int(time.time())
    lines = _log_lines(caplog)
    for _ in range(100):  # a stream's line is written once the server has sent its end
        if lines:
            break
        time.sleep(0.02)
        lines = _log_lines(caplog)
    assert [line["status"] for line in lines] == [200]
    assert not [summary for summary in lines[0].get("loss_summary", []) if "created" in summary]


def _log_lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [json.loads(record.getMessage()) for record in caplog.records if record.name == "chatcodec.serve"]


def test_a_repeated_call_id_is_renamed_upstream_alone_the_same_way_each_turn(
    fake: FakeUpstream, client: openai.OpenAI
) -> None:
    """An episode parsed turn by turn repeats its made ids (``call_0``); Claude refuses a
    repeated ``tool_use`` id, so the later call and its result go upstream as ``call_0-2``,
    reported. Nothing of it comes back: the answer's calls carry the ids Claude made, and the
    client's history keeps its own; the next turn renames the same way, so Claude sees one history."""

    def call() -> Any:
        return {"id": "call_0", "type": "function", "function": {"name": "get_user_country", "arguments": "{}"}}

    history: Any = [
        {"role": "user", "content": "Where am I, twice?"},
        {"role": "assistant", "content": None, "tool_calls": [call()]},
        {"role": "tool", "tool_call_id": "call_0", "content": "France"},
        {"role": "assistant", "content": None, "tool_calls": [call()]},
        {"role": "tool", "tool_call_id": "call_0", "content": "France, still"},
    ]
    sent: list[list[str]] = []
    for _ in range(2):
        fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
        raw = client.chat.completions.with_raw_response.create(model="gpt-4o", messages=history)
        contents = [message["content"] for message in fake.last.body["messages"]]
        blocks = [block for content in contents if isinstance(content, list) for block in content]
        sent.append(
            [
                block.get("id") or block["tool_use_id"]
                for block in blocks
                if block["type"] in ("tool_use", "tool_result")
            ]
        )
        assert "tool call id 'call_0'" in raw.headers["chatcodec-losses"]
        calls = raw.parse().choices[0].message.tool_calls
        assert calls is not None
        assert [call.id for call in calls] == ["toolu_01YGzqpRE16Vricda3Aqcejo"]  # Claude's own
    assert sent == [["call_0", "call_0", "call_0-2", "call_0-2"]] * 2
