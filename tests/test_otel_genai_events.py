"""The ``otel-genai`` format on a call recorded as events (issue 87): the message events
(``gen_ai.user.message``... ``gen_ai.choice``) and the single
``gen_ai.client.inference.operation.details`` event, as the OpenTelemetry SDK's log records
(emitted through its own logger and exporter), as an OTLP JSON logs export (encoded by
opentelemetry-exporter-otlp-proto-common), and as a span's events. The bodies and attributes are
the ones opentelemetry-python-contrib's instrumentation tests assert
(``opentelemetry-instrumentation-vertexai``'s ``test_function_calling``, the ``oldStyleInstrumentation``
and latest-conventions cases; ``-openai-v2``'s ``test_chat_completion_with_content`` and tool calls)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.sdk._logs import LoggerProvider, ReadableLogRecord
from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import chatcodec
from chatcodec.cli import main

VERTEX = "vertex_ai"
VERTEX_EVENTS: list[tuple[str, dict[str, Any]]] = [
    ("gen_ai.user.message", {"content": [{"text": "Weather in New Delhi and San Francisco?"}], "role": "user"}),
    (
        "gen_ai.assistant.message",
        {
            "role": "model",
            "content": [
                {"function_call": {"name": "get_current_weather", "args": {"location": "New Delhi"}}},
                {"function_call": {"name": "get_current_weather", "args": {"location": "San Francisco"}}},
            ],
        },
    ),
    (
        "gen_ai.tool.message",
        {"role": "user", "id": "get_current_weather_0", "content": {"content": '{"temperature": 35, "unit": "C"}'}},
    ),
    (
        "gen_ai.tool.message",
        {"role": "user", "id": "get_current_weather_1", "content": {"content": '{"temperature": 25, "unit": "C"}'}},
    ),
    (
        "gen_ai.choice",
        {
            "finish_reason": "stop",
            "index": 0,
            "message": {"content": [{"text": "35°C in New Delhi, 25°C in San Francisco."}], "role": "model"},
        },
    ),
]
"""opentelemetry-instrumentation-vertexai's old-style events for one call (``test_function_calling``)."""

OPENAI_EVENTS: list[tuple[str, dict[str, Any]]] = [
    ("gen_ai.system.message", {"content": "You are a helpful assistant."}),
    ("gen_ai.user.message", {"content": "What's the weather in Seattle?"}),
    (
        "gen_ai.assistant.message",
        {
            "tool_calls": [
                {
                    "id": "call_O8NOz8VlxosSASEsOY7LDUcP",
                    "type": "function",
                    "function": {"name": "get_current_weather", "arguments": '{"location": "Seattle, WA"}'},
                }
            ]
        },
    ),
    ("gen_ai.tool.message", {"content": "50 degrees and raining", "id": "call_O8NOz8VlxosSASEsOY7LDUcP"}),
    (
        "gen_ai.choice",
        {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "It is raining."}},
    ),
]
"""opentelemetry-instrumentation-openai-v2's events for one call with a tool round trip."""


def _records(events: list[tuple[str, dict[str, Any]]], system: str) -> tuple[ReadableLogRecord, ...]:
    """``events`` emitted as the instrumentations emit them: log records of the SDK's logger,
    read back from its in-memory exporter, in one span's context."""
    exporter = InMemoryLogRecordExporter()  # type: ignore[no-untyped-call]  # the SDK leaves it unannotated
    provider = LoggerProvider()
    provider.add_log_record_processor(SimpleLogRecordProcessor(exporter))
    logger = provider.get_logger("opentelemetry.instrumentation.test")
    tracer = TracerProvider().get_tracer("test")
    with tracer.start_as_current_span("chat"):
        for name, body in events:
            logger.emit(event_name=name, body=body, attributes={"gen_ai.system": system})
    return exporter.get_finished_logs()


def test_vertex_ai_events_from_the_sdk_read_as_the_call() -> None:
    records = _records(VERTEX_EVENTS, VERTEX)
    row = {"gen_ai.request.model": "gemini-2.5-pro", "events": records}
    request = chatcodec.decode_request("otel-genai", row)
    assert [message.role for message in request.messages] == ["user", "assistant", "tool", "tool", "assistant"]
    assert request.model == "gemini-2.5-pro"
    chat = chatcodec.convert_request(row, source="otel-genai", target="openai-chat", on_loss="ignore")
    calls = chat["messages"][1]["tool_calls"]
    # the ids the instrumentation gives Gemini's calls (<name>_<index>) pair each call with its result
    assert [call["id"] for call in calls] == [message["tool_call_id"] for message in chat["messages"][2:4]]
    assert json.loads(calls[0]["function"]["arguments"]) == {"location": "New Delhi"}
    response = chatcodec.decode_response("otel-genai", row)
    assert response.choices[0].message.content == "35°C in New Delhi, 25°C in San Francisco."
    assert response.choices[0].finish_reason is not None
    assert response.choices[0].finish_reason.unified == "stop"
    written = chatcodec.encode_request("otel-genai", request)  # the conventions' span attributes
    assert written["gen_ai.system"] == VERTEX  # every event's attribute: the call's
    assert written["gen_ai.input.messages"][1]["role"] == "model"


