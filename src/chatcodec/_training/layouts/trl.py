"""What TRL's ``GRPOTrainer`` takes from a ``rollout_func``: one list per completion.

Field names from TRL 1.16.0 (huggingface/trl, ``trl/trainer/grpo_trainer.py``: a rollout
function returns ``prompt_ids``, ``completion_ids`` and ``logprobs``, and an ``env_mask`` (1 on the
tokens the model sampled, 0 on the environment's) where a completion holds tool output). One
entry per sample; ``make check-trainers`` runs a step on them. Logprobs the sampler did not give
are ``0.0`` where the trainer needs a number (a sample without logprobs has them all so).
"""

from __future__ import annotations

from typing import Any

from chatcodec._training.layouts.episode import Episode


def rows(episode: Episode) -> dict[str, Any]:
    samples = episode.samples
    return {
        "prompt_ids": [list(sample.prompt_ids) for sample in samples],
        "completion_ids": [list(sample.response_ids) for sample in samples],
        "logprobs": [
            list(sample.response_logprobs) if sample.response_logprobs is not None else [0.0] * len(sample.response_ids)
            for sample in samples
        ],
        "env_mask": [list(sample.response_mask) for sample in samples],
    }
