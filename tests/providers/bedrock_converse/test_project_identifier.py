"""``projectIdentifier``: a Converse request member botocore 1.44.8 adds (the bedrock-runtime
service model's ``ConverseRequest`` and ``ConverseStreamRequest``: "The ID or Amazon
Resource Name (ARN) of the project to use for this invocation", a string of 1 to 2048
characters; https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html).
The dev extra pins botocore 1.44.5, whose model lacks it, so strict reading takes it as a
documented extension; it rides in the request's own bag, written back as it came, and is a
reported loss for any other format."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec

BODY: dict[str, Any] = {
    "modelId": "anthropic.claude-sonnet-4-5",
    "projectIdentifier": "arn:aws:bedrock:us-east-1:123456789012:project/research_1",
    "messages": [{"role": "user", "content": [{"text": "Hi"}]}],
}


@pytest.mark.parametrize("strict", [False, True])
def test_strict_and_tolerant_reading_take_it_and_write_it_back(strict: bool) -> None:
    request = chatcodec.decode_request("bedrock-converse", copy.deepcopy(BODY), strict=strict)
    assert chatcodec.encode_request("bedrock-converse", request) == BODY


def test_another_format_reports_it() -> None:
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(
        BODY, source="bedrock-converse", target="openai-chat", losses=losses, on_loss="ignore"
    )
    assert "projectIdentifier" not in written
    assert [loss.what for loss in losses if "projectIdentifier" in loss.what] == [
        "bedrock-converse data ['projectIdentifier']"
    ]
