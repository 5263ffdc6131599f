"""What the server says on HTTP is what each provider says: the API version sent is the
one whose rules wrote the body, each front's stream is shaped as its provider streams,
errors carry what the official clients read, thoughts reach a caller who asked, the log
line tells a failed stream, and ``--strict`` refuses what would reach the upstream
changed. A real server on loopback in front of a fake upstream, as the other serve tests."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import anthropic
import httpx
import openai
import pytest
from google import genai
from google.genai import errors, types

import chatcodec
from chatcodec.options import AnthropicOptions
from serve.harness import FakeUpstream, fixture_bytes, fixture_json, proxy

SSE = "text/event-stream"
HELLO: list[Any] = [{"role": "user", "content": "Hello"}]
OVERLOADED = b'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'
KEY = {"authorization": "Bearer k"}
"""A caller's own key: the proxy lets no anonymous caller spend the operator's key."""


pytestmark = pytest.mark.usefixtures("fresh_fake")


def _anthropic_head() -> bytes:
    """A recorded Anthropic stream up to its first block's start, then Anthropic's overloaded error."""
    recorded = fixture_bytes("anthropic", "stream", "text_basic.sse")
    return recorded.split(b"event: content_block_delta")[0] + OVERLOADED


def _chat_chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    chunk = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    chunk["choices"] = [{"index": 0, "delta": delta, "finish_reason": finish}]
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"


# --- the API version ----------------------------------------------------------------------


@pytest.mark.parametrize("caller_version", [None, "2023-06-01"], ids=["no header", "2023-06-01"])
def test_the_gateway_writes_what_the_library_writes_under_the_same_rules(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture, caller_version: str | None
) -> None:
    """One default API version with one home (issue 87): with no ``anthropic-version`` from
    the caller, the gateway sends the version the library writes for (2026-10-21, what every
    current SDK sends) and writes the body the library writes, its ``temperature`` dropped
    and reported the same way; a caller's own 2023-06-01 (Claude Code, older SDKs) keeps it
    in both, as the library's ``api_version`` option does."""
    payload: dict[str, Any] = {"model": "claude-sonnet-4-5", "messages": HELLO, "temperature": 0.3}
    options: AnthropicOptions | None = None if caller_version is None else {"api_version": caller_version}
    library_losses: list[chatcodec.Loss] = []
    expected = chatcodec.convert_request(
        payload, source="openai-chat", target="anthropic", on_loss="ignore", losses=library_losses, options=options
    )
    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    headers = {} if caller_version is None else {"anthropic-version": caller_version}
    with (
        proxy("openai-chat", "anthropic", fake.base) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0, default_headers=headers) as client,
    ):
        fake.reply(fixture_json("anthropic", "response", "cache_read_and_creation_usage.json"))
        client.chat.completions.create(**payload)
    assert fake.last.headers["anthropic-version"] == (caller_version or "2026-10-21")
    assert fake.last.body == expected
    assert ("temperature" in fake.last.body) is (caller_version == "2023-06-01")
    lines = [json.loads(record.getMessage()) for record in caplog.records if record.name == "chatcodec.serve"]
    request_losses = [f"{loss.path}: {loss.what}" for loss in library_losses]
    assert lines[-1]["loss_summary"][: len(request_losses)] == request_losses  # then the answer's own
    dropped = [loss for loss in library_losses if loss.path == "$.temperature"]
    assert [loss.kind for loss in dropped] == ([] if caller_version else ["rule"])


def test_a_callers_anthropic_version_is_honoured_and_its_rules_applied(fake: FakeUpstream) -> None:
    body = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": HELLO, "temperature": 0.3}
    with proxy("anthropic", "anthropic", fake.base) as origin:
        fake.reply(fixture_json("anthropic", "response", "cache_read_and_creation_usage.json"))
        new = httpx.post(
            f"{origin}/v1/messages", json=body, headers={"anthropic-version": "2026-10-21", "x-api-key": "k"}
        )
        unknown = httpx.post(
            f"{origin}/v1/messages", json=body, headers={"anthropic-version": "1999-01-01", "x-api-key": "k"}
        )
    assert new.status_code == 200
    assert fake.last.headers["anthropic-version"] == "2026-10-21"
    assert "temperature" not in fake.last.body  # 2026-10-21 has no sampling parameters
    assert unknown.status_code == 400
    assert "1999-01-01" in unknown.json()["error"]["message"]
    assert len(fake.received) == 1


