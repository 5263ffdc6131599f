"""SkyRL's ``GeneratorOutput``: what a generator hands SkyRL's trainer for a batch of trajectories.

Field names and types from SkyRL 0.4.0 (NovaSky-AI/SkyRL, ``skyrl/train/generators/base.py``:
``prompt_token_ids``, ``response_ids``, ``rewards``, ``loss_masks``, ``stop_reasons``,
``rollout_metrics``, ``rollout_logprobs``, ``trajectory_ids``, ``is_last_step``), checked by its
``validate_generator_output`` (``skyrl/train/utils/trainer_utils.py``). In its normal mode a
trajectory is one response (``num_prompts == num_responses``), so an episode split into samples
does not fit; its step-wise mode (``step_wise_trajectories``) takes a row per step, the rows of a
trajectory adjacent, each with the trajectory's ``TrajectoryID`` (written here as its two fields,
``{"instance_id", "repetition_id"}``: ``TrajectoryID(**row)`` makes it) and ``is_last_step`` true on
its last. SkyRL's step-wise generator puts a step's reward on its last step and broadcasts the
advantage from there; here the episode's reward is on the last row and the others hold 0.0.

``stop_reasons`` are the sampler's (``"stop"``, ``"length"``), which the samples do not hold: they
are ``None`` unless given (``options={"stop_reasons": [...]}``, one per row); SkyRL's overlong
filter reads them, and ``trainer_samples(overlong=...)`` is the same filter on the records.
"""

from __future__ import annotations

from typing import Any

from chatcodec import PayloadError
from chatcodec._training.layouts.episode import Episode


def rows(episode: Episode) -> dict[str, Any]:
    samples = episode.samples
    step_wise = episode.option("step_wise", False)
    if not isinstance(step_wise, bool):
        raise PayloadError(f"expected true or false, not {step_wise!r}", "$.options.step_wise")
    if len(samples) > 1 and not step_wise:
        raise episode.refuse(
            f"SkyRL's normal mode takes one response per trajectory, and this episode is {len(samples)} samples "
            "(its prompts stop extending each other): pass options={'step_wise': True, 'trajectory_id': ...} "
            "(SkyRL's step_wise_trajectories), or render the episode with a template whose prompts extend",
            rule="trainer_one_response",
        )
    if episode.reward is None:
        raise PayloadError("SkyRL's GeneratorOutput holds a reward per trajectory: pass reward=", "$.reward")
    identity = _trajectory_id(episode.option("trajectory_id"), required=step_wise)
    last = len(samples) - 1
    logprobs = [sample.response_logprobs for sample in samples]
    if any(found is None for found in logprobs) and any(found is not None for found in logprobs):
        raise episode.refuse(
            "SkyRL takes rollout_logprobs for every row or for none, and some samples of this episode have none",
            rule="trainer_logprobs",
        )
    return {
        "prompt_token_ids": [list(sample.prompt_ids) for sample in samples],
        "response_ids": [list(sample.response_ids) for sample in samples],
        "rewards": [episode.reward if number == last else 0.0 for number in range(len(samples))],
        "loss_masks": [list(sample.response_mask) for sample in samples],
        "stop_reasons": _stop_reasons(episode.option("stop_reasons"), len(samples)),
        "rollout_metrics": None,
        "rollout_logprobs": None if logprobs[0] is None else [list(found or []) for found in logprobs],
        "trajectory_ids": None if identity is None else [dict(identity) for _ in samples],
        "is_last_step": [number == last for number in range(len(samples))] if step_wise else None,
    }


def _trajectory_id(given: object, *, required: bool) -> dict[str, Any] | None:
    if given is None:
        if required:
            raise PayloadError(
                "step-wise rows name their trajectory: options={'trajectory_id': (instance_id, repetition_id)}",
                "$.options.trajectory_id",
            )
        return None
    if (
        not isinstance(given, tuple | list)
        or len(given) != 2  # pyright: ignore[reportUnknownArgumentType] - a caller's data
        or not isinstance(given[0], str)
        or isinstance(given[1], bool)
        or not isinstance(given[1], int)
    ):
        raise PayloadError(
            f"expected (instance_id, repetition_id), a text and an integer, not {given!r}", "$.options.trajectory_id"
        )
    return {"instance_id": given[0], "repetition_id": given[1]}


def _stop_reasons(given: object, count: int) -> list[str] | None:
    if given is None:
        return None
    if not isinstance(given, list | tuple) or len(given) != count or not all(isinstance(x, str) for x in given):  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType] - a caller's data
        raise PayloadError(f"expected one stop reason (a text) per row ({count})", "$.options.stop_reasons")
    return [str(reason) for reason in given]  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
