"""A media type with parameters (``application/pdf; name=doc.pdf``, RFC 2045 section 5.1;
a data URL's ``data:application/pdf;name=doc.pdf;base64,``, RFC 2397) or in other case is
the media its type and subtype name (issue 101, a peer case: browsers and upload libraries
write the file's name into the type). Read, it is that media, never an unknown block;
written, a format that carries parameters (a data URL) keeps them, and one whose field takes
the type alone (Anthropic's ``media_type``, Gemini's ``mimeType``, Bedrock's ``format``) is
given the essence, the parameters reported.
"""

from __future__ import annotations

from typing import Any

import pytest
from anthropic.types import MessageParam

import chatcodec
from chatcodec._compat import media_type_essence
from sdk_oracle import assert_matches

PDF = "JVBERi0xLjQK"  # "%PDF-1.4\n"
PNG = "iVBORw0KGgo="


def _chat_file(url: str) -> dict[str, Any]:
    return {
        "model": "m",
        "messages": [
            {"role": "user", "content": [{"type": "file", "file": {"file_data": url, "filename": "doc.pdf"}}]}
        ],
    }


def _converted(body: dict[str, Any], source: str, target: str) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(body, source=source, target=target, on_loss="ignore", losses=losses)
    return converted, losses


@pytest.mark.parametrize(
    ("spelt", "essence"),
    [
        ("application/pdf; name=doc.pdf", "application/pdf"),
        ("application/pdf;name=doc.pdf", "application/pdf"),
        ("Application/PDF", "application/pdf"),
        ("text/plain; charset=UTF-8", "text/plain"),
        ("image/png", "image/png"),
        ("; name=x", "; name=x"),  # no type before the parameters: kept as it is
    ],
)
def test_a_media_types_essence_is_its_type_and_subtype_in_lower_case(spelt: str, essence: str) -> None:
    assert media_type_essence(spelt) == essence


def test_a_pdf_data_url_with_a_name_parameter_is_a_pdf_for_anthropic_not_a_dropped_block() -> None:
    body = _chat_file(f"data:application/pdf;name=doc.pdf;base64,{PDF}")
    request = chatcodec.decode_request("openai-chat", body)
    source = request.messages[0].content[0].source  # type: ignore[union-attr]
    assert (source.type, source.media_type, source.data) == ("base64", "application/pdf;name=doc.pdf", PDF)
    assert chatcodec.encode_request("openai-chat", request) == body  # the data URL written back as it came
    converted, losses = _converted(body, "openai-chat", "anthropic")
    (message,) = converted["messages"]
    assert_matches(message, MessageParam)
    assert message["content"] == [
        {
            "type": "document",
            "source": {"type": "base64", "media_type": "application/pdf", "data": PDF},
            "title": "doc.pdf",
        }
    ]
    assert [(loss.path, loss.what, loss.why) for loss in losses if loss.kind == "content"] == [
        (
            "$.messages[0].content[0].source.media_type",
            "media type application/pdf;name=doc.pdf",
            "Anthropic takes it as application/pdf",
        )
    ]


def test_a_gemini_inline_pdf_with_parameters_is_a_document_everywhere() -> None:
    body = {
        "contents": [
            {"role": "user", "parts": [{"inlineData": {"mimeType": "application/pdf; name=doc.pdf", "data": PDF}}]}
        ]
    }
    request = chatcodec.decode_request("gemini", body)
    assert request.messages[0].content[0].type == "document"  # type: ignore[union-attr]
    anthropic, _ = _converted(body, "gemini", "anthropic")
    assert anthropic["messages"][0]["content"][0]["source"]["media_type"] == "application/pdf"
    bedrock, losses = _converted(body, "gemini", "bedrock-converse")
    assert bedrock["messages"][0]["content"][0]["document"]["format"] == "pdf"
    assert "$.contents[0].parts[0].source.media_type" in [loss.path for loss in losses]


def test_gemini_is_sent_the_type_alone_and_a_data_url_keeps_the_parameters() -> None:
    body = _chat_file(f"data:application/pdf;name=doc.pdf;base64,{PDF}")
    gemini, losses = _converted(body, "openai-chat", "gemini")
    assert gemini["contents"][0]["parts"] == [{"inlineData": {"mimeType": "application/pdf", "data": PDF}}]
    assert ("$.messages[0].content[0].source.media_type", "Gemini takes it as application/pdf") in [
        (loss.path, loss.why) for loss in losses
    ]
    responses, losses = _converted(body, "openai-chat", "openai-responses")
    assert responses["input"][0]["content"][0]["file_data"] == f"data:application/pdf;name=doc.pdf;base64,{PDF}"
    assert losses == []


def test_an_image_data_url_with_parameters_is_a_base64_image() -> None:
    body = {
        "model": "m",
        "messages": [
            {
                "role": "user",
                "content": [{"type": "image_url", "image_url": {"url": f"data:image/png;name=a.png;base64,{PNG}"}}],
            }
        ],
    }
    anthropic, _ = _converted(body, "openai-chat", "anthropic")
    assert anthropic["messages"][0]["content"] == [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}
    ]
    bedrock, _ = _converted(body, "openai-chat", "bedrock-converse")
    assert bedrock["messages"][0]["content"] == [{"image": {"format": "png", "source": {"bytes": PNG}}}]


def test_a_plain_text_data_url_with_a_charset_is_sent_to_anthropic_as_its_text() -> None:
    body = _chat_file("data:text/plain;charset=utf-8;base64,SGVsbG8=")
    anthropic, _ = _converted(body, "openai-chat", "anthropic")
    assert anthropic["messages"][0]["content"][0]["source"] == {
        "type": "text",
        "media_type": "text/plain",
        "data": "Hello",
    }