def test_openai_events_read_with_their_tool_round_trip() -> None:
    row = {"events": _records(OPENAI_EVENTS, "openai")}
    losses: list[chatcodec.Loss] = []
    chat = chatcodec.convert_request(row, source="otel-genai", target="openai-chat", on_loss="ignore", losses=losses)
    assert [message["role"] for message in chat["messages"]] == ["system", "user", "assistant", "tool", "assistant"]
    assert chat["messages"][2]["tool_calls"][0]["function"]["arguments"] == '{"location": "Seattle, WA"}'
    assert chat["messages"][3] == {
        "role": "tool",
        "tool_call_id": "call_O8NOz8VlxosSASEsOY7LDUcP",
        "content": "50 degrees and raining",
    }
    # reported: gen_ai.system (the call's), the answer's finish reason (a request holds none), no model
    assert [loss.path for loss in losses] == ["$.provider_options", "$.messages[4]", "$.model"]


def test_the_details_event_reads_as_the_span_it_stands_for() -> None:
    attributes: dict[str, Any] = {  # the latest-conventions case of the same test: one event, structured attributes
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "gemini-2.5-pro",
        "gen_ai.response.finish_reasons": ("stop",),
        "gen_ai.usage.input_tokens": 128,
        "gen_ai.usage.output_tokens": 26,
        "gen_ai.system_instructions": ({"type": "text", "content": "Be brief."},),
        "gen_ai.input.messages": (
            {"role": "user", "parts": ({"type": "text", "content": "Weather in New Delhi?"},)},
            {
                "role": "model",
                "parts": (
                    {
                        "type": "tool_call",
                        "id": "get_current_weather_0",
                        "name": "get_current_weather",
                        "arguments": {"location": "New Delhi"},
                    },
                ),
            },
            {
                "role": "user",
                "parts": (
                    {"type": "tool_call_response", "id": "get_current_weather_0", "response": {"content": "35 C"}},
                ),
            },
        ),
        "gen_ai.output.messages": (
            {"role": "model", "parts": ({"type": "text", "content": "35°C."},), "finish_reason": "stop"},
        ),
    }
    exporter = InMemoryLogRecordExporter()  # type: ignore[no-untyped-call]  # the SDK leaves it unannotated
    provider = LoggerProvider()
    provider.add_log_record_processor(SimpleLogRecordProcessor(exporter))
    provider.get_logger("test").emit(event_name="gen_ai.client.inference.operation.details", attributes=attributes)
    (record,) = exporter.get_finished_logs()
    assert record.log_record.attributes is not None
    assert isinstance(record.log_record.attributes["gen_ai.input.messages"], tuple)  # as the SDK keeps it
    row = {"events": [record]}
    request = chatcodec.decode_request("otel-genai", row)
    assert [message.role for message in request.messages] == ["system", "user", "assistant", "tool", "assistant"]
    response = chatcodec.decode_response("otel-genai", row)
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.output_tokens) == (128, 26)


def _otlp_logs(records: tuple[ReadableLogRecord, ...]) -> dict[str, Any]:
    """``records`` as an OTLP/HTTP JSON body (what the Collector's ``file`` exporter writes)."""
    from google.protobuf.json_format import MessageToJson
    from opentelemetry.exporter.otlp.proto.common._log_encoder import encode_logs

    exported: dict[str, Any] = json.loads(MessageToJson(encode_logs(records)))
    return exported


