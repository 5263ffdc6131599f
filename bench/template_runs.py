"""Instructions per chat-template run and per render under callgrind: what the template bounds cost.

Issue 108 checks the running budget at every ``for`` loop, ``+``, ``~``, written value, collected
macro output and measured builder (``tojson``, ``join``, ...). This counts one ``jinja.run`` of a
15-message agent conversation (a system prompt, a question, six calls with their reasoning and
results, a last answer; one tool) and one ``chatcodec.render`` of it to ids (the tiktoken
``Encoding`` of Qwen3's ranks, ``tests/training/qwen3_tokenizer.py``), per family, for the tree
on ``PYTHONPATH``; run it once per tree to compare two commits.

Each count is a region of ``k`` calls less a region of none, divided by ``k``, after a warm-up
call, in a process run by ``valgrind --tool=callgrind --instr-atstart=no`` (:mod:`bench.callgrind`).

``python bench/template_runs.py [--families qwen3 qwen3.5 gpt-oss qwen3-training] [--tree PATH]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import callgrind  # noqa: E402

ROUNDS = 20
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather of a city",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    }
]


def conversation() -> list[dict[str, Any]]:
    """The agent loop: 15 messages, six calls with reasoning."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are a helpful agent."},
        {"role": "user", "content": "Plan a trip across six cities and check the weather in each."},
    ]
    for index in range(6):
        call = {"type": "function", "function": {"name": "get_weather", "arguments": {"city": f"City{index}"}}}
        messages.append(
            {
                "role": "assistant",
                "content": "",
                "reasoning_content": f"I should check city {index} next, carefully.",
                "tool_calls": [call],
            }
        )
        messages.append({"role": "tool", "content": f"Rain, {10 + index} C"})
    messages.append(
        {"role": "assistant", "content": "All six cities are rainy; bring an umbrella.", "reasoning_content": "Done."}
    )
    return messages


def _counted(family: str, what: str, library: str) -> None:
    """The counted process: ``what`` (``run`` or ``render``) of the conversation, ROUNDS times."""
    sys.path.insert(0, str(ROOT / "tests"))
    from chatcodec import render
    from chatcodec._training import jinja
    from chatcodec._training.families import template_text
    from training.qwen3_tokenizer import qwen3_encoding

    messages, text, variables = conversation(), template_text(family), {"bos_token": "<s>", "eos_token": "</s>"}
    tokenizer = qwen3_encoding()

    def once() -> None:
        if what == "run":
            jinja.run(text, messages, tools=TOOLS, variables=variables)
        else:
            payload = {"messages": messages, "tools": TOOLS}
            render(payload, source="hf-chat", template=family, tokenizer=tokenizer, on_loss="ignore")

    once()
    requests = callgrind.Requests(Path(library))
    for rounds, label in ((0, "none"), (ROUNDS, "rounds")):
        requests.start()
        requests.zero()
        for _ in range(rounds):
            once()
        requests.dump(label)
        requests.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", nargs="+", default=["qwen3", "qwen3.5", "gpt-oss", "qwen3-training"])
    parser.add_argument("--counted", nargs=3, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.counted:
        _counted(*arguments.counted)
        return
    with tempfile.TemporaryDirectory() as scratch:
        library = callgrind.build(Path(scratch))
        print("| family | M instructions a template run | M instructions a render (tiktoken ids) |")
        print("|---|---|---|")
        for family in arguments.families:
            counts = []
            for what in ("run", "render"):
                with tempfile.TemporaryDirectory() as dumps:
                    command = [str(Path(__file__).resolve()), "--counted", family, what, str(library)]
                    try:
                        callgrind.run(command, Path(dumps))
                    except SystemExit:  # a family whose markers the Qwen3 vocabulary does not hold
                        counts.append("-")
                        continue
                    found = {dump.label: dump.instructions for dump in callgrind.read_dumps(Path(dumps))}
                    counts.append(f"{(found['rounds'] - found['none']) / ROUNDS / 1e6:.2f}")
            print(f"| {family} | {counts[0]} | {counts[1]} |")


if __name__ == "__main__":
    main()
