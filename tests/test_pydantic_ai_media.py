"""pydantic-ai's bytes and generated files against pydantic-ai itself (pydantic-ai-slim 2.68.0
is the oracle: ``ModelMessagesTypeAdapter`` dumps and loads every history here).

``BinaryContent.data`` is dumped as pydantic's JSON base64, the URL-safe alphabet
(``ser_json_bytes="base64"`` in ``pydantic_ai.messages``); data URLs, Anthropic's
``source.data`` and AI SDK files take the standard one. A ``FilePart``
(https://ai.pydantic.dev/api/messages/#pydantic_ai.messages.FilePart) is what a model generated.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from pydantic_ai.messages import (
    BinaryContent,
    FilePart,
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UploadedFile,
    UserPromptPart,
)

import chatcodec

RAW = bytes([0x89, 0x50, 0x4E, 0x47, 0xFB, 0xFF, 0xFE, 0x3E, 0xFA])
"""Bytes whose base64 holds ``/`` in the standard alphabet (``_`` in the URL-safe one)."""


def _convert(body: Any, source: str, target: str) -> tuple[Any, list[str]]:
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(
        body, source=source, target=target, on_loss="ignore", losses=losses, options={"skip_rules": "*"}
    )
    return written, [str(loss) for loss in losses]


def _stored(history: list[ModelMessage]) -> list[dict[str, Any]]:
    dumped: list[dict[str, Any]] = ModelMessagesTypeAdapter.dump_python(history, mode="json")
    return dumped


def _user_bytes(history: list[ModelMessage]) -> list[bytes]:
    return [
        item.data
        for message in history
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, UserPromptPart) and not isinstance(part.content, str)
        for item in part.content
        if isinstance(item, BinaryContent)
    ]


def test_pydantic_ai_stores_bytes_url_safe() -> None:
    """The premise, from pydantic-ai itself: the stored text is URL-safe, not what a data URL takes."""
    stored = _stored([ModelRequest(parts=[UserPromptPart([BinaryContent(RAW, media_type="image/png")])])])
    assert stored[0]["parts"][0]["content"][0]["data"] == base64.urlsafe_b64encode(RAW).decode() == "iVBOR_v__j76"


@pytest.mark.parametrize("wire", ["openai-chat", "anthropic", "ai-sdk-model", "ai-sdk-ui", "gemini"])
def test_stored_bytes_are_sent_in_the_standard_alphabet_and_come_back_equal(wire: str) -> None:
    history: list[ModelMessage] = [
        ModelRequest(
            parts=[
                UserPromptPart(
                    [
                        "look",
                        BinaryContent(RAW, media_type="image/png"),
                        BinaryContent(RAW[::-1], media_type="application/pdf"),
                    ]
                )
            ]
        )
    ]
    stored = _stored(history)
    sent, _ = _convert({"messages": stored}, "pydantic-ai", wire)
    text = str(sent)
    assert base64.b64encode(RAW).decode() in text  # "iVBOR/v//j76": what a data URL and source.data take
    assert "iVBOR_v__j76" not in text
    back, _ = _convert(sent, wire, "pydantic-ai")
    assert _user_bytes(ModelMessagesTypeAdapter.validate_python(back["messages"])) == [RAW, RAW[::-1]]
    assert _user_bytes(ModelMessagesTypeAdapter.validate_json(json.dumps(back["messages"]))) == [RAW, RAW[::-1]]
    assert back["messages"][0]["parts"][0]["content"][1]["data"] == "iVBOR_v__j76"  # as dump_json writes it


@pytest.mark.parametrize("wire", ["anthropic", "ai-sdk-model"])
def test_bytes_in_a_tool_return_are_sent_in_the_standard_alphabet_too(wire: str) -> None:
    history: list[ModelMessage] = [
        ModelResponse(parts=[ToolCallPart("shot", {}, tool_call_id="c1")]),
        ModelRequest(
            parts=[ToolReturnPart("shot", ["the page", BinaryContent(RAW, media_type="image/png")], tool_call_id="c1")]
        ),
    ]
    sent, _ = _convert({"messages": _stored(history)}, "pydantic-ai", wire)
    assert base64.b64encode(RAW).decode() in str(sent)
    back, _ = _convert(sent, wire, "pydantic-ai")
    (returned,) = ModelMessagesTypeAdapter.validate_python(back["messages"])[1].parts
    assert isinstance(returned, ToolReturnPart)
    assert isinstance(returned.content, list)
    assert [item.data for item in returned.content if isinstance(item, BinaryContent)] == [RAW]


def test_the_same_format_round_trip_keeps_each_spelling_of_the_bytes() -> None:
    """URL-safe and padded (what pydantic-ai writes) comes back as it was; so does the standard
    alphabet and text without padding, which pydantic-ai also loads."""
    stored = _stored([ModelRequest(parts=[UserPromptPart([BinaryContent(RAW, media_type="image/png")])])])
    item = stored[0]["parts"][0]["content"][0]
    for spelled in ("iVBOR_v__j76", "iVBOR/v//j76", base64.urlsafe_b64encode(RAW[:-1]).decode().rstrip("=")):
        item["data"] = spelled
        written, losses = _convert({"messages": stored}, "pydantic-ai", "pydantic-ai")
        assert (written, losses) == ({"messages": stored}, [])
        assert len(_user_bytes(ModelMessagesTypeAdapter.validate_python(written["messages"]))) == 1


def test_bytes_from_another_format_are_written_as_pydantic_ai_writes_them() -> None:
    """Anthropic's standard base64 is stored URL-safe, as ``dump_python`` would have, and loads
    as the same bytes."""
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBOR/v//j76"}}
                ],
            }
        ],
    }
    written, _ = _convert(body, "anthropic", "pydantic-ai")
    loaded = ModelMessagesTypeAdapter.validate_python(written["messages"])
    assert _user_bytes(loaded) == [RAW]
    assert written["messages"][0]["parts"][0]["content"][0]["data"] == "iVBOR_v__j76"


def _generated() -> list[ModelMessage]:
    return [
        ModelRequest(parts=[UserPromptPart("Draw a cat.")]),
        ModelResponse(
            parts=[
                TextPart("Here it is."),
                FilePart(BinaryContent(RAW, media_type="image/png"), provider_name="google-gla"),
                FilePart(BinaryContent(b"ID3", media_type="audio/mpeg")),
            ],
            model_name="gemini-2.5-flash-image",
        ),
    ]


def _files(history: list[ModelMessage]) -> list[tuple[str, bytes]]:
    return [
        (part.content.media_type, part.content.data)
        for message in history
        if isinstance(message, ModelResponse)
        for part in message.parts
        if isinstance(part, FilePart)
    ]


def test_a_generated_file_round_trips_exactly() -> None:
    stored = _stored(_generated())
    assert _convert({"messages": stored}, "pydantic-ai", "pydantic-ai") == ({"messages": stored}, [])


def test_a_generated_image_goes_to_gemini_and_back_as_a_file_part() -> None:
    """Gemini answers an image as ``inlineData`` in the model turn; pydantic-ai keeps it as a
    ``FilePart``, which chatcodec read and wrote as the assistant's image part (it was dropped
    before, unreported)."""
    stored = _stored(_generated())
    sent, losses = _convert({"messages": stored}, "pydantic-ai", "gemini")
    assert sent["contents"][1]["parts"][1] == {"inlineData": {"mimeType": "image/png", "data": "iVBOR/v//j76"}}
    assert any(loss.startswith("$.messages[1].content[1]") and "file_part" in loss for loss in losses)
    back, _ = _convert(sent, "gemini", "pydantic-ai")
    assert _files(ModelMessagesTypeAdapter.validate_python(back["messages"])) == [
        ("image/png", RAW),
        ("audio/mpeg", b"ID3"),
    ]


def test_an_assistant_image_from_another_format_is_a_file_part_and_one_by_url_is_reported() -> None:
    gemini = {
        "contents": [
            {"role": "user", "parts": [{"text": "Draw."}]},
            {"role": "model", "parts": [{"inlineData": {"mimeType": "image/png", "data": "iVBOR/v//j76"}}]},
        ]
    }
    written, losses = _convert(gemini, "gemini", "pydantic-ai")
    assert losses == []
    assert _files(ModelMessagesTypeAdapter.validate_python(written["messages"])) == [("image/png", RAW)]
    ui = {
        "messages": [
            {
                "id": "a",
                "role": "assistant",
                "parts": [{"type": "file", "mediaType": "image/png", "url": "https://x.test/c.png"}],
            }
        ]
    }
    written, losses = _convert(ui, "ai-sdk-ui", "pydantic-ai")
    assert written["messages"] == []  # a response of no parts is left out, reported (issue 108)
    assert [loss.split(":")[0] for loss in losses if "FilePart holds bytes" in loss] == [
        "$.messages[0].content[0].source"
    ]
    assert [loss.split(":")[0] for loss in losses if "left out" in loss] == ["$.messages[0]"]


def test_a_generated_images_gemini_signature_goes_back_to_gemini_on_the_image() -> None:
    """pydantic-ai's Google model keeps a generated image's thought signature in the
    ``FilePart``'s ``provider_details.thought_signature`` (``pydantic_ai.models.google``'s
    ``_thought_signature_details``) and sends it back on that ``inline_data`` part; so does
    chatcodec, and a Gemini turn's signed image comes back as such a ``FilePart``."""
    history: list[ModelMessage] = [
        ModelRequest(parts=[UserPromptPart("Draw.")]),
        ModelResponse(
            parts=[
                FilePart(
                    BinaryContent(RAW, media_type="image/png"),
                    provider_name="google-gla",
                    provider_details={"thought_signature": "c2lnbg=="},
                )
            ]
        ),
    ]
    stored = _stored(history)
    assert _convert({"messages": stored}, "pydantic-ai", "pydantic-ai") == ({"messages": stored}, [])
    sent, _ = _convert({"messages": stored}, "pydantic-ai", "gemini")
    assert sent["contents"][1]["parts"] == [
        {"thoughtSignature": "c2lnbg==", "inlineData": {"mimeType": "image/png", "data": "iVBOR/v//j76"}}
    ]
    back, _ = _convert(sent, "gemini", "pydantic-ai")
    (part,) = ModelMessagesTypeAdapter.validate_python(back["messages"])[1].parts
    assert isinstance(part, FilePart)
    assert (part.content.data, part.provider_name, part.provider_details) == (
        RAW,
        "google-gla",
        {"thought_signature": "c2lnbg=="},
    )


