"""Gemini video parts, from the video-understanding guide
(https://ai.google.dev/gemini-api/docs/video-understanding): inline video bytes, a Files
API upload, a YouTube link given with no MIME type, and ``videoMetadata`` clipping
("``start_offset='1250s', end_offset='1570s'``") and frame rate ("``fps=5``"); the
google-genai types are the oracle. Before the canonical video part, each was an opaque
Gemini part that reached no other format."""

from __future__ import annotations

from typing import Any

import pytest
from google.genai import types

import chatcodec
from providers.gemini.gemini_support import assert_valid_request

PROVIDER = "gemini"
MP4 = "AAAAGGZ0eXBtcDQy"
YOUTUBE = "https://www.youtube.com/watch?v=9hE5-98ZeCg"


def _request(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [*parts, {"text": "Summarize this video."}]}]}


READINGS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "inline bytes",
        {"inlineData": {"mimeType": "video/mp4", "data": MP4}},
        {"type": "video", "source": {"type": "base64", "media_type": "video/mp4", "data": MP4}},
    ),
    (
        "Files API upload",
        {
            "fileData": {
                "fileUri": "https://generativelanguage.googleapis.com/v1beta/files/abc",
                "mimeType": "video/mp4",
            }
        },
        {
            "type": "video",
            "source": {  # an upload's URI is its file id (issue 76: only Gemini fetches it)
                "type": "file",
                "file_id": "https://generativelanguage.googleapis.com/v1beta/files/abc",
                "media_type": "video/mp4",
            },
        },
    ),
    (
        "YouTube link with no MIME type",
        {"fileData": {"fileUri": YOUTUBE}},
        {"type": "video", "source": {"type": "url", "url": YOUTUBE}},
    ),
    (
        "clipping interval",
        {"fileData": {"fileUri": YOUTUBE}, "videoMetadata": {"startOffset": "1250s", "endOffset": "1570s"}},
        {"type": "video", "source": {"type": "url", "url": YOUTUBE}, "start_offset": 1250.0, "end_offset": 1570.0},
    ),
    (
        "custom frame rate",
        {"inlineData": {"mimeType": "video/webm", "data": MP4}, "videoMetadata": {"fps": 5}},
        {"type": "video", "source": {"type": "base64", "media_type": "video/webm", "data": MP4}, "fps": 5.0},
    ),
    (
        "fractional offsets",
        {"inlineData": {"mimeType": "video/mp4", "data": MP4}, "videoMetadata": {"startOffset": "1.5s", "fps": 0.5}},
        {
            "type": "video",
            "source": {"type": "base64", "media_type": "video/mp4", "data": MP4},
            "start_offset": 1.5,
            "fps": 0.5,
        },
    ),
]


@pytest.mark.parametrize(("part", "canonical"), [(p, c) for _, p, c in READINGS], ids=[n for n, _, _ in READINGS])
def test_a_video_part_reads_as_a_canonical_video_and_writes_back(part: dict[str, Any], canonical: Any) -> None:
    types.Part.model_validate(part)  # the oracle takes the documented part
    body = _request(part)
    decoded = chatcodec.decode_request(PROVIDER, body)
    assert decoded.model_dump()["messages"][0]["content"][0] == canonical
    assert chatcodec.encode_request(PROVIDER, decoded, on_loss="error") == body


def test_a_clip_spelled_otherwise_stays_in_the_bag_and_goes_back_as_it_came() -> None:
    part = {"inlineData": {"mimeType": "video/mp4", "data": MP4}, "videoMetadata": {"startOffset": "1.50s"}}
    decoded = chatcodec.decode_request(PROVIDER, _request(part))
    video = decoded.messages[0].parts[0]
    assert isinstance(video, chatcodec.VideoPart)
    assert video.start_offset is None
    assert chatcodec.encode_request(PROVIDER, decoded, on_loss="error") == _request(part)


@pytest.mark.parametrize("fps", [10**400, 2**53 + 1], ids=["past-a-double", "not-exact-in-a-double"])
def test_a_frame_rate_no_double_holds_stays_in_the_bag_and_goes_back_as_it_came(fps: int) -> None:
    # fps is a double in the API; JSON's numbers have no size limit (10**400 raised a bare
    # OverflowError, 2**53 + 1 was rounded silently)
    part = {"inlineData": {"mimeType": "video/mp4", "data": MP4}, "videoMetadata": {"fps": fps}}
    decoded = chatcodec.decode_request(PROVIDER, _request(part))
    video = decoded.messages[0].parts[0]
    assert isinstance(video, chatcodec.VideoPart)
    assert video.fps is None
    assert chatcodec.encode_request(PROVIDER, decoded, on_loss="error") == _request(part)


