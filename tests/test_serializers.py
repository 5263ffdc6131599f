"""Canonical dumps: compact JSON, and the ``content_form`` serialization context."""

from __future__ import annotations

import json
from typing import Any

import pytest

import chatcodec
from chatcodec import (
    AssistantMessage,
    ChatRequest,
    ChatResponse,
    SystemMessage,
    TextMessage,
    ThinkingPart,
    ToolMessage,
    ToolResultPart,
    ToolUsePart,
    UserMessage,
)


def _walk(value: object) -> list[object]:
    """Every value nested in ``value``, ``value`` included."""
    found: list[object] = [value]
    if isinstance(value, dict):
        for item in value.values():
            found.extend(_walk(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(_walk(item))
    return found


# --- compact canonical JSON ------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        (UserMessage(content="hi"), {"role": "user", "content": "hi"}),
        (SystemMessage(content="s"), {"role": "system", "content": "s"}),
        (AssistantMessage(), {"role": "assistant", "content": ""}),
        (ThinkingPart(text="t"), {"type": "thinking", "text": "t"}),
        (ToolUsePart(id="c", name="f"), {"type": "tool_use", "id": "c", "name": "f", "arguments": ""}),
        (ToolResultPart(tool_use_id="c"), {"type": "tool_result", "tool_use_id": "c", "content": ""}),
        (ChatRequest(), {"messages": []}),
        (
            ChatResponse(message={"role": "assistant", "content": "x"}),
            {"choices": [{"index": 0, "message": {"role": "assistant", "content": "x"}}]},
        ),
        (chatcodec.Usage(), {}),
        (chatcodec.ToolChoice(), {"type": "auto"}),
        (chatcodec.CacheControl(), {"type": "ephemeral"}),
        (chatcodec.TextStartEvent(index=0), {"index": 0, "type": "text_start"}),
    ],
)
def test_defaults_are_left_out(model: Any, expected: dict[str, Any]) -> None:
    assert model.model_dump() == expected
    assert model.model_dump(mode="json") == expected
    assert json.loads(model.model_dump_json()) == expected


def test_no_nulls_or_false_defaults_in_a_full_conversation() -> None:
    messages = chatcodec.validate_messages(
        [
            {"role": "system", "content": "s"},
            {
                "role": "user",
                "content": [{"type": "text", "text": "u"}, {"type": "image", "source": {"type": "url", "url": "u"}}],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "text": "t"},
                    {"type": "tool_use", "id": "c", "name": "f", "arguments": "{}"},
                ],
            },
            {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c", "content": "r"}]},
        ]
    )
    dumped = chatcodec.dump_messages(messages)
    values = _walk(dumped)
    assert None not in values
    assert all(value is not False for value in values)
    text = chatcodec.MESSAGES_ADAPTER.dump_json(messages).decode()
    assert "null" not in text
    assert "false" not in text
    assert json.loads(text) == dumped


def test_explicit_false_on_optional_flags_is_kept() -> None:
    request = ChatRequest(parallel_tool_calls=False, stream=False, reasoning={"enabled": False})
    assert request.model_dump() == {
        "messages": [],
        "parallel_tool_calls": False,
        "stream": False,
        "reasoning": {"enabled": False},
    }


def test_true_flags_are_dumped() -> None:
    part = ThinkingPart(encrypted="e", redacted=True)
    assert part.model_dump() == {"type": "thinking", "text": "", "encrypted": "e", "redacted": True}
    result = ToolResultPart(tool_use_id="c", is_error=True)
    assert result.model_dump()["is_error"] is True


def test_model_dump_json_is_compact_canonical_json() -> None:
    message = UserMessage(content=[{"type": "text", "text": "é"}])
    assert message.model_dump_json() == '{"role":"user","content":[{"type":"text","text":"é"}]}'


# --- content_form ----------------------------------------------------------------------


def _dump(model: Any, form: str) -> Any:
    return model.model_dump(context={"content_form": form})["content"]


def test_preserve_is_the_default() -> None:
    as_string = UserMessage(content="hi")
    as_list = UserMessage(content=[{"type": "text", "text": "hi"}])
    for model in (as_string, as_list):
        assert model.model_dump()["content"] == _dump(model, "preserve")
    assert _dump(as_string, "preserve") == "hi"
    assert _dump(as_list, "preserve") == [{"type": "text", "text": "hi"}]


@pytest.mark.parametrize("cls", [SystemMessage, UserMessage, AssistantMessage])
def test_list_form_turns_string_into_one_text_part(cls: type) -> None:
    model = cls(content="hello")
    assert _dump(model, "list") == [{"type": "text", "text": "hello"}]
    assert json.loads(model.model_dump_json(context={"content_form": "list"}))["content"] == [
        {"type": "text", "text": "hello"}
    ]
    assert model.content == "hello"


