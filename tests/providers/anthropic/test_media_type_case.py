"""A base64 image whose media type is in other case (``data:image/JPEG;base64,...``): a
media type is case-insensitive (RFC 2045, section 5.1), and the Anthropic SDK's
``Base64ImageSourceParam.media_type`` is the lower-case literal (``"image/jpeg"``, ...), so
the writer sends the lower-case name and reports the change instead of dropping the image."""

from __future__ import annotations

from typing import Any

import chatcodec
from providers.anthropic.anthropic_support import assert_valid_request

JPEG = "/9j/4AAQSkZJRg=="


def _convert(url: str) -> tuple[dict[str, Any], list[str]]:
    body = {
        "model": "gpt-4.1",
        "max_completion_tokens": 100,
        "messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}}]}],
    }
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.convert_request(body, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses)
    return wire, [str(loss) for loss in losses]


def test_an_upper_case_jpeg_is_sent_as_image_jpeg_and_the_change_reported() -> None:
    wire, losses = _convert(f"data:image/JPEG;base64,{JPEG}")
    assert wire["messages"][0]["content"] == [
        {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": JPEG}}
    ]
    assert losses == [
        "$.messages[0].content[0].source.media_type: media type image/JPEG (Anthropic takes it as image/jpeg)"
    ]
    assert_valid_request(wire)


def test_a_lower_case_type_is_sent_as_it_is_and_a_type_anthropic_refuses_in_any_case_is_dropped() -> None:
    wire, losses = _convert(f"data:image/png;base64,{JPEG}")
    assert wire["messages"][0]["content"][0]["source"]["media_type"] == "image/png"
    assert losses == []
    wire, losses = _convert(f"data:image/TIFF;base64,{JPEG}")
    assert wire["messages"] == []
    assert (
        "$.messages[0].content[0]: image of type image/TIFF (Anthropic takes JPEG, PNG, GIF and WebP images only)"
        in losses
    )
