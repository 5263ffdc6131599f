"""A million conversations on a local Ray cluster: Parquet in, Parquet and a reject report out.

Writes ``--rows`` variants of the bundled agent session (OpenAI Chat requests, as JSON text
in a ``request`` column) as Parquet files, converts them to Anthropic requests with
:class:`chatcodec.datasets.ArrowConverter` in Ray Data (``map_batches`` on Arrow batches),
writes the converted rows as Parquet and the rejected ones (row, error) as JSON lines, and
prints rows per second and per worker::

    ray start --head --num-cpus 8            # a local cluster (or leave --address out: Ray starts one)
    python bench/ray_dataset.py --rows 1000000 --address auto --out /tmp/anthropic
    ray stop

Every row is accounted for: converted plus rejected equals the rows read, or the script fails.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def write_inputs(folder: Path, rows: int, rows_per_file: int = 10_000) -> None:
    """``rows`` requests as Parquet files of ``rows_per_file`` rows (a JSON text column)."""
    import json

    import pyarrow as pa
    import pyarrow.parquet as pq

    from bench.convert_throughput import _variant

    session = json.loads((ROOT / "examples" / "agent_session.openai-chat.json").read_text(encoding="utf-8"))
    folder.mkdir(parents=True, exist_ok=True)
    for start in range(0, rows, rows_per_file):
        count = min(rows_per_file, rows - start)
        texts = [json.dumps(_variant(session, start + index)) for index in range(count)]
        table = pa.table({"row": list(range(start, start + count)), "request": texts})
        pq.write_table(table, folder / f"part-{start // rows_per_file:05d}.parquet")


def write_rejects(converted: object, path: Path) -> tuple[int, int]:
    """The reject report (``{"row", "error"}`` per line) of the rows not converted; the
    rows seen and rejected."""
    import json

    import pyarrow.compute as pc

    total = rejects = 0
    with path.open("w", encoding="utf-8") as report:
        batches = converted.select_columns(["row", "chatcodec_error"]).iter_batches(batch_format="pyarrow")  # type: ignore[attr-defined]
        for batch in batches:
            total += batch.num_rows
            failed = batch.filter(pc.is_valid(batch.column("chatcodec_error")))
            rejects += failed.num_rows
            for row in failed.to_pylist():
                report.write(json.dumps({"row": row["row"], "error": row["chatcodec_error"]}) + "\n")
    return total, rejects


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--address", help="a running Ray cluster ('auto'); default: start a local one")
    parser.add_argument("--cpus", type=int, help="with no --address: the CPUs of the local Ray")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "chatcodec-ray-out")
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument(
        "--rows-per-file", type=int, default=10_000, help="input Parquet files' size (Ray reads files in parallel)"
    )
    options = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    import ray

    from chatcodec.datasets import ArrowConverter

    inputs = options.out.with_name(options.out.name + "-input")
    started = time.perf_counter()
    write_inputs(inputs, options.rows, options.rows_per_file)
    print(f"wrote {options.rows:,} rows in {time.perf_counter() - started:.1f} s to {inputs}", file=sys.stderr)
    ray.init(address=options.address, num_cpus=None if options.address else options.cpus, include_dashboard=False)
    workers = int(ray.cluster_resources().get("CPU", 1))
    to_anthropic = ArrowConverter(
        source="openai-chat", target="anthropic", column="request", options={"max_tokens": 1024}
    )
    started = time.perf_counter()
    converted = (
        ray.data.read_parquet(str(inputs))
        .map_batches(to_anthropic, batch_format="pyarrow", batch_size=options.batch_size)
        .materialize()
    )
    elapsed = time.perf_counter() - started
    converted.drop_columns(["request"]).write_parquet(str(options.out))  # every row: output, error, losses
    total, rejects = write_rejects(converted, Path(str(options.out) + ".rejects.jsonl"))
    if total != options.rows:
        raise SystemExit(f"read {options.rows:,} rows, got {total:,} back")
    rate = total / elapsed
    print(
        f"{total:,} rows ({rejects:,} rejected) in {elapsed:.1f} s on {workers} CPU(s): {rate:,.0f} rows/s, "
        f"{rate / workers:,.0f} rows/s per worker; output in {options.out}, rejects in {options.out}.rejects.jsonl"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