def test_list_form_leaves_lists_alone() -> None:
    parts = [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    assert _dump(UserMessage(content=parts), "list") == parts


@pytest.mark.parametrize("cls", [SystemMessage, UserMessage, AssistantMessage])
def test_string_form_collapses_one_plain_text_part(cls: type) -> None:
    model = cls(content=[{"type": "text", "text": "hello"}])
    assert _dump(model, "string") == "hello"
    assert json.loads(model.model_dump_json(context={"content_form": "string"}))["content"] == "hello"


def test_string_form_keeps_string() -> None:
    assert _dump(UserMessage(content="x"), "string") == "x"


def test_string_form_of_empty_list_is_empty_string() -> None:
    assert _dump(AssistantMessage(content=[]), "string") == ""


@pytest.mark.parametrize(
    "content",
    [
        [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
        [{"type": "text", "text": "a", "cache_control": {"type": "ephemeral"}}],
        [{"type": "text", "text": "a", "provider_metadata": {"anthropic": {"citations": []}}}],
        [{"type": "image", "source": {"type": "url", "url": "https://x"}}],
        [{"type": "text", "text": "a"}, {"type": "image", "source": {"type": "url", "url": "https://x"}}],
        [{"type": "document", "source": {"type": "text", "text": "doc"}}],
    ],
)
def test_string_form_keeps_list_when_not_exact(content: list[dict[str, Any]]) -> None:
    model = UserMessage(content=content)
    assert _dump(model, "string") == model.model_dump()["content"]
    assert isinstance(_dump(model, "string"), list)


@pytest.mark.parametrize(
    "content",
    [
        [{"type": "thinking", "text": "t"}],
        [{"type": "tool_use", "id": "c", "name": "f", "arguments": "{}"}],
        [{"type": "refusal", "text": "no"}],
    ],
)
def test_string_form_keeps_non_text_assistant_parts(content: list[dict[str, Any]]) -> None:
    assert _dump(AssistantMessage(content=content), "string") == content


def test_content_form_applies_to_tool_result_content() -> None:
    message = ToolMessage(
        content=[
            {"type": "tool_result", "tool_use_id": "a", "content": "plain"},
            {"type": "tool_result", "tool_use_id": "b", "content": [{"type": "text", "text": "one"}]},
            {
                "type": "tool_result",
                "tool_use_id": "c",
                "content": [{"type": "text", "text": "x"}, {"type": "image", "source": {"type": "url", "url": "u"}}],
            },
        ]
    )
    as_list = _dump(message, "list")
    assert [result["content"] for result in as_list] == [
        [{"type": "text", "text": "plain"}],
        [{"type": "text", "text": "one"}],
        [{"type": "text", "text": "x"}, {"type": "image", "source": {"type": "url", "url": "u"}}],
    ]
    as_string = _dump(message, "string")
    assert isinstance(as_string, list)  # tool message content is always a list of results
    assert [result["content"] for result in as_string] == [
        "plain",
        "one",
        [{"type": "text", "text": "x"}, {"type": "image", "source": {"type": "url", "url": "u"}}],
    ]


def test_text_message_content_is_always_a_string() -> None:
    model = TextMessage(content="raw")
    assert _dump(model, "list") == "raw"
    assert _dump(model, "string") == "raw"


def test_content_form_reaches_nested_request_and_response() -> None:
    request = ChatRequest(messages=[{"role": "user", "content": "hi"}])
    assert request.model_dump(context={"content_form": "list"})["messages"][0]["content"] == [
        {"type": "text", "text": "hi"}
    ]
    response = ChatResponse(message={"role": "assistant", "content": [{"type": "text", "text": "a"}]})
    assert response.model_dump(context={"content_form": "string"})["choices"][0]["message"]["content"] == "a"


def test_content_form_does_not_change_the_model() -> None:
    model = UserMessage(content="hi")
    model.model_dump(context={"content_form": "list"})
    assert model.content == "hi"
    assert model.model_dump()["content"] == "hi"


# --- dump_messages ---------------------------------------------------------------------

_CONVERSATION = [
    {"role": "system", "content": "s"},
    {"role": "user", "content": [{"type": "text", "text": "u"}]},
    {"role": "assistant", "content": "a"},
]


def test_dump_messages_default_is_canonical_json() -> None:
    messages = chatcodec.validate_messages(_CONVERSATION)
    assert chatcodec.dump_messages(messages) == _CONVERSATION
    assert chatcodec.dump_messages([]) == []


@pytest.mark.parametrize(
    ("form", "contents"),
    [
        ("preserve", ["s", [{"type": "text", "text": "u"}], "a"]),
        ("list", [[{"type": "text", "text": "s"}], [{"type": "text", "text": "u"}], [{"type": "text", "text": "a"}]]),
        ("string", ["s", "u", "a"]),
    ],
)
def test_dump_messages_passes_context(form: str, contents: list[Any]) -> None:
    messages = chatcodec.validate_messages(_CONVERSATION)
    dumped = chatcodec.dump_messages(messages, context={"content_form": form})
    assert [message["content"] for message in dumped] == contents


def test_dump_messages_is_json_mode() -> None:
    messages = chatcodec.validate_messages(_CONVERSATION)
    dumped = chatcodec.dump_messages(messages)
    assert json.loads(json.dumps(dumped)) == dumped
    assert chatcodec.dump_messages(messages, exclude_unset=False) == dumped


def test_dump_then_validate_is_identity() -> None:
    messages = chatcodec.validate_messages(_CONVERSATION)
    assert chatcodec.validate_messages(chatcodec.dump_messages(messages)) == messages
    as_list = chatcodec.dump_messages(messages, context={"content_form": "list"})
    assert [message.text for message in chatcodec.validate_messages(as_list)] == ["s", "u", "a"]
