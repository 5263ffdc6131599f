"""A document given to Gemini by Files-API id (issue 76): Gemini reads an upload through
``fileData.fileUri``, the upload's ``uri`` (https://ai.google.dev/gemini-api/docs/files: a
``File`` has ``name`` ``files/abc-123`` and ``uri``, and ``types.Part.from_uri(file_uri=...,
mime_type=...)`` is how google-genai refers to it). Only Gemini, with the caller's key,
can fetch that URI, so it is a file id, not a URL: read as one, written back as it came,
and reported (not sent) by a provider whose ``file_id`` takes its own tokens, rather than
given to it as a URL it cannot download or an id it refuses."""

from __future__ import annotations

from typing import Any

import pytest
from google.genai import types

import chatcodec
from chatcodec import Loss

URI = "https://generativelanguage.googleapis.com/v1beta/files/abc-123"
"""An upload's ``uri`` as the Files API gives it (``File.uri``)."""


def _gemini_request() -> dict[str, Any]:
    part = types.Part.from_uri(file_uri=URI, mime_type="application/pdf")
    wire = part.model_dump(mode="json", by_alias=True, exclude_none=True)
    assert wire == {"fileData": {"fileUri": URI, "mimeType": "application/pdf"}}
    return {"contents": [{"role": "user", "parts": [{"text": "Summarize the report."}, wire]}]}


def test_a_files_api_document_is_read_as_a_file_id_and_written_back_as_it_came() -> None:
    body = _gemini_request()
    part = chatcodec.decode_request("gemini", body).messages[0].content[1]
    assert isinstance(part, chatcodec.DocumentPart)
    assert part.source == chatcodec.FileSource(file_id=URI, media_type="application/pdf")
    losses: list[Loss] = []
    again = chatcodec.convert_request(body, source="gemini", target="gemini", on_loss="error", losses=losses)
    assert again["contents"] == body["contents"]
    assert losses == []


def test_a_url_that_is_no_files_api_upload_stays_a_url() -> None:
    body = _gemini_request()
    body["contents"][0]["parts"][1]["fileData"]["fileUri"] = "https://example.com/report.pdf"
    part = chatcodec.decode_request("gemini", body).messages[0].content[1]
    assert isinstance(part, chatcodec.DocumentPart)
    assert part.source == chatcodec.UrlSource(url="https://example.com/report.pdf", media_type="application/pdf")


@pytest.mark.parametrize(
    ("target", "options"),
    [("anthropic", {"max_tokens": 1024}), ("openai-chat", {}), ("openai-responses", {})],
)
def test_a_files_api_document_is_reported_not_sent_to_a_provider_with_its_own_file_ids(
    target: str, options: dict[str, Any]
) -> None:
    """Anthropic's ``file_id`` takes ``file_011...`` tokens from its Files API, OpenAI's
    ``file-abc123``: neither fetches a Gemini upload, as a URL (it needs Gemini's key) or as an
    id. Before, Anthropic got a URL document source and Responses a ``file_url`` for it."""
    losses: list[Loss] = []
    body = chatcodec.convert_request(
        _gemini_request(), source="gemini", target=target, options=options or None, on_loss="ignore", losses=losses
    )
    assert URI not in repr(body)
    assert [(loss.path, loss.what) for loss in losses if loss.what == "file id"] == [
        ("$.contents[0].parts[1].source.file_id", "file id")
    ]


@pytest.mark.parametrize("file_id", ["files/abc-123", URI])
@pytest.mark.parametrize("target", ["anthropic", "openai-chat", "openai-responses"])
def test_a_canonical_file_id_naming_a_gemini_upload_is_not_sent_as_another_providers_id(
    file_id: str, target: str
) -> None:
    """An id a framework history keeps for a Gemini upload (a resource name ``files/...`` or its
    URI) goes to Gemini as ``fileData`` and is reported for the others; their own ids pass."""

    def request(identifier: str) -> dict[str, Any]:
        document = {"type": "document", "source": {"type": "file", "file_id": identifier}}
        image = {"type": "image", "source": {"type": "file", "file_id": identifier}}
        return {"model": "m", "max_tokens": 64, "messages": [{"role": "user", "content": [document, image]}]}

    losses: list[Loss] = []
    chatcodec.convert_request(request(file_id), source="canonical", target=target, on_loss="ignore", losses=losses)
    assert [loss.path for loss in losses if loss.what == "file id"] == [
        "$.messages[0].content[0].source.file_id",
        "$.messages[0].content[1].source.file_id",
    ]
    own: list[Loss] = []
    chatcodec.convert_request(request("file-abc123"), source="canonical", target=target, on_loss="ignore", losses=own)
    assert [loss for loss in own if loss.what == "file id"] == []
    gemini = chatcodec.convert_request(request(file_id), source="canonical", target="gemini", on_loss="ignore")
    assert gemini["contents"][0]["parts"][0]["fileData"]["fileUri"] == URI


@pytest.mark.parametrize(
    ("file", "file_data"),
    [
        # litellm's own cases (its Gemini docs and its Vertex tests): a file by id with its type as ``format``
        (
            {"file_id": "gs://bucket/no-extension", "format": "application/pdf"},
            ("gs://bucket/no-extension", "application/pdf"),
        ),
        ({"file_id": "gs://my-bucket/video.mp4", "format": "video/mp4"}, ("gs://my-bucket/video.mp4", "video/mp4")),
        ({"file_id": "gs://bucket/report.pdf"}, ("gs://bucket/report.pdf", "application/pdf")),  # guessed, reported
    ],
)
def test_a_file_by_id_with_litellms_format_is_file_data_of_that_type(
    file: dict[str, str], file_data: tuple[str, str]
) -> None:
    """Issue 101: OpenAI Chat's file part by id, its media type in litellm's ``format``
    (https://docs.litellm.ai/docs/providers/gemini, "gs:// file"), is Gemini's ``fileData`` of that
    type, nothing reported (``format`` was kept as an unknown field, and the type guessed); written
    back to OpenAI Chat as it came."""
    body = {"model": "m", "messages": [{"role": "user", "content": [{"type": "file", "file": file}]}]}
    losses: list[Loss] = []
    written = chatcodec.convert_request(body, source="openai-chat", target="gemini", on_loss="ignore", losses=losses)
    uri, mime_type = file_data
    (part,) = written["contents"][0]["parts"]
    assert part == {"fileData": {"fileUri": uri, "mimeType": mime_type}}
    types.Part.model_validate(part)
    guessed = [loss.path for loss in losses if "guessed" in loss.why]
    assert guessed == ([] if "format" in file else ["$.messages[0].content[0].source.media_type"])
    assert not [loss for loss in losses if "guessed" not in loss.why and "reads back" not in loss.why]
    own = {
        "model": "m",
        "messages": [{"role": "user", "content": [{"type": "file", "file": {**file, "file_id": "file-abc"}}]}],
    }
    assert chatcodec.convert_request(own, source="openai-chat", target="openai-chat", on_loss="error") == own
