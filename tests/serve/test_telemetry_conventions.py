"""``chatcodec serve --otel``: the current GenAI semantic-convention attributes
(https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/), one test per attribute."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from chatcodec.serve import ServeConfig
from chatcodec.serve._fronts import front
from serve.harness import FakeUpstream, fixture_bytes, fixture_json, serving_config, serving_fake

SSE = "text/event-stream"
KEY = {"authorization": "Bearer k"}
HELLO: list[Any] = [{"role": "user", "content": "Largest city?"}]
TOOL = {"type": "function", "function": {"name": "weather", "description": "Weather", "parameters": {"type": "object"}}}


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


@contextmanager
def traced(config: ServeConfig) -> Iterator[tuple[str, InMemorySpanExporter]]:
    """The proxy for ``config`` (telemetry on), its spans exported to memory."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    with serving_config(config, tracer_provider=provider) as origin:
        yield origin, exporter
    provider.shutdown()


def span_attributes(exporter: InMemorySpanExporter) -> dict[str, Any]:
    deadline = time.monotonic() + 5
    while not exporter.get_finished_spans():
        assert time.monotonic() < deadline, "no span ended"
        time.sleep(0.01)
    (span,) = exporter.get_finished_spans()
    return dict(span.attributes or {})


def chat_to_claude(fake: FakeUpstream, body: dict[str, Any], *, content: bool = False) -> dict[str, Any]:
    """The span of one OpenAI Chat request sent through to the fake Anthropic upstream."""
    config = ServeConfig("openai-chat", "anthropic", fake.base, otel=True, otel_content=content)
    with traced(config) as (origin, exporter):
        httpx.post(f"{origin}/v1/chat/completions", json=body, headers=KEY, timeout=30)
        return span_attributes(exporter)


def test_a_span_says_the_request_is_not_streamed_and_wants_json(fake: FakeUpstream) -> None:
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
    body = {"model": "claude-sonnet-4-6", "messages": HELLO, "response_format": {"type": "json_object"}}
    attributes = chat_to_claude(fake, body)
    assert attributes["gen_ai.request.stream"] is False
    assert attributes["gen_ai.output.type"] == "json"
    assert "gen_ai.response.time_to_first_chunk" not in attributes


def test_a_streamed_span_has_its_time_to_first_chunk(fake: FakeUpstream) -> None:
    fake.reply(fixture_bytes("anthropic", "stream", "text_basic.sse"), content_type=SSE)
    attributes = chat_to_claude(fake, {"model": "claude-sonnet-4-6", "messages": HELLO, "stream": True})
    assert attributes["gen_ai.request.stream"] is True
    assert attributes["gen_ai.output.type"] == "text"
    first_chunk = attributes["gen_ai.response.time_to_first_chunk"]
    assert isinstance(first_chunk, float)
    assert 0 < first_chunk < 30


def test_cache_token_counts_go_on_the_span(fake: FakeUpstream) -> None:
    fake.reply(fixture_json("anthropic", "response", "cache_read_and_creation_usage.json"))
    attributes = chat_to_claude(fake, {"model": "claude-sonnet-4-6", "messages": HELLO})
    assert attributes["gen_ai.usage.input_tokens"] == 1532  # the cached tokens included, as the conventions say
    assert attributes["gen_ai.usage.cache_read.input_tokens"] == 1111
    assert attributes["gen_ai.usage.cache_creation.input_tokens"] == 418


def test_reasoning_token_count_and_the_real_provider_go_on_the_span(fake: FakeUpstream) -> None:
    """An OpenAI Chat upstream at DeepSeek is ``deepseek``, not ``openai``."""
    fake.reply(fixture_json("openai-chat", "response", "deepseek_reasoner.json"))
    config = ServeConfig("anthropic", "openai-chat", fake.base, otel=True, options={"server": "deepseek"})
    with traced(config) as (origin, exporter):
        body = {"model": "deepseek-reasoner", "max_tokens": 100, "messages": HELLO}
        httpx.post(f"{origin}/v1/messages", json=body, headers={"x-api-key": "k"}, timeout=30)
        attributes = span_attributes(exporter)
    assert attributes["gen_ai.usage.reasoning.output_tokens"] == 415
    assert attributes["gen_ai.provider.name"] == "deepseek"


