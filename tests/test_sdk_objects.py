"""The official SDKs' objects are taken wherever a payload is, as the JSON the server sent.

Each test builds the real SDK type (openai, anthropic, google-genai) from a recorded
payload the way the SDK builds it from the HTTP body, hands the object to chatcodec, and
checks the result is exactly what the plain JSON gives: an exact round trip through
decode and encode. litellm is not installed in the test environment; its objects are
pydantic models that set every field themselves, and a model built the same way stands
in for them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from anthropic.types import Message, RawMessageStreamEvent
from openai.types.chat import ChatCompletion, ChatCompletionChunk, ChatCompletionMessage
from pydantic import BaseModel, TypeAdapter

import chatcodec
from chatcodec._sdk_objects import sdk_json
from chatcodec.testing._laws.fixtures import stream_event_dicts

FIXTURES = Path(__file__).parent / "fixtures"


def _json(path: Path) -> Any:
    return json.loads(path.read_text())


def _paths(provider: str, kind: str) -> list[Path]:
    return sorted((FIXTURES / provider / kind).glob("*.json"))


def _is_success(body: dict[str, Any]) -> bool:
    return body.get("type") != "error"


@pytest.mark.parametrize("path", _paths("openai-chat", "response"), ids=lambda path: path.stem)
def test_openai_chat_completion_object_round_trips_exactly(path: Path) -> None:
    body = _json(path)
    completion = ChatCompletion.model_validate(body)
    response = chatcodec.decode_response("openai-chat", completion)
    assert response == chatcodec.decode_response("openai-chat", body)
    assert chatcodec.encode_response("openai-chat", response, on_loss="ignore") == body


@pytest.mark.parametrize(
    "path", [path for path in _paths("anthropic", "response") if _is_success(_json(path))], ids=lambda path: path.stem
)
def test_anthropic_message_object_round_trips_exactly(path: Path) -> None:
    body = _json(path)
    message = Message.model_construct(
        **body
    )  # as the SDK builds it: no validation, so fields it does not know yet stay
    response = chatcodec.decode_response("anthropic", message)
    assert chatcodec.encode_response("anthropic", response, on_loss="ignore") == body


def test_plain_model_dump_is_not_the_server_json_but_sdk_json_is() -> None:
    """Why the boundary does not call ``model_dump()``: the SDK fills unset fields with
    nulls, which a codec would keep and send back out."""
    body = _json(FIXTURES / "openai-chat" / "response" / "single_tool_call.json")
    completion = ChatCompletion.model_validate(body)
    assert completion.model_dump() != body
    assert sdk_json(completion) == body


def test_anthropic_datetime_fields_become_json_text() -> None:
    """``to_dict()`` keeps a ``datetime`` (Anthropic's batch and file objects); the
    boundary asks for JSON mode, so what comes out is what the server sent."""
    from anthropic.types.messages import MessageBatch

    batch = {
        "id": "msgbatch_01",
        "type": "message_batch",
        "processing_status": "ended",
        "request_counts": {"processing": 0, "succeeded": 1, "errored": 0, "canceled": 0, "expired": 0},
        "created_at": "2025-01-02T03:04:05Z",
        "expires_at": "2025-01-03T03:04:05Z",
        "ended_at": None,
        "cancel_initiated_at": None,
        "archived_at": None,
        "results_url": None,
    }
    read = sdk_json(MessageBatch.model_validate(batch))
    assert isinstance(read, dict)
    json.dumps(read)  # JSON-ready: no datetime left
    assert read["created_at"] == "2025-01-02T03:04:05Z"


def _openai_chunks(name: str) -> tuple[list[dict[str, Any]], list[ChatCompletionChunk]]:
    events = stream_event_dicts((FIXTURES / "openai-chat" / "stream" / name).read_text())
    return events, [ChatCompletionChunk.model_validate(event) for event in events]


@pytest.mark.parametrize(
    "name", ["parallel_tool_calls.sse", "openrouter_reasoning.sse", "text_with_usage_obfuscation.sse"]
)
def test_accumulate_stream_takes_openai_chunk_objects(name: str) -> None:
    events, chunks = _openai_chunks(name)
    expected = chatcodec.accumulate_stream("openai-chat", events)
    assert chatcodec.accumulate_stream("openai-chat", chunks) == expected
    assert list(chatcodec.decode_stream("openai-chat", chunks)) == list(chatcodec.decode_stream("openai-chat", events))


@pytest.mark.parametrize("name", ["thinking_signature_delta.sse", "tool_use_input_json_delta.sse"])
def test_accumulate_stream_takes_anthropic_event_objects(name: str) -> None:
    events = stream_event_dicts((FIXTURES / "anthropic" / "stream" / name).read_text())
    adapter: TypeAdapter[Any] = TypeAdapter(RawMessageStreamEvent)
    objects = [adapter.validate_python(event) for event in events if event.get("type") != "ping"]
    plain = [event for event in events if event.get("type") != "ping"]
    assert chatcodec.accumulate_stream("anthropic", objects) == chatcodec.accumulate_stream("anthropic", plain)


def test_conversation_takes_chunk_objects_and_response_objects() -> None:
    events, chunks = _openai_chunks("parallel_tool_calls.sse")
    from_objects = chatcodec.Conversation()
    from_dicts = chatcodec.Conversation()
    for chunk, event in zip(chunks, events, strict=True):
        assert from_objects.append_chunk("openai-chat", chunk) == from_dicts.append_chunk("openai-chat", event)
    assert from_objects.finish_stream() == from_dicts.finish_stream()

    body = _json(FIXTURES / "openai-chat" / "response" / "single_tool_call.json")
    conversation = chatcodec.Conversation()
    added = conversation.append_response("openai-chat", ChatCompletion.model_validate(body))
    assert added == chatcodec.decode_response("openai-chat", body).message
    assert [call.id for call in conversation.unresolved_tool_calls()] == [added.tool_calls[0].id]


def test_conversation_append_validates_an_sdk_message() -> None:
    body = _json(FIXTURES / "openai-chat" / "response" / "single_tool_call.json")
    sdk_message = ChatCompletion.model_validate(body).choices[0].message
    conversation = chatcodec.Conversation()
    added = conversation.append(sdk_message)
    assert isinstance(added, chatcodec.AssistantMessage)
    assert [call.name for call in conversation.unresolved_tool_calls()] == [added.tool_calls[0].name]
    conversation.append_provider_messages("openai-chat", [sdk_message])
    assert (
        conversation.messages[1]
        == chatcodec.decode_request("openai-chat", {"messages": [body["choices"][0]["message"]]}).messages[0]
    )


def test_conversation_append_refuses_what_is_not_a_message_with_its_path() -> None:
    conversation = chatcodec.Conversation()
    bad = ChatCompletionMessage.model_construct(role="assistant", content=None, tool_calls=[{"id": 3}])
    with pytest.raises(chatcodec.ValidationError) as caught:
        conversation.append(bad)
    assert "tool_calls" in str(caught.value) or "tool_call" in str(caught.value)
    with pytest.raises(chatcodec.ValidationError):
        conversation.append(object())  # type: ignore[arg-type]  # what untyped callers pass
    assert conversation.messages == []


def test_a_chunk_object_error_points_at_the_chunk() -> None:
    conversation = chatcodec.Conversation()
    with pytest.raises(chatcodec.ChatcodecError) as caught:
        conversation.append_chunk("openai-chat", 5)  # type: ignore[arg-type]  # what untyped callers pass
    assert "openai-chat stream chunk" in str(caught.value)


def test_validate_and_encode_take_sdk_messages_inside_lists_and_requests() -> None:
    body = _json(FIXTURES / "openai-chat" / "response" / "single_tool_call.json")
    sdk_message = ChatCompletion.model_validate(body).choices[0].message
    plain = body["choices"][0]["message"]
    expected = chatcodec.validate_messages([{"role": "user", "content": "hi"}, plain])
    assert chatcodec.validate_messages([{"role": "user", "content": "hi"}, sdk_message]) == expected
    assert chatcodec.validate_message(sdk_message) == expected[1]
    request = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}, sdk_message]}
    encoded = chatcodec.encode_request("openai-chat", request, on_loss="ignore")
    assert encoded == chatcodec.encode_request(
        "openai-chat", {**request, "messages": [request["messages"][0], plain]}, on_loss="ignore"
    )
    converted = chatcodec.convert_response(
        ChatCompletion.model_validate(body), source="openai-chat", target="anthropic", on_loss="ignore"
    )
    assert converted == chatcodec.convert_response(body, source="openai-chat", target="anthropic", on_loss="ignore")


def test_google_genai_objects_dump_under_their_wire_names() -> None:
    from google.genai import types as genai

    wire = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 1},
    }
    assert sdk_json(genai.GenerateContentResponse.model_validate(wire)) == wire


class _LiteLLMLikeMessage(BaseModel):
    """Stands in for litellm's types: pydantic models that set every field, nulls included."""

    content: str | None = None
    role: str = "assistant"
    tool_calls: list[dict[str, Any]] | None = None
    function_call: dict[str, Any] | None = None


_LiteLLMLikeMessage.__module__ = "litellm.types.utils"


def test_litellm_style_objects_drop_the_nulls_litellm_filled_in() -> None:
    message = _LiteLLMLikeMessage(content="hi", role="assistant", tool_calls=None, function_call=None)
    assert sdk_json(message) == {"content": "hi", "role": "assistant"}
    assert chatcodec.validate_message(message) == chatcodec.AssistantMessage(content="hi")


def test_an_object_whose_dump_fails_is_a_payload_error() -> None:
    class Broken:
        def to_dict(self, mode: str = "python") -> dict[str, Any]:
            raise RuntimeError("boom")

    with pytest.raises(chatcodec.ChatcodecError, match="could not read the Broken object as JSON: boom"):
        chatcodec.decode_response("openai-chat", Broken())  # type: ignore[arg-type]  # duck-typed input


def test_sdk_tool_calls_and_thinking_blocks_inside_message_dicts() -> None:
    """LiteLLM and OpenHands keep the SDK's tool-call and thinking-block objects inside
    otherwise plain message dicts."""
    from anthropic.types import ThinkingBlock
    from openai.types.chat import ChatCompletionMessageFunctionToolCall

    call = ChatCompletionMessageFunctionToolCall.model_validate(
        {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}
    )
    block = ThinkingBlock.model_validate({"type": "thinking", "thinking": "plan", "signature": "sig"})
    message = {"role": "assistant", "content": None, "tool_calls": [call], "thinking_blocks": [block]}
    plain = {
        "role": "assistant",
        "content": None,
        "tool_calls": [call.model_dump(mode="json")],
        "thinking_blocks": [block.model_dump(mode="json")],
    }
    assert chatcodec.validate_message(message) == chatcodec.validate_message(plain)
