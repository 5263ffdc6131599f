"""``--otel`` spans cut the caller's text as the request log does (:mod:`chatcodec.serve._bounded`):
a 300,000-character model name, stop sequence or field name is a few hundred characters in the
span's name, attributes and loss events, never the whole text in every exported span. Read back
from the opentelemetry-sdk's in-memory exporter."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from chatcodec.serve import ServeConfig
from chatcodec.serve._bounded import TEXT_LIMIT
from chatcodec.serve._telemetry import STOP_SEQUENCE_LIMIT
from serve.harness import FakeUpstream, fixture_json, serving_config

pytestmark = pytest.mark.usefixtures("fresh_fake")

LONG = 300_000
HELLO: list[Any] = [{"role": "user", "content": "Hello"}]
KEY = {"authorization": "Bearer sk-caller"}


@contextmanager
def traced(fake: FakeUpstream) -> Iterator[tuple[str, InMemorySpanExporter]]:
    """A proxy (OpenAI Chat in front of the fake Anthropic upstream), its spans exported to memory."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    config = ServeConfig("openai-chat", "anthropic", fake.base, otel=True)
    with serving_config(config, tracer_provider=provider) as origin:
        yield origin, exporter
    provider.shutdown()


def _one_span(exporter: InMemorySpanExporter) -> ReadableSpan:
    deadline = time.monotonic() + 5
    while not exporter.get_finished_spans():
        assert time.monotonic() < deadline, "no span ended"
        time.sleep(0.01)
    (span,) = exporter.get_finished_spans()
    return span


def _texts(span: ReadableSpan) -> list[str]:
    """Every text the span exports: its name, attributes, events and status."""
    texts = [span.name, span.status.description or ""]
    for attributes in [span.attributes or {}, *(event.attributes or {} for event in span.events)]:
        for value in attributes.values():
            texts.extend(str(item) for item in (value if isinstance(value, tuple) else (value,)))
    return texts


def test_a_long_model_name_stop_sequences_and_field_name_are_cut_in_the_span(fake: FakeUpstream) -> None:
    fake.reply(fixture_json("anthropic", "response", "thinking_text_tool_use.json"))
    model = "m" * 500  # within the 512 characters a model name may have (serve._limits)
    stops = ["s" * LONG, *(f"stop {index}" for index in range(99))]
    body = {"model": model, "messages": HELLO, "stop": stops, "f" * LONG: 1}
    with traced(fake) as (origin, exporter):
        answer = httpx.post(f"{origin}/v1/chat/completions", json=body, headers=KEY, timeout=60)
        span = _one_span(exporter)
    assert answer.status_code == 200, answer.text
    assert len(fake.last.body["stop_sequences"][0]) == LONG  # the upstream gets it whole; only the span is cut
    assert max(map(len, _texts(span))) <= TEXT_LIMIT
    attributes = dict(span.attributes or {})
    assert span.name == f"chat {attributes['gen_ai.request.model']}"
    assert str(attributes["gen_ai.request.model"]).startswith("m" * 100)
    assert str(attributes["gen_ai.request.model"]).endswith("(500 characters)")
    sequences = attributes["gen_ai.request.stop_sequences"]
    assert isinstance(sequences, tuple)
    assert len(sequences) == STOP_SEQUENCE_LIMIT
    assert str(sequences[0]).endswith(f"({LONG} characters)")
    assert sequences[1] == "stop 0"
    assert sequences[-1] == "... (100 in all)"
    losses = [" ".join(map(str, (event.attributes or {}).values())) for event in span.events]
    (named,) = [loss for loss in losses if "f" * 100 in loss]  # the field's name, quoted and cut
    assert named.startswith("$.provider_options openai-chat data")
    assert named.endswith(" characters)")


def test_a_refused_model_name_of_300000_characters_is_cut_in_the_spans_name(fake: FakeUpstream) -> None:
    with traced(fake) as (origin, exporter):
        answer = httpx.post(f"{origin}/v1/chat/completions", json={"model": "m" * LONG, "messages": HELLO}, headers=KEY)
        span = _one_span(exporter)
    assert answer.status_code == 400
    assert len(span.name) < 300
    assert span.name.endswith(f"({LONG} characters)")
    assert max(map(len, _texts(span))) <= TEXT_LIMIT
