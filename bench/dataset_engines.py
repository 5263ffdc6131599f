"""Measurements of the dataset paths (issue 34): engines against in process, Parquet against JSON lines.

Everything converts the same rows: variants of the bundled agent session
(:func:`bench.convert_throughput.make_dataset`), OpenAI Chat -> Anthropic. Every
contender's output is checked against the in-process conversion before its time counts.

* :func:`engine_seconds`: seconds per row, one worker, of ``convert_payload`` in process,
  of :class:`~chatcodec.datasets.ArrowConverter` on Arrow batches in process, in Hugging
  Face ``datasets`` (``map(batched=True)`` in this process) and in Ray Data (a local Ray
  with one CPU: one worker); wall clock, medians of interleaved rounds.
* :func:`command_runs`: CPU seconds per row and peak memory of ``chatcodec convert`` on
  JSON lines and on Parquet files (a JSON text column, and the columnar form).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.convert_throughput import BYTECODE, make_dataset
from chatcodec._registry import get_codec

BATCH_ROWS = 1024
TO_ANTHROPIC = {"max_tokens": 1024}


def _rows(count: int) -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rows.jsonl"
        make_dataset(path, count)
        return path.read_text(encoding="utf-8").splitlines()


def _expected(texts: list[str]) -> list[dict[str, Any]]:
    from chatcodec.batch._convert import ConvertOptions, convert_payload

    options = ConvertOptions("openai-chat", "anthropic", encoder_options=tuple(TO_ANTHROPIC.items()))
    return [convert_payload(text.encode(), options).converted or {} for text in texts]


def engine_seconds(count: int, rounds: int) -> dict[str, EngineRun]:
    """Seconds per row, one worker, of each engine (see the module docstring)."""
    import pyarrow as pa

    from chatcodec.batch._convert import ConvertOptions, convert_payload
    from chatcodec.batch._json_dump import dump_json
    from chatcodec.datasets import ArrowConverter

    texts = _rows(count)
    expected = _expected(texts)
    table = pa.table({"request": texts})
    converter = ArrowConverter(source="openai-chat", target="anthropic", column="request", options=TO_ANTHROPIC)
    options = ConvertOptions("openai-chat", "anthropic", encoder_options=tuple(TO_ANTHROPIC.items()))

    def in_process() -> list[str]:
        return [dump_json(convert_payload(text.encode(), options).converted).decode() for text in texts]

    def arrow_batches() -> list[str]:
        converted: list[str] = []
        for start in range(0, count, BATCH_ROWS):
            converted += converter(table.slice(start, BATCH_ROWS)).column("anthropic_request").to_pylist()
        return converted

    runs: dict[str, Callable[[], Callable[[], list[str]]]] = {
        "in process: `convert_payload(line)` + `dump_json`": lambda: (
            (converted := in_process()) and (lambda: converted)
        ),
        "`ArrowConverter` on Arrow batches, in process": lambda: (converted := arrow_batches()) and (lambda: converted),
        "Hugging Face `datasets` `map(batched=True)`, Arrow format": _hugging_face(table, converter),
        "Ray Data `map_batches(batch_format='pyarrow')`, 1 CPU": _ray(table, converter),
    }
    for name, run in runs.items():
        if [json.loads(text) for text in run()()] != expected:
            raise SystemExit(f"{name} converted other payloads than convert_payload in process")
    walls: dict[str, list[float]] = {name: [] for name in runs}
    cpus: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            started, started_cpu = time.perf_counter(), time.process_time()
            run()
            walls[name].append((time.perf_counter() - started) / count)
            cpus[name].append((time.process_time() - started_cpu) / count)
    return {name: EngineRun(statistics.median(walls[name]), statistics.median(cpus[name])) for name in runs}


@dataclass(frozen=True)
class EngineRun:
    """Seconds per row of one engine: wall clock, and this process's CPU time (all of the
    work for the engines that run here; for Ray, only the driver's part)."""

    wall: float
    cpu: float


def _eager(convert: Callable[[], list[str]]) -> Callable[[], Callable[[], list[str]]]:
    """A conversion whose output is already Python values, in the shape of the engines' runs."""

    def run() -> Callable[[], list[str]]:
        converted = convert()
        return lambda: converted

    return run


