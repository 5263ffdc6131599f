"""Static typing checks of the canonical ``TypedDict`` s, run by mypy and pyright (not by pytest).

A tag test narrows a union to one arm and ``assert_never`` closes the chain, so a part or
event kind added to the models (and so to the generated types) fails type-checking in
every reader and writer that matches on it. Lines marked ``type: ignore[...]`` are misuse
the checkers must flag.
"""

from __future__ import annotations

from typing import assert_never, assert_type

from chatcodec import ChatRequestData, ChatResponseData, ContentPartData, MessageData, StreamEventData
from chatcodec._model.canonical_types import (
    AssistantMessageData,
    MediaSourceData,
    TextPartData,
    ToolResultPartData,
    ToolUsePartData,
    UserContentPartData,
    UserMessageData,
)


def part_text(part: ContentPartData) -> str:
    match part["type"]:
        case "text":
            assert_type(part, TextPartData)
            return part["text"]
        case "tool_use":
            assert_type(part, ToolUsePartData)
            return part["arguments"]
        case "tool_result":
            assert_type(part, ToolResultPartData)
            return part["content"] if isinstance(part["content"], str) else ""
        case "image" | "audio" | "video" | "document" | "thinking" | "refusal" | "opaque":
            return ""
        case _:
            assert_never(part)


def media_url(source: MediaSourceData) -> str | None:
    if source["type"] == "url":
        return source["url"]
    if source["type"] == "base64":
        return f"data:{source['media_type']};base64,{source['data']}"
    if source["type"] == "file":
        return None
    assert_never(source)


def role(message: MessageData) -> str:
    if message["role"] == "assistant":
        assert_type(message, AssistantMessageData)
    return message["role"]


def event_kind(event: StreamEventData) -> str:
    return event["type"]


request: ChatRequestData = {
    "model": "gpt-4o",
    "messages": [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": [{"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "call_1", "name": "f", "arguments": "{}"}]},
        {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "call_1", "content": "ok"}]},
    ],
    "temperature": 0.5,
}
response: ChatResponseData = {
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": {"unified": "stop"}}]
}
user_part: UserContentPartData = {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}

assert_type(request.get("model"), str | None)
unknown_key: TextPartData = {"type": "text", "text": "hi", "format": "plain"}  # type: ignore[typeddict-unknown-key]  # pyright: ignore[reportAssignmentType]
null_name: ToolUsePartData = {"type": "tool_use", "id": "1", "name": None, "arguments": ""}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]
wrong_role: UserMessageData = {"role": "robot", "content": "hi"}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]
left_out = request["tool_choice"]  # pyright: ignore[reportTypedDictNotRequiredAccess] (mypy does not check it)
