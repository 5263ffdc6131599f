"""The dataset route: many distinct rows, each converted once (issue 81), ``make bench-dataset``.

A dataset row, like a new gateway tenant or a ``chatcodec convert`` run, is met for the first
time: nothing chatcodec remembers (``docs/performance.md``, "Memories") was proved on it. The
rows (:func:`rows`, seeded, every one distinct) are OpenAI Chat requests for a Claude model as a
chat or agent dataset holds them: a system prompt, one to four exchanges, a third with one or
two tool calls and their short results, some with a small image or text parts, some with
reasoning; each is converted to Anthropic.

* *Instructions per row* (callgrind, load-independent): one process under ``valgrind
  --tool=callgrind --instr-atstart=no`` converts :data:`WARM_ROWS` rows, then counts each
  contender over two samples of distinct rows no contender saw before (``--samples``, default
  300 and 1,200 rows: the per-row figure of both is printed, so that it is seen stable):
  chatcodec's ``convert_request`` per row from the row's dict and from its JSON line (and that
  with its answer written as a JSON line, as the CLI writes it: the loop the CLI is measured
  against does the same job), litellm's
  converter loop (``anthropic_messages_pt`` with the system step: system and messages only,
  its cheapest; and its request transform) and the bench's floor. The CLI (``chatcodec convert
  --workers 1`` on a JSONL file) runs whole under callgrind on the first ``n1`` and the first
  ``n2`` rows: its per-row figure is the difference over ``n2 - n1`` (the start cancels).
* *Peak memory* (no valgrind): one process converts 100,000 rows (``--rows``) from their dicts,
  made one at a time, and prints its ``ru_maxrss`` and the memory ``tracemalloc`` holds after
  10,000, 50,000 and 100,000 rows; ``chatcodec convert`` runs on the first 10,000, 50,000 and
  100,000 lines of a JSONL file, each run's ``ru_maxrss`` and CPU seconds from ``wait4``.

``python bench/dataset_route.py [--rows 100000] [--samples 300 1200] [--skip-memory] [--skip-instructions]``
(in the bench's venv: litellm 1.106.2; ``PYTHONPATH=src`` to count a checkout's tree).
"""

from __future__ import annotations

import argparse
import base64
import gc
import json
import os
import random
import string
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SOURCE, TARGET = "openai-chat", "anthropic"
SEED = 81
WARM_ROWS = 200
CHECKPOINTS = (10_000, 50_000, 100_000)
CLI = "import sys; from chatcodec.cli import main; sys.exit(main())"
"""The ``chatcodec`` console script's body, run by the interpreter the bench runs (``-c``)."""

_VOCABULARY = (
    "the a report sales quarter region revenue customer order invoice table query result chart growth "
    "decline week month year team product price cost margin forecast plan review summary draft email "
    "meeting notes schedule update please could you explain why how what when show list compare find"
)
_WORDS = tuple(_VOCABULARY.split())
_SYSTEMS = (
    "You are a helpful assistant.",
    "You are Ledger, a careful data-analysis agent. Use the tools; never guess numbers.",
    "You are a support agent for ACME Corp. Be brief, polite and precise.",
    "You write clear, correct Python. Explain your reasoning briefly before the code.",
)
_TOOLS = (
    ("run_sql", "Run a read-only SQL query.", {"query": {"type": "string"}}),
    ("get_weather", "The weather at a place.", {"city": {"type": "string"}, "unit": {"type": "string"}}),
    ("search_docs", "Search the documentation.", {"query": {"type": "string"}, "limit": {"type": "integer"}}),
)
_PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"


def _text(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(low, high))).capitalize() + "."


def _tool(name: str, description: str, properties: dict[str, Any]) -> dict[str, Any]:
    parameters = {"type": "object", "properties": properties, "required": list(properties)[:1]}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


def _arguments(rng: random.Random, name: str) -> str:
    match name:
        case "run_sql":
            value: dict[str, Any] = {"query": f"SELECT * FROM sales WHERE week = {rng.randint(1, 52)} LIMIT 20"}
        case "get_weather":
            value = {"city": rng.choice(("Paris", "Lagos", "Lima", "Osaka")), "unit": rng.choice(("c", "f"))}
        case _:
            value = {"query": _text(rng, 2, 5), "limit": rng.choice((3, 5, 10))}
    return json.dumps(value)


