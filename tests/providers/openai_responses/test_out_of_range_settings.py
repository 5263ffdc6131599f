"""A sampling value the request's own format does not take is the caller's error, not the
converter's to fix: OpenAI's API reference gives Responses' ``temperature`` "between 0 and
2" (https://platform.openai.com/docs/api-reference/responses/create), and the recorded
Responses request with ``temperature: -1`` was answered 400. Strict reading refuses it;
otherwise it is sent as it came, so the same-format round trip stays exact (it was
clamped to 0.0). Clamping is for a value the source allows and a narrower target does
not (Converse's ``temperature`` is 0 to 1: botocore's ``InferenceConfiguration``
documentation). Issue 61."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec import Loss

REQUEST: dict[str, Any] = {"model": "gpt-4.1", "input": "hi", "temperature": -1}


def test_the_same_format_round_trip_keeps_a_value_the_format_does_not_take() -> None:
    losses: list[Loss] = []
    decoded = chatcodec.decode_request("openai-responses", copy.deepcopy(REQUEST))
    assert chatcodec.encode_request("openai-responses", decoded, losses=losses) == REQUEST
    converted = chatcodec.convert_request(
        copy.deepcopy(REQUEST), source="openai-responses", target="openai-responses", losses=losses
    )
    assert converted == REQUEST
    assert losses == []


def test_strict_reading_refuses_it() -> None:
    with pytest.raises(chatcodec.ValidationError, match="temperature"):
        chatcodec.decode_request("openai-responses", copy.deepcopy(REQUEST), strict=True)


def test_another_format_gets_it_as_it_came() -> None:
    losses: list[Loss] = []
    body = chatcodec.convert_request(
        copy.deepcopy(REQUEST), source="openai-responses", target="bedrock-converse", losses=losses
    )
    assert body["inferenceConfig"] == {"temperature": -1.0}
    assert [loss for loss in losses if "temperature" in loss.path] == []


def test_a_value_the_source_takes_is_still_clamped_into_a_narrower_target() -> None:
    losses: list[Loss] = []
    request = {**REQUEST, "temperature": 1.5}
    body = chatcodec.convert_request(
        request, source="openai-responses", target="bedrock-converse", losses=losses, on_loss="ignore"
    )
    assert body["inferenceConfig"] == {"temperature": 1.0}
    assert [loss.kind for loss in losses if "temperature" in loss.path] == ["rule"]


def test_a_canonical_request_is_clamped_as_before() -> None:
    losses: list[Loss] = []
    request = chatcodec.ChatRequest(model="gpt-4.1", messages=[chatcodec.UserMessage(content="hi")], temperature=3.0)
    body = chatcodec.encode_request("openai-responses", request, losses=losses, on_loss="ignore")
    assert body["temperature"] == 2.0
    assert [loss.kind for loss in losses] == ["rule"]
