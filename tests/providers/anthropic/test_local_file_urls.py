"""A ``file:`` image URL (a path on the caller's machine) written to Anthropic: kept as given
and reported (the decision and its reason are in ``_providers/anthropic/media.py``'s
docstring). The SDK's ``URLImageSourceParam.url`` is a URL Anthropic fetches, which a local
path is not."""

from __future__ import annotations

import chatcodec
from providers.anthropic.anthropic_support import assert_valid_request

URL = "FILE:///home/me/cat.png"  # a scheme is case-insensitive (RFC 3986, section 3.1)


def test_a_file_image_url_is_sent_as_given_and_reported() -> None:
    body = {
        "model": "gpt-4.1",
        "max_completion_tokens": 100,
        "messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": URL}}]}],
    }
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.convert_request(body, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses)
    assert wire["messages"][0]["content"] == [{"type": "image", "source": {"type": "url", "url": URL}}]
    assert [str(loss) for loss in losses] == [
        "$.messages[0].content[0].source.url: local file URL "
        "(a file: URL names a path on the caller's machine, which Anthropic cannot fetch; sent as given)"
    ]
    assert_valid_request(wire)
