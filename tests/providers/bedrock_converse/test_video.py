"""Bedrock Converse ``video`` blocks, from botocore's ``bedrock-runtime`` model (the oracle):
``VideoBlock`` is a ``format`` of ``VideoFormat`` (mkv, mov, mp4, webm, flv, mpeg, mpg,
wmv, three_gp) and a ``VideoSource`` of ``bytes`` or an ``s3Location`` (``uri`` and, for
another account's bucket, ``bucketOwner``), in a user turn and in a tool result
(``ToolResultContentBlock.video``). Before the canonical video part a video block was
opaque and reached no other format; a canonical or Gemini video was dropped here."""

from __future__ import annotations

from typing import Any

import botocore.session
import pytest

import chatcodec
from providers.bedrock_converse.bedrock_support import assert_valid_request

PROVIDER = "bedrock-converse"
MP4 = "AAAAGGZ0eXBtcDQy"
_SHAPES = botocore.session.get_session().get_service_model("bedrock-runtime")
FORMATS: list[str] = list(_SHAPES.shape_for("VideoFormat").enum)


def _body(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": [{"text": "What happens?"}, *blocks]}]}


@pytest.mark.parametrize("video_format", FORMATS)
def test_every_video_format_reads_as_a_video_and_writes_back(video_format: str) -> None:
    body = _body({"video": {"format": video_format, "source": {"bytes": MP4}}})
    assert_valid_request(body)
    decoded = chatcodec.decode_request(PROVIDER, body)
    video = decoded.messages[0].parts[1]
    assert isinstance(video, chatcodec.VideoPart)
    assert isinstance(video.source, chatcodec.Base64Source)
    assert video.source.media_type.startswith("video/")
    assert chatcodec.encode_request(PROVIDER, decoded, on_loss="error") == body


def test_a_video_in_another_accounts_bucket_keeps_its_owner() -> None:
    location = {"uri": "s3://media-bucket/clips/launch.mov", "bucketOwner": "111122223333"}
    body = _body({"video": {"format": "mov", "source": {"s3Location": location}}})
    assert_valid_request(body)
    decoded = chatcodec.decode_request(PROVIDER, body)
    video = decoded.messages[0].parts[1]
    assert isinstance(video, chatcodec.VideoPart)
    assert video.source == chatcodec.UrlSource(url=location["uri"], media_type="video/quicktime")
    assert chatcodec.encode_request(PROVIDER, decoded, on_loss="error") == body


def test_a_video_in_a_tool_result_reads_and_writes_back() -> None:
    video = {"video": {"format": "webm", "source": {"s3Location": {"uri": "s3://b/k.webm"}}}}
    body = {
        "messages": [
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "record", "input": {}}}]},
            {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [{"text": "done"}, video]}}]},
        ]
    }
    assert_valid_request(body)
    decoded = chatcodec.decode_request(PROVIDER, body)
    result = decoded.messages[1].parts[0]
    assert isinstance(result, chatcodec.ToolResultPart)
    assert isinstance(result.content, list)
    assert [part.type for part in result.content] == ["text", "video"]
    assert chatcodec.encode_request(PROVIDER, decoded, on_loss="error") == body


def test_a_gemini_video_reaches_bedrock_with_its_clip_reported() -> None:
    gemini = {
        "contents": [
            {
                "role": "user",
                "parts": [
                    {"inlineData": {"mimeType": "video/mp4", "data": MP4}, "videoMetadata": {"startOffset": "10s"}},
                    {"inlineData": {"mimeType": "video/mov", "data": MP4}},
                    {"text": "What happens?"},
                ],
            }
        ]
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(gemini, source="gemini", target=PROVIDER, on_loss="ignore", losses=losses)
    assert body["messages"][0]["content"] == [
        {"video": {"format": "mp4", "source": {"bytes": MP4}}},
        {"video": {"format": "mov", "source": {"bytes": MP4}}},
        {"text": "What happens?"},
    ]
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.contents[0].parts[0].start_offset", "video start_offset")  # the Gemini input's place
    ]
    assert_valid_request(body)


@pytest.mark.parametrize(
    ("source", "what"),
    [
        ({"type": "url", "url": "https://example.com/a.mp4", "media_type": "video/mp4"}, "video by URL"),
        ({"type": "file", "file_id": "file-1"}, "video by file id"),
        ({"type": "base64", "media_type": "video/x-msvideo", "data": MP4}, "video of type 'video/x-msvideo'"),
    ],
)
def test_a_video_bedrock_cannot_take_is_reported_not_sent(source: dict[str, Any], what: str) -> None:
    request = {"messages": [{"role": "user", "content": [{"type": "video", "source": source}]}]}
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(request, source="canonical", target=PROVIDER, on_loss="ignore", losses=losses)
    assert not any("video" in block for message in body["messages"] for block in message["content"])
    assert [loss.what for loss in losses if loss.what.startswith("video")] == [what]


def test_a_document_holding_a_video_is_written_as_a_video_block() -> None:
    """Issue 61: OpenAI's ``file`` part of an ``.mp4`` reads as a document of type
    ``video/mp4``; botocore's ``DocumentFormat`` has no video format, and ``VideoBlock`` is
    Bedrock's one block for video, so it goes there (its name reported), not dropped."""
    wire = {
        "model": "us.amazon.nova-pro-v1:0",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What happens?"},
                    {"type": "file", "file": {"file_data": f"data:video/mp4;base64,{MP4}", "filename": "a.mp4"}},
                ],
            }
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(wire, source="openai-chat", target=PROVIDER, on_loss="ignore", losses=losses)
    assert body["messages"][0]["content"] == [
        {"text": "What happens?"},
        {"video": {"format": "mp4", "source": {"bytes": MP4}}},
    ]
    assert_valid_request({"messages": body["messages"]})
    assert sorted(loss.path for loss in losses) == [
        "$.messages[0].content[1].filename",
        "$.messages[0].content[1].source",
    ]
