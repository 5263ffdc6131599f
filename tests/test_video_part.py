"""The canonical video part: the model and its JSON Schema agree on it, and a format with no
video part reports it as a ``content`` loss instead of sending it or dropping it silently
(Anthropic's content blocks, the Responses API's input content, Ollama's message and
OpenAI's own Chat Completions have none: their SDK types and API references list
text, image, audio and file inputs only)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

import chatcodec

MP4 = "AAAAGGZ0eXBtcDQy"

VALID: list[dict[str, Any]] = [
    {"type": "video", "source": {"type": "url", "url": "https://www.youtube.com/watch?v=9hE5-98ZeCg"}},
    {"type": "video", "source": {"type": "base64", "media_type": "video/mp4", "data": MP4}, "fps": 0.5},
    {"type": "video", "source": {"type": "file", "file_id": "file-1"}, "start_offset": 0, "end_offset": 12.5},
    {"type": "video", "source": {"type": "url", "url": "s3://b/k.mp4"}, "cache_control": {"type": "ephemeral"}},
]
INVALID: list[dict[str, Any]] = [
    {"type": "video"},
    {"type": "video", "source": {"type": "text", "text": "a transcript is a document"}},
    {"type": "video", "source": {"type": "file", "file_id": "f"}, "start_offset": -1},
    {"type": "video", "source": {"type": "file", "file_id": "f"}, "fps": 0},
    {"type": "video", "source": {"type": "file", "file_id": "f"}, "fps": "5"},
    {"type": "video", "source": {"type": "file", "file_id": "f"}, "duration": 3},
]


@pytest.mark.parametrize("part", VALID)
def test_the_model_and_the_schema_accept_a_video(part: dict[str, Any]) -> None:
    messages = [{"role": "user", "content": [part]}]
    validated = chatcodec.validate_messages(messages)
    assert chatcodec.dump_messages(validated) == [{"role": "user", "content": [_as_dumped(part)]}]
    jsonschema.Draft202012Validator(chatcodec.json_schema("messages")).validate(messages)


def _as_dumped(part: dict[str, Any]) -> dict[str, Any]:
    return {key: float(value) if key in ("start_offset", "end_offset", "fps") else value for key, value in part.items()}


@pytest.mark.parametrize("part", INVALID)
def test_the_model_and_the_schema_refuse_a_video_they_cannot_read(part: dict[str, Any]) -> None:
    messages = [{"role": "user", "content": [part]}]
    with pytest.raises(chatcodec.ValidationError):
        chatcodec.validate_messages(messages)
    assert not jsonschema.Draft202012Validator(chatcodec.json_schema("messages")).is_valid(messages)


def test_a_video_may_be_a_tool_result_but_not_an_assistant_part() -> None:
    video = {"type": "video", "source": {"type": "base64", "media_type": "video/mp4", "data": MP4}}
    result = {"type": "tool_result", "tool_use_id": "c1", "content": [video]}
    chatcodec.validate_messages([{"role": "tool", "content": [result]}])
    with pytest.raises(chatcodec.ValidationError):
        chatcodec.validate_messages([{"role": "assistant", "content": [video]}])


@pytest.mark.parametrize("target", ["anthropic", "openai-responses", "ollama", "openai-chat"])
def test_a_format_without_video_reports_it_as_a_content_loss(target: str) -> None:
    video = {"type": "video", "source": {"type": "url", "url": "https://example.com/a.mp4", "media_type": "video/mp4"}}
    call = {"type": "tool_use", "id": "c1", "name": "record", "arguments": "{}"}
    result = {"type": "tool_result", "tool_use_id": "c1", "name": "record", "content": [video]}
    request = {
        "model": "m",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "What happens?"}, video]},
            {"role": "assistant", "content": [call]},
            {"role": "tool", "content": [result]},
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(request, source="canonical", target=target, on_loss="ignore", losses=losses)
    assert "video" not in str(body)
    found = [(loss.path, loss.kind) for loss in losses if "video" in loss.what]
    assert found == [("$.messages[0].content[1]", "content"), ("$.messages[2].content[0].content[0]", "content")]
