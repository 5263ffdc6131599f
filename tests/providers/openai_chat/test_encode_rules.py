"""OpenAI Chat's rules on encode and the silent changes it made, each rule a named test
(file names, empty arguments, messages left empty, ``response_format``, media moved out of
tool results)."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

import chatcodec
from providers.openai_chat.openai_chat_support import assert_request_matches_sdk, encode_request

PDF = {"type": "base64", "media_type": "application/pdf", "data": base64.b64encode(b"%PDF-1.4").decode()}


def _request(messages: list[Any], **fields: Any) -> chatcodec.ChatRequest:
    return chatcodec.validate_model(chatcodec.ChatRequest, {"model": "gpt-4o", "messages": messages, **fields})


def _paths(losses: list[chatcodec.Loss]) -> list[str]:
    return [loss.path for loss in losses]


def test_anthropic_title_becomes_the_openai_filename() -> None:
    document = {"type": "document", "source": PDF, "title": "report.pdf"}
    body, losses = encode_request(_request([{"role": "user", "content": [document]}]))
    assert body["messages"][0]["content"][0]["file"]["filename"] == "report.pdf"
    assert losses == []
    assert_request_matches_sdk(body)


def test_file_data_without_any_name_gets_one_and_says_so() -> None:
    """OpenAI rejects ``file_data`` without ``filename``."""
    body, losses = encode_request(_request([{"role": "user", "content": [{"type": "document", "source": PDF}]}]))
    filename = body["messages"][0]["content"][0]["file"]["filename"]
    assert filename.endswith(".pdf")
    assert _paths(losses) == ["$.messages[0].content[0].filename"]
    assert losses[0].why == f"OpenAI requires one with file data; none was given, sent {filename!r}"


def test_a_title_beside_a_different_filename_is_reported() -> None:
    document = {"type": "document", "source": PDF, "title": "Q3 report", "filename": "q3.pdf"}
    body, losses = encode_request(_request([{"role": "user", "content": [document]}]))
    assert body["messages"][0]["content"][0]["file"]["filename"] == "q3.pdf"
    assert _paths(losses) == ["$.messages[0].content[0].title"]
    assert losses[0].why == "OpenAI file parts have one file name, kept"


def test_tool_call_without_arguments_is_sent_as_an_empty_object() -> None:
    call = {"type": "tool_use", "id": "call_1", "name": "now", "arguments": ""}
    request = _request(
        [
            {"role": "user", "content": "time?"},
            {"role": "assistant", "content": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": "noon"},
        ]
    )
    body, losses = encode_request(request)
    assert body["messages"][1]["tool_calls"][0]["function"]["arguments"] == "{}"
    assert losses == []


def test_message_whose_only_content_cannot_be_carried_is_not_sent_empty() -> None:
    audio = {"type": "audio", "source": {"type": "url", "url": "https://example.com/a.mp3", "media_type": "audio/mpeg"}}
    request = _request([{"role": "user", "content": [audio]}, {"role": "user", "content": "what did I say?"}])
    body, losses = encode_request(request)
    assert all(message["content"] != [] for message in body["messages"])
    assert body["messages"] == [{"role": "user", "content": "what did I say?"}]
    assert "$.messages[0]" in _paths(losses)
    assert_request_matches_sdk(body)


def test_assistant_message_with_nothing_openai_can_carry_is_not_sent_empty() -> None:
    image = {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}
    request = _request(
        [{"role": "user", "content": "q"}, {"role": "assistant", "content": [image]}, {"role": "user", "content": "?"}]
    )
    body, losses = encode_request(request)
    assert [message["role"] for message in body["messages"]] == ["user", "user"]
    assert _paths(losses) == ["$.messages[1].content[0]", "$.messages[1]"]
    assert_request_matches_sdk(body)


def test_a_message_that_was_empty_stays_as_it_was() -> None:
    """``content: []`` from the source is the source's choice: a same-provider round trip keeps it."""
    wire = {"model": "gpt-4o", "messages": [{"role": "user", "content": []}]}
    body, losses = encode_request(chatcodec.decode_request("openai-chat", wire))
    assert body == wire
    assert losses == []


def test_json_schema_beside_json_object_is_kept() -> None:
    schema = {"name": "answer", "schema": {"type": "object"}}
    wire = {"model": "gpt-4o", "messages": [{"role": "user", "content": "q"}]}
    wire["response_format"] = {"type": "json_object", "json_schema": schema}
    body, losses = encode_request(chatcodec.decode_request("openai-chat", wire))
    assert body == wire
    assert losses == []


