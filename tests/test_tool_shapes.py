"""Tools in OpenAI's and Anthropic's shapes are taken wherever chatcodec takes tools."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec import ChatRequest, ToolDefinition

SCHEMA = {  # closed and every property required: what OpenAI's strict mode takes, so no format rewrites it
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
    "additionalProperties": False,
}
OPENAI_TOOL = {
    "type": "function",
    "function": {"name": "get_weather", "description": "Weather now.", "parameters": SCHEMA, "strict": True},
}
ANTHROPIC_TOOL = {"name": "get_weather", "description": "Weather now.", "input_schema": SCHEMA}
CANONICAL_TOOL = {"name": "get_weather", "description": "Weather now.", "parameters": SCHEMA}


@pytest.mark.parametrize(
    ("tool", "expected"),
    [
        (OPENAI_TOOL, ToolDefinition(name="get_weather", description="Weather now.", parameters=SCHEMA, strict=True)),
        (ANTHROPIC_TOOL, ToolDefinition(name="get_weather", description="Weather now.", parameters=SCHEMA)),
        (CANONICAL_TOOL, ToolDefinition(name="get_weather", description="Weather now.", parameters=SCHEMA)),
    ],
    ids=["openai", "anthropic", "canonical"],
)
def test_a_tool_in_any_shape_is_the_canonical_tool(tool: dict[str, Any], expected: ToolDefinition) -> None:
    assert chatcodec.validate_model(ChatRequest, {"tools": [tool]}).tools == [expected]


def test_the_shapes_read_as_their_codecs_decode_them() -> None:
    """The same tool the codec decodes from its own request body, metadata included."""
    odd = {"type": "function", "function": {"name": "f", "x-vendor": 1}, "extra": True}
    from_body = chatcodec.decode_request("openai-chat", {"model": "m", "messages": [], "tools": [odd]}).tools
    assert chatcodec.validate_model(ChatRequest, {"tools": [odd]}).tools == from_body
    assert chatcodec.encode_request("openai-chat", {"model": "m", "tools": [odd]})["tools"] == [odd]


def test_conversation_dump_takes_provider_tools() -> None:
    conversation = chatcodec.Conversation(system="Be brief.")
    conversation.append({"role": "user", "content": "Weather in Paris?"})
    openai_body = conversation.dump("openai-chat", model="gpt-4o", tools=[OPENAI_TOOL])
    assert openai_body["tools"] == [OPENAI_TOOL]
    anthropic_body = conversation.dump("anthropic", model="claude", max_tokens=100, tools=[ANTHROPIC_TOOL])
    assert anthropic_body["tools"] == [ANTHROPIC_TOOL]
    crossed = conversation.dump("anthropic", model="claude", max_tokens=100, tools=[OPENAI_TOOL])
    assert crossed["tools"][0]["input_schema"] == SCHEMA


def test_a_malformed_tool_is_reported_where_it_was_written() -> None:
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.validate_model(ChatRequest, {"tools": [CANONICAL_TOOL, {"type": "function", "function": {}}]})
    assert "$.tools[1]" in str(caught.value)


@pytest.mark.parametrize("kind", ["", "3"])
def test_a_schema_type_without_letters_is_not_read_as_geminis_upper_case_spelling(kind: str) -> None:
    # "".islower() is False: such a type was taken for Gemini's "STRING" spelling, and the
    # tool marked to be sent back as it came (a Hypothesis draw, {"type": ""}).
    payload = {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": kind}}}],
    }
    request = chatcodec.decode_request("openai-chat", payload)
    assert request.tools is not None
    assert request.tools[0].provider_metadata is None
