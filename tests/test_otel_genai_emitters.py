"""The ``otel-genai`` format on what the emitters write (issue 87): Gemini's role ``model`` (the
Vertex AI and Google GenAI instrumentations), a built-in tool's call and response (pydantic-ai's
``builtin: true``, the conventions' ``server_tool_call``), span attributes as the OpenTelemetry
SDK hands them back (tuples), and a document's ``document`` modality."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from pydantic_ai.messages import (
    ModelRequest,
    ModelResponse,
    NativeToolCallPart,
    NativeToolReturnPart,
    TextPart,
    UserPromptPart,
)
from pydantic_ai.models.instrumented import InstrumentationSettings

import chatcodec

INPUT, OUTPUT = "gen_ai.input.messages", "gen_ai.output.messages"
SCHEMAS = Path(__file__).parent / "fixtures" / "otel_genai" / "schemas"


def _sdk_span_attributes(attributes: dict[str, Any]) -> dict[str, Any]:
    """``attributes`` set on a span of opentelemetry-sdk and read back as the SDK hands them."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    with provider.get_tracer("test").start_as_current_span("chat gemini-2.5-flash") as span:
        span.set_attributes(attributes)
    finished = exporter.get_finished_spans()[0].attributes
    assert finished is not None
    return dict(finished)


GEMINI_SPAN = {
    INPUT: json.dumps(
        [
            {"role": "user", "parts": [{"type": "text", "content": "Weather in Paris?"}]},
            {
                "role": "model",
                "parts": [{"type": "tool_call", "id": "c1", "name": "weather", "arguments": {"city": "Paris"}}],
            },
            {"role": "user", "parts": [{"type": "tool_call_response", "id": "c1", "response": "rainy"}]},
        ]
    ),
    OUTPUT: json.dumps([{"role": "model", "parts": [{"type": "text", "content": "Rainy."}], "finish_reason": "stop"}]),
    "gen_ai.response.finish_reasons": ["stop"],
    "gen_ai.request.stop_sequences": ["END"],
}


def test_gemini_role_model_is_the_assistant_on_input_and_output() -> None:
    attributes = _sdk_span_attributes(GEMINI_SPAN)
    assert attributes["gen_ai.request.stop_sequences"] == ("END",)  # the SDK's own tuple
    request = chatcodec.decode_request("otel-genai", attributes)
    assert [message.role for message in request.messages] == ["user", "assistant", "tool", "assistant"]
    assert request.stop == ["END"]
    response = chatcodec.decode_response("otel-genai", attributes)
    assert response.choices[0].message.content == "Rainy."
    assert response.choices[0].finish_reason is not None
    assert response.choices[0].finish_reason.unified == "stop"
    chat = chatcodec.convert_request(attributes, source="otel-genai", target="openai-chat", on_loss="ignore")
    assert [message["role"] for message in chat["messages"]] == ["user", "assistant", "tool", "assistant"]
    written = chatcodec.encode_request("otel-genai", request)
    assert json.loads(written[INPUT])[1]["role"] == "model"  # written back as it came
    assert json.loads(written[OUTPUT])[0]["role"] == "model"


def _pydantic_ai_messages() -> list[dict[str, Any]]:
    history = [
        ModelRequest(parts=[UserPromptPart("Any news?")]),
        ModelResponse(
            parts=[
                NativeToolCallPart(tool_name="web_search", args={"query": "news"}, tool_call_id="ws_1"),
                NativeToolReturnPart(tool_name="web_search", content={"status": "completed"}, tool_call_id="ws_1"),
                TextPart("Here is the news."),
            ]
        ),
        ModelRequest(parts=[UserPromptPart("More?")]),
    ]
    messages: list[dict[str, Any]] = json.loads(
        json.dumps(InstrumentationSettings().messages_to_otel_messages(history))
    )
    return messages