def _user(rng: random.Random) -> dict[str, Any]:
    kind = rng.random()
    if kind < 0.08:
        image = _PNG + rng.randbytes(rng.randint(600, 2400))
        url = "data:image/png;base64," + base64.b64encode(image).decode("ascii")
        parts = [{"type": "text", "text": _text(rng, 5, 20)}, {"type": "image_url", "image_url": {"url": url}}]
        return {"role": "user", "content": parts}
    if kind < 0.2:
        return {"role": "user", "content": [{"type": "text", "text": _text(rng, 5, 40)}]}
    return {"role": "user", "content": _text(rng, 4, 60)}


def _tool_exchange(rng: random.Random, tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    calls = []
    for _ in range(rng.choice((1, 1, 2))):
        name = rng.choice(tools)["function"]["name"]
        identifier = "call_" + "".join(rng.choices(string.ascii_letters + string.digits, k=24))
        calls.append(
            {"id": identifier, "type": "function", "function": {"name": name, "arguments": _arguments(rng, name)}}
        )
    assistant: dict[str, Any] = {"role": "assistant", "content": _text(rng, 3, 12) if rng.random() < 0.4 else None}
    assistant["tool_calls"] = calls
    results = [{"role": "tool", "tool_call_id": call["id"], "content": _text(rng, 3, 30)} for call in calls]
    return [assistant, *results, {"role": "assistant", "content": _text(rng, 10, 80)}]


def row(rng: random.Random) -> dict[str, Any]:
    """One dataset row: an OpenAI Chat request for a Claude model."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": rng.choice(_SYSTEMS)}]
    with_tools = rng.random() < 0.33
    tools = [_tool(*spec) for spec in _TOOLS[: rng.randint(1, 3)]] if with_tools else []
    for exchange in range(rng.randint(1, 4)):
        messages.append(_user(rng))
        if with_tools and exchange == 0:
            messages.extend(_tool_exchange(rng, tools))
            continue
        answer: dict[str, Any] = {"role": "assistant", "content": _text(rng, 10, 120)}
        messages.append(answer)
    messages.append(_user(rng))
    request: dict[str, Any] = {"model": "claude-sonnet-4-5", "messages": messages, "max_tokens": 1024}
    if tools:
        request["tools"] = tools
        request["tool_choice"] = "auto"
    if rng.random() < 0.3:
        request["temperature"] = round(rng.random(), 2)
    return request


def rows(count: int, start: int = 0, seed: int = SEED) -> Iterator[dict[str, Any]]:
    """Rows ``start`` to ``start + count`` of the dataset (every row its own seed: distinct, and any
    slice made without the rows before it)."""
    for index in range(start, start + count):
        yield row(random.Random(seed * 1_000_003 + index))


# --- instructions per row ------------------------------------------------------------------------


Contender = Callable[[dict[str, Any], bytes], object]


def _contenders() -> dict[str, Contender]:
    from litellm.litellm_core_utils.prompt_templates.factory import anthropic_messages_pt
    from litellm.llms.anthropic.chat.transformation import AnthropicConfig

    import chatcodec
    from bench import floor
    from bench.anchors_litellm import _leading_system

    config = AnthropicConfig()

    def converter(body: dict[str, Any], _: bytes) -> object:
        messages = body["messages"]
        leading = _leading_system(messages)
        system = config.translate_system_message(messages=messages[:leading])
        return {"system": system, "messages": anthropic_messages_pt(messages[leading:], body["model"], "anthropic")}

    def transform(body: dict[str, Any], _: bytes) -> object:
        settings = {key: value for key, value in body.items() if key not in ("model", "messages")}
        model = body["model"]
        optional = config.map_openai_params(
            non_default_params=settings, optional_params={}, model=model, drop_params=False
        )
        return config.transform_request(
            model=model, messages=body["messages"], optional_params=optional, litellm_params={}, headers={}
        )

    return {
        "chatcodec convert_request, dict": lambda body, _: chatcodec.convert_request(
            body, source=SOURCE, target=TARGET, on_loss="ignore"
        ),
        "chatcodec convert_request, JSON line": lambda _, line: chatcodec.convert_request(
            line, source=SOURCE, target=TARGET, on_loss="ignore"
        ),
        "chatcodec convert_request, JSON line in, JSON line out": lambda _, line: json.dumps(
            chatcodec.convert_request(line, source=SOURCE, target=TARGET, on_loss="ignore"), ensure_ascii=False
        ).encode(),
        "litellm converter (system and messages only)": converter,
        "litellm request transform": transform,
        "floor": lambda body, _: floor.openai_to_anthropic(body),
        "json.loads of the line": lambda _, line: json.loads(line),
    }


def _check(warm: list[tuple[dict[str, Any], bytes]], contenders: dict[str, Contender]) -> None:
    """Convert the warm-up rows with every contender, each output checked to say what its row says
    (:mod:`bench.agent_views`, system and messages only for litellm's converter)."""
    from bench import agent_sources

    view, bare = (agent_sources.viewer(SOURCE, TARGET, messages_only=only) for only in (False, True))
    for body, line in warm:
        expected = agent_sources.expected(body, SOURCE, TARGET)
        only_messages = agent_sources.expected(body, SOURCE, TARGET, messages_only=True)
        for name, call in contenders.items():
            written = call(body, line)
            if name.startswith("json.loads"):
                continue
            if isinstance(written, bytes):  # an answer written as a JSON line, as the CLI writes it
                written = json.loads(written)
            seen = bare(written) if "messages only" in name else view(written)
            if seen != (only_messages if "messages only" in name else expected):
                raise SystemExit(f"{name} does not say what the row says: {line[:300]!r}")


def child(library: Path, samples: Sequence[int]) -> int:
    """Under callgrind: warm up, then count each contender on each sample of fresh rows."""
    from bench import callgrind

    contenders = _contenders()
    start = 0

    def take(count: int) -> list[tuple[dict[str, Any], bytes]]:
        nonlocal start
        made = [(body, json.dumps(body).encode()) for body in rows(count, start)]
        start += count
        return made

    _check(take(WARM_ROWS), contenders)
    batches = {(name, size): take(size) for name in contenders for size in samples}
    requests = callgrind.Requests(library)
    gc.collect()
    gc.freeze()
    requests.start()
    for (name, size), batch in batches.items():
        call = contenders[name]
        gc.collect()
        requests.zero()
        for body, line in batch:
            call(body, line)
        requests.dump(f"{name}|{size}")
    requests.stop()
    return 0


def _cli_arguments(source: Path, out: Path) -> list[str]:
    command = ["-c", CLI, "convert", str(source), "--from", SOURCE, "--to", TARGET, "--out", str(out)]
    return [*command, "--workers", "1", "--quiet", "--progress", "none"]


def _write_rows(path: Path, count: int) -> None:
    with path.open("w", encoding="utf-8") as file:
        for body in rows(count):
            file.write(json.dumps(body) + "\n")


def instructions(samples: Sequence[int]) -> dict[str, float]:
    """Instructions per row of every contender and sample size, and of the CLI (``chatcodec convert``)."""
    from bench import callgrind

    per_row: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="chatcodec-dataset-") as temporary:
        folder = Path(temporary)
        library = callgrind.build(folder)
        dumps = folder / "dumps"
        dumps.mkdir()
        arguments = [str(Path(__file__).resolve()), "--child", str(library), "--samples", *map(str, samples)]
        callgrind.run(arguments, dumps, {"LITELLM_LOCAL_MODEL_COST_MAP": "True"})
        found = [(*dump.label.rpartition("|")[::2], dump.instructions) for dump in callgrind.read_dumps(dumps)]
        for name, size, total in sorted(found, key=lambda item: (item[0], int(item[1]))):
            per_row[f"{name}, {size} rows"] = total / int(size)
        totals: dict[int, int] = {}
        low, high = samples[0], samples[-1] * 2
        for size in (low, high):
            data = folder / f"rows-{size}.jsonl"
            _write_rows(data, size)
            totals[size] = _whole_run(_cli_arguments(data, folder / "out.jsonl"), folder / f"cli-{size}")
        per_row[f"chatcodec convert (CLI), rows {low + 1}-{high}"] = (totals[high] - totals[low]) / (high - low)
    return per_row


def _whole_run(arguments: list[str], directory: Path) -> int:
    """The instructions of a whole ``python ARGUMENTS`` process under callgrind."""
    directory.mkdir()
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={directory}/callgrind.out", sys.executable]
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    completed = subprocess.run([*command, *arguments], env=environment, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        raise SystemExit(f"the counted command failed:\n{completed.stderr[-4000:]}")
    text = (directory / "callgrind.out").read_text(errors="replace")
    return int(next(line for line in text.splitlines() if line.startswith(("summary:", "totals:"))).split()[1])


# --- peak memory ---------------------------------------------------------------------------------


def memory_child(total: int) -> int:
    """Convert ``total`` rows from their dicts, one at a time; print the peak and traced memory at each checkpoint."""
    import resource
    import tracemalloc

    import chatcodec

    tracemalloc.start()
    started = time.process_time()
    for index, body in enumerate(rows(total), 1):
        chatcodec.convert_request(body, source=SOURCE, target=TARGET, on_loss="ignore")
        if index in CHECKPOINTS or index == total:
            current, peak = tracemalloc.get_traced_memory()
            maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            seconds = time.process_time() - started
            print(
                json.dumps(
                    {"rows": index, "maxrss_kib": maxrss, "traced": current, "traced_peak": peak, "cpu": seconds}
                )
            )
    return 0


def memory(total: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """In-process (one run, its checkpoints) and CLI (one run per checkpoint) peak memory."""
    completed = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--memory-child", str(total)],
        capture_output=True,
        text=True,
        check=True,
    )
    in_process = [json.loads(line) for line in completed.stdout.splitlines() if line.startswith("{")]
    cli: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="chatcodec-dataset-") as temporary:
        folder = Path(temporary)
        for size in [size for size in CHECKPOINTS if size <= total] or [total]:
            data = folder / f"rows-{size}.jsonl"
            _write_rows(data, size)
            # this process holds no rows when it starts the command: a child's ru_maxrss counts the
            # image it was forked from
            gc.collect()
            process = subprocess.Popen([sys.executable, *_cli_arguments(data, folder / "out.jsonl")])
            _, status, usage = os.wait4(process.pid, 0)
            if status != 0:
                raise SystemExit(f"chatcodec convert failed on {size} rows")
            cli.append({"rows": size, "maxrss_kib": usage.ru_maxrss, "cpu": usage.ru_utime + usage.ru_stime})
            data.unlink()
    return in_process, cli


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--rows", type=int, default=CHECKPOINTS[-1])
    parser.add_argument("--samples", type=int, nargs="+", default=[300, 1200])
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--skip-instructions", action="store_true")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--memory-child", type=int, help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.child is not None:
        return child(arguments.child, arguments.samples)
    if arguments.memory_child is not None:
        return memory_child(arguments.memory_child)
    started = time.monotonic()
    if not arguments.skip_instructions:
        counts = instructions(sorted(arguments.samples))
        print("| contender (openai-chat -> anthropic, distinct rows) | instructions per row |")
        print("|---|---|")
        for name, value in counts.items():
            print(f"| {name} | {value / 1e3:.0f} k |")
        print()
    if not arguments.skip_memory:
        in_process, cli = memory(arguments.rows)
        print("| rows | in process: ru_maxrss | traced now | traced peak | CPU s | CLI: ru_maxrss | CPU s |")
        print("|---|---|---|---|---|---|---|")
        by_rows = {entry["rows"]: entry for entry in cli}
        for entry in in_process:
            other = by_rows.get(entry["rows"], {})
            print(
                f"| {entry['rows']:,} | {entry['maxrss_kib'] / 1024:.1f} MiB | {entry['traced'] / 2**20:.1f} MiB | "
                f"{entry['traced_peak'] / 2**20:.1f} MiB | {entry['cpu']:.1f} | "
                f"{other.get('maxrss_kib', 0) / 1024:.1f} MiB | {other.get('cpu', 0):.1f} |"
            )
    print(f"\nThe run took {time.monotonic() - started:.0f} s of wall clock.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
