"""trainer_samples(overlong=..., end_ids=...): a response cut before its end token kept, masked
(SkyRL's ``apply_overlong_filtering`` zeroes such a response's mask) or dropped, each reported."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec import Loss, PayloadError, SampledTurn

IM_END = 151645
CLOSED = SampledTurn(message_index=1, prompt_ids=[1, 2], completion_ids=[3, IM_END])
CUT = SampledTurn(message_index=1, prompt_ids=[1, 2], completion_ids=[3, 4, 5])
AFTER_CLOSED = SampledTurn(message_index=3, prompt_ids=[1, 2, 3, IM_END, 9], completion_ids=[6, 7])


def _samples(turns: list[SampledTurn], **given: Any) -> tuple[list[dict[str, Any]], list[Loss]]:
    losses: list[Loss] = []
    return chatcodec.trainer_samples(turns, on_loss="ignore", losses=losses, **given), losses


def test_without_end_ids_nothing_is_told_and_every_sample_is_kept() -> None:
    samples, losses = _samples([CUT])
    assert samples[0]["response_mask"] == [1, 1, 1]
    assert losses == []


@pytest.mark.parametrize(
    ("overlong", "masks"),
    [("keep", [[1, 1, 1], [1, 1]]), ("mask", [[0, 0, 0], [1, 1]]), ("drop", [[1, 1]])],
)
def test_a_cut_response_is_kept_masked_or_dropped_and_reported(overlong: str, masks: list[list[int]]) -> None:
    other = SampledTurn(message_index=1, prompt_ids=[8], completion_ids=[5, IM_END])
    samples, losses = _samples([CUT, other], overlong=overlong, end_ids=[IM_END])
    assert [sample["response_mask"] for sample in samples] == masks
    reported = [loss for loss in losses if loss.what == "overlong response"]
    assert [loss.path for loss in reported] == ["$.messages[1]"]
    assert f"overlong={overlong!r}" in reported[0].why


def test_a_sample_whose_last_turn_was_cut_is_masked_whole() -> None:
    cut_last = SampledTurn(message_index=3, prompt_ids=AFTER_CLOSED.prompt_ids, completion_ids=[6, 7])
    samples, losses = _samples([CLOSED, cut_last], overlong="mask", end_ids=[IM_END])
    assert len(samples) == 1
    assert set(samples[0]["response_mask"]) == {0}
    assert [loss.path for loss in losses] == ["$.messages[3]"]


def test_closed_turns_are_untouched() -> None:
    closed_last = SampledTurn(message_index=3, prompt_ids=AFTER_CLOSED.prompt_ids, completion_ids=[6, IM_END])
    samples, losses = _samples([CLOSED, closed_last], overlong="drop", end_ids=[IM_END])
    assert samples == chatcodec.trainer_samples([CLOSED, closed_last])
    assert losses == []


def test_a_policy_without_end_ids_or_an_unknown_one_is_refused_at_its_path() -> None:
    with pytest.raises(PayloadError) as raised:
        chatcodec.trainer_samples([CUT], overlong="mask")
    assert raised.value.path == "$.end_ids"
    with pytest.raises(PayloadError) as raised:
        chatcodec.trainer_samples([CUT], overlong="zero", end_ids=[IM_END])  # type: ignore[arg-type]
    assert raised.value.path == "$.overlong"
    with pytest.raises(PayloadError) as raised:
        chatcodec.trainer_samples([CUT], overlong="drop", end_ids=["<|im_end|>"])  # type: ignore[list-item]
    assert raised.value.path == "$.end_ids[0]"
