"""Conversations per second of ``chatcodec convert`` on a JSONL dataset, by worker count.

Generates a realistic dataset (the bundled agent session, ``examples/
agent_session.openai-chat.json``: a system prompt, two tools, an image, reasoning, two
rounds of parallel tool calls; each line with its own tool-call ids and user text),
then times the whole command (process start, reading, converting openai-chat ->
anthropic, writing) as a user runs it, ``--quiet`` so stderr does not dominate::

    python bench/convert_throughput.py                    # 5,000 lines, --workers 1 and 2, best of 3
    python bench/convert_throughput.py --lines 20000 --workers 1 2 4 --repeat 5

Every worker count must produce byte-identical output; the script fails otherwise.
"""

from __future__ import annotations

import argparse
import copy
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "agent_session.openai-chat.json"


def make_dataset(path: Path, lines: int) -> None:
    """Write ``lines`` variants of the example session, one JSON request per line."""
    session = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    with path.open("w", encoding="utf-8") as target:
        for index in range(lines):
            target.write(json.dumps(_variant(session, index)) + "\n")


def _variant(session: dict[str, Any], index: int) -> dict[str, Any]:
    variant = copy.deepcopy(session)
    for message in variant["messages"]:
        for call in message.get("tool_calls") or []:
            call["id"] = f"{call['id']}-{index}"
        if "tool_call_id" in message:
            message["tool_call_id"] = f"{message['tool_call_id']}-{index}"
        if message["role"] == "user" and isinstance(message["content"], str):
            message["content"] = f"[session {index}] {message['content']}"
    return variant


def time_convert(source: Path, out: Path, workers: int) -> tuple[float, float]:
    """Wall and CPU seconds (the command and its workers) of one ``chatcodec convert`` run.

    Fails unless every line converted. CPU time does not depend on what else the machine
    runs, so ``conv/CPU s`` compares worker counts fairly on a busy machine; ``cores``
    (CPU / wall) shows how much of the machine the run actually got.
    """
    command = [sys.executable, "-m", "chatcodec", "convert", str(source), "--from", "openai-chat"]
    command += ["--to", "anthropic", "--quiet", "--out", str(out), "--workers", str(workers)]
    before = _children_cpu()
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"convert exited {result.returncode}:\n{result.stderr}")
    return elapsed, _children_cpu() - before


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=5_000, help="conversations in the dataset")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts to time")
    parser.add_argument("--repeat", type=int, default=3, help="runs per worker count (best and median shown)")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "sessions.jsonl"
        make_dataset(source, arguments.lines)
        size = source.stat().st_size
        print(f"{arguments.lines:,} conversations, {size / 1e6:.1f} MB, openai-chat -> anthropic")
        print(f"{'workers':>7}  {'best s':>7}  {'median s':>8}  {'conv/s best':>11}  {'conv/s median':>13}", end="")
        print(f"  {'conv/CPU s':>10}  {'cores':>5}")
        reference: bytes | None = None
        for workers in arguments.workers:
            out = Path(folder) / f"out-{workers}.jsonl"
            runs = [time_convert(source, out, workers) for _ in range(arguments.repeat)]
            output = out.read_bytes()
            if reference is not None and output != reference:
                raise SystemExit(f"--workers {workers} wrote different output")
            reference = output
            walls = [wall for wall, _ in runs]
            best, median = min(walls), statistics.median(walls)
            cpu = statistics.median(cpu for _, cpu in runs)
            print(f"{workers:>7}  {best:>7.2f}  {median:>8.2f}  {arguments.lines / best:>11,.0f}", end="")
            print(f"  {arguments.lines / median:>13,.0f}  {arguments.lines / cpu:>10,.0f}  {cpu / median:>5.2f}")


if __name__ == "__main__":
    main()
