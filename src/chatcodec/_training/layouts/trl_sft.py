"""TRL's ``SFTTrainer`` rows, pre-tokenized: ``input_ids`` and ``assistant_masks``.

Field names from TRL 1.16.0 (huggingface/trl, ``trl/trainer/sft_trainer.py``: a dataset row
holding ``input_ids`` is taken as tokenized, and its collator trains the tokens its
``assistant_masks`` marks). A row per sample: the prompt and the response, the prompt masked 0.
``make check-trainers`` checks that the collator trains exactly the masked tokens.
"""

from __future__ import annotations

from typing import Any

from chatcodec._training.layouts.episode import Episode


def rows(episode: Episode) -> list[dict[str, Any]]:
    return [
        {
            "input_ids": [*sample.prompt_ids, *sample.response_ids],
            "assistant_masks": [0] * len(sample.prompt_ids) + list(sample.response_mask),
        }
        for sample in episode.samples
    ]
