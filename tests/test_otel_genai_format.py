"""The ``otel-genai`` format against its oracles: a real emitter (pydantic-ai 2.68's
instrumentation, on opentelemetry-sdk's in-memory exporter) and the conventions' JSON Schemas
(``tests/fixtures/otel_genai/schemas``, with their provenance).

The emitter's spans are written as a file of span attributes (one span a line) and as an OTLP
JSON export, both as ``opentelemetry-exporter-otlp-proto-common``'s encoder and protobuf's JSON
mapping write it (ids in base64; a dev pin) and as the Collector's file exporter writes the OTLP
JSON mapping the specification documents (ids in hex,
https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import jsonschema
import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ThinkingPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.instrumented import InstrumentationSettings

import chatcodec
from chatcodec.cli import main

SCHEMAS = Path(__file__).parent / "fixtures" / "otel_genai" / "schemas"


def _schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / f"gen-ai-{name}.json").read_text(encoding="utf-8"))
    return loaded


_PART_DEFINITIONS = {
    "text": "TextPart",
    "reasoning": "ReasoningPart",
    "tool_call": "ToolCallRequestPart",
    "tool_call_response": "ToolCallResponsePart",
    "blob": "BlobPart",
    "uri": "UriPart",
    "file": "FilePart",
}


def _valid(value: object, name: str) -> None:
    """``value`` valid against the schema ``name``, and each part against its own definition."""
    schema = _schema(name)
    jsonschema.validate(value, schema)
    assert isinstance(value, list)
    if name == "tool-definitions":
        for definition in value:
            jsonschema.validate(definition, {"$defs": schema["$defs"], "$ref": "#/$defs/FunctionToolDefinition"})
        return
    if name == "system-instructions":  # text parts, and parts of any other type
        for part in value:
            definition = "TextPart" if part["type"] == "text" else "UnknownSystemInstructionPart"
            jsonschema.validate(part, {"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"})
        return
    for part in [part for message in value for part in message["parts"]]:
        definition = _PART_DEFINITIONS[part["type"]]
        jsonschema.validate(part, {"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"})


def _model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    del info
    if len(messages) == 1:
        return ModelResponse(
            parts=[
                ThinkingPart(content="The user wants the weather: ask the tool."),
                TextPart(content="Let me check."),
                ToolCallPart(tool_name="get_weather", args={"city": "Paris"}, tool_call_id="call_weather_1"),
            ]
        )
    return ModelResponse(parts=[TextPart(content="It is rainy in Paris.")])


def _agent_spans(version: Literal[5, 6] = 5) -> list[ReadableSpan]:
    """The spans of one run (instrumentation ``version`` 5, the default, sends tool results
    as ``user`` messages; 6 as ``tool`` messages)."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    agent = Agent(FunctionModel(_model), instructions="Answer briefly.")
    agent.instrument = InstrumentationSettings(tracer_provider=provider, version=version)

    @agent.tool_plain
    def get_weather(city: str) -> str:
        return f"rainy in {city}"

    # asyncio.run, not run_sync: pydantic-ai's run_sync leaves its event loop open, whose
    # finalizer (a ResourceWarning) a later test's garbage collection then runs anywhere
    assert asyncio.run(agent.run("Weather in Paris?")).output == "It is rainy in Paris."
    return list(exporter.get_finished_spans())


def _any_value(value: object) -> dict[str, Any]:
    """The documented OTLP JSON mapping of an attribute value (``common.proto``'s AnyValue)."""
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, str):
        return {"stringValue": value}
    assert isinstance(value, tuple | list)
    return {"arrayValue": {"values": [_any_value(item) for item in value]}}


def _otlp_json(spans: list[ReadableSpan]) -> str:
    """The spans as opentelemetry-exporter-otlp-proto-common's encoder and protobuf's JSON write
    them (trace and span ids in base64)."""
    from google.protobuf.json_format import MessageToJson
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    return MessageToJson(encode_spans(spans))


