"""Law: what only the server says (when it answered, a count of zero) is no loss in any
format. A response's ``created`` is the server's clock, nothing a user sent: a target with
no field for it drops it without a report, as it does a usage count of zero (it says
nothing). A non-zero count a target cannot hold is still a loss. Whole responses and
streams alike, from every registered format to every other.
"""

from __future__ import annotations

import pytest

import chatcodec
from chatcodec.streams._replay import events_from_response
from conformance.providers import PROVIDER_NAMES, STREAMING_NAMES

ORDINARY = chatcodec.ChatResponse(
    id="r1",
    model="m",
    created=1_700_000_000,
    message=chatcodec.AssistantMessage(content="Hi"),
    finish_reason=chatcodec.FinishReason(unified="stop"),
    usage=chatcodec.Usage(
        input_tokens=14, output_tokens=7, cache_read_tokens=0, cache_write_tokens=0, reasoning_tokens=0
    ),
)
"""An ordinary answer: a creation time and every detail count 0, as servers write them."""


def _about_time_or_usage(losses: list[chatcodec.Loss]) -> list[str]:
    """The losses at ``created`` or in the usage (a target may report an id or a model it
    has no field for: not these)."""
    return [f"{loss.path}: {loss.what}" for loss in losses if loss.path.startswith(("$.created", "$.usage"))]


@pytest.mark.parametrize("target", PROVIDER_NAMES)
def test_creation_time_and_zero_counts_are_no_loss_in_a_response(target: str) -> None:
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_response(target, ORDINARY, on_loss="ignore", losses=losses)
    assert _about_time_or_usage(losses) == []


@pytest.mark.parametrize("target", STREAMING_NAMES)
def test_creation_time_and_zero_counts_are_no_loss_in_a_stream(target: str) -> None:
    losses: list[chatcodec.Loss] = []
    events = list(events_from_response(ORDINARY))
    list(chatcodec.encode_stream(target, events, on_loss="ignore", losses=losses))
    assert _about_time_or_usage(losses) == []


@pytest.mark.parametrize("source", PROVIDER_NAMES)
@pytest.mark.parametrize("target", PROVIDER_NAMES)
def test_a_recorded_answers_creation_time_is_no_loss_in_another_format(source: str, target: str) -> None:
    """Read from each format's own writing of the answer, so a creation time held in the
    source's bag (its own spelling of it) is dropped without a report too."""
    body = chatcodec.encode_response(source, ORDINARY, on_loss="ignore")
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_response(body, source=source, target=target, on_loss="ignore", losses=losses)
    # a source format with no creation time gives the target none to drop: a target that
    # requires one invents it, reported as invented (test_invented_fields)
    assert [loss for loss in _about_time_or_usage(losses) if "created" in loss and "invented" not in loss] == []