def test_an_otlp_logs_export_gives_a_call_a_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = _otlp_logs(_records(VERTEX_EVENTS, VERTEX) + _records(OPENAI_EVENTS, "openai"))
    assert "resourceLogs" in document
    path = tmp_path / "logs.json"
    path.write_text(json.dumps(document) + "\n", encoding="utf-8")
    out = tmp_path / "chat.jsonl"
    assert main(["convert", str(path), "--from", "otel-genai", "--to", "openai-chat", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [len(row["messages"]) for row in rows] == [5, 5]  # one row a call (its span's records)
    assert rows[0]["messages"][0]["content"] == "Weather in New Delhi and San Francisco?"
    assert rows[1]["messages"][0] == {"role": "system", "content": "You are a helpful assistant."}
    capsys.readouterr()
    unnamed = tmp_path / "unnamed.jsonl"  # a newcomer's first command names no --from: the export says it
    assert main(["convert", str(path), "--to", "openai-chat", "--out", str(unnamed)]) == 0
    assert "read as otel-genai" in capsys.readouterr().err
    assert unnamed.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")


def test_records_without_span_ids_split_at_the_answer() -> None:
    from chatcodec._frameworks.otel_genai.otlp import model_call_spans

    document = _otlp_logs(_records(OPENAI_EVENTS, "openai") + _records(OPENAI_EVENTS[1:], "openai"))
    for resource in document["resourceLogs"]:
        for scope in resource["scopeLogs"]:
            for record in scope["logRecords"]:
                del record["traceId"], record["spanId"]
    rows = model_call_spans(document)
    assert [len(row["events"]) for row in rows] == [5, 4]


def test_span_events_read_as_the_call() -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    with provider.get_tracer("test").start_as_current_span("chat gpt-4o") as span:
        span.set_attribute("gen_ai.request.model", "gpt-4o")
        for name, body in OPENAI_EVENTS:  # Azure AI Inference's spelling: the body as JSON text
            span.add_event(name, {"gen_ai.system": "openai", "gen_ai.event.content": json.dumps(body)})
    (finished,) = exporter.get_finished_spans()
    assert finished.attributes is not None
    row = {**finished.attributes, "events": finished.events}  # the SDK's own span events
    chat = chatcodec.convert_request(row, source="otel-genai", target="openai-chat", on_loss="ignore")
    assert [message["role"] for message in chat["messages"]] == ["system", "user", "assistant", "tool", "assistant"]
    assert chat["model"] == "gpt-4o"


def test_an_event_of_another_name_is_kept() -> None:
    row = {
        "events": [
            {"name": "gen_ai.user.message", "body": {"content": "Hi"}},
            {"name": "gen_ai.content.storage.result", "attributes": {"gen_ai.content.storage.status": "ok"}},
            {"name": "gen_ai.choice", "body": {"index": 0, "finish_reason": "stop", "message": {"content": "Hello"}}},
        ]
    }
    request = chatcodec.decode_request("otel-genai", row)
    assert request.provider_options == {
        "otel-genai": {
            "events": [{"name": "gen_ai.content.storage.result", "attributes": {"gen_ai.content.storage.status": "ok"}}]
        }
    }
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(row, source="otel-genai", target="anthropic", on_loss="ignore", losses=losses)
    assert any("events" in loss.what for loss in losses)


def test_openllmetrys_choice_shapes_keep_the_answer() -> None:
    """OpenLLMetry's instrumentations put a choice's calls beside its message, and an answer's
    text as the whole body (its ``emit_choice_event``, its tests' ``gen_ai.choice`` bodies)."""
    asked = {"name": "gen_ai.user.message", "body": {"content": "Weather?"}}
    calls = {
        "index": 0,
        "finish_reason": "tool_calls",
        "message": {"content": ""},
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "weather", "arguments": "{}"}}],
    }
    response = chatcodec.decode_response("otel-genai", {"events": [asked, {"name": "gen_ai.choice", "body": calls}]})
    parts = response.choices[0].message.parts
    assert [part.type for part in parts] == ["text", "tool_use"]
    assert response.choices[0].finish_reason is not None
    assert response.choices[0].finish_reason.unified == "tool_calls"
    for body in ("Rainy.", {"index": 0, "message": "Rainy."}):
        answer = chatcodec.decode_response("otel-genai", {"events": [asked, {"name": "gen_ai.choice", "body": body}]})
        assert answer.choices[0].message.content == "Rainy."


def test_a_bodys_field_of_an_odd_type_is_kept_not_refused() -> None:
    row = {
        "events": [
            {"name": "gen_ai.user.message", "body": {"content": "Hi", "role": 3, "name": 4}},
            {"name": "gen_ai.tool.message", "body": {"content": "done", "id": 5}},
            {"name": "gen_ai.assistant.message", "body": {"content": [{"function_call": {"args": {}}}]}},
        ]
    }
    request = chatcodec.decode_request("otel-genai", row)
    user, tool, assistant = request.messages
    assert user.role == "user"
    assert user.model_dump()["provider_metadata"]["otel-genai"]["event_fields"] == {"role": 3, "name": 4}
    assert tool.model_dump()["content"][0]["provider_metadata"]["otel-genai"]["event_fields"] == {"id": 5}
    assert assistant.parts[0].type == "opaque"  # a call naming no tool: the provider's part, whole
    written = chatcodec.encode_request("otel-genai", request)["gen_ai.input.messages"]
    assert written[2]["parts"][0] == {"type": "function_call", "function_call": {"args": {}}}


