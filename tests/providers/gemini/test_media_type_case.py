"""A base64 image whose media type is in other case (``data:image/JPEG;base64,...``): a
media type is case-insensitive (RFC 2045, section 5.1) and Gemini's image formats are listed
lower case ("PNG - image/png, JPEG - image/jpeg, ...",
https://ai.google.dev/gemini-api/docs/image-understanding#supported-formats), so the writer
sends the lower-case name and reports it, instead of dropping the image (and, when it was
the only part, the whole conversation)."""

from __future__ import annotations

from typing import Any

import chatcodec
from providers.gemini.gemini_support import assert_valid_request

JPEG = "/9j/4AAQSkZJRg=="


def _convert(url: str) -> tuple[dict[str, Any], list[str]]:
    body = {"model": "m", "messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}}]}]}
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.convert_request(body, source="openai-chat", target="gemini", on_loss="ignore", losses=losses)
    return wire, [str(loss) for loss in losses]


def test_an_upper_case_jpeg_alone_is_sent_as_image_jpeg_and_the_change_reported() -> None:
    wire, losses = _convert(f"data:image/JPEG;base64,{JPEG}")
    assert wire["contents"] == [{"role": "user", "parts": [{"inlineData": {"mimeType": "image/jpeg", "data": JPEG}}]}]
    assert losses == [
        "$.messages[0].content[0].source.media_type: media type image/JPEG (Gemini takes it as image/jpeg)"
    ]
    assert_valid_request(wire)


def test_a_type_gemini_refuses_in_any_case_is_still_dropped() -> None:
    _, losses = _convert(f"data:image/GIF;base64,{JPEG}")
    assert (
        "$.messages[0].content[0]: image of type image/GIF (Gemini takes PNG, JPEG, WebP, HEIC and HEIF images)"
        in losses
    )
