"""Media parts whose writing depends on the OpenAI-compatible server (``server_media.py``),
each from the server's documentation:

- ``video_url`` (vLLM "Video Inputs", https://docs.vllm.ai/en/latest/features/multimodal_inputs.html;
  SGLang, Together, Kimi K2.5+): written for a server that takes it, a ``content`` loss for
  OpenAI, whose SDK has no video part;
- OpenAI's Chat Completions "accepts only PDF files as file content parts ... send its
  contents as a text content part" (https://developers.openai.com/api/docs/guides/file-inputs):
  a ``text/*`` document goes as its text, to OpenAI and to servers with no file part;
- Mistral's ``document_url`` takes a URL (https://docs.mistral.ai/capabilities/document_ai/basic_ocr/);
- DeepSeek's vision model takes images by URL and by Files-API id as ``{type: file, file:
  {file_id}}`` (deepseek-sdk 0.4.0 README, "Vision input: image URLs and uploaded file
  references in user messages");
- Kimi takes an image or video uploaded to Moonshot's Files API as ``ms://<file-id>``:
  "video_url.url is ms://<file-id>, where ms is short for moonshot storage"
  (https://platform.moonshot.ai/docs/guide/use-kimi-vision-model, "Using Uploaded Images or
  Videos");
- OpenAI fetches "a fully qualified URL to an image file" or takes "a Base64-encoded data URL"
  (https://developers.openai.com/api/docs/guides/images-vision): an ``s3://`` location is none.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

import chatcodec
from providers.openai_chat.servers_support import assert_valid_for, convert, rule_losses
from sdk_oracle import assert_matches

MP4 = "AAAAGGZ0eXBtcDQy"
VIDEO_URL = "https://example.com/clip.mp4"


def _video_request(model: str = "Qwen/Qwen2.5-VL-7B-Instruct") -> dict[str, Any]:
    clip = {"type": "video", "source": {"type": "url", "url": VIDEO_URL}}
    inline = {"type": "video", "source": {"type": "base64", "media_type": "video/mp4", "data": MP4}}
    text = {"type": "text", "text": "What happens?"}
    return {"model": model, "messages": [{"role": "user", "content": [text, clip, inline]}]}


VIDEO_PARTS = [
    {"type": "video_url", "video_url": {"url": VIDEO_URL}},
    {"type": "video_url", "video_url": {"url": f"data:video/mp4;base64,{MP4}"}},
]


@pytest.mark.parametrize("server", ["vllm", "sglang", "together"])
def test_a_video_goes_as_video_url_to_a_server_that_takes_it(server: str) -> None:
    body, losses = convert(_video_request(), "canonical", server=server)
    assert body["messages"][0]["content"][1:] == VIDEO_PARTS
    assert losses == []
    assert_valid_for(server, body)


def test_kimi_takes_video_url_from_k2_5_and_drops_it_for_earlier_models_as_a_rule_loss() -> None:
    body, losses = convert(_video_request("kimi-k2.5"), "canonical")
    assert body["messages"][0]["content"][1:] == VIDEO_PARTS
    assert losses == []
    earlier, earlier_losses = convert(_video_request("kimi-k2-0905-preview"), "canonical")
    assert earlier["messages"][0]["content"] == [{"type": "text", "text": "What happens?"}]
    assert [path for path, _ in rule_losses(earlier_losses, "kimi")] == [
        "$.messages[0].content[1]",
        "$.messages[0].content[2]",
    ]


@pytest.mark.parametrize("options", [{}, {"server": "openai"}])
def test_openai_has_no_video_part_so_a_video_is_a_content_loss(options: dict[str, Any]) -> None:
    body, losses = convert(_video_request("gpt-5.1"), "canonical", **options)
    assert body["messages"][0]["content"] == [{"type": "text", "text": "What happens?"}]
    assert [(loss.path, loss.kind) for loss in losses] == [
        ("$.messages[0].content[1]", "content"),
        ("$.messages[0].content[2]", "content"),
    ]
    assert_matches(body, CompletionCreateParamsNonStreaming)


def test_a_video_url_body_read_and_written_back_is_the_same_body() -> None:
    body = {
        "model": "Qwen/Qwen2.5-VL-7B-Instruct",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "What happens?"}, *VIDEO_PARTS]}],
    }
    decoded = chatcodec.decode_request("openai-chat", body)
    assert [part.type for part in decoded.messages[0].parts] == ["text", "video", "video"]
    assert chatcodec.encode_request("openai-chat", decoded, on_loss="error") == body


def test_a_video_clip_is_reported_where_video_url_has_none() -> None:
    request = _video_request()
    request["messages"][0]["content"][1] |= {"start_offset": 10, "end_offset": 20, "fps": 2}
    _, losses = convert(request, "canonical", server="vllm")
    assert [loss.path for loss in losses] == [
        "$.messages[0].content[1].start_offset",
        "$.messages[0].content[1].end_offset",
        "$.messages[0].content[1].fps",
    ]


def _markdown_request(model: str) -> dict[str, Any]:
    data = base64.b64encode(b"# Notes\n\nShip on Friday.").decode()
    document = {"type": "document", "source": {"type": "base64", "media_type": "text/markdown", "data": data}}
    return {"model": model, "messages": [{"role": "user", "content": [document]}]}


def test_a_text_document_goes_to_openai_as_its_text() -> None:
    body, losses = convert(_markdown_request("gpt-5.1"), "canonical")
    assert body["messages"][0]["content"] == [{"type": "text", "text": "# Notes\n\nShip on Friday."}]
    assert [(loss.path, loss.what, loss.kind) for loss in losses] == [
        ("$.messages[0].content[0]", "text/markdown document", "content")
    ]
    assert_matches(body, CompletionCreateParamsNonStreaming)


@pytest.mark.parametrize(("model", "server"), [("kimi-k2.5", "kimi"), ("deepseek-chat", "deepseek")])
def test_a_text_document_goes_as_its_text_to_a_server_with_no_file_part(model: str, server: str) -> None:
    # the one part left: before, the fitting reported the change and sent the file (Kimi: content '')
    body, losses = convert(_markdown_request(model), "canonical")
    assert body["messages"][0]["content"] == [{"type": "text", "text": "# Notes\n\nShip on Friday."}]
    assert rule_losses(losses, server) == [("$.messages[0].content[0]", "text file")]


def test_a_pdf_still_goes_to_openai_as_a_file_part() -> None:
    data = base64.b64encode(b"%PDF-1.7").decode()
    document = {
        "type": "document",
        "filename": "a.pdf",
        "source": {"type": "base64", "media_type": "application/pdf", "data": data},
    }
    body, losses = convert({"model": "gpt-5.1", "messages": [{"role": "user", "content": [document]}]}, "canonical")
    assert body["messages"][0]["content"] == [
        {"type": "file", "file": {"file_data": f"data:application/pdf;base64,{data}", "filename": "a.pdf"}}
    ]
    assert losses == []


def test_a_pdf_by_url_goes_to_mistral_as_document_url() -> None:
    anthropic = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "document", "source": {"type": "url", "url": "https://arxiv.org/pdf/1805.04770"}},
                    {"type": "text", "text": "Summarize it."},
                ],
            }
        ],
    }
    body, losses = convert(anthropic, "anthropic", server="mistral", model="mistral-large-latest")
    assert body["messages"][0]["content"][0] == {
        "type": "document_url",
        "document_url": "https://arxiv.org/pdf/1805.04770",
    }
    assert [loss.what for loss in losses if "content" in loss.path] == []
    unnamed, unnamed_losses = convert(anthropic, "anthropic")
    assert unnamed["messages"][0]["content"] == [{"type": "text", "text": "Summarize it."}]
    assert [loss.what for loss in unnamed_losses if "content" in loss.path] == ["document by URL"]


def test_deepseek_vision_takes_images_by_url_and_by_files_api_id() -> None:
    """DeepSeek's file part holds the Files-API id beside its type: Vercel's ``@ai-sdk/deepseek``
    (vercel/ai ed857f50, ``deepseek-chat-api-types.ts``) types it ``DeepSeekContentPartFile =
    {type: 'file'; file_id: string}`` and its converter writes an image by provider reference so
    (``convert-to-deepseek-chat-messages.ts``), not OpenAI's ``file: {file_id}`` nesting."""
    image_url = {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}
    image_file = {"type": "image", "source": {"type": "file", "file_id": "file-8d2c"}}
    request = {
        "model": "deepseek-v4-flash-vision-exp",
        "messages": [{"role": "user", "content": [image_url, image_file]}],
    }
    body, losses = convert(request, "canonical")
    assert body["messages"][0]["content"] == [
        {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}},
        {"type": "file", "file_id": "file-8d2c"},
    ]
    assert losses == []
    text_model, text_losses = convert(request | {"model": "deepseek-chat"}, "canonical")
    assert text_model["messages"][0]["content"] == ""
    assert {loss.path for loss in text_losses} == {"$.messages[0].content[0]", "$.messages[0].content[1]"}