def _hugging_face(table: Any, converter: Any) -> Callable[[], Callable[[], list[str]]]:
    """One conversion of ``table`` (timed); it returns how to read its output (untimed)."""
    os.environ["HF_DATASETS_OFFLINE"] = "1"
    import datasets

    datasets.disable_progress_bars()
    dataset = datasets.Dataset(table).with_format("arrow")

    def run() -> Callable[[], list[str]]:
        mapped = dataset.map(
            converter, batched=True, batch_size=BATCH_ROWS, keep_in_memory=True, load_from_cache_file=False
        )
        return lambda: mapped.data.column("anthropic_request").to_pylist()

    return run


def _ray(table: Any, converter: Any) -> Callable[[], Callable[[], list[str]]]:
    """One conversion of ``table`` into Ray's object store (timed); it returns how to read
    its output (untimed: fetching every row to this process is not the worker's work)."""
    os.environ["RAY_AUTH_MODE"] = "disabled"
    import ray

    if not ray.is_initialized():
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    dataset = ray.data.from_arrow(table).materialize()

    def run() -> Callable[[], list[str]]:
        mapped = dataset.map_batches(converter, batch_format="pyarrow", batch_size=BATCH_ROWS).materialize()
        return lambda: [row["anthropic_request"] for row in mapped.take_all()]

    return run


@dataclass(frozen=True)
class CommandRun:
    """One ``chatcodec convert`` job: CPU seconds per row (the slope between two sizes, so
    the command's start, imports included, is apart), its start, and its peak memory."""

    cpu_per_row: float
    start: float
    peak_bytes: int


JOBS = {
    "JSON lines -> JSON lines": ("rows.jsonl", "out.jsonl", "openai-chat", "anthropic"),
    "Parquet (JSON text column) -> Parquet": ("rows.parquet", "out.parquet", "openai-chat", "anthropic"),
    "JSON lines -> canonical JSON lines": ("rows.jsonl", "canonical.jsonl", "openai-chat", "canonical"),
    "JSON lines -> canonical Parquet (columnar form)": ("rows.jsonl", "columnar.parquet", "openai-chat", "canonical"),
    "canonical Parquet (columnar form) -> Parquet": ("canonical.parquet", "out2.parquet", "canonical", "anthropic"),
}
"""Each job: input file, output file, source and target format."""


def command_runs(count: int, repeat: int) -> dict[str, CommandRun]:
    """``chatcodec convert`` on the same rows as JSON lines and as Parquet, at ``count``
    and ``3 * count`` rows (medians of ``repeat``)."""
    samples: dict[str, list[tuple[float, float, int]]] = {job: [] for job in JOBS}
    with tempfile.TemporaryDirectory() as small, tempfile.TemporaryDirectory() as large:
        folders = (_inputs(Path(small), count), _inputs(Path(large), 3 * count))
        for _ in range(repeat):
            for job, (source, out, source_format, target) in JOBS.items():
                (cpu_small, peak_small), (cpu_large, peak_large) = (
                    _convert(folder, source, out, source_format, target) for folder in folders
                )
                per_row = (cpu_large - cpu_small) / (2 * count)
                samples[job].append((per_row, cpu_small - per_row * count, max(peak_small, peak_large)))
        _check(folders[1])
    return {
        job: CommandRun(
            statistics.median(run[0] for run in runs),
            statistics.median(run[1] for run in runs),
            max(run[2] for run in runs),
        )
        for job, runs in samples.items()
    }


def _inputs(folder: Path, count: int) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    lines = folder / "rows.jsonl"
    make_dataset(lines, count)
    pq.write_table(pa.table({"request": lines.read_text(encoding="utf-8").splitlines()}), folder / "rows.parquet")
    _convert(folder, "rows.jsonl", "canonical.parquet", "openai-chat", "canonical")
    return folder