def test_tool_calls_of_no_list_are_kept_and_reported_not_read_as_none() -> None:
    row = {
        "events": [
            {"name": "gen_ai.user.message", "body": {"content": "Hi"}},
            {"name": "gen_ai.assistant.message", "body": {"content": "Looking.", "tool_calls": "get_weather"}},
            {"name": "gen_ai.choice", "body": {"index": 0, "message": {"content": "Done."}, "tool_calls": {"a": 1}}},
        ]
    }
    request = chatcodec.decode_request("otel-genai", row)
    kept = [message.model_dump()["provider_metadata"]["otel-genai"]["tool_calls"] for message in request.messages[1:]]
    assert kept == ["get_weather", {"a": 1}]
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(
        row, source="otel-genai", target="openai-chat", options={"model": "m"}, on_loss="ignore", losses=losses
    )
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.messages[1]", "otel-genai data ['tool_calls']"),
        ("$.messages[2]", "otel-genai data ['tool_calls']"),
    ]
    # a null is no calls, as OpenAI's SDK dumps it
    row["events"][1]["body"]["tool_calls"] = None
    assert "tool_calls" not in (chatcodec.decode_request("otel-genai", row).messages[1].provider_metadata or {}).get(
        "otel-genai", {}
    )


def test_a_refusal_names_the_callers_event_not_the_attribute_it_became() -> None:
    refused = [
        # a message event's attribute the call shares
        (
            {"events": [{"name": "gen_ai.user.message", "body": "Hi", "attributes": {"gen_ai.request.model": 5}}]},
            "$.events[0].attributes['gen_ai.request.model']",
        ),
        # the details event's attributes, the same further inside
        (
            {
                "events": [
                    {"name": "other"},
                    {
                        "name": "gen_ai.client.inference.operation.details",
                        "attributes": {"gen_ai.input.messages": [{"role": "user", "parts": "Hi"}]},
                    },
                ]
            },
            "$.events[1].attributes['gen_ai.input.messages'][0].parts",
        ),
    ]
    for row, path in refused:
        with pytest.raises(chatcodec.ValidationError) as raised:
            chatcodec.decode_request("otel-genai", row)
        assert raised.value.paths == [path]
    # a choice's body, read from another spelling, is named whole (the answer's own index orders it)
    answer = {
        "events": [
            {"name": "gen_ai.choice", "body": {"index": 1, "message": {"content": "b"}}},
            {"name": "gen_ai.choice", "body": {"index": 0, "message": {"content": "a"}}},
        ]
    }
    response = chatcodec.decode_response("otel-genai", answer)
    assert [choice.message.text for choice in response.choices] == ["a", "b"]
    answer["events"][0]["attributes"] = {"gen_ai.response.model": 3}
    answer["events"][1]["attributes"] = {"gen_ai.response.model": 3}
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.decode_response("otel-genai", answer)
    assert raised.value.paths == ["$.events[0].attributes['gen_ai.response.model']"]


def test_a_file_of_event_rows_converts_without_a_skip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    row = {
        "gen_ai.request.model": "gpt-4o",
        "events": [
            {"name": "gen_ai.user.message", "body": {"content": "Hi"}},
            {"name": "gen_ai.choice", "body": {"index": 0, "finish_reason": "stop", "message": {"content": "Hello"}}},
        ],
    }
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    out = tmp_path / "chat.jsonl"
    assert main(["convert", str(path), "--from", "otel-genai", "--to", "openai-chat", "--out", str(out)]) == 0
    (converted,) = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [message["content"] for message in converted["messages"]] == ["Hi", "Hello"]
    assert "skipped" not in capsys.readouterr().err


def test_the_cli_knows_every_event_name_the_reader_reads() -> None:
    from chatcodec._frameworks.otel_genai.events import NAMES
    from chatcodec.cli._trace_rows import _MESSAGE_KEYS

    assert {f'"{name}"'.encode() for name in NAMES} <= set(_MESSAGE_KEYS)


def test_an_openai_image_in_a_user_event_is_the_image() -> None:
    """opentelemetry-instrumentation-openai-v2 records a user message's content as OpenAI sent it."""
    content = [
        {"type": "text", "text": "What is this?"},
        {"type": "image_url", "image_url": {"url": "https://example.com/cat.png", "detail": "low"}},
    ]
    row = {"events": [{"name": "gen_ai.user.message", "body": {"content": content}}]}
    request = chatcodec.decode_request("otel-genai", row)
    text, image = request.messages[0].parts
    assert (text.type, image.type) == ("text", "image")
    losses: list[chatcodec.Loss] = []
    chat = chatcodec.convert_request(
        row, source="otel-genai", target="openai-chat", on_loss="ignore", options={"model": "gpt-4o"}, losses=losses
    )
    assert chat["messages"][0]["content"][1]["image_url"]["url"] == "https://example.com/cat.png"
    assert any("detail" in loss.what for loss in losses)  # kept on the part, reported where no field takes it