def test_a_pydantic_ai_built_in_tool_is_a_server_call_not_a_client_call() -> None:
    messages = _pydantic_ai_messages()
    assert messages[1]["parts"][0]["builtin"] is True  # pydantic-ai's own spelling
    span = {INPUT: json.dumps(messages)}
    request = chatcodec.decode_request("otel-genai", span)
    assert [message.role for message in request.messages] == ["user", "assistant", "user"]
    call, result, _ = request.messages[1].parts
    assert (call.type, result.type) == ("opaque", "opaque")
    assert call.model_dump()["data"]["providerExecuted"] is True
    assert json.loads(chatcodec.encode_request("otel-genai", request)[INPUT]) == messages  # the same span again
    for target in ("openai-chat", "anthropic"):
        losses: list[chatcodec.Loss] = []
        body = chatcodec.convert_request(span, source="otel-genai", target=target, on_loss="ignore", losses=losses)
        assert "tool_calls" not in json.dumps(body)  # no client call that no result answers
        assert "tool_use" not in json.dumps(body)
        assert any(loss.path.startswith("$.messages[1].content[0]") for loss in losses)
    ai_sdk = chatcodec.convert_request(span, source="otel-genai", target="ai-sdk-model", on_loss="ignore")
    kinds = [part["type"] for part in ai_sdk["messages"][1]["content"]]
    assert kinds == ["tool-call", "tool-result", "text"]


def test_the_conventions_server_tool_parts_are_the_server_call_and_result() -> None:
    call = {
        "type": "server_tool_call",
        "id": "s1",
        "name": "code_interpreter",
        "server_tool_call": {"type": "code", "code": "1+1"},
    }
    response = {
        "type": "server_tool_call_response",
        "id": "s1",
        "server_tool_call_response": {"type": "code", "output": "2"},
    }
    span = {
        INPUT: [
            {"role": "user", "parts": [{"type": "text", "content": "1+1?"}]},
            {"role": "assistant", "parts": [call, response]},
        ]
    }
    request = chatcodec.decode_request("otel-genai", span)
    data = [part.model_dump()["data"] for part in request.messages[1].parts]  # type: ignore[union-attr]
    assert [(item["type"], item["toolName"]) for item in data] == [
        ("tool-call", "code_interpreter"),
        ("tool-result", "code_interpreter"),
    ]
    assert chatcodec.encode_request("otel-genai", request)[INPUT] == span[INPUT]
    # pydantic-ai's spelling, written for the conventions: their own server parts
    converted = chatcodec.convert_request(
        {INPUT: _pydantic_ai_messages()}, source="otel-genai", target="ai-sdk-model", on_loss="ignore"
    )
    back = chatcodec.convert_request(converted, source="ai-sdk-model", target="otel-genai", on_loss="ignore")
    assert [part["type"] for part in back[INPUT][1]["parts"]] == [
        "server_tool_call",
        "server_tool_call_response",
        "text",
    ]


def test_a_documents_modality_is_document_and_file_still_reads() -> None:
    chat = {
        "model": "m",
        "messages": [{"role": "user", "content": [{"type": "file", "file": {"file_id": "file-1"}}]}],
    }
    written = chatcodec.convert_request(chat, source="openai-chat", target="otel-genai", on_loss="ignore")
    part = written[INPUT][0]["parts"][0]
    assert part["modality"] == "document"
    schema = json.loads((SCHEMAS / "gen-ai-input-messages.json").read_text(encoding="utf-8"))
    jsonschema.validate(part, {"$defs": schema["$defs"], "$ref": "#/$defs/FilePart"})
    # the modality's own definition (the part's accepts any string besides): one of the enum's
    jsonschema.validate(part["modality"], {"$defs": schema["$defs"], "$ref": "#/$defs/Modality"})
    old = {INPUT: [{"role": "user", "parts": [{"type": "file", "modality": "file", "file_id": "file-1"}]}]}
    request = chatcodec.decode_request("otel-genai", old)
    assert request.messages[0].parts[0].type == "document"
    assert chatcodec.encode_request("otel-genai", request)[INPUT] == old[INPUT]