def _stored_media_request(model: str) -> dict[str, Any]:
    video = {"type": "video", "source": {"type": "file", "file_id": "d3f1vid"}}
    image = {"type": "image", "source": {"type": "file", "file_id": "d3f1img"}}
    text = {"type": "text", "text": "What happens?"}
    return {"model": model, "messages": [{"role": "user", "content": [text, video, image]}]}


KIMI_STORED = [
    {"type": "video_url", "video_url": {"url": "ms://d3f1vid"}},
    {"type": "image_url", "image_url": {"url": "ms://d3f1img"}},
]


@pytest.mark.parametrize("options", [{}, {"server": "kimi"}])
def test_kimi_takes_media_by_files_api_id_as_a_moonshot_storage_url(options: dict[str, Any]) -> None:
    body, losses = convert(_stored_media_request("kimi-k2.5"), "canonical", **options)
    assert body["messages"][0]["content"][1:] == KIMI_STORED
    assert losses == []


def test_a_moonshot_storage_url_reads_as_a_file_id_and_goes_back_as_it_came() -> None:
    body = {
        "model": "kimi-k2.5",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "What happens?"}, *KIMI_STORED]}],
    }
    decoded = chatcodec.decode_request("openai-chat", body)
    assert [part.source.model_dump() for part in decoded.messages[0].parts[1:]] == [  # type: ignore[union-attr]
        {"type": "file", "file_id": "d3f1vid"},
        {"type": "file", "file_id": "d3f1img"},
    ]
    assert chatcodec.encode_request("openai-chat", decoded, on_loss="error") == body
    unnamed = {**body, "model": "some-proxy-model"}  # no server named: the spelling marker writes it back
    assert chatcodec.encode_request("openai-chat", chatcodec.decode_request("openai-chat", unnamed)) == unnamed