def _check(folder: Path) -> None:
    """Every job wrote the same payloads (the Parquet outputs as the JSON lines output)."""
    import pyarrow.parquet as pq

    outputs = [json.loads(text) for text in (folder / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    for parquet_out in ("out.parquet", "out2.parquet"):
        texts = pq.read_table(folder / parquet_out).column("anthropic_request").to_pylist()
        if [json.loads(text) for text in texts] != outputs:
            raise SystemExit(f"{parquet_out} holds other payloads than the JSON lines output")


FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"

FORMAT_JOBS = {
    "openai-batch": "anthropic-batch",
    "anthropic-batch": "openai-batch",
    "bedrock-batch": "openai-batch",
    "gemini-batch": "openai-batch",
    "vertex-batch": "gemini-batch",
    "openai-batch-output": "anthropic-batch-results",
    "anthropic-batch-results": "openai-batch-output",
    "bedrock-batch-output": "openai-batch-output",
    "gemini-batch-output": "openai-batch-output",
    "sharegpt": "openai-chat",
    "trl-prompt-completion": "openai-chat",
    "trl-preference": "openai-dpo",
    "openai-dpo": "trl-preference",
    "sharegpt-preference": "openai-dpo",
    "verifiers": "openai-chat",
}
"""Each batch envelope and training dialect (its documented example file under
``tests/fixtures/envelopes`` or ``tests/fixtures/training``) and the format it is
converted to."""


@dataclass(frozen=True)
class FormatRun:
    """One format's ``chatcodec convert`` run: CPU time per row and output bytes per row."""

    cpu_per_row: float
    input_bytes_per_row: float
    output_bytes_per_row: float


def format_runs(count: int, repeat: int) -> dict[str, FormatRun]:
    """``chatcodec convert`` from each envelope and training format (:data:`FORMAT_JOBS`),
    its example rows repeated to ``count`` and ``3 * count`` rows: CPU time per row as the
    slope between the two sizes (medians of ``repeat``), and the sizes per row."""
    runs: dict[str, FormatRun] = {}
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        for source, target in FORMAT_JOBS.items():
            example = next(
                FIXTURES / kind / f"{source}.jsonl"
                for kind in ("envelopes", "training")
                if (FIXTURES / kind / f"{source}.jsonl").exists()
            )
            lines = [line for line in example.read_text(encoding="utf-8").splitlines() if line.strip()]
            sizes = (count, 3 * count)
            for size in sizes:
                (folder / f"in{size}.jsonl").write_text(
                    "".join(lines[index % len(lines)] + "\n" for index in range(size)), encoding="utf-8"
                )
            slopes = []
            for _ in range(repeat):
                small, large = (
                    _command(folder, f"in{size}.jsonl", f"out{size}.jsonl", ["--from", source, "--to", target])[0]
                    for size in sizes
                )
                slopes.append((large - small) / (2 * count))
            big = 3 * count
            runs[f"{source} -> {target}"] = FormatRun(
                statistics.median(slopes),
                (folder / f"in{big}.jsonl").stat().st_size / big,
                (folder / f"out{big}.jsonl").stat().st_size / big,
            )
    return runs


def _convert(folder: Path, source: str, out: str, source_format: str, target: str) -> tuple[float, int]:
    """CPU seconds (from the command's own ``wait4``) and peak RSS of one command, the
    latter read from its ``/proc/self/status`` as it exits: ``ru_maxrss`` would count the
    memory of this process, which the command is forked from."""
    cap = ["--option", "max_tokens=1024"] if "max_tokens" in get_codec(target).options else []  # options refuse strays
    return _command(folder, source, out, ["--from", source_format, "--to", target, *cap])


def _command(folder: Path, source: str, out: str, options: list[str]) -> tuple[float, int]:
    """CPU seconds and peak RSS of ``chatcodec convert`` on ``source`` with ``options``."""
    (folder / out).unlink(missing_ok=True)
    report = folder / "status.txt"
    arguments = [str(folder / source), *options, "--quiet", "--out", str(folder / out)]
    probe = (
        "import atexit, runpy, sys\n"
        f"atexit.register(lambda: open({str(report)!r}, 'w').write(open('/proc/self/status').read()))\n"
        f"sys.argv = ['chatcodec', 'convert', *{arguments!r}]\n"
        "runpy.run_module('chatcodec', run_name='__main__')"
    )
    import chatcodec

    tree = str(Path(chatcodec.__file__).resolve().parent.parent)
    environment = {**os.environ, "PYTHONPATH": tree, "PYTHONPYCACHEPREFIX": str(BYTECODE)}
    process = subprocess.Popen(
        [sys.executable, "-c", probe], env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"convert {source} exited {process.returncode}")
    peak = next(line for line in report.read_text().splitlines() if line.startswith("VmHWM:"))
    return usage.ru_utime + usage.ru_stime, int(peak.split()[1]) * 1024