def test_openai_round_trip_reports_an_image_moved_out_of_a_tool_result() -> None:
    image = {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}
    result = {"type": "tool_result", "tool_use_id": "call_1", "content": [{"type": "text", "text": "see"}, image]}
    request = _request(
        [
            {"role": "user", "content": "draw"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "call_1", "name": "draw", "arguments": "{}"}]},
            {"role": "tool", "content": [result]},
        ]
    )
    body, losses = encode_request(request)
    assert body["messages"][-1]["role"] == "user"
    assert _paths(losses) == ["$.messages[2].content[0].content[1]"]
    assert_request_matches_sdk(body)


def test_a_tool_result_left_with_no_text_is_not_sent_as_an_empty_list() -> None:
    image = {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}
    request = _request(
        [
            {"role": "user", "content": "draw"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "call_1", "name": "draw", "arguments": "{}"}]},
            {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "call_1", "content": [image]}]},
        ]
    )
    body, _ = encode_request(request)
    assert body["messages"][2]["content"] != []
    assert_request_matches_sdk(body)


def _gemini_audio(mime_type: str) -> dict[str, Any]:
    return {"inlineData": {"mimeType": mime_type, "data": "AAAA"}}


def test_input_audio_of_a_format_beyond_wav_and_mp3_is_a_loss_not_a_refused_part() -> None:
    gemini = {"contents": [{"role": "user", "parts": [_gemini_audio("audio/ogg"), _gemini_audio("audio/wav")]}]}
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        gemini, source="gemini", target="openai-chat", losses=losses, on_loss="ignore", options={"model": "gpt-4o"}
    )
    assert_request_matches_sdk(body)
    assert body["messages"][0]["content"] == [{"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}}]
    assert [(loss.path, loss.what) for loss in losses] == [("$.contents[0].parts[0]", "audio of type audio/ogg")]


def test_input_audio_read_with_a_format_beyond_wav_and_mp3_is_a_loss_on_the_way_back_too() -> None:
    part = {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "flac"}}
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": [part, {"type": "text", "text": "q"}]}]}
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(
        body, source="openai-chat", target="openai-chat", losses=losses, on_loss="ignore"
    )
    assert converted["messages"][0]["content"] == [{"type": "text", "text": "q"}]
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[0].content[0]", "audio of type audio/flac")]


@pytest.mark.parametrize("data", ["iVBOR\ud800w0KGgo=", "iVBOR\u00e9w0KGgo="])
@pytest.mark.parametrize("kind", ["image", "document"])
def test_media_data_that_is_not_ascii_is_not_sent_as_a_data_url(data: str, kind: str) -> None:
    """An ``image_url`` (or ``file.file_data``) is "a base64 encoded image" in a ``data:``
    URL (API reference, image content part): text outside ASCII is in no base64 alphabet,
    and a lone surrogate cannot even be written into a UTF-8 body. The part is not sent,
    reported; base64 data still is."""
    media_type = "image/png" if kind == "image" else "application/pdf"
    part = {"type": kind, "source": {"type": "base64", "media_type": media_type, "data": data}}
    request = {"model": "gpt-4o", "messages": [{"role": "user", "content": [{"type": "text", "text": "q"}, part]}]}
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("openai-chat", request, on_loss="ignore", losses=losses)
    assert body["messages"][0]["content"] == [{"type": "text", "text": "q"}]
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[0].content[1].source.data", "media data")]
    json.dumps(body).encode()  # writable
    part["source"]["data"] = "aGk="  # type: ignore[index]
    body = chatcodec.encode_request("openai-chat", request, on_loss="ignore")
    assert len(body["messages"][0]["content"]) == 2


@pytest.mark.parametrize("data", ["not base64!", "aGk=\n"])
@pytest.mark.parametrize("kind", ["image", "document"])
def test_ascii_media_data_is_sent_as_given_in_its_data_url(data: str, kind: str) -> None:
    """ASCII data is the caller's text, sent unchanged in the data URL with no loss (its
    alphabet unproved: ``_compat.fits_a_data_url``); OpenAI's 400 names a bad payload."""
    media_type = "image/png" if kind == "image" else "application/pdf"
    part: dict[str, object] = {"type": kind, "source": {"type": "base64", "media_type": media_type, "data": data}}
    if kind == "document":
        part["filename"] = "doc.pdf"  # OpenAI requires one with file data
    request = {"model": "gpt-4o", "messages": [{"role": "user", "content": [part]}]}
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("openai-chat", request, losses=losses)
    written = body["messages"][0]["content"][0]
    url = written["image_url"]["url"] if kind == "image" else written["file"]["file_data"]
    assert url == f"data:{media_type};base64,{data}"
    assert losses == []