def test_the_anthropic_front_without_a_version_writes_what_the_library_writes(
    fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    """No ``anthropic-version`` from the caller (curl, a bare HTTP client): the body is written for
    the version the library's writer chooses for the same request (a body with ``temperature`` is
    one for 2023-06-01, kept whole), and that version is the header sent; issue 101."""
    body = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": HELLO, "temperature": 0.3}
    library_losses: list[chatcodec.Loss] = []
    expected = chatcodec.convert_request(body, source="anthropic", target="anthropic", losses=library_losses)
    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    with proxy("anthropic", "anthropic", fake.base) as origin:
        fake.reply(fixture_json("anthropic", "response", "cache_read_and_creation_usage.json"))
        old = httpx.post(f"{origin}/v1/messages", json=body, headers={"x-api-key": "k"})
        fake.reply(fixture_json("anthropic", "response", "cache_read_and_creation_usage.json"))
        without = {name: value for name, value in body.items() if name != "temperature"}
        plain = httpx.post(f"{origin}/v1/messages", json=without, headers={"x-api-key": "k"})
    assert old.status_code == 200, old.text
    assert plain.status_code == 200, plain.text
    first, second = fake.received
    assert first.body == expected  # temperature kept, as the library keeps it
    assert first.headers["anthropic-version"] == "2023-06-01"  # the version the body was written for
    assert library_losses == []
    assert "chatcodec-losses" not in old.headers
    assert second.headers["anthropic-version"] == "2026-10-21"  # nothing only 2023-06-01 takes: the default


# --- streams shaped as the provider's ------------------------------------------------------


def test_the_anthropic_front_streams_one_block_at_a_time_and_no_empty_text_block(fake: FakeUpstream) -> None:
    """An OpenAI-compatible upstream's ``"content": ""`` before its tool call is no block:
    Anthropic streams none, and each block stops before the next starts."""
    call = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": ""}}
    stream = b"".join(
        [
            _chat_chunk({"role": "assistant", "content": "", "reasoning_content": "Think."}),
            _chat_chunk({"content": ""}),
            _chat_chunk({"tool_calls": [call]}),
            _chat_chunk({"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]}),
            _chat_chunk({}, "tool_calls"),
            b"data: [DONE]\n\n",
        ]
    )
    with (
        proxy("anthropic", "openai-chat", f"{fake.base}/v1") as origin,
        anthropic.Anthropic(base_url=origin, api_key="k", max_retries=0) as client,
    ):
        fake.reply(stream, content_type=SSE)
        events = list(client.messages.create(model="m", max_tokens=100, messages=HELLO, stream=True))
    blocks = [
        (event.type, event.index) for event in events if event.type in ("content_block_start", "content_block_stop")
    ]
    assert blocks == [
        ("content_block_start", 0),
        ("content_block_stop", 0),
        ("content_block_start", 1),
        ("content_block_stop", 1),
    ]
    starts = [event.content_block.type for event in events if event.type == "content_block_start"]
    assert starts == ["thinking", "tool_use"]


def test_the_gemini_fronts_mid_stream_error_carries_its_code_for_google_genai(fake: FakeUpstream) -> None:
    with (
        proxy("gemini", "anthropic", fake.base) as origin,
        genai.Client(api_key="k", http_options=types.HttpOptions(base_url=origin)) as client,
    ):
        fake.reply(_anthropic_head(), content_type=SSE)
        with pytest.raises(errors.APIError) as raised:
            list(client.models.generate_content_stream(model="m", contents="Hi"))
    assert raised.value.code == 500  # Anthropic's 529 has no Google status: a server error, INTERNAL
    assert (raised.value.status, raised.value.message) == ("INTERNAL", "Overloaded")


@pytest.mark.parametrize("asked", [True, False])
def test_the_gemini_front_passes_thoughts_where_the_caller_asked(fake: FakeUpstream, asked: bool) -> None:
    """Claude's thinking reaches a google-genai caller as thought parts when it set
    ``includeThoughts`` (Gemini sends thoughts only then), plain and streamed."""
    config = types.GenerateContentConfig(thinking_config=types.ThinkingConfig(include_thoughts=asked))
    with (
        proxy("gemini", "anthropic", fake.base) as origin,
        genai.Client(api_key="k", http_options=types.HttpOptions(base_url=origin)) as client,
    ):
        fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
        answer = client.models.generate_content(model="m", contents="Hi", config=config)
        fake.reply(fixture_bytes("anthropic", "stream", "thinking_signature_delta.sse"), content_type=SSE)
        chunks = list(client.models.generate_content_stream(model="m", contents="Hi", config=config))
    assert answer.candidates is not None
    assert answer.candidates[0].content is not None
    plain = answer.candidates[0].content.parts or []
    streamed = [
        part
        for chunk in chunks
        for candidate in chunk.candidates or []
        for part in (candidate.content.parts if candidate.content else None) or []
    ]
    for parts in (plain, streamed):
        thoughts = [part for part in parts if part.thought]
        assert bool(thoughts) is asked
        assert all(part.thought_signature is None for part in thoughts)  # Claude's signature means nothing here
    if asked:
        assert (plain[0].text or "").startswith("The user is asking")


# --- the log line --------------------------------------------------------------------------


def test_the_log_line_carries_a_mid_stream_error(fake: FakeUpstream, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="chatcodec.serve")
    with proxy("openai-chat", "anthropic", fake.base) as origin:
        fake.reply(_anthropic_head(), content_type=SSE)
        body = {"model": "m", "messages": HELLO, "stream": True}
        streamed = httpx.post(f"{origin}/v1/chat/completions", json=body, headers=KEY)
        deadline = time.monotonic() + 10
        while not any(record.name == "chatcodec.serve" for record in caplog.records):
            assert time.monotonic() < deadline, "no log line for the request"
            time.sleep(0.05)
    assert streamed.status_code == 200  # the headers went out before the error came
    line = json.loads(next(record.getMessage() for record in caplog.records if record.name == "chatcodec.serve"))
    assert line["status"] == 529
    assert "Overloaded" in line["error"]


# --- --strict ------------------------------------------------------------------------------


def test_strict_refuses_a_typo_an_orphan_result_and_what_the_upstream_cannot_carry(fake: FakeUpstream) -> None:
    orphan = [*HELLO, {"role": "tool", "tool_call_id": "call_9", "content": "sunny"}]
    requests: dict[str, dict[str, Any]] = {
        "typo": {"messages": HELLO, "temprature": 0.2},
        "orphan": {"messages": orphan},
        "n": {"messages": HELLO, "n": 2},
    }
    with proxy("openai-chat", "anthropic", fake.base, strict=True) as origin:
        refused = {
            name: httpx.post(f"{origin}/v1/chat/completions", json={"model": "m", **request}, headers=KEY)
            for name, request in requests.items()
        }
    assert {name: answer.status_code for name, answer in refused.items()} == {"typo": 400, "orphan": 400, "n": 400}
    assert "temprature" in refused["typo"].json()["error"]["message"]
    assert fake.received == []


def test_without_strict_the_same_requests_are_converted_and_their_losses_reported(fake: FakeUpstream) -> None:
    with proxy("openai-chat", "anthropic", fake.base) as origin:
        fake.reply(fixture_json("anthropic", "response", "cache_read_and_creation_usage.json"))
        answer = httpx.post(
            f"{origin}/v1/chat/completions", json={"model": "m", "messages": HELLO, "n": 2}, headers=KEY
        )
    assert answer.status_code == 200
    assert "n" in answer.headers["chatcodec-losses"]