def _collector_json(spans: list[ReadableSpan]) -> str:
    """The spans by the OTLP JSON mapping as the Collector's file exporter writes it (ids in hex)."""
    rows = [
        {
            "traceId": f"{span.context.trace_id:032x}",
            "spanId": f"{span.context.span_id:016x}",
            "name": span.name,
            "attributes": [{"key": key, "value": _any_value(value)} for key, value in (span.attributes or {}).items()],
        }
        for span in spans
    ]
    return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": rows}]}]}, indent=2)


def _converted(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, Any]], str]:
    code = main(["convert", "--rejects", str(path.with_suffix(".rejects.jsonl")), *_ARGUMENTS, str(path)])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines() if line.strip()], err


_ARGUMENTS = (
    "--from",
    "otel-genai",
    "--to",
    "openai-chat",
    "--storage",
    "--option",
    "reasoning_field=reasoning_content",
)


_FIRST_CALL = [
    {"role": "system", "content": "Answer briefly."},
    {"role": "user", "content": "Weather in Paris?"},
    {
        "role": "assistant",
        "content": "Let me check.",
        "reasoning_content": "The user wants the weather: ask the tool.",
        "tool_calls": [
            {
                "id": "call_weather_1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
            }
        ],
    },
]
_SECOND_CALL = [
    *_FIRST_CALL,
    {"role": "tool", "tool_call_id": "call_weather_1", "content": "rainy in Paris"},
    {"role": "assistant", "content": "It is rainy in Paris."},
]


@pytest.mark.parametrize("version", [5, 6])
def test_a_pydantic_ai_agents_span_attributes_file_converts_to_each_model_calls_conversation(
    version: Literal[5, 6], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spans = _agent_spans(version)
    path = tmp_path / "spans.jsonl"
    path.write_text("".join(json.dumps(dict(span.attributes or {})) + "\n" for span in spans), encoding="utf-8")
    code, rows, err = _converted(path, capsys)
    assert [row["messages"] for row in rows] == [_FIRST_CALL, _SECOND_CALL]
    assert [[tool["function"]["name"] for tool in row["tools"]] for row in rows] == [["get_weather"]] * 2
    # the tool's and the agent run's spans are no model call: skipped and counted, not refused
    assert code == 0, err
    assert "2 span(s) skipped (no model call" in err


@pytest.mark.parametrize("export", [_otlp_json, _collector_json], ids=["sdk-encoder", "collector-mapping"])
def test_a_pydantic_ai_agents_otlp_export_converts_to_each_model_calls_conversation(
    export: Callable[[list[ReadableSpan]], str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "trace.json"
    path.write_text(export(_agent_spans()), encoding="utf-8")
    code, rows, err = _converted(path, capsys)
    assert code == 0, err
    assert [row["messages"] for row in rows] == [_FIRST_CALL, _SECOND_CALL]
    assert "2 span(s) skipped (no model call" in err


def test_the_collectors_export_of_a_span_a_line_converts_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spans = _agent_spans()
    path = tmp_path / "trace.jsonl"
    lines = [json.dumps(json.loads(_otlp_json([span]))) for span in spans]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, rows, err = _converted(path, capsys)
    assert code == 0, err
    assert [row["messages"] for row in rows] == [_FIRST_CALL, _SECOND_CALL]


AGENT_REQUEST: dict[str, Any] = {
    "model": "gpt-4.1",
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "weather",
                "description": "The weather in a city.",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            },
        },
        {"type": "function", "function": {"name": "hotels", "parameters": {"type": "object", "properties": {}}}},
    ],
    "messages": [
        {"role": "system", "content": "You are a travel agent."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Plan Paris."},
                {"type": "image_url", "image_url": {"url": "https://example.com/map.png"}},
            ],
        },
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_a", "type": "function", "function": {"name": "weather", "arguments": '{"city":"Paris"}'}},
                {
                    "id": "call_b",
                    "type": "function",
                    "function": {"name": "hotels", "arguments": '{"city":"Paris","stars":4}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_a", "content": "sunny"},
        {"role": "tool", "tool_call_id": "call_b", "content": '[{"name":"Hotel A"}]'},
        {"role": "assistant", "content": "Sunny; Hotel A is free."},
        {"role": "user", "content": "Book it."},
    ],
}


def test_an_openai_chat_agent_request_written_as_otel_genai_validates_and_reads_back_whole() -> None:
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(
        AGENT_REQUEST, source="openai-chat", target="otel-genai", on_loss="ignore", losses=losses
    )
    assert losses == []
    _valid(written["gen_ai.input.messages"], "input-messages")
    _valid(written["gen_ai.system_instructions"], "system-instructions")
    _valid(written["gen_ai.tool.definitions"], "tool-definitions")
    back = chatcodec.convert_request(written, source="otel-genai", target="openai-chat")
    assert back == AGENT_REQUEST


def test_an_answer_written_as_output_messages_validates_against_the_schema() -> None:
    response = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4.1",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {"id": "call_c", "type": "function", "function": {"name": "book", "arguments": "{}"}}
                    ],
                },
                "finish_reason": "tool_calls",
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }
    written = chatcodec.convert_response(response, source="openai-chat", target="otel-genai", on_loss="ignore")
    _valid(written["gen_ai.output.messages"], "output-messages")
    assert written["gen_ai.output.messages"][0]["finish_reason"] == "tool_call"
    assert written["gen_ai.usage.input_tokens"] == 10
    assert written["gen_ai.usage.output_tokens"] == 5
    back = chatcodec.convert_response(written, source="otel-genai", target="openai-chat", on_loss="ignore")
    assert back["choices"][0]["message"]["tool_calls"][0]["id"] == "call_c"
    assert back["choices"][0]["finish_reason"] == "tool_calls"


