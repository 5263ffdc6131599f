"""Section: conversations at dataset scale, in the engines and in Parquet (issue 34).

Two tables on the same rows (variants of the bundled agent session, OpenAI Chat ->
Anthropic; :mod:`bench.dataset_engines`), and the issue's targets:

* per worker, Hugging Face ``datasets`` and Ray Data convert at least 0.9x as many rows a
  second as ``convert_payload`` in process;
* ``chatcodec convert`` reads and writes Parquet at least as fast per row as JSON lines.
"""

from __future__ import annotations

from bench import dataset_engines
from bench.report import Section, Table, Target, ratio, seconds
from bench.timing import RunSettings

ENGINE_ROWS, QUICK_ENGINE_ROWS = 4_000, 300
COMMAND_ROWS, QUICK_COMMAND_ROWS = 2_000, 100
ENGINE_TARGET = 0.9
IN_PROCESS = "in process: `convert_payload(line)` + `dump_json`"

INTRO = (
    "Conversations at dataset scale: the bundled agent session (a system prompt, two tools, an image, reasoning, two "
    "rounds of parallel tool calls; each row with its own ids and text), OpenAI Chat -> Anthropic, in the engines "
    "(one worker each) and through `chatcodec convert` on JSON lines and on Parquet. Every output was checked "
    "against the in-process conversion before its time counted."
)


def _engines(section: Section, settings: RunSettings) -> None:
    count = QUICK_ENGINE_ROWS if settings.quick else ENGINE_ROWS
    measured = dataset_engines.engine_seconds(count, 1 if settings.quick else max(3, settings.rounds // 4))
    base = measured[IN_PROCESS]
    table = Table(
        ["job (one worker)", "wall time per row", "rows/s", "against in process (wall)", "CPU time per row, here"],
        caption=f"**engines, per worker**: {count:,} rows as a JSON text column, Arrow batches of "
        f"{dataset_engines.BATCH_ROWS} rows",
    )
    for name, run in measured.items():
        here = "-" if name.startswith("Ray") else f"{seconds(run.cpu)} ({ratio(base.cpu / run.cpu)})"
        table.rows.append([name, seconds(run.wall), f"{1 / run.wall:,.0f}", ratio(base.wall / run.wall), here])
    section.tables.append(table)
    hugging_face = next(run for key, run in measured.items() if key.startswith("Hugging Face"))
    ray = next(run for key, run in measured.items() if key.startswith("Ray"))
    for label, measured_ratio in (
        ("Hugging Face `datasets` per worker, throughput against in process (CPU time)", base.cpu / hugging_face.cpu),
        ("Ray Data per worker, throughput against in process (wall clock)", base.wall / ray.wall),
    ):
        section.targets.append(
            Target(label, f">= {ENGINE_TARGET}x", ratio(measured_ratio), measured_ratio >= ENGINE_TARGET)
        )
    section.footnotes.append(
        "Engines: wall clock, medians of interleaved rounds, after a checked warm-up run. Hugging Face runs "
        "`map(batched=True)` in this process (`keep_in_memory`, no cache); Ray runs on a local Ray started with one "
        "CPU, so one worker converts every batch; its time includes scheduling the tasks and moving the blocks "
        "through its object store, not its start. Both call `chatcodec.datasets.ArrowConverter` on Arrow batches. "
        "Hugging Face is judged on CPU time (all its work is in this process, and CPU time does not count the "
        "other processes on shared cores); Ray's worker is another process, so it is judged on the wall clock."
    )


def _commands(section: Section, settings: RunSettings) -> None:
    count = QUICK_COMMAND_ROWS if settings.quick else COMMAND_ROWS
    runs = dataset_engines.command_runs(count, 1 if settings.quick else 3)
    base = runs["JSON lines -> JSON lines"]
    table = Table(
        ["`chatcodec convert`", "CPU time per row", "against JSON lines", "start", "peak memory"],
        caption=f"**`chatcodec convert`, JSON lines against Parquet**: {count:,} and {3 * count:,} rows",
    )
    for job, run in runs.items():
        table.rows.append(
            [
                job,
                seconds(run.cpu_per_row),
                ratio(run.cpu_per_row / base.cpu_per_row),
                seconds(run.start),
                f"{run.peak_bytes / 1e6:.0f} MB",
            ]
        )
    section.tables.append(table)
    parquet = runs["Parquet (JSON text column) -> Parquet"]
    section.targets.append(
        Target(
            "Parquet in and out, per row, against JSON lines (CPU time)",
            "<= 1.0x (within 5%: two runs' noise)",
            ratio(parquet.cpu_per_row / base.cpu_per_row),
            parquet.cpu_per_row <= base.cpu_per_row * 1.05,  # 5%: the two runs' own noise
        )
    )
    section.footnotes.append(
        "Commands: CPU time of the whole command (its `wait4`), per row as the slope between the two sizes, so its "
        "start (imports: pyarrow's ~0.4 s, and pandas, which pyarrow imports to build an array from Python values, "
        "for the columnar form) is shown apart; peak memory is the command's `VmHWM`. The Parquet input holds each "
        "payload as JSON text; the columnar form is `schemas/request.arrow.json`. Its reading costs more than "
        "parsing JSON text: Arrow hands back every field of its wide part structs, mostly nulls."
    )


FORMAT_ROWS, QUICK_FORMAT_ROWS = 1_000, 50


def _formats(section: Section, settings: RunSettings) -> None:
    count = QUICK_FORMAT_ROWS if settings.quick else FORMAT_ROWS
    runs = dataset_engines.format_runs(count, 1 if settings.quick else 3)
    table = Table(
        [
            "`chatcodec convert --from ... --to ...`",
            "rows per CPU-second",
            "CPU time per row",
            "input per row",
            "output per row",
        ],
        caption=f"**batch envelopes and training dialects**: each format's documented example rows, repeated to "
        f"{count:,} and {3 * count:,} rows, JSON lines",
    )
    for job, run in runs.items():
        table.rows.append(
            [
                job,
                f"{1 / run.cpu_per_row:,.0f}",
                seconds(run.cpu_per_row),
                f"{run.input_bytes_per_row:,.0f} B",
                f"{run.output_bytes_per_row:,.0f} B",
            ]
        )
    section.tables.append(table)
    section.footnotes.append(
        "Formats: CPU time of the whole command per row, as the slope between the two sizes (start not counted); "
        "the example rows are small documentation examples (a few messages each), so a row's fixed cost (reading "
        "the envelope, the presets, writing the target's envelope) weighs more than on agent sessions."
    )


def run(settings: RunSettings) -> Section:
    section = Section("datasets", "Datasets: engines and Parquet", INTRO)
    _engines(section, settings)
    _commands(section, settings)
    _formats(section, settings)
    return section
