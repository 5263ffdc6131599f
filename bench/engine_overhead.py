"""Where an engine's CPU goes when it converts rows with ArrowConverter (issue 51's profile).

Ray Data and Spark reached 0.68x and 0.74x of the in-process rows per CPU-second on 200k
rows. This script measures, on a small local engine (one CPU), the converter's own CPU
inside the worker (``time.process_time`` around each batch's call) against the CPU every
process of the engine spent during the run (``/proc``: the driver, Ray's actors and
workers; Spark's JVM and Python workers)::

    python bench/engine_overhead.py ray 3000 [BATCH_ROWS]
    PYSPARK_PYTHON=$PWD/.venv/bin/python python bench/engine_overhead.py spark 2000

The converter's CPU per row equals ``convert_payload``'s in process (ArrowConverter on
Arrow batches in process: 1.0x); the rest is the engine's (see bench/RESULTS.md).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyarrow as pa

from bench.dataset_engines import TO_ANTHROPIC, _rows


def _process_cpu(root: int) -> dict[int, tuple[float, str]]:
    """CPU seconds (user + system, children waited for included) of ``root`` and its descendants."""
    ticks = os.sysconf("SC_CLK_TCK")
    found: dict[int, tuple[int, float, str]] = {}
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()
            command = Path(f"/proc/{name}/cmdline").read_text().replace("\0", " ")[:70]
        except OSError:
            continue
        seconds = sum(int(value) for value in fields[11:15]) / ticks
        found[int(name)] = (int(fields[1]), seconds, command)
    tree = {root}
    grown = True
    while grown:
        grown = False
        for pid, (parent, _, _) in found.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                grown = True
    return {pid: (found[pid][1], found[pid][2]) for pid in tree if pid in found}


def _timed(converter: Any, batch: Any) -> Any:
    started = time.process_time()
    converted = converter(batch)
    spent = time.process_time() - started
    return pa.table({"cpu": [spent] + [0.0] * (len(converted) - 1)})


def _converter() -> Any:
    from chatcodec.datasets import ArrowConverter

    return ArrowConverter(source="openai-chat", target="anthropic", column="request", options=TO_ANTHROPIC)


class Run:
    """The CPU of the engine's processes from :meth:`start` (after the engine started) to :meth:`stop`."""

    def start(self) -> None:
        self.before = {pid: seconds for pid, (seconds, _) in _process_cpu(os.getpid()).items()}
        self.started = time.monotonic()

    def stop(self) -> None:
        self.wall = time.monotonic() - self.started
        self.after = _process_cpu(os.getpid())


def run_ray(texts: list[str], batch_rows: int | None, run: Run) -> list[float]:
    import ray

    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
    converter = _converter()
    sizes = {"batch_size": batch_rows} if batch_rows else {}
    dataset = ray.data.from_arrow(pa.table({"request": texts}))
    run.start()
    rows = dataset.map_batches(lambda batch: _timed(converter, batch), batch_format="pyarrow", **sizes).take_all()
    run.stop()
    ray.shutdown()
    return [row["cpu"] for row in rows]


def run_spark(texts: list[str], run: Run) -> list[float]:
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").getOrCreate()
    frame = spark.createDataFrame([(text,) for text in texts], "request string").cache()
    frame.count()

    def convert_batches(batches: Iterator[Any]) -> Iterator[Any]:
        converter = _converter()
        for batch in batches:
            yield from _timed(converter, batch).to_batches()

    run.start()
    rows = frame.mapInArrow(convert_batches, "cpu double").collect()
    run.stop()
    spark.stop()
    return [row["cpu"] for row in rows]


def main() -> None:
    engine, count = sys.argv[1], int(sys.argv[2])
    texts = _rows(count)
    run = Run()
    batch_rows = int(sys.argv[3]) if len(sys.argv) > 3 else None
    inside = sum(run_ray(texts, batch_rows, run) if engine == "ray" else run_spark(texts, run))
    spent = {pid: seconds - run.before.get(pid, 0.0) for pid, (seconds, _) in run.after.items()}
    per_row = inside / count * 1e6
    print(
        f"{engine}, {count} rows: wall {run.wall:.1f} s; the converter {inside:.2f} CPU s ({per_row:.0f} us/row); "
        f"every process of the engine {sum(spent.values()):.2f} CPU s"
    )
    for pid, seconds in sorted(spent.items(), key=lambda item: -item[1])[:6]:
        print(f"  {seconds:7.2f} s  {run.after[pid][1]}")


if __name__ == "__main__":
    main()
