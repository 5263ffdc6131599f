"""Gemini's OpenAI-compatible endpoint reads a tool's ``parameters`` (and a ``json_schema``
format) as Gemini's ``Schema`` (https://ai.google.dev/api/caching#Schema), whose ``type``
is one ``Type`` name: a JSON Schema ``type`` list (``["string", "null"]``, what pydantic
and zod write for an optional field in some modes) is refused there, and is written with
``nullable``/``anyOf``, from every source format alike."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from google.genai import types

import chatcodec

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"city": {"type": ["string", "null"]}, "zip": {"type": ["integer", "string"]}},
    "required": ["city"],
}
EXPECTED = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "nullable": True},
        "zip": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
    },
    "required": ["city"],
}
MODEL = "gemini-2.5-flash"
REQUESTS: dict[str, dict[str, Any]] = {
    "openai-chat": {
        "model": MODEL,
        "messages": [{"role": "user", "content": "Weather?"}],
        "tools": [{"type": "function", "function": {"name": "weather", "parameters": SCHEMA}}],
    },
    "anthropic": {
        "model": MODEL,
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "Weather?"}],
        "tools": [{"name": "weather", "input_schema": SCHEMA}],
    },
    "openai-responses": {
        "model": MODEL,
        "input": "Weather?",
        "tools": [{"type": "function", "name": "weather", "parameters": SCHEMA, "strict": False}],
    },
}


def _upper(schema: Any) -> Any:
    """The schema with Gemini's ``Type`` spelling, for the SDK's ``Schema`` model."""
    if isinstance(schema, dict):
        return {
            key: value.upper() if key == "type" and isinstance(value, str) else _upper(value)
            for key, value in schema.items()
        }  # type: ignore[union-attr]
    if isinstance(schema, list):
        return [_upper(item) for item in schema]  # type: ignore[misc]
    return schema


@pytest.mark.parametrize("source", sorted(REQUESTS))
def test_a_type_list_reaches_geminis_openai_endpoint_as_nullable_or_any_of(source: str) -> None:
    request = copy.deepcopy(REQUESTS[source])
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        request, source=source, target="openai-chat", options={"server": "gemini"}, losses=losses, on_loss="ignore"
    )
    parameters = body["tools"][0]["function"]["parameters"]
    assert parameters == EXPECTED
    types.Schema.model_validate(_upper(parameters))  # the SDK's Schema (type: one Type) takes it
    rules = [loss for loss in losses if loss.kind == "rule" and "single_types" in loss.why]
    assert [loss.path for loss in rules] == [
        "$.tools[0].function.parameters.properties.city.type",
        "$.tools[0].function.parameters.properties.zip.type",
    ]
    assert request == REQUESTS[source]  # the caller's schema is not changed


def test_a_json_schema_format_is_written_the_same_way() -> None:
    request = {
        "model": MODEL,
        "messages": [{"role": "user", "content": "Weather?"}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "w", "schema": SCHEMA}},
    }
    body = chatcodec.convert_request(
        request, source="openai-chat", target="openai-chat", options={"server": "gemini"}, on_loss="ignore"
    )
    assert body["response_format"]["json_schema"]["schema"] == EXPECTED


def test_other_servers_keep_the_type_list() -> None:
    """OpenAI reads JSON Schema: a type list is sent as it is (a Gemini model name alone
    names the Gemini endpoint, so another model is used here)."""
    request = {**REQUESTS["anthropic"], "model": "gpt-4o"}
    body = chatcodec.convert_request(request, source="anthropic", target="openai-chat", on_loss="ignore")
    assert body["tools"][0]["function"]["parameters"]["properties"]["city"]["type"] == ["string", "null"]
