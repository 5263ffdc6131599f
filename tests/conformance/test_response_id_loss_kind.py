"""Law: a response's ``id`` and ``model`` are metadata (the model never reads them), so a
format with no place for them reports them as ``metadata`` losses, whole and streamed,
as every format does (the kinds: ``chatcodec/_losses.py``)."""

from __future__ import annotations

import pytest

import chatcodec
from chatcodec.streams._replay import events_from_response
from conformance.providers import PROVIDER_NAMES, STREAMING_NAMES

RESPONSE = chatcodec.ChatResponse.model_validate(
    {
        "id": "resp_1",
        "model": "some-model",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "Hi"}, "finish_reason": {"unified": "stop"}}
        ],
    }
)


def _kinds(losses: list[chatcodec.Loss]) -> dict[str, str]:
    return {loss.path: loss.kind for loss in losses if loss.path in ("$.id", "$.model")}


@pytest.mark.parametrize("name", PROVIDER_NAMES)
def test_a_response_id_and_model_with_no_place_are_metadata_losses(name: str) -> None:
    whole: list[chatcodec.Loss] = []
    chatcodec.encode_response(name, RESPONSE, on_loss="ignore", losses=whole)
    assert set(_kinds(whole).values()) <= {"metadata"}


@pytest.mark.parametrize("name", STREAMING_NAMES)
def test_a_streamed_response_id_and_model_with_no_place_are_metadata_losses(name: str) -> None:
    streamed: list[chatcodec.Loss] = []
    list(chatcodec.encode_stream(name, events_from_response(RESPONSE), on_loss="ignore", losses=streamed))
    assert set(_kinds(streamed).values()) <= {"metadata"}


def test_the_law_applies_to_some_format() -> None:
    """Not vacuous: some format has no place for a response's id."""
    reported = []
    for name in PROVIDER_NAMES:
        losses: list[chatcodec.Loss] = []
        chatcodec.encode_response(name, RESPONSE, on_loss="ignore", losses=losses)
        reported += [name] if _kinds(losses) else []
    assert reported
