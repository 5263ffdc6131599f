"""TRL's trainers take ``chatcodec.trainer_rows``' ``trl-sft`` and ``trl`` rows: one step each.

``chatcodec.trainer_samples`` gives ``prompt_ids``, ``response_ids``, ``response_mask`` and
``response_logprobs``; ``trainer_rows`` writes them under TRL's names. A field mapping that
reads well can still be refused by the trainer (a key it does not know, a mask its collator
reads another way), so this tool runs the trainers themselves: an episode rendered through
TRL's Qwen3 training template with Qwen3's real ids (``tests/training/qwen3_tokenizer.py``),
then one optimizer step of ``SFTTrainer`` on the ``trl-sft`` rows as a pre-tokenized dataset
(``input_ids`` and ``assistant_masks``), checking that its collator trains exactly the tokens
the mask marks, and one step of ``GRPOTrainer`` with a ``rollout_func`` returning the ``trl``
rows (``prompt_ids``, ``completion_ids``, ``logprobs``, ``env_mask``), on a tiny Qwen3 model
made from a config (no hub, CPU only).

It needs torch, transformers and TRL, which the dev environment does not carry (a CPU torch
is a large install that every other test would pay for): ``make check-trainers`` makes
``.venv-trainers`` with them and runs this file there. Exits non-zero when a trainer refuses
the samples or trains other tokens than the mask says.
"""

from __future__ import annotations

import json
import math
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import chatcodec  # noqa: E402
from training.qwen3_tokenizer import qwen3_encoding  # noqa: E402

EPISODE = ROOT / "tests" / "fixtures" / "training" / "trajectory.jsonl"
"""The weather episode (a question, a call, its result, an answer), with its tools."""
VOCABULARY = 151_669
"""Qwen3's ids: the 151,643 byte-level merges and its special tokens after them."""


def samples() -> list[dict[str, Any]]:
    """The episode's turns under ``qwen3-training``, merged into trainer samples."""
    row = json.loads(EPISODE.read_text().splitlines()[0])
    episode = {"messages": row["messages"], "tools": row["tools"]}
    turns = chatcodec.render_turns(
        episode, source="openai-chat", template="qwen3-training", tokenizer=qwen3_encoding(), on_loss="ignore"
    )
    with_logprobs = [
        chatcodec.SampledTurn(
            message_index=turn.message_index,
            prompt_ids=turn.prompt_ids,
            completion_ids=turn.completion_ids,
            logprobs=[-0.25] * len(turn.completion_ids),
        )
        for turn in turns
    ]
    found = chatcodec.trainer_samples(with_logprobs, on_loss="ignore")
    assert len(found) == 1, f"one sample expected under the training template, got {len(found)}"
    return found


def tiny_model() -> Any:
    from transformers import Qwen3Config, Qwen3ForCausalLM

    config = Qwen3Config(
        vocab_size=VOCABULARY,
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=8,
        max_position_embeddings=4096,
    )
    return Qwen3ForCausalLM(config)


def processing_class() -> Any:
    """A tokenizer object for the trainers' padding and decoding: the samples are already
    ids, so only its pad and end tokens are read (decoded completions feed no reward here)."""
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from transformers import PreTrainedTokenizerFast

    words = Tokenizer(WordLevel({"<|endoftext|>": 151_643, "<|im_end|>": 151_645}, unk_token="<|endoftext|>"))
    return PreTrainedTokenizerFast(tokenizer_object=words, pad_token="<|endoftext|>", eos_token="<|im_end|>")


def sft_step(found: list[dict[str, Any]], folder: str) -> None:
    from datasets import Dataset
    from trl import SFTConfig, SFTTrainer

    rows = chatcodec.trainer_rows(found, layout="trl-sft")
    config = SFTConfig(
        output_dir=f"{folder}/sft",
        max_steps=1,
        per_device_train_batch_size=1,
        max_length=None,
        report_to=[],
        use_cpu=True,
        save_strategy="no",
        logging_steps=1,
    )
    trainer = SFTTrainer(
        model=tiny_model(), args=config, train_dataset=Dataset.from_list(rows), processing_class=processing_class()
    )
    batch = trainer.data_collator([trainer.train_dataset[0]])
    trained = [int(label != -100) for label in batch["labels"][0].tolist()]
    assert trained == rows[0]["assistant_masks"], "SFTTrainer's collator trains other tokens than the mask"
    loss = trainer.train().training_loss
    assert math.isfinite(loss), f"SFT loss {loss}"
    print(f"SFTTrainer: one step on {len(rows)} sample(s), {sum(trained)} trained tokens, loss {loss:.3f}")


def grpo_step(found: list[dict[str, Any]], folder: str) -> None:
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    calls: list[int] = []

    def rollout_func(prompts: list[Any], trainer: Any) -> dict[str, list[Any]]:
        calls.append(len(prompts))
        taken = [found[number % len(found)] for number in range(len(prompts))]
        rows: dict[str, list[Any]] = chatcodec.trainer_rows(taken, layout="trl")
        return rows

    def reward(completions: list[Any], **_: Any) -> list[float]:
        return [float(number) for number in range(len(completions))]

    longest = max(len(sample["response_ids"]) for sample in found)
    config = GRPOConfig(
        output_dir=f"{folder}/grpo",
        max_steps=1,
        per_device_train_batch_size=2,
        num_generations=2,
        max_completion_length=longest,
        report_to=[],
        use_cpu=True,
        save_strategy="no",
        logging_steps=1,
    )
    trainer = GRPOTrainer(
        model=tiny_model(),
        reward_funcs=reward,
        args=config,
        train_dataset=Dataset.from_dict({"prompt": ["What is the weather in Paris?"] * 4}),
        processing_class=processing_class(),
        rollout_func=rollout_func,
    )
    loss = trainer.train().training_loss
    assert calls, "GRPOTrainer never called the rollout_func"
    assert math.isfinite(loss), f"GRPO loss {loss}"
    print(f"GRPOTrainer: one step, rollout_func called {len(calls)} time(s), loss {loss:.3f}")


def main() -> int:
    found = samples()
    with tempfile.TemporaryDirectory() as folder:
        sft_step(found, folder)
        grpo_step(found, folder)
    print("TRL's SFT and GRPO trainers took chatcodec.trainer_rows' trl-sft and trl rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
