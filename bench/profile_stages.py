"""Where a validated OpenAI -> Anthropic conversion spends its time, stage by stage.

The main benchmark says how far chatcodec is from the plain-dict floor; this says why.
It times each stage of ``convert_request`` on its own input (interleaved rounds, medians,
ratios to the floor in the same run), using only the dev install::

    .venv/bin/python bench/profile_stages.py            # 50 turns, after make test
    python bench/profile_stages.py --turns 200

Stages: wire validation of the OpenAI body, mapping wire messages to canonical dicts,
validating the canonical request into models (the models alone, and through the API
boundary, which first reads the accepted dialects), and encoding the models for
Anthropic.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import chatcodec
from bench.floor import openai_to_anthropic
from bench.workloads import ANTHROPIC_OPTIONS, openai_session
from chatcodec._providers.contract.context import DecodeContext
from chatcodec._providers.openai_chat.messages import decode_messages
from chatcodec._providers.openai_chat.wire_validators import request_adapter


def _stages(request: dict[str, Any]) -> dict[str, Callable[[], object]]:
    model = chatcodec.decode_request("openai-chat", request)
    canonical = model.model_dump()
    wire = dict(request_adapter().validate_python(request))
    return {
        "floor (plain dicts)": lambda: openai_to_anthropic(request),
        "convert_request, whole": lambda: chatcodec.convert_request(
            request, source="openai-chat", target="anthropic", on_loss="ignore", options=ANTHROPIC_OPTIONS
        ),
        "1 wire validation": lambda: request_adapter().validate_python(request),
        "2 wire -> canonical dicts": lambda: decode_messages(wire["messages"], DecodeContext("openai-chat")),
        "3 canonical validation": lambda: chatcodec.ChatRequest.model_validate(canonical),
        "4 encode for anthropic": lambda: chatcodec.encode_request(
            "anthropic", model, on_loss="ignore", options=ANTHROPIC_OPTIONS
        ),
    }


def _medians(stages: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    samples: dict[str, list[float]] = {name: [] for name in stages}
    for _ in range(rounds):
        for name, call in stages.items():
            start = time.perf_counter()
            call()
            samples[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=30)
    arguments = parser.parse_args()
    request = openai_session(arguments.turns)
    medians = _medians(_stages(request), arguments.rounds)
    floor = medians["floor (plain dicts)"]
    canonical = chatcodec.decode_request("openai-chat", request).model_dump()
    medians["3b validate_model, dialects read first"] = _medians(
        {"boundary": lambda: chatcodec.validate_model(chatcodec.ChatRequest, canonical)}, arguments.rounds
    )["boundary"]
    print(f"{arguments.turns} turns, {len(request['messages'])} messages; medians of {arguments.rounds} rounds")
    for name, seconds in medians.items():
        print(f"{name:45s} {seconds * 1e3:8.2f} ms  {seconds / floor:6.2f}x floor")


if __name__ == "__main__":
    main()
