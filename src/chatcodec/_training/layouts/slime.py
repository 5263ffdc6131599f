"""slime's ``Sample``: one training sample of a rollout, as ``Sample.to_dict()`` writes it.

Field names and types from slime (THUDM/slime at 624b824, ``slime/utils/types.py``): ``tokens``
(the prompt and the response), ``response_length``, ``loss_mask`` and ``rollout_log_probs`` (one
per response token), ``reward``, ``status`` (its ``Status`` value, ``"completed"``), and
``rollout_id``: where one rollout is split into several samples, slime asks that every sibling
carry the same ``rollout_id`` so its loss is averaged within the rollout, not counted once per
sample; with ``options={"rollout_id": N}`` every row holds it (``group_index`` and ``index`` are
the caller's too). ``Sample.from_dict(row)`` reads a row.
"""

from __future__ import annotations

from typing import Any

from chatcodec import PayloadError
from chatcodec._training.layouts.episode import Episode


def rows(episode: Episode) -> list[dict[str, Any]]:
    ids = {name: _number(episode.option(name), name) for name in ("rollout_id", "group_index", "index")}
    if len(episode.samples) > 1 and ids["rollout_id"] is None:
        raise episode.refuse(
            f"this episode is {len(episode.samples)} samples, and slime counts the samples of one rollout "
            "once only where they share a rollout_id: pass options={'rollout_id': N}",
            "$.options.rollout_id",
            rule="trainer_rollout_id",
        )
    return [
        {
            **{name: value for name, value in ids.items() if value is not None},
            "tokens": [*sample.prompt_ids, *sample.response_ids],
            "response_length": len(sample.response_ids),
            "loss_mask": list(sample.response_mask),
            "rollout_log_probs": None if sample.response_logprobs is None else list(sample.response_logprobs),
            "reward": episode.reward,
            "status": "completed",
        }
        for sample in episode.samples
    ]


def _number(given: object, name: str) -> int | None:
    if given is not None and (isinstance(given, bool) or not isinstance(given, int)):
        raise PayloadError(f"expected an integer, not {given!r}", f"$.options.{name}")
    return given
