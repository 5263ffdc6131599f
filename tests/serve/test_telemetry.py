"""``chatcodec serve --otel``: one span per request following the OpenTelemetry GenAI
conventions, read back from an in-memory exporter."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import openai
import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from chatcodec.serve import ServeConfig
from serve.harness import FakeUpstream, fixture_bytes, fixture_json, serving_config, serving_fake

SSE = "text/event-stream"
QUESTION: list[Any] = [{"role": "system", "content": "Be brief"}, {"role": "user", "content": "Largest city?"}]


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


@contextmanager
def traced(fake: FakeUpstream, *, content: bool) -> Iterator[tuple[openai.OpenAI, InMemorySpanExporter]]:
    """An OpenAI client on a proxy to the fake Anthropic upstream, its spans exported to memory."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    config = ServeConfig("openai-chat", "anthropic", fake.base, otel=True, otel_content=content)
    with (
        serving_config(config, tracer_provider=provider) as origin,
        openai.OpenAI(base_url=f"{origin}/v1", api_key="k", max_retries=0) as client,
    ):
        yield client, exporter
    provider.shutdown()


def _one_span(exporter: InMemorySpanExporter) -> ReadableSpan:
    deadline = time.monotonic() + 5
    while not exporter.get_finished_spans():
        assert time.monotonic() < deadline, "no span ended"
        time.sleep(0.01)
    (span,) = exporter.get_finished_spans()
    return span


def test_a_plain_request_is_a_genai_chat_span_with_its_losses_as_events(fake: FakeUpstream) -> None:
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
    with traced(fake, content=False) as (client, exporter):
        client.chat.completions.create(model="claude-sonnet-4-6", messages=QUESTION, max_tokens=300, seed=7)
        span = _one_span(exporter)
    attributes = dict(span.attributes or {})
    assert (span.name, span.kind) == ("chat claude-sonnet-4-6", SpanKind.CLIENT)
    assert attributes["gen_ai.operation.name"] == "chat"
    assert attributes["gen_ai.provider.name"] == "anthropic"
    assert attributes["gen_ai.request.model"] == "claude-sonnet-4-6"
    assert attributes["gen_ai.request.max_tokens"] == 300
    assert attributes["server.address"] == "127.0.0.1"
    assert str(attributes["gen_ai.response.id"]).startswith("msg_")
    assert attributes["gen_ai.response.finish_reasons"] == ("tool_call",)
    assert isinstance(attributes["gen_ai.usage.input_tokens"], int)
    assert isinstance(attributes["gen_ai.usage.output_tokens"], int)
    assert "gen_ai.input.messages" not in attributes
    losses = [event for event in span.events if event.name == "chatcodec.serve.loss"]
    assert any("seed" in str((event.attributes or {}).get("chatcodec.loss.path")) for event in losses)


def test_messages_go_on_the_span_only_when_asked_in_the_conventions_format(fake: FakeUpstream) -> None:
    fake.reply(fixture_bytes("anthropic", "stream", "text_basic.sse"), content_type=SSE)
    with traced(fake, content=True) as (client, exporter):
        chunks = list(client.chat.completions.create(model="claude-sonnet-4-6", messages=QUESTION, stream=True))
        span = _one_span(exporter)
    attributes = dict(span.attributes or {})
    assert json.loads(str(attributes["gen_ai.system_instructions"])) == [{"type": "text", "content": "Be brief"}]
    assert json.loads(str(attributes["gen_ai.input.messages"])) == [
        {"role": "user", "parts": [{"type": "text", "content": "Largest city?"}]}
    ]
    (output,) = json.loads(str(attributes["gen_ai.output.messages"]))
    streamed = "".join(chunk.choices[0].delta.content or "" for chunk in chunks if chunk.choices)
    assert output == {"role": "assistant", "parts": [{"type": "text", "content": streamed}], "finish_reason": "stop"}
    assert attributes["gen_ai.response.finish_reasons"] == ("stop",)


def test_an_upstream_error_sets_the_spans_error_status(fake: FakeUpstream) -> None:
    fake.reply({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}, 529)
    with traced(fake, content=False) as (client, exporter):
        with pytest.raises(openai.InternalServerError):
            client.chat.completions.create(model="claude-sonnet-4-6", messages=QUESTION)
        span = _one_span(exporter)
    assert span.status.status_code == StatusCode.ERROR
    assert (span.attributes or {})["error.type"] == "529"