def test_what_the_conventions_cannot_carry_is_a_reported_loss() -> None:
    request = {
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Hi", "cache_control": {"type": "ephemeral"}}]},
            {
                "role": "assistant",
                "content": [{"type": "thinking", "text": "hm", "signature": "sig"}, {"type": "text", "text": "Hello"}],
            },
        ]
    }
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_request("otel-genai", request, on_loss="ignore", losses=losses)
    found = {(loss.path, loss.what) for loss in losses}
    assert ("$.messages[0].content[0].cache_control", "cache_control") in found
    assert ("$.messages[1].content[0].signature", "signature") in found


def test_a_span_read_and_written_again_is_the_same_span() -> None:
    span = {
        "gen_ai.request.model": "claude",
        "gen_ai.system_instructions": '[{"type":"text","content":"Be kind."}]',
        "gen_ai.input.messages": json.dumps(
            [
                {
                    "role": "user",
                    "parts": [
                        {"type": "text", "content": "Look"},
                        {"type": "blob", "modality": "image", "mime_type": "image/png", "content": "iVBORw0KGgo="},
                    ],
                },
                {
                    "role": "assistant",
                    "parts": [
                        {"type": "thinking", "content": "..."},
                        {"type": "tool_call", "id": "c1", "name": "zoom", "arguments": {"x": 1}},
                    ],
                },
                {
                    "role": "user",
                    "parts": [
                        {"type": "tool_call_response", "id": "c1", "name": "zoom", "result": {"ok": True}},
                        {"type": "text", "content": "and?"},
                    ],
                },
                {
                    "role": "assistant",
                    "parts": [
                        {"type": "server_tool_call", "name": "web_search", "server_tool_call": {"type": "web_search"}}
                    ],
                },
            ]
        ),
        "gen_ai.output.messages": [
            {"role": "assistant", "parts": [{"type": "reasoning", "content": "done"}], "finish_reason": "stop"}
        ],
        "gen_ai.conversation.id": "conv-1",
    }
    read = chatcodec.decode_request("otel-genai", span)
    again = chatcodec.encode_request("otel-genai", read)
    assert {**again, "gen_ai.input.messages": json.loads(again["gen_ai.input.messages"])} == {
        **span,
        "gen_ai.input.messages": json.loads(span["gen_ai.input.messages"]),
        "gen_ai.system_instructions": span["gen_ai.system_instructions"],
    }