def test_a_canonical_video_is_written_with_its_clip_as_video_metadata() -> None:
    video = chatcodec.VideoPart(
        source=chatcodec.Base64Source(media_type="video/mp4", data=MP4), start_offset=90, end_offset=120.25, fps=2
    )
    request = chatcodec.ChatRequest(model="gemini-2.5-flash", messages=[chatcodec.UserMessage(content=[video])])
    body = chatcodec.encode_request(PROVIDER, request, on_loss="error")
    assert body["contents"][0]["parts"] == [
        {
            "videoMetadata": {"startOffset": "90s", "endOffset": "120.25s", "fps": 2.0},
            "inlineData": {"mimeType": "video/mp4", "data": MP4},
        }
    ]
    assert_valid_request(body)


def test_a_youtube_link_from_elsewhere_goes_without_a_guessed_type() -> None:
    # the guide's YouTube example gives no mime_type; any guess would be a wrong one
    video = chatcodec.VideoPart(source=chatcodec.UrlSource(url=YOUTUBE))
    request = chatcodec.ChatRequest(messages=[chatcodec.UserMessage(content=[video])])
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(PROVIDER, request, on_loss="ignore", losses=losses)
    assert body["contents"][0]["parts"] == [{"fileData": {"fileUri": YOUTUBE}}]
    assert losses == []


def test_a_video_in_a_tool_result_is_reported() -> None:
    # FunctionResponsePart holds inlineData or fileData and no videoMetadata; the guide's
    # multimodal function responses carry images and documents
    video = chatcodec.VideoPart(source=chatcodec.Base64Source(media_type="video/mp4", data=MP4))
    result = chatcodec.ToolResultPart(tool_use_id="c1", name="clip", content=[video])
    call = chatcodec.ToolUsePart(id="c1", name="clip", arguments="{}")
    request = chatcodec.ChatRequest(
        messages=[
            chatcodec.UserMessage(content="go"),
            chatcodec.AssistantMessage(content=[call]),
            chatcodec.ToolMessage(content=[result]),
        ]
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(PROVIDER, request, on_loss="ignore", losses=losses)
    assert "parts" not in body["contents"][2]["parts"][0]["functionResponse"]
    assert [(loss.path, loss.what) for loss in losses if loss.what == "video part"] == [
        ("$.messages[2].content[0].content[0]", "video part")
    ]


@pytest.mark.parametrize(
    ("kind", "media_type"), [("image", "image/png"), ("video", "video/mp4"), ("document", "application/pdf")]
)
def test_media_in_s3_is_reported_not_sent_as_a_file_uri_gemini_cannot_fetch(kind: str, media_type: str) -> None:
    # fileData.fileUri is a Files API URI, a gs:// URI or an http(s) URL
    # (https://ai.google.dev/gemini-api/docs/file-input-methods): Gemini reads no s3://
    part = {"type": kind, "source": {"type": "url", "url": "s3://bucket/key", "media_type": media_type}}
    request = {"messages": [{"role": "user", "content": [part, {"type": "text", "text": "describe"}]}]}
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(request, source="canonical", target=PROVIDER, on_loss="ignore", losses=losses)
    assert body["contents"][0]["parts"] == [{"text": "describe"}]
    assert [(loss.path, loss.kind) for loss in losses] == [("$.messages[0].content[0].source", "content")]


def test_an_image_by_a_files_api_name_is_written_as_file_data_with_no_spurious_type_loss() -> None:
    image = {"type": "image", "source": {"type": "file", "file_id": "files/abc123"}}
    request = {"messages": [{"role": "user", "content": [image]}]}
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(request, source="canonical", target=PROVIDER, on_loss="ignore", losses=losses)
    file_data = body["contents"][0]["parts"][0]["fileData"]
    assert file_data["fileUri"] == "https://generativelanguage.googleapis.com/v1beta/files/abc123"
    assert file_data["mimeType"].startswith("image/")
    assert [loss.what for loss in losses] == ["media type"]  # the guess, reported; not "reads back as document"
