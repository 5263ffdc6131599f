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
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "agent_session.openai-chat.json"
BYTECODE = Path(tempfile.gettempdir()) / "chatcodec-bench-bytecode"
"""Where the timed command keeps its bytecode (``PYTHONPYCACHEPREFIX``): an installed
chatcodec has its ``.pyc`` files, so the command must not compile its modules on every
run, which it did where ``PYTHONDONTWRITEBYTECODE`` is set (~45 ms a run)."""


def make_dataset(path: Path, lines: int, session: dict[str, Any] | None = None) -> None:
    """Write ``lines`` variants of ``session`` (the example session unless given), one
    JSON request per line."""
    session = session or json.loads(EXAMPLE.read_text(encoding="utf-8"))
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
    (CPU / wall) shows how much of the machine the run actually got. ``out`` is written
    afresh: the previous run's output is deleted first, untimed (truncating ~200 MB in
    the command cost it ~15 ms of CPU that no conversion needs).
    """
    command = [sys.executable, "-m", "chatcodec", "convert", str(source), "--from", "openai-chat"]
    command += ["--to", "anthropic", "--quiet", "--out", str(out), "--workers", str(workers)]
    out.unlink(missing_ok=True)
    before = _children_cpu()
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False, env=_with_tree_first())
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"convert exited {result.returncode}:\n{result.stderr}")
    return elapsed, _children_cpu() - before


def per_core_against_in_process(
    lines: int, session: dict[str, Any] | None = None, repeat: int = 3
) -> tuple[float, float, float]:
    """CPU seconds per line of ``chatcodec convert --workers 1 --quiet`` (process start,
    reading, converting, writing), of the same conversion in process collecting the
    losses (``convert_request(line bytes, losses=...)`` then ``batch.dump_json``, as the
    command writes it and counts its losses), and of it ignoring them; medians of
    ``repeat`` interleaved runs. CPU time, so other processes on shared cores do not
    count. Fails unless all wrote the same bytes."""
    with tempfile.TemporaryDirectory() as folder:
        source, out = Path(folder) / "sessions.jsonl", Path(folder) / "out.jsonl"
        make_dataset(source, lines, session)
        texts = source.read_bytes().splitlines()
        warm_bytecode(Path(folder), session)
        runs: dict[str, list[float]] = {"command": [], "collecting": [], "ignoring": []}
        for _ in range(repeat):
            runs["command"].append(time_convert(source, out, 1)[1])
            for collect in (True, False):
                cpu, written = _in_process(texts, collect=collect)
                runs["collecting" if collect else "ignoring"].append(cpu)
                if written != out.read_bytes():
                    raise SystemExit("chatcodec convert wrote other bytes than convert_request in process")
    command, collecting, ignoring = (statistics.median(runs[key]) / lines for key in runs)
    return command, collecting, ignoring


def warm_bytecode(folder: Path, session: dict[str, Any] | None = None) -> None:
    """Run the command once, untimed, on a few lines: its modules' bytecode is then
    cached (:data:`BYTECODE`), as an installed package's is."""
    source, out = folder / "warm.jsonl", folder / "warm.out.jsonl"
    make_dataset(source, 3, session)
    time_convert(source, out, 1)


def _in_process(texts: list[bytes], *, collect: bool) -> tuple[float, bytes]:
    import chatcodec
    from chatcodec.batch._json_dump import dump_json

    losses: list[chatcodec.Loss] | None = [] if collect else None
    started = time.process_time()
    written = [
        dump_json(
            chatcodec.convert_request(text, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses)
        )
        + b"\n"
        for text in texts
    ]
    return time.process_time() - started, b"".join(written)


def _with_tree_first() -> dict[str, str]:
    """The environment with the chatcodec this process imports first on the path: the
    command then runs the tree under test (a worktree), not the venv's install; its
    bytecode is cached (:data:`BYTECODE`)."""
    import chatcodec

    tree = str(Path(chatcodec.__file__).resolve().parent.parent)
    path = os.pathsep.join([tree, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    environment = {**os.environ, "PYTHONPATH": path, "PYTHONPYCACHEPREFIX": str(BYTECODE)}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return environment


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
        warm_bytecode(Path(folder))
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