def _uploaded(*content: Any) -> dict[str, Any]:
    messages = [ModelRequest(parts=[UserPromptPart(content=list(content))])]
    return {"messages": json.loads(ModelMessagesTypeAdapter.dump_json(messages))}


@pytest.mark.parametrize(
    ("uploaded", "file_data"),
    [
        (
            UploadedFile(
                file_id="https://generativelanguage.googleapis.com/v1beta/files/abc123",
                provider_name="google-gla",
                media_type="application/pdf",
            ),
            {"fileUri": "https://generativelanguage.googleapis.com/v1beta/files/abc123", "mimeType": "application/pdf"},
        ),
        (
            UploadedFile(file_id="gs://bucket/cat.png", provider_name="google-vertex"),  # its type from the id
            {"fileUri": "gs://bucket/cat.png", "mimeType": "image/png"},
        ),
    ],
)
def test_an_uploaded_file_is_sent_to_gemini_as_file_data(uploaded: UploadedFile, file_data: dict[str, str]) -> None:
    """Issue 101, pydantic-ai's own case: ``GoogleModel`` sends an ``UploadedFile`` (a Files
    API URI, a ``gs://`` URI) as ``file_data`` with its media type
    (``pydantic_ai.models.google``'s ``_map_file_to_part``); chatcodec kept it opaque and
    dropped it, with the user's turn when it was alone."""
    history = _uploaded("Summarise this.", uploaded)
    written, losses = _convert(history, "pydantic-ai", "gemini")
    assert written["contents"] == [{"role": "user", "parts": [{"text": "Summarise this."}, {"fileData": file_data}]}]
    assert [loss for loss in losses if loss.startswith("$.messages[0].content[1]")] == [
        "$.messages[0].content[1]: pydantic-ai data ['provider_name'] (gemini has no field for it)"
    ]  # the provider a file belongs to is pydantic-ai's word alone
    back, back_losses = _convert(history, "pydantic-ai", "pydantic-ai")
    assert back == history
    assert back_losses == []
    assert ModelMessagesTypeAdapter.validate_python(back["messages"]) == ModelMessagesTypeAdapter.validate_python(
        history["messages"]
    )


def test_an_uploaded_file_gemini_cannot_fetch_is_reported_and_no_empty_turn_is_sent() -> None:
    history = _uploaded(UploadedFile(file_id="file-abc", provider_name="openai", media_type="application/pdf"))
    history["messages"].append(_uploaded("Hello?")["messages"][0])
    written, losses = _convert(history, "pydantic-ai", "gemini")
    assert written["contents"] == [{"role": "user", "parts": [{"text": "Hello?"}]}]  # never a turn of parts: []
    assert any("$.messages[0].content[0].source" in loss and "file id" in loss for loss in losses)
    assert any(loss.startswith("$.messages[0]: empty message") for loss in losses)
