"""The bench's command line: which sections, how hard, where the report goes.

A full run (no ``--quick``, no ``--only``) writes ``bench/RESULTS.md``; partial and quick
runs only print, so a smoke run never overwrites real numbers (``--output`` writes
anyway).
"""

from __future__ import annotations

import argparse
import dataclasses
import shlex
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from bench import (
    machine,
    proxy,
    report,
    section_agents,
    section_convert,
    section_datasets,
    section_imports,
    section_responses,
    section_reverse,
    section_streams,
    section_throughput,
    section_wires,
)
from bench.report import Section
from bench.timing import RunSettings

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"

FULL = RunSettings(
    quick=False,
    rounds=15,
    min_sample_seconds=0.02,
    session_turns=(10, 50, 200),
    stream_deltas=500,
    budget_seconds=12.0,
)
QUICK = RunSettings(
    quick=True,
    rounds=3,
    min_sample_seconds=0.002,
    session_turns=(3, 8),
    stream_deltas=60,
    budget_seconds=2.0,
    agent_turns=(4,),
    agent_shape_turns=(4,),
)


def _imports(settings: RunSettings) -> Section:
    return section_imports.run(runs=max(3, settings.rounds), traced_runs=max(1, settings.rounds // 4))


SECTIONS: dict[str, Callable[[RunSettings], Section]] = {
    "convert": section_convert.run,
    "reverse": section_reverse.run,
    "responses": section_responses.run,
    "wires": section_wires.run,
    "agents": section_agents.run,
    "streams": section_streams.run,
    "imports": _imports,
    "throughput": section_throughput.run,
    "proxy": proxy.run,
    "datasets": section_datasets.run,
}


def _run_section(key: str, settings: RunSettings) -> Section:
    """The section, or one saying why it failed: a broken section costs its numbers, not the others'."""
    try:
        return SECTIONS[key](settings)
    except Exception as error:  # the traceback goes to stderr; the report says the section failed
        traceback.print_exc()
        return Section(key, f"{key} (failed)", f"This section failed: `{type(error).__name__}: {error}`.")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bench/run.py", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="few rounds, small sizes: a smoke run")
    parser.add_argument("--only", choices=sorted(SECTIONS), action="append", help="run this section (repeatable)")
    parser.add_argument("--rounds", type=int, help="interleaved rounds per workload (and import runs)")
    parser.add_argument("--output", type=Path, help="also write the markdown here (default: RESULTS.md on full runs)")
    parser.add_argument(
        "--cpu-time", action="store_true", help="time by this process's CPU time, not the wall clock (loaded machines)"
    )
    return parser


def main(argv: Sequence[str]) -> int:
    options = _parser().parse_args(argv)
    settings = QUICK if options.quick else FULL
    if options.rounds is not None:
        settings = dataclasses.replace(settings, rounds=options.rounds)
    if options.cpu_time:
        settings = dataclasses.replace(settings, cpu_time=True)
    keys = options.only or list(SECTIONS)
    command = shlex.join(["python", "bench/run.py", *argv])
    started = time.perf_counter()
    sections: list[Section] = []
    for key in keys:
        section_started = time.perf_counter()
        print(f"bench: {key} ...", file=sys.stderr, flush=True)
        sections.append(_run_section(key, settings))
        print(f"bench: {key} done in {time.perf_counter() - section_started:.1f} s", file=sys.stderr, flush=True)
    markdown = report.render(machine.header(command), sections)
    print(markdown)
    output = options.output or (RESULTS if not options.quick and not options.only else None)
    if output is not None:
        output.write_text(markdown, encoding="utf-8")
        print(f"bench: wrote {output}", file=sys.stderr)
    print(f"bench: total {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return 0
