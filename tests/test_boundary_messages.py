"""``chatcodec.BoundaryMessages``, a conversation as a Pydantic field (issue 87): a model or a
FastAPI body with one field of it takes every shape ``validate_messages`` reads (OpenAI-shaped
messages, Anthropic blocks, a framework's stored history), where ``list[chatcodec.Message]``
refuses all but canonical; a value none reads is a 422 naming the path inside it."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError
from pydantic_ai.messages import ModelMessagesTypeAdapter, ModelRequest, ModelResponse, TextPart, UserPromptPart

import chatcodec

OPENAI_SHAPED: list[dict[str, Any]] = [
    {"role": "system", "content": "Answer briefly."},
    {
        "role": "user",
        "content": [
            {"type": "text", "text": "What is this?"},
            {"type": "image_url", "image_url": {"url": "https://e.com/a.png"}},
        ],
    },
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "look", "arguments": "{}"}}],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "a cat"},
]


class ChatBody(BaseModel):
    model: str
    messages: chatcodec.BoundaryMessages


class CanonicalOnly(BaseModel):
    messages: list[chatcodec.Message]


def test_a_fastapi_body_with_the_field_takes_an_openai_shaped_conversation() -> None:
    app = FastAPI()

    @app.post("/chat")
    def chat(body: ChatBody) -> dict[str, Any]:
        return {
            "roles": [message.role for message in body.messages],
            "kinds": [message.parts[0].type for message in body.messages],
        }

    client = TestClient(app)
    answer = client.post("/chat", json={"model": "m", "messages": OPENAI_SHAPED})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {
        "roles": ["system", "user", "assistant", "tool"],
        "kinds": ["text", "text", "tool_use", "tool_result"],
    }
    refused = client.post("/chat", json={"model": "m", "messages": [{"role": "wizard", "content": "hi"}]})
    assert refused.status_code == 422
    assert "$[0]" in json.dumps(refused.json())
    schema = client.get("/openapi.json").json()["components"]["schemas"]["ChatBody"]["properties"]["messages"]
    taken = [choice.get("items", {}) for choice in schema["anyOf"]]
    assert "oneOf" in taken[0]  # canonical messages
    assert "validate_messages reads: OpenAI Chat's" in taken[1]["description"]  # or the shapes it reads


ANTHROPIC_SHAPED: list[dict[str, Any]] = [
    {"role": "user", "content": "What is this?"},
    {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "look", "input": {}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "a cat"}]},
]


def test_the_published_schema_takes_the_bodies_the_field_takes() -> None:
    """The body schema an OpenAPI page publishes (validation mode) takes the OpenAI- and
    Anthropic-shaped conversations the field reads, which the canonical schema alone refuses;
    what the field holds (serialization mode) stays the canonical conversation."""
    taken = ChatBody.model_json_schema()
    canonical = CanonicalOnly.model_json_schema()
    for conversation in (OPENAI_SHAPED, ANTHROPIC_SHAPED):
        jsonschema.validate({"model": "m", "messages": conversation}, taken)
        assert ChatBody.model_validate({"model": "m", "messages": conversation}).messages
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"messages": conversation}, canonical)
    held = ChatBody.model_json_schema(mode="serialization")["properties"]["messages"]
    assert held["type"] == "array"
    assert "oneOf" in held["items"]


def test_it_reads_what_validate_messages_reads_and_canonical_only_does_not() -> None:
    history = json.loads(
        ModelMessagesTypeAdapter.dump_json(
            [ModelRequest(parts=[UserPromptPart("Hi")]), ModelResponse(parts=[TextPart("Hello")])]
        )
    )
    for conversation in (OPENAI_SHAPED, history):
        read = ChatBody.model_validate({"model": "m", "messages": conversation}).messages
        assert read == chatcodec.validate_messages(conversation)
    try:
        CanonicalOnly.model_validate({"messages": OPENAI_SHAPED})
    except PydanticValidationError:
        pass
    else:
        raise AssertionError("list[chatcodec.Message] took an OpenAI-shaped conversation")


def test_messages_built_in_code_pass_as_they_are_and_dump_as_canonical() -> None:
    built = [chatcodec.UserMessage(content="Hi")]
    body = ChatBody(model="m", messages=built)
    assert body.messages == built
    assert body.model_dump(mode="json")["messages"] == [{"role": "user", "content": "Hi"}]