def test_a_compatible_server_without_a_convention_name_is_named_by_its_option(fake: FakeUpstream) -> None:
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
    config = ServeConfig("openai-chat", "anthropic", fake.base, otel=True, options={"server": "minimax"})
    with traced(config) as (origin, exporter):
        httpx.post(f"{origin}/v1/chat/completions", json={"model": "MiniMax-M2.7", "messages": HELLO}, headers=KEY)
        assert span_attributes(exporter)["gen_ai.provider.name"] == "minimax"


def test_a_refused_request_still_names_its_provider(fake: FakeUpstream) -> None:
    config = ServeConfig("openai-chat", "anthropic", fake.base, otel=True)
    with traced(config) as (origin, exporter):
        refused = httpx.post(f"{origin}/v1/chat/completions", content=b"{not json", headers=KEY, timeout=30)
        attributes = span_attributes(exporter)
    assert refused.status_code == 400
    assert attributes["gen_ai.provider.name"] == "anthropic"
    assert attributes["error.type"] == "400"


def test_tool_definitions_go_on_the_span_only_when_content_is_opted_in(fake: FakeUpstream) -> None:
    body = {"model": "claude-sonnet-4-6", "messages": HELLO, "tools": [TOOL]}
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
    assert "gen_ai.tool.definitions" not in chat_to_claude(fake, body)
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
    definitions = json.loads(chat_to_claude(fake, body, content=True)["gen_ai.tool.definitions"])
    assert definitions == [
        {"type": "function", "name": "weather", "description": "Weather", "parameters": {"type": "object"}}
    ]


def test_a_responses_conversation_is_the_spans_conversation_id(fake: FakeUpstream) -> None:
    fake.reply(fixture_json("openai-responses", "response", "function_call_no_reasoning.json"))
    config = ServeConfig("openai-responses", "openai-responses", f"{fake.base}/v1", otel=True)
    with traced(config) as (origin, exporter):
        body = {"model": "gpt-5", "input": "Hi", "conversation": {"id": "conv_123"}}
        httpx.post(f"{origin}/v1/responses", json=body, headers=KEY, timeout=30)
        attributes = span_attributes(exporter)
    assert attributes["gen_ai.conversation.id"] == "conv_123"


# --- semantic conventions 0.66b2: choice count, conversation, refused requests, metrics --------


def test_the_choice_count_is_set_when_more_than_one_answer_is_asked() -> None:
    from opentelemetry.semconv._incubating.attributes.gen_ai_attributes import GEN_AI_REQUEST_CHOICE_COUNT

    with serving_fake() as fake:
        fake.reply(fixture_json("openai-chat", "response", "cached_tokens_usage.json"))
        config = ServeConfig("openai-chat", "openai-chat", f"{fake.base}/v1", otel=True)
        with traced(config) as (origin, exporter):
            body = {"model": "gpt-4o", "messages": HELLO, "n": 3}
            httpx.post(f"{origin}/v1/chat/completions", json=body, headers=KEY, timeout=30)
            assert span_attributes(exporter)[GEN_AI_REQUEST_CHOICE_COUNT] == 3


@pytest.mark.parametrize(
    ("api", "payload", "target", "expected"),
    [
        ("openai-chat", {"model": "m", "messages": [], "n": 3}, None, 3),
        ("openai-chat", {"model": "m", "messages": [], "n": True}, None, None),
        ("gemini", {"contents": [], "generationConfig": {"candidateCount": 2}}, "gemini-2.5-flash:generateContent", 2),
        ("gemini", {"contents": []}, "gemini-2.5-flash:generateContent", None),
        ("anthropic", {"model": "m", "messages": []}, None, None),
    ],
)
def test_each_front_edge_reads_how_many_answers_its_caller_asked_for(
    api: str, payload: dict[str, Any], target: str | None, expected: int | None
) -> None:
    """The count is the front's fact (``Call.choices``): OpenAI Chat's ``n``, Gemini's
    ``generationConfig.candidateCount``; an API with no such field asks for one."""
    assert front(api).read_call(payload, target, {}).choices == expected


