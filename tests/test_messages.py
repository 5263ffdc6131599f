"""Canonical messages and content parts: validation, dumps, and conveniences."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec import (
    AssistantMessage,
    AudioPart,
    DocumentPart,
    ImagePart,
    OpaquePart,
    RefusalPart,
    SystemMessage,
    TextMessage,
    TextPart,
    ThinkingPart,
    ToolMessage,
    ToolResultPart,
    ToolUsePart,
    UserMessage,
)


def _round_trip(data: dict[str, Any]) -> chatcodec.AnyMessage:
    """Validate ``data``, check its dump equals it, and that the dump validates again."""
    message = chatcodec.validate_message(data)
    assert message.model_dump(mode="json") == data
    again = chatcodec.validate_message(message.model_dump(mode="json"))
    assert again == message
    return message


# --- message types ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "cls"),
    [
        ({"role": "system", "content": "be brief"}, SystemMessage),
        ({"role": "developer", "content": "be brief"}, SystemMessage),
        ({"role": "user", "content": "hi"}, UserMessage),
        ({"role": "assistant", "content": "hello"}, AssistantMessage),
        (
            {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "42"}]},
            ToolMessage,
        ),
        ({"role": "text", "content": "raw completion text"}, TextMessage),
    ],
)
def test_each_message_type_validates_and_round_trips(data: dict[str, Any], cls: type) -> None:
    message = _round_trip(data)
    assert type(message) is cls
    assert message.role == data["role"]


def test_developer_role_stays_distinct_from_system() -> None:
    developer = chatcodec.validate_message({"role": "developer", "content": "x"})
    system = chatcodec.validate_message({"role": "system", "content": "x"})
    assert isinstance(developer, SystemMessage)
    assert developer.role == "developer"
    assert developer.model_dump() == {"role": "developer", "content": "x"}
    assert SystemMessage.model_validate(developer.model_dump()).role == "developer"
    assert developer != system
    assert SystemMessage(content="x").role == "system"


def test_assistant_content_defaults_to_empty_string() -> None:
    message = chatcodec.validate_message({"role": "assistant"})
    assert isinstance(message, AssistantMessage)
    assert message.content == ""
    assert message.parts == []
    assert message.model_dump() == {"role": "assistant", "content": ""}


def test_message_name_kept() -> None:
    message = _round_trip({"role": "user", "name": "alice", "content": "hi"})
    assert message.name == "alice"


# --- part types ------------------------------------------------------------------------

_USER_PARTS: list[tuple[dict[str, Any], type]] = [
    ({"type": "text", "text": "hello"}, TextPart),
    ({"type": "image", "source": {"type": "url", "url": "https://x/a.png"}}, ImagePart),
    ({"type": "image", "source": {"type": "url", "url": "https://x/a.png", "media_type": "image/png"}}, ImagePart),
    (
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBOR"}, "detail": "low"},
        ImagePart,
    ),
    ({"type": "image", "source": {"type": "file", "file_id": "file-1"}, "detail": "high"}, ImagePart),
    ({"type": "image", "source": {"type": "url", "url": "gs://b/x.png"}, "detail": "auto"}, ImagePart),
    ({"type": "audio", "source": {"type": "base64", "media_type": "audio/wav", "data": "UklG"}}, AudioPart),
    ({"type": "audio", "source": {"type": "url", "url": "https://x/a.mp3"}}, AudioPart),
    ({"type": "document", "source": {"type": "url", "url": "https://x/a.pdf"}}, DocumentPart),
    (
        {
            "type": "document",
            "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBE"},
            "title": "Report",
            "filename": "report.pdf",
        },
        DocumentPart,
    ),
    (
        {"type": "document", "source": {"type": "file", "file_id": "file-9", "media_type": "application/pdf"}},
        DocumentPart,
    ),
    (
        {
            "type": "document",
            "source": {"type": "text", "text": "plain body", "media_type": "text/plain"},
            "title": "T",
        },
        DocumentPart,
    ),
    ({"type": "opaque", "provider": "anthropic", "data": {"type": "server_tool_use", "id": "s1"}}, OpaquePart),
]


@pytest.mark.parametrize(("part", "cls"), _USER_PARTS)
def test_user_parts_round_trip(part: dict[str, Any], cls: type) -> None:
    message = _round_trip({"role": "user", "content": [part]})
    assert isinstance(message, UserMessage)
    assert isinstance(message.content, list)
    assert type(message.content[0]) is cls


def test_text_source_media_type_defaults_to_text_plain() -> None:
    part = DocumentPart.model_validate({"type": "document", "source": {"type": "text", "text": "body"}})
    assert part.source.model_dump() == {"type": "text", "text": "body", "media_type": "text/plain"}


def test_audio_format_from_media_type() -> None:
    wav = AudioPart(source={"type": "base64", "media_type": "audio/wav", "data": "x"})
    mp3 = AudioPart(source={"type": "base64", "media_type": "audio/mpeg", "data": "x"})
    url = AudioPart(source={"type": "url", "url": "https://x/a"})
    assert (wav.format, mp3.format, url.format) == ("wav", "mp3", None)


_ASSISTANT_PARTS: list[tuple[dict[str, Any], type]] = [
    ({"type": "text", "text": "hi"}, TextPart),
    ({"type": "thinking", "text": "let me see"}, ThinkingPart),
    (
        {"type": "thinking", "text": "hm", "signature": "sig==", "provider": "anthropic", "model": "claude-x"},
        ThinkingPart,
    ),
    ({"type": "thinking", "text": "", "encrypted": "gAAAA", "redacted": True}, ThinkingPart),
    ({"type": "thinking", "text": "summary", "encrypted": "enc", "provider": "openai-responses"}, ThinkingPart),
    ({"type": "refusal", "text": "I can't help with that."}, RefusalPart),
    ({"type": "tool_use", "id": "c1", "name": "get", "arguments": '{"q": 1}'}, ToolUsePart),
    ({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AA"}}, ImagePart),
    ({"type": "audio", "source": {"type": "base64", "media_type": "audio/wav", "data": "AA"}}, AudioPart),
    ({"type": "opaque", "provider": "gemini", "data": {"executableCode": {"code": "1"}}}, OpaquePart),
]


@pytest.mark.parametrize(("part", "cls"), _ASSISTANT_PARTS)
def test_assistant_parts_round_trip(part: dict[str, Any], cls: type) -> None:
    message = _round_trip({"role": "assistant", "content": [part]})
    assert isinstance(message.content, list)
    assert type(message.content[0]) is cls


def test_thinking_fields_kept_byte_for_byte() -> None:
    signature = "EqQBCkgIARABGAIiQL+/ab==\n"
    part = ThinkingPart.model_validate(
        {"type": "thinking", "text": "  spaced\n", "signature": signature, "provider": "anthropic", "model": "m"}
    )
    assert part.signature == signature
    assert part.text == "  spaced\n"
    assert (part.provider, part.model, part.redacted, part.encrypted) == ("anthropic", "m", False, None)


def test_tool_use_invalid_json_arguments_kept_verbatim() -> None:
    broken = '{"city": "Par'
    message = _round_trip(
        {"role": "assistant", "content": [{"type": "tool_use", "id": "c7", "name": "weather", "arguments": broken}]}
    )
    assert isinstance(message, AssistantMessage)
    call = message.tool_calls[0]
    assert call.arguments == broken
    assert call.arguments_are_valid_json is False
    with pytest.raises(chatcodec.ToolArgumentsError) as info:
        call.parsed_arguments()
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, chatcodec.ChatcodecError)
    assert (info.value.tool_use_id, info.value.name, info.value.arguments) == ("c7", "weather", broken)
    assert "'c7'" in str(info.value)
    assert "weather" in str(info.value)


@pytest.mark.parametrize(
    ("arguments", "parsed"),
    [("", {}), ("   ", {}), ('{"a": [1, 2]}', {"a": [1, 2]}), ("[1]", [1]), ('"s"', "s")],
)
def test_tool_use_parsed_arguments(arguments: str, parsed: object) -> None:
    call = ToolUsePart(id="c", name="f", arguments=arguments)
    assert call.parsed_arguments() == parsed
    assert call.arguments_are_valid_json is True


def test_tool_use_arguments_default_empty() -> None:
    call = ToolUsePart(id="c", name="f")
    assert call.arguments == ""
    assert call.model_dump() == {"type": "tool_use", "id": "c", "name": "f", "arguments": ""}


def test_tool_result_string_content() -> None:
    message = _round_trip(
        {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "sunny", "name": "w"}]}
    )
    assert isinstance(message, ToolMessage)
    result = message.content[0]
    assert result.content == "sunny"
    assert result.text == "sunny"
    assert result.is_error is False
    assert result.name == "w"


def test_tool_result_list_content_with_images_and_error() -> None:
    data = {
        "role": "tool",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "c1",
                "content": [
                    {"type": "text", "text": "see "},
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AA"}},
                    {"type": "text", "text": "chart"},
                    {"type": "document", "source": {"type": "url", "url": "https://x/a.pdf"}},
                ],
                "is_error": True,
            }
        ],
    }
    message = _round_trip(data)
    assert isinstance(message, ToolMessage)
    result = message.content[0]
    assert isinstance(result.content, list)
    assert [part.type for part in result.content] == ["text", "image", "text", "document"]
    assert result.is_error is True
    assert result.text == "see chart"
    assert message.text == "see chart"


def test_tool_result_with_content_returns_copy() -> None:
    result = ToolResultPart(tool_use_id="c", content="long output")
    shorter = result.with_content("long…")
    assert shorter.content == "long…"
    assert result.content == "long output"
    assert shorter.tool_use_id == "c"


# --- cache_control and provider_metadata ----------------------------------------------


def test_cache_control_on_parts_and_messages() -> None:
    data = {
        "role": "user",
        "content": [
            {"type": "text", "text": "big doc", "cache_control": {"type": "ephemeral", "ttl": "1h"}},
            {"type": "text", "text": "question"},
        ],
        "cache_control": {"type": "ephemeral"},
    }
    message = _round_trip(data)
    assert message.cache_control == chatcodec.CacheControl()
    assert isinstance(message.content, list)
    assert message.content[0].cache_control == chatcodec.CacheControl(ttl="1h")
    assert message.content[1].cache_control is None


def test_cache_control_on_system_and_tool_result() -> None:
    _round_trip({"role": "system", "content": "rules", "cache_control": {"type": "ephemeral", "ttl": "5m"}})
    _round_trip(
        {
            "role": "tool",
            "content": [
                {"type": "tool_result", "tool_use_id": "c", "content": "x", "cache_control": {"type": "ephemeral"}}
            ],
        }
    )


def test_provider_metadata_kept_on_parts_and_messages() -> None:
    data = {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "hi", "provider_metadata": {"anthropic": {"citations": [{"n": 1}]}}},
            {
                "type": "tool_use",
                "id": "c",
                "name": "f",
                "arguments": "{}",
                "provider_metadata": {"gemini": {"x": None}},
            },
        ],
        "provider_metadata": {"openai-chat": {"annotations": [], "audio": {"id": "a1"}}},
    }
    message = _round_trip(data)
    assert message.provider_metadata == {"openai-chat": {"annotations": [], "audio": {"id": "a1"}}}
    assert message.parts[1].provider_metadata == {"gemini": {"x": None}}


# --- content form ----------------------------------------------------------------------


@pytest.mark.parametrize("role", ["system", "developer", "user", "assistant"])
def test_string_content_stays_string_and_list_stays_list(role: str) -> None:
    as_string = chatcodec.validate_message({"role": role, "content": "hello"})
    as_list = chatcodec.validate_message({"role": role, "content": [{"type": "text", "text": "hello"}]})
    assert as_string.content == "hello"
    assert isinstance(as_list.content, list)
    assert as_string.model_dump()["content"] == "hello"
    assert as_list.model_dump()["content"] == [{"type": "text", "text": "hello"}]
    assert as_string.text == as_list.text == "hello"
    assert as_string.parts == as_list.parts


def test_assistant_parts_order_preserved() -> None:
    content = [
        {"type": "thinking", "text": "first I think", "signature": "s1"},
        {"type": "text", "text": "Let me check."},
        {"type": "tool_use", "id": "a", "name": "search", "arguments": '{"q": "x"}'},
        {"type": "thinking", "text": "then more", "signature": "s2"},
        {"type": "text", "text": " And another."},
        {"type": "tool_use", "id": "b", "name": "fetch", "arguments": "{}"},
        {"type": "refusal", "text": "not that"},
    ]
    message = chatcodec.validate_message({"role": "assistant", "content": content})
    assert isinstance(message, AssistantMessage)
    assert [part.type for part in message.parts] == [part["type"] for part in content]
    assert message.model_dump()["content"] == content
    assert [call.id for call in message.tool_calls] == ["a", "b"]
    assert [part.signature for part in message.thinking] == ["s1", "s2"]
    assert message.reasoning_text == "first I thinkthen more"
    assert message.text == "Let me check. And another."


def test_conveniences_on_empty_and_string_assistant() -> None:
    message = AssistantMessage(content="plain")
    assert message.tool_calls == []
    assert message.thinking == []
    assert message.reasoning_text == ""
    assert message.parts == [TextPart(text="plain")]


def test_text_ignores_non_text_parts() -> None:
    message = chatcodec.validate_message(
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "a"},
                {"type": "image", "source": {"type": "url", "url": "https://x"}},
                {"type": "text", "text": "b"},
            ],
        }
    )
    assert message.text == "ab"
    assert len(message.parts) == 3


def test_tool_message_tool_use_ids_in_order() -> None:
    message = ToolMessage(
        content=[
            {"type": "tool_result", "tool_use_id": "z", "content": "1"},
            {"type": "tool_result", "tool_use_id": "a", "content": [{"type": "text", "text": "2"}]},
        ]
    )
    assert message.tool_use_ids == ["z", "a"]
    assert message.text == "12"
    assert len(message.parts) == 2


def test_text_message_text() -> None:
    message = TextMessage(content="raw")
    assert message.text == "raw"
    assert message.parts == [TextPart(text="raw")]


# --- rendering -------------------------------------------------------------------------


def test_render_conversation_one_numbered_line_per_message() -> None:
    messages = chatcodec.validate_messages(
        [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "weather in\nParis?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "text": "need tool"},
                    {"type": "text", "text": "Checking."},
                    {"type": "tool_use", "id": "c1", "name": "weather", "arguments": '{"city":"Paris"}'},
                ],
            },
            {
                "role": "tool",
                "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "sunny", "is_error": True}],
            },
            {"role": "assistant", "content": [{"type": "thinking", "encrypted": "E", "redacted": True}]},
            {"role": "user", "content": [{"type": "image", "source": {"type": "url", "url": "https://x"}}]},
            {"role": "assistant", "content": [{"type": "refusal", "text": "no"}]},
            {"role": "text", "content": "raw"},
            {"role": "user", "content": [{"type": "opaque", "provider": "anthropic", "data": {"type": "weird"}}]},
            {"role": "user", "content": [{"type": "document", "source": {"type": "file", "file_id": "f"}}]},
            {"role": "developer", "content": "dev"},
        ]
    )
    rendered = chatcodec.render_conversation(messages)
    assert rendered.splitlines() == [
        "[ 0] system: be brief",
        "[ 1] user: weather in\\nParis?",
        '[ 2] assistant: <thinking: need tool> | Checking. | weather({"city":"Paris"}) #c1',
        "[ 3] tool: #c1 ERROR -> sunny",
        "[ 4] assistant: <thinking: redacted>",
        "[ 5] user: <image url>",
        "[ 6] assistant: <refusal: no>",
        "[ 7] text: raw",
        "[ 8] user: <anthropic weird>",
        "[ 9] user: <document file>",
        "[10] developer: dev",
    ]


def test_render_message_shortens_long_text() -> None:
    message = UserMessage(content="x" * 100)
    rendered = chatcodec.render_message(message, width=10)
    assert rendered == "user: " + "x" * 9 + "…"


def test_render_conversation_empty_and_single() -> None:
    assert chatcodec.render_conversation([]) == ""
    assert chatcodec.render_conversation([UserMessage(content="hi")]) == "[0] user: hi"