def test_validate_messages_reads_a_list_of_the_conventions_messages() -> None:
    messages = chatcodec.validate_messages(
        [
            {"role": "user", "parts": [{"type": "text", "content": "Hi"}]},
            {"role": "assistant", "parts": [{"type": "tool_call", "id": "c", "name": "f", "arguments": {}}]},
            {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c", "response": "ok"}]},
        ]
    )
    assert [message.role for message in messages] == ["user", "assistant", "tool"]


def test_a_gemini_contents_list_is_not_taken_for_the_conventions_messages() -> None:
    """Gemini's ``Content`` has a role and parts too, untyped: the dialects' refusal stands."""
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.validate_messages([{"role": "user", "parts": [{"text": "hi"}]}])
    assert "OpenTelemetry" not in str(caught.value)


def test_bad_message_json_is_refused_at_its_path() -> None:
    """A structured value is refused at the part's own path; JSON text at the attribute (the
    place the input has), the place in the text said in the message."""
    parts = [{"role": "user", "parts": [{"content": "x"}]}]
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.decode_request("otel-genai", {"gen_ai.input.messages": parts})
    assert "at $['gen_ai.input.messages'][0].parts[0].type: a part's type is a string" in str(caught.value)
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.decode_request("otel-genai", {"gen_ai.input.messages": json.dumps(parts)})
    assert "at $['gen_ai.input.messages']: [0].parts[0].type in the attribute's JSON text" in str(caught.value)
    with pytest.raises(chatcodec.ValidationError, match="not JSON"):
        chatcodec.decode_request("otel-genai", {"gen_ai.input.messages": "[{"})
    with pytest.raises(chatcodec.ValidationError, match="an agent's or a tool's span holds neither"):
        chatcodec.decode_request("otel-genai", {"gen_ai.operation.name": "execute_tool"})


def test_a_system_messages_own_fields_are_reported_as_instructions() -> None:
    request = {
        "messages": [
            {"role": "system", "name": "policy", "content": [{"type": "text", "text": "Be kind."}]},
            {"role": "user", "content": "Hi"},
        ]
    }
    losses: list[chatcodec.Loss] = []
    span = chatcodec.encode_request("otel-genai", request, on_loss="ignore", losses=losses)
    assert span["gen_ai.system_instructions"] == [{"type": "text", "content": "Be kind."}]
    assert {(loss.path, loss.kind) for loss in losses} == {
        ("$.messages[0].name", "content"),
        ("$.messages[0].content", "spelling"),
    }


FIXTURES = Path(__file__).parent / "fixtures" / "otel_genai"


def test_a_dataset_of_span_attributes_converts_row_by_row() -> None:
    """The dataset engines' converter takes a column of spans as it takes any history column:
    a model call's span converts, an agent's span is that row's error, no row dropped."""
    lines = (FIXTURES / "pydantic_ai_spans.jsonl").read_text(encoding="utf-8").splitlines()
    converter = chatcodec.BatchConverter(source="otel-genai", target="openai-chat", column="span")
    converted = converter({"span": lines})
    written = [json.loads(row) if row is not None else None for row in converted["openai-chat_request"]]
    errors = converted["chatcodec_error"]
    assert [row is not None for row in written] == [True, False, True, False]
    assert written[2] is not None
    assert [message["role"] for message in written[2]["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
    ]
    assert all("an agent's or a tool's span holds neither" in errors[index] for index in (1, 3))


def test_otlp_values_read_as_plain_values() -> None:
    from chatcodec._frameworks.otel_genai.otlp import any_value, model_call_spans

    assert any_value({"intValue": "12"}) == 12
    assert any_value({"arrayValue": {"values": [{"stringValue": "stop"}, {"boolValue": True}]}}) == ["stop", True]
    assert any_value({"kvlistValue": {"values": [{"key": "a", "value": {"doubleValue": 0.5}}]}}) == {"a": 0.5}
    document = json.loads((FIXTURES / "pydantic_ai_trace.json").read_text(encoding="utf-8"))
    spans = model_call_spans(document)
    assert [span["otlp.name"] for span in spans] == ["chat function:_model:", "chat function:_model:"]
    assert [span["gen_ai.usage.input_tokens"] for span in spans] == [53, 56]  # intValue, a decimal string


def test_pydantic_ais_own_spellings_read_and_write_back_as_they_were() -> None:
    """pydantic-ai's ``_otel_messages`` types (2.68.0): ``thinking``, a result under ``result``
    with its tool's ``name``, ``binary`` with ``media_type``, ``image-url`` with ``url``."""
    span = {
        "gen_ai.input.messages": [
            {
                "role": "user",
                "parts": [
                    {"type": "binary", "media_type": "image/png", "content": "iVBORw0KGgo="},
                    {"type": "image-url", "url": "https://example.com/a.png"},
                ],
            },
            {"role": "assistant", "parts": [{"type": "thinking", "content": "look"}]},
        ]
    }
    read = chatcodec.decode_request("otel-genai", span)
    user = read.messages[0]
    assert [part.type for part in user.content] == ["image", "image"]
    assert read.messages[1].content[0].type == "thinking"
    assert chatcodec.encode_request("otel-genai", read) == span


def test_a_tool_message_answers_every_call_in_order() -> None:
    """Results that came in a user message with a retry prompt beside them are a tool message
    and a user message after it, which a provider takes in that order."""
    span = {
        "gen_ai.input.messages": [
            {"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "f", "arguments": {}}]},
            {
                "role": "user",
                "parts": [
                    {"type": "tool_call_response", "id": "c1", "name": "f", "result": "bad"},
                    {"type": "text", "content": "Fix the arguments."},
                ],
            },
        ]
    }
    body = chatcodec.convert_request(
        span, source="otel-genai", target="anthropic", on_loss="ignore", options={"max_tokens": 10}
    )
    assert body["messages"][1]["content"][0] == {"type": "tool_result", "tool_use_id": "c1", "content": "bad"}
    assert body["messages"][1]["content"][1] == {"type": "text", "text": "Fix the arguments."}


def test_validate_reads_each_model_call_span_of_an_export(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--format", "otel-genai", str(FIXTURES / "pydantic_ai_trace.json")]) == 0
    out = capsys.readouterr().out
    assert "pydantic_ai_trace.json:span 1: ok, 3 messages (1 system, 1 user, 1 assistant), 1 tool calls" in out
    assert "pydantic_ai_trace.json:span 2: ok, 5 messages (1 system, 1 user, 2 assistant, 1 tool)" in out


def test_the_spans_request_settings_are_the_requests() -> None:
    """``gen_ai.request.*`` (the conventions' inference span attributes): a replay samples as
    the call did; a setting of another type is refused at its attribute."""
    span = {
        "gen_ai.request.model": "gpt-4.1",
        "gen_ai.request.max_tokens": 256,
        "gen_ai.request.temperature": 0.3,
        "gen_ai.request.stop_sequences": ["END"],
        "gen_ai.input.messages": [{"role": "user", "parts": [{"type": "text", "content": "Hi"}]}],
    }
    request = chatcodec.decode_request("otel-genai", span)
    assert (request.max_tokens, request.temperature, request.stop) == (256, 0.3, ["END"])
    assert chatcodec.encode_request("otel-genai", request) == span
    with pytest.raises(chatcodec.ValidationError, match=r"at \$\['gen_ai.request.max_tokens'\]"):
        chatcodec.decode_request("otel-genai", {**span, "gen_ai.request.max_tokens": "256"})


def test_every_usage_count_the_conventions_name_is_carried() -> None:
    response = {
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "Hi"}, "finish_reason": {"unified": "stop"}}
        ],
        "usage": {
            "input_tokens": 9,
            "output_tokens": 4,
            "cache_read_tokens": 6,
            "cache_write_tokens": 2,
            "reasoning_tokens": 3,
        },
    }
    losses: list[chatcodec.Loss] = []
    span = chatcodec.encode_response("otel-genai", response, losses=losses)
    assert losses == []
    assert span["gen_ai.usage.cache_read.input_tokens"] == 6
    assert span["gen_ai.usage.reasoning.output_tokens"] == 3
    assert chatcodec.decode_response("otel-genai", span).usage == chatcodec.Usage(**response["usage"])
