"""Laws over what only the server says, and a response's metadata.

* What only the server says (when it answered, a count of zero) is no loss in any format. A
  response's ``created`` is the server's clock, nothing a user sent: a target with no field
  for it drops it without a report, as it does a usage count of zero (it says nothing). A
  non-zero count a target cannot hold is still a loss. Whole responses and streams alike,
  from every format of the suite to every other.
* A response's ``id`` and ``model`` are metadata (the model never reads them), so a format
  with no place for them reports them as ``metadata`` losses, whole and streamed.
"""

from __future__ import annotations

import chatcodec
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.registry import law
from chatcodec.testing._replay import events_from_response

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


@law(lambda suite: suite.entries)
def creation_time_and_zero_counts_are_no_loss_in_a_response(target: ProviderEntry) -> None:
    """A wire with no token counts at all (``usage`` among its entry's
    ``unplaced_response_fields``) reports the counts it drops: only the clock is checked."""
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_response(target.name, ORDINARY, on_loss="ignore", losses=losses)
    found = _about_time_or_usage(losses)
    if "usage" in target.unplaced_response_fields:
        found = [loss for loss in found if not loss.startswith("$.usage")]
    assert found == []


@law(lambda suite: [entry.name for entry in suite.streaming])
def creation_time_and_zero_counts_are_no_loss_in_a_stream(target: str) -> None:
    losses: list[chatcodec.Loss] = []
    events = list(events_from_response(ORDINARY))
    list(chatcodec.encode_stream(target, events, on_loss="ignore", losses=losses))
    assert _about_time_or_usage(losses) == []


@law(lambda suite: [(source, target) for target in suite.names for source in suite.names])
def a_recorded_answers_creation_time_is_no_loss_in_another_format(source: str, target: str) -> None:
    """Read from each format's own writing of the answer, so a creation time held in the
    source's bag (its own spelling of it) is dropped without a report too."""
    body = chatcodec.encode_response(source, ORDINARY, on_loss="ignore")
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_response(body, source=source, target=target, on_loss="ignore", losses=losses)
    # a source format with no creation time gives the target none to drop: a target that
    # requires one invents it, reported as invented
    assert [loss for loss in _about_time_or_usage(losses) if "created" in loss and "invented" not in loss] == []


RESPONSE = chatcodec.ChatResponse.model_validate(
    {
        "id": "resp_1",
        "model": "some-model",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "Hi"}, "finish_reason": {"unified": "stop"}}
        ],
    }
)


def metadata_kinds(losses: list[chatcodec.Loss]) -> dict[str, str]:
    return {loss.path: loss.kind for loss in losses if loss.path in ("$.id", "$.model")}


@law(lambda suite: suite.names)
def a_response_id_and_model_with_no_place_are_metadata_losses(name: str) -> None:
    whole: list[chatcodec.Loss] = []
    chatcodec.encode_response(name, RESPONSE, on_loss="ignore", losses=whole)
    assert set(metadata_kinds(whole).values()) <= {"metadata"}


@law(lambda suite: [entry.name for entry in suite.streaming])
def a_streamed_response_id_and_model_with_no_place_are_metadata_losses(name: str) -> None:
    streamed: list[chatcodec.Loss] = []
    list(chatcodec.encode_stream(name, events_from_response(RESPONSE), on_loss="ignore", losses=streamed))
    assert set(metadata_kinds(streamed).values()) <= {"metadata"}