def test_the_conversation_id_is_the_answer_a_responses_request_continues(fake: FakeUpstream) -> None:
    from opentelemetry.semconv._incubating.attributes.gen_ai_attributes import GEN_AI_CONVERSATION_ID

    fake.replies.clear()
    answer = fixture_json("anthropic", "response", "adaptive_thinking_leading_text.json")
    fake.reply(answer)
    fake.reply(answer)
    config = ServeConfig("openai-responses", "anthropic", fake.base, otel=True, store="memory")
    with traced(config) as (origin, exporter):
        first = httpx.post(f"{origin}/v1/responses", json={"model": "m", "input": "Hi"}, headers=KEY, timeout=30)
        span_attributes(exporter)
        exporter.clear()
        body = {"model": "m", "input": "And?", "previous_response_id": first.json()["id"]}
        httpx.post(f"{origin}/v1/responses", json=body, headers=KEY, timeout=30)
        assert span_attributes(exporter)[GEN_AI_CONVERSATION_ID] == first.json()["id"]


def test_a_request_refused_before_it_is_routed_still_names_its_model(fake: FakeUpstream) -> None:
    from chatcodec.serve._config import parse_route

    config = ServeConfig("openai-chat", otel=True, routes=(parse_route(f"claude-*=anthropic@{fake.base}"),))
    with traced(config) as (origin, exporter):
        answer = httpx.post(
            f"{origin}/v1/chat/completions", json={"model": "gpt-9", "messages": HELLO}, headers=KEY, timeout=30
        )
        assert answer.status_code == 404
        attributes = span_attributes(exporter)
    assert attributes["gen_ai.request.model"] == "gpt-9"
    assert attributes["error.type"] == "404"


def test_the_genai_client_metrics_are_recorded(fake: FakeUpstream) -> None:
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader
    from opentelemetry.semconv._incubating.metrics.gen_ai_metrics import (
        GEN_AI_CLIENT_OPERATION_DURATION,
        GEN_AI_CLIENT_TOKEN_USAGE,
    )

    fake.replies.clear()
    answer = fixture_json("anthropic", "response", "adaptive_thinking_leading_text.json")
    fake.reply(answer)
    reader = InMemoryMetricReader()
    meters = MeterProvider(metric_readers=[reader])
    exporter = InMemorySpanExporter()
    spans = TracerProvider()
    spans.add_span_processor(SimpleSpanProcessor(exporter))
    config = ServeConfig("openai-chat", "anthropic", fake.base, otel=True, model_map={"m": "claude-sonnet-4-5"})
    with serving_config(config, tracer_provider=spans, meter_provider=meters) as origin:
        httpx.post(f"{origin}/v1/chat/completions", json={"model": "m", "messages": HELLO}, headers=KEY, timeout=30)
        span_attributes(exporter)
        data = reader.get_metrics_data()
    assert data is not None
    metrics = {
        metric.name: metric
        for resource in data.resource_metrics
        for scope in resource.scope_metrics
        for metric in scope.metrics
    }
    (duration,) = metrics[GEN_AI_CLIENT_OPERATION_DURATION].data.data_points
    assert metrics[GEN_AI_CLIENT_OPERATION_DURATION].unit == "s"
    assert duration.count == 1
    assert duration.attributes["gen_ai.request.model"] == "claude-sonnet-4-5"
    assert duration.attributes["gen_ai.provider.name"] == "anthropic"
    assert "error.type" not in duration.attributes
    usage = answer["usage"]
    tokens = {
        point.attributes["gen_ai.token.type"]: point.sum
        for point in metrics[GEN_AI_CLIENT_TOKEN_USAGE].data.data_points
    }
    assert metrics[GEN_AI_CLIENT_TOKEN_USAGE].unit == "{token}"
    assert tokens["output"] == usage["output_tokens"]
    assert tokens["input"] >= usage["input_tokens"]  # canonical input counts the cached tokens too
