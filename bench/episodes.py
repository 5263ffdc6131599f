"""Episodes: ``chatcodec.render_turns`` against one ``render`` of the same episode, by wall clock.

``render_turns`` gives every prompt a server sent (the messages before each answer, with the
generation prompt) and every answer's sampled tokens (the messages through it): on a
prefix-stable template from one run of the episode, on the others two renders per answer
(``bench/render_instructions.py --episodes`` counts both in instructions). This times it
on agent episodes of one question and N calling answers, beside one ``render`` of the whole
episode (every answer trained): what the per-turn record costs and how it grows. The tokenizer is a byte-level
``tokenizers`` vocabulary with Qwen3's special tokens (every byte a token, as the training
page builds it), so the run needs nothing downloaded::

    PYTHONPATH=src python bench/episodes.py --answers 5 10 20
"""

from __future__ import annotations

import argparse
import functools
import time
from collections.abc import Callable
from typing import Any

import tokenizers

import chatcodec

SPECIAL_TOKENS = ("<|im_start|>", "<|im_end|>", "<think>", "</think>", "<tool_call>", "</tool_call>")


def byte_tokenizer() -> tokenizers.Tokenizer:
    alphabet = sorted(tokenizers.pre_tokenizers.ByteLevel.alphabet())
    tokenizer = tokenizers.Tokenizer(tokenizers.models.BPE({char: index for index, char in enumerate(alphabet)}, []))
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tokenizer.add_special_tokens(list(SPECIAL_TOKENS))
    return tokenizer


def episode(answers: int) -> dict[str, Any]:
    """An OpenAI Chat body: a question, ``answers - 1`` calling answers with their results, a final answer."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are an agent."},
        {"role": "user", "content": "Find the weather in every city on the list."},
    ]
    for step in range(answers - 1):
        arguments = f'{{"city": "City {step}"}}'
        call = {"id": f"call_{step}", "type": "function", "function": {"name": "get_weather", "arguments": arguments}}
        messages.append(
            {"role": "assistant", "content": None, "reasoning_content": f"Look up city {step}.", "tool_calls": [call]}
        )
        messages.append({"role": "tool", "tool_call_id": f"call_{step}", "content": f"City {step}: sunny"})
    messages.append({"role": "assistant", "content": "All sunny.", "reasoning_content": "Every result is in."})
    return {"messages": messages}


def best_of(runs: int, call: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, nargs="+", default=[5, 10, 20])
    parser.add_argument("--template", default="qwen3-training")
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args()
    tokenizer = byte_tokenizer()
    print("| answers | render_turns | one render, every answer trained |")
    print("| --- | --- | --- |")
    for answers in arguments.answers:
        body = episode(answers)
        options: dict[str, Any] = {"source": "openai-chat", "template": arguments.template, "tokenizer": tokenizer}
        turns = best_of(arguments.runs, functools.partial(chatcodec.render_turns, body, on_loss="ignore", **options))
        whole = best_of(
            arguments.runs,
            functools.partial(chatcodec.render, body, on_loss="ignore", train_on="all_assistant_messages", **options),
        )
        print(f"| {answers} | {turns * 1000:,.0f} ms | {whole * 1000:,.0f} ms |")


if __name__ == "__main__":
    main()
