"""A ``file:`` image or file URL (a path on the caller's machine) written to Responses:
kept as given and reported (the decision and its reason are in
``_providers/openai_responses/parts.py``'s docstring). ``ResponseInputImageParam.image_url``
and ``ResponseInputFileParam.file_url`` are URLs OpenAI fetches, which a local path is not."""

from __future__ import annotations

from typing import Any

import chatcodec
from providers.openai_responses.responses_support import assert_request_matches_sdk

URL = "file:///home/me/cat.png"


def _convert(part: dict[str, Any], source: str = "openai-chat") -> tuple[dict[str, Any], list[str]]:
    body = {"model": "gpt-4.1", "messages": [{"role": "user", "content": [part]}]}
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.convert_request(body, source=source, target="openai-responses", on_loss="ignore", losses=losses)
    return wire, [str(loss) for loss in losses]


def test_a_file_image_url_is_sent_as_given_and_reported() -> None:
    wire, losses = _convert({"type": "image_url", "image_url": {"url": URL}})
    assert wire["input"][0]["content"] == [{"type": "input_image", "image_url": URL, "detail": "auto"}]
    assert losses == [
        "$.messages[0].content[0].source.url: local file URL "
        "(a file: URL names a path on the caller's machine, which OpenAI cannot fetch; sent as given)"
    ]
    assert_request_matches_sdk(wire)


def test_an_https_url_is_not_reported_and_a_responses_round_trip_stays_exact() -> None:
    _, losses = _convert({"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}})
    assert losses == []
    body = {"model": "gpt-4.1", "input": [{"role": "user", "content": [{"type": "input_file", "file_url": URL}]}]}
    assert (
        chatcodec.convert_request(body, source="openai-responses", target="openai-responses", on_loss="ignore") == body
    )
