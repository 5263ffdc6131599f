"""Validated models read like the dicts they dump to."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest

import chatcodec
from chatcodec import (
    AssistantMessage,
    ChatRequest,
    ChatResponse,
    ThinkingPart,
    ToolDefinition,
    ToolMessage,
    ToolUsePart,
    Usage,
    UserMessage,
)


def _models() -> list[Any]:
    return [
        UserMessage(content="hi"),
        UserMessage(content=[{"type": "text", "text": "a", "cache_control": {"type": "ephemeral"}}], name="bob"),
        AssistantMessage(content=[{"type": "thinking", "text": "t", "signature": "s"}]),
        ToolMessage(content=[{"type": "tool_result", "tool_use_id": "c", "content": "r", "is_error": True}]),
        ThinkingPart(text="x"),
        ThinkingPart(encrypted="e", redacted=True),
        ToolUsePart(id="c", name="f"),
        ToolDefinition(name="f", description="d"),
        ChatRequest(model="m", messages=[{"role": "user", "content": "x"}], temperature=0.0, stop=["\n"]),
        ChatRequest(),
        ChatResponse(message={"role": "assistant", "content": "x"}, usage={"input_tokens": 1}),
        Usage(output_tokens=3),
        chatcodec.TextStartEvent(index=0),
        chatcodec.TextStartEvent(index=1, choice=2),
    ]


@pytest.mark.parametrize("model", _models(), ids=lambda model: type(model).__name__)
def test_keys_match_dump(model: Any) -> None:
    """The keys are the dump's, then the aliases a class answers (Verifiers' keys)."""
    dumped = model.model_dump()
    aliases = model.dict_aliases()
    assert model.keys() == [*dumped.keys(), *(key for key in aliases if key not in dumped)]
    assert [key for key, _ in model.items()] == model.keys()
    assert len(model.values()) == len(model.keys())
    for key in dumped:
        assert key in model


@pytest.mark.parametrize("model", _models(), ids=lambda model: type(model).__name__)
def test_dict_of_model_has_dump_keys(model: Any) -> None:
    as_dict = dict(model)
    assert list(as_dict) == model.keys()
    aliases = model.dict_aliases()
    for key, value in as_dict.items():
        assert value == (aliases[key] if key in aliases else getattr(model, key))


def test_getitem_and_get() -> None:
    message = UserMessage(content=[{"type": "text", "text": "hi"}])
    assert message["role"] == "user"
    assert message.get("content") is message.content
    assert message.get("missing", 5) == 5
    assert message.get("missing") is None


def test_contains() -> None:
    message = UserMessage(content="hi")
    assert "role" in message
    assert "content" in message
    assert "cache_control" not in message
    assert "name" not in message
    assert "provider_metadata" not in message
    assert "missing" not in message
    assert 1 not in message


def test_set_optional_fields_become_keys() -> None:
    message = UserMessage(content="hi", name="bob", cache_control={"type": "ephemeral"})
    assert "cache_control" in message
    assert message.keys() == ["name", "cache_control", "role", "content"]
    assert message["cache_control"]["type"] == "ephemeral"
    assert message.get("name") == "bob"


def test_get_of_omitted_field_returns_default() -> None:
    message = UserMessage(content="hi")
    assert message.get("cache_control", "fallback") == "fallback"
    part = ThinkingPart(text="x")
    assert "redacted" not in part
    assert part.get("redacted", "fallback") == "fallback"
    assert ThinkingPart(text="", redacted=True, encrypted="opaque").get("redacted") is True


@pytest.mark.parametrize("key", ["missing", "tool_calls", "Role", ""])
def test_unknown_key_raises_key_error(key: str) -> None:
    message = AssistantMessage(content="x")
    with pytest.raises(KeyError) as info:
        message[key]
    assert info.value.args == (key,)


def test_nested_access() -> None:
    message = chatcodec.validate_message(
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "hello"},
                {"type": "tool_use", "id": "c1", "name": "f", "arguments": "{}"},
            ],
        }
    )
    # Verifiers' reading: the text as the content, the calls beside it (the attribute
    # stays canonical)
    assert message["content"] == "hello"
    assert message["tool_calls"][0]["name"] == "f"
    assert message["tool_calls"][0].get("arguments") == "{}"
    assert message.content[1]["name"] == "f"


def test_nested_access_through_request_and_response() -> None:
    request = ChatRequest(messages=[{"role": "user", "content": [{"type": "text", "text": "q"}]}])
    assert request["messages"][0]["content"][0]["text"] == "q"
    response = ChatResponse(message={"role": "assistant", "content": "a"}, finish_reason={"unified": "stop"})
    assert response["choices"][0]["message"]["content"] == "a"
    assert response["choices"][0]["finish_reason"]["unified"] == "stop"
    tool = ToolMessage(
        content=[{"type": "tool_result", "tool_use_id": "c", "content": [{"type": "text", "text": "deep"}]}]
    )
    assert tool.content[0]["content"][0]["text"] == "deep"
    assert tool["content"][0]["text"] == "deep"  # one result reads as Verifiers' tool message


def test_star_star_unpacking() -> None:
    message = UserMessage(content="hi", name="n")
    assert {**message} == {"name": "n", "role": "user", "content": "hi"}


# --- assignment and the flat tool call -----------------------------------------------------


def test_item_assignment_sets_the_field_with_validation() -> None:
    message = UserMessage(content="hi")
    message["content"] = "changed"
    assert message.content == "changed"
    assert message["content"] == "changed"
    with pytest.raises(chatcodec.ValidationError):
        message["content"] = 123


def test_models_validate_attribute_assignment() -> None:
    message = AssistantMessage(content="x")
    with pytest.raises(pydantic.ValidationError):
        message.content = [{"type": "nonsense"}]  # pyright: ignore[reportAttributeAccessIssue]
    message.content = [{"type": "text", "text": "y"}]  # pyright: ignore[reportAttributeAccessIssue]
    assert message.text == "y"  # validated into a part, not left a dict


def test_assigning_a_key_that_is_not_a_field_names_the_fields() -> None:
    message = AssistantMessage(content="x")
    with pytest.raises(KeyError, match="content"):
        message["tool_calls"] = []


def test_function_on_a_flat_tool_call_names_the_flat_fields() -> None:
    call = ToolUsePart(id="c1", name="f", arguments="{}")
    with pytest.raises(KeyError) as info:
        call["function"]
    assert "name" in str(info.value)
    assert "arguments" in str(info.value)
    assert call.get("function") is None  # get still answers its default


def test_a_tool_calls_keyword_arguments_are_its_json_object() -> None:
    """For ``tool(**call.keyword_arguments())``; an empty text is no argument."""

    def weather(city: str, unit: str = "C") -> str:
        return f"{city} {unit}"

    call = ToolUsePart(id="c", name="weather", arguments='{"city": "Paris", "unit": "F"}')
    assert weather(**call.keyword_arguments()) == "Paris F"
    assert ToolUsePart(id="c", name="f").keyword_arguments() == {}


@pytest.mark.parametrize("arguments", ['["Paris"]', '"Paris"', "3", "{not json"])
def test_keyword_arguments_that_are_not_a_json_object_raise_a_chatcodec_error(arguments: str) -> None:
    call = ToolUsePart(id="call_9", name="weather", arguments=arguments)
    with pytest.raises(chatcodec.ToolArgumentsError) as raised:
        call.keyword_arguments()
    assert isinstance(raised.value, chatcodec.ChatcodecError)
    assert "call_9" in str(raised.value)
    assert raised.value.arguments == arguments


def test_an_unknown_key_of_a_message_still_raises_key_error_at_run_time() -> None:
    """The type checkers refuse it (tests/typing/check_dict_access.py); run time agrees."""
    message: Any = AssistantMessage(content="x")
    with pytest.raises(KeyError):
        message["anything else"]
    assert message.get("anything else") is None
