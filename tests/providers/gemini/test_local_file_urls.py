"""A ``file:`` image URL (a path on the caller's machine) written to Gemini: kept as given and
reported (the decision and its reason are in ``_providers/gemini/media.py``'s docstring).
``fileData.fileUri`` is a Files API URI, a ``gs://`` URI or an ``http(s)`` URL
(https://ai.google.dev/gemini-api/docs/file-input-methods), which a local path is not."""

from __future__ import annotations

import chatcodec
from providers.gemini.gemini_support import assert_valid_request

URL = "file:///home/me/cat.png"


def test_a_file_image_url_is_sent_as_given_and_reported() -> None:
    part = {"type": "image_url", "image_url": {"url": URL}}
    body = {"model": "m", "messages": [{"role": "user", "content": [part]}]}
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.convert_request(body, source="openai-chat", target="gemini", on_loss="ignore", losses=losses)
    assert wire["contents"][0]["parts"] == [{"fileData": {"fileUri": URL, "mimeType": "image/png"}}]
    assert (
        "$.messages[0].content[0].source.url: local file URL "
        "(a file: URL names a path on the caller's machine, which Gemini cannot fetch; sent as given)"
    ) in [str(loss) for loss in losses]
    assert_valid_request(wire)
