"""What a trainer sample does with a response cut before its end token: kept, masked or dropped.

A completion stopped at ``max_tokens`` has no end-of-turn token, and training it teaches the model
to stop mid-answer, or to run on; DAPO's overlong filtering, as SkyRL applies it
(``apply_overlong_filtering``), zeroes every mask value of such a response, and verifiers' trainers
can mask or drop a truncated completion. The records hold the ids, not the sampler's stop reason,
so a turn is cut where its last completion id is none of the template's end ids the caller names
(Qwen3's ``<|im_end|>``, gpt-oss's ``<|return|>`` and ``<|call|>``). Whatever the policy, each
sample holding a cut turn is reported, with the message of the turn cut and what was done.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Literal, get_args

from chatcodec import PayloadError
from chatcodec._training import turn_values
from chatcodec._training.turns import SampledTurn
from chatcodec.contract import LossRecorder

Overlong = Literal["keep", "mask", "drop"]
"""A cut response's fate: trained as sampled, its mask zeroed, or its sample left out."""

_DONE = {
    "keep": "it is trained as sampled (overlong='keep')",
    "mask": "its sample's mask is zeroed (overlong='mask', DAPO's overlong filtering)",
    "drop": "its sample is left out (overlong='drop')",
}


def end_ids_of(overlong: object, end_ids: Collection[int] | None) -> frozenset[int] | None:
    """The end ids a cut is told by, checked with the policy (None: none named, nothing told)."""
    if overlong not in get_args(Overlong):
        raise PayloadError(f"expected one of {', '.join(get_args(Overlong))}, not {overlong!r}", "$.overlong")
    if end_ids is None:
        if overlong != "keep":
            raise PayloadError(
                f"overlong={overlong!r} tells a cut response by its last id: name the template's end ids "
                "(end_ids=[...], Qwen3's <|im_end|>)",
                "$.end_ids",
            )
        return None
    return frozenset(turn_values.token_ids(list(end_ids), "$.end_ids"))


def cut(turn: SampledTurn, end_ids: frozenset[int] | None) -> bool:
    """Whether ``turn``'s completion does not end with one of ``end_ids``."""
    return end_ids is not None and (not turn.completion_ids or turn.completion_ids[-1] not in end_ids)


def applied(
    samples: list[dict[str, Any]], cuts: list[int | None], overlong: Overlong, recorder: LossRecorder
) -> list[dict[str, Any]]:
    """``samples`` with the policy applied to each whose ``cuts`` entry names a cut turn's message."""
    kept: list[dict[str, Any]] = []
    for sample, message in zip(samples, cuts, strict=True):
        if message is not None:
            recorder.add(
                ("messages", message),
                "overlong response",
                f"this answer ends without the template's end id (cut at max_tokens, or stopped): {_DONE[overlong]}",
                "content" if overlong != "keep" else "rule",
            )
        if message is not None and overlong == "drop":
            continue
        masked = message is not None and overlong == "mask"
        kept.append({**sample, "response_mask": [0] * len(sample["response_mask"])} if masked else sample)
    return kept