def test_media_by_file_id_is_still_a_loss_where_the_server_takes_no_file_url() -> None:
    body, losses = convert(_stored_media_request("gpt-5.1"), "canonical")
    assert body["messages"][0]["content"] == [{"type": "text", "text": "What happens?"}]
    assert [loss.what for loss in losses] == ["video part", "image by file id"]


@pytest.mark.parametrize(("kind", "server"), [("image", None), ("image", "vllm"), ("video", "vllm")])
def test_media_in_s3_is_reported_not_sent_as_a_url_no_server_fetches(kind: str, server: str | None) -> None:
    stored = {"type": kind, "source": {"type": "url", "url": "s3://bucket/key.bin"}}
    request = {"model": "gpt-5.1", "messages": [{"role": "user", "content": [stored, {"type": "text", "text": "x"}]}]}
    body, losses = convert(request, "canonical", **({"server": server} if server else {}))
    assert body["messages"][0]["content"] == [{"type": "text", "text": "x"}]
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[0].content[0].source", f"{kind} in S3")]


@pytest.mark.parametrize(
    ("server", "model", "checked"),
    # the body check reads a server's own part list; Kimi's video_url is K2.5's (model_parts)
    [("vllm", "Qwen/Qwen2.5-VL-7B-Instruct", True), ("kimi", "kimi-k2.5", False)],
)
def test_a_document_holding_a_video_goes_as_video_url_to_a_server_that_takes_it(
    server: str, model: str, checked: bool
) -> None:
    """Issue 61: OpenAI's ``file`` part of an ``.mp4`` reads as a document of type
    ``video/mp4``; vLLM ("Video Inputs") and Kimi K2.5 take video as ``video_url`` and no
    ``file`` part, so it goes as their own part (name and reading back as video reported),
    not dropped."""
    wire = {
        "model": model,
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
    body, losses = convert(wire, "openai-chat", server=server)
    assert body["messages"][0]["content"][1:] == [VIDEO_PARTS[1]]
    assert sorted(loss.path for loss in losses) == [
        "$.messages[0].content[1].filename",
        "$.messages[0].content[1].source",
    ]
    if checked:
        assert_valid_for(server, body)


@pytest.mark.parametrize(("model", "server"), [("Qwen/Qwen2.5-VL-7B-Instruct", "vllm"), ("kimi-k2.5", "kimi")])
def test_a_pdf_to_vllm_or_kimi_stays_a_rule_loss(model: str, server: str) -> None:
    """Decided (docs/servers.md): vLLM's chat parts are text, images, audio and video
    ("Multimodal Inputs", https://docs.vllm.ai/en/latest/features/multimodal_inputs.html), no
    file; Kimi reads a PDF only through its Files API, whose extracted text the caller puts
    in a system message (https://platform.moonshot.ai/docs/api/files, purpose "file-extract"):
    an upload and an extraction no body can stand for. The PDF is not sent, and said so."""
    data = base64.b64encode(b"%PDF-1.7").decode()
    document = {
        "type": "document",
        "filename": "a.pdf",
        "source": {"type": "base64", "media_type": "application/pdf", "data": data},
    }
    text = {"type": "text", "text": "Sum it up."}
    request = {"model": model, "messages": [{"role": "user", "content": [text, document]}]}
    body, losses = convert(request, "canonical", server=server)
    assert body["messages"][0]["content"] == [text]
    assert rule_losses(losses, server) == [("$.messages[0].content[1]", "file part")]


_DEEPSEEK_FILE = {"type": "file", "file_id": "file-api-0a1b2c3d"}
"""DeepSeek's file part by Files-API id (https://api-docs.deepseek.com/guides/files_api: the
upload's id is ``file-api-...``; Vercel's ``DeepSeekContentPartFile`` spells the part)."""


@pytest.mark.parametrize("model", ["deepseek-flash", "deepseek-v4-flash-vision-exp"])
def test_deepseeks_own_file_part_by_id_is_read_written_back_and_taken_strictly(model: str) -> None:
    """A body in DeepSeek's spelling was refused by the tolerant reader ("file: Field
    required"); it is read as a document by file id, written back as it came (with the server
    named or not), and strict reading for DeepSeek takes it, as no other server's does.
    ``deepseek-flash`` is the vision model since 2026-09-10, the old name its alias
    (https://api-docs.deepseek.com/guides/vision)."""
    body = {
        "model": model,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "What?"}, _DEEPSEEK_FILE]}],
    }
    read = chatcodec.decode_request("openai-chat", body)
    part = read.messages[0].content[1]
    assert isinstance(part, chatcodec.DocumentPart)
    assert part.source == chatcodec.FileSource(file_id="file-api-0a1b2c3d")
    for options in ({}, {"server": "deepseek"}):
        written, losses = convert(body, "openai-chat", **options)
        assert written["messages"][0]["content"][1] == _DEEPSEEK_FILE
        assert losses == []
    chatcodec.decode_request("openai-chat", body, strict=True, options={"server": "deepseek"})
    with pytest.raises(chatcodec.ValidationError):
        chatcodec.decode_request("openai-chat", body, strict=True, options={"server": "groq"})


def test_an_image_by_files_api_id_goes_to_deepseek_flash_in_its_spelling_and_to_openai_nested() -> None:
    image = {"type": "image", "source": {"type": "file", "file_id": "file-api-0a1b2c3d"}}
    request = {"model": "deepseek-flash", "messages": [{"role": "user", "content": [image]}]}
    body, losses = convert(request, "canonical", server="deepseek")
    assert body["messages"][0]["content"] == [_DEEPSEEK_FILE]
    assert losses == []
    document = {"type": "document", "source": {"type": "file", "file_id": "file-abc"}}
    openai, _ = convert({"model": "gpt-5", "messages": [{"role": "user", "content": [document]}]}, "canonical")
    assert openai["messages"][0]["content"] == [{"type": "file", "file": {"file_id": "file-abc"}}]
