"""Nova's stream on the AWS family's stream code (``families/aws/stream_decode.py`` and
``stream_encode.py``): the block events are Converse's (the Nova user guide's streaming
example, https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-invoke-api.html), the
framing (``chunk`` events, ``amazon-bedrock-invocationMetrics`` on the last one) is Nova's,
and Nova's reasoning carries no signature."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec import Loss

PROVIDER = "bedrock-nova"
FIXTURES = Path(__file__).parents[2] / "fixtures" / "bedrock-nova" / "stream"
METRICS = "amazon-bedrock-invocationMetrics"


def _events(name: str) -> list[dict[str, Any]]:
    lines = (FIXTURES / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.mark.parametrize("name", ["text.jsonl", "reasoning.jsonl", "tool_use.jsonl"])
def test_a_recorded_stream_is_written_back_as_it_came(name: str) -> None:
    events = _events(name)
    losses: list[Loss] = []
    written = list(chatcodec.encode_stream(PROVIDER, chatcodec.decode_stream(PROVIDER, events), losses=losses))
    assert written == events
    assert losses == []


def test_the_invocation_metrics_go_on_the_stop_when_no_metadata_event_follows() -> None:
    events = [event for event in _events("text.jsonl") if "metadata" not in event]
    events[-1] = {**events[-1], METRICS: {"inputTokenCount": 5}}
    written = list(chatcodec.encode_stream(PROVIDER, chatcodec.decode_stream(PROVIDER, events)))
    assert written[-1] == {"messageStop": {"stopReason": "end_turn"}, METRICS: {"inputTokenCount": 5}}


def test_another_providers_signature_is_reported_not_written() -> None:
    start = chatcodec.ResponseStartEvent()
    events: list[Any] = [
        start,
        chatcodec.ThinkingStartEvent(index=0, provider="anthropic"),
        chatcodec.ThinkingDeltaEvent(index=0, delta="hmm"),
        chatcodec.ThinkingSignatureDeltaEvent(index=0, delta="c2ln"),
        chatcodec.ThinkingEndEvent(index=0),
        chatcodec.FinishEvent(finish_reason=chatcodec.FinishReason(unified="stop")),
    ]
    losses: list[Loss] = []
    written = list(chatcodec.encode_stream(PROVIDER, events, on_loss="ignore", losses=losses))
    deltas = [event["contentBlockDelta"]["delta"] for event in written if "contentBlockDelta" in event]
    assert deltas == [{"reasoningContent": {"text": "hmm"}}]
    assert [loss.what for loss in losses] == ["signature of another provider"]


@pytest.mark.parametrize("provider", [PROVIDER, "bedrock-converse"])
def test_an_exception_member_is_lower_camel_case_as_the_service_sends_it(provider: str) -> None:
    error = chatcodec.ErrorEvent(message="slow down", error_type="ThrottlingException")
    written = list(chatcodec.encode_stream(provider, [error]))
    assert written == [{"throttlingException": {"message": "slow down"}}]


def test_a_parts_provider_data_nova_cannot_hold_is_reported() -> None:
    events: list[Any] = [
        chatcodec.ResponseStartEvent(),
        chatcodec.TextStartEvent(index=0),
        chatcodec.TextDeltaEvent(index=0, delta="hi"),
        chatcodec.TextEndEvent(index=0, provider_metadata={"gemini": {"thoughtSignature": "c2ln"}}),
        chatcodec.FinishEvent(finish_reason=chatcodec.FinishReason(unified="stop")),
    ]
    losses: list[Loss] = []
    list(chatcodec.encode_stream(PROVIDER, events, on_loss="ignore", losses=losses))
    assert [(loss.path, loss.what) for loss in losses] == [("$.content[0]", "gemini data ['thoughtSignature']")]
