"""Section 4: cold ``import chatcodec`` against ``import pydantic``, in fresh interpreters."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from dataclasses import dataclass

from bench.report import Section, Table, Target

TARGET_MILLISECONDS = 80.0

INTRO = (
    "Each run is a new `python -I` process (isolated: no user site, no current directory on the path) that times "
    "its own import with `perf_counter` and reports its peak resident memory (`VmHWM`); the variants are "
    "interleaved run after run and the medians reported. A bare interpreter is the memory baseline. Memory is also "
    "measured with `tracemalloc` in separate, untimed runs (it slows imports down): the peak of Python allocations "
    "during the import. `import pydantic` alone is lazy in pydantic 2 and loads almost nothing; "
    "`from pydantic import BaseModel, TypeAdapter` is what any pydantic-based library pays, so both are shown. "
    "*First use* is what a process pays after the import the first time it converts: one small "
    "`convert_request` from OpenAI Chat to Anthropic, with whatever it loads on the way."
)

# Peak RSS comes from VmHWM, the high-water mark of this process's own address space:
# ru_maxrss would carry over the parent's peak across fork and exec (the bench process,
# with every anchor imported, is hundreds of MiB).
_TIMED = """
import json, sys, time
def peak_kib():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
modules = len(sys.modules)
start = time.perf_counter()
{statement}
imported = time.perf_counter()
loaded = len(sys.modules) - modules
rss_kib = peak_kib()
started_use = time.perf_counter()
{first_use}
used = time.perf_counter()
print(json.dumps({{"import": imported - start, "first_use": used - started_use, "rss_kib": rss_kib,
                  "rss_used_kib": peak_kib(), "modules": loaded}}))
"""

_TRACED = """
import json, tracemalloc
tracemalloc.start()
{statement}
current, peak = tracemalloc.get_traced_memory()
print(json.dumps({{"current": current, "peak": peak}}))
"""

_FIRST_USE = (
    "chatcodec.convert_request({'model': 'm', 'messages': [{'role': 'user', 'content': 'hi'}]}, "
    "source='openai-chat', target='anthropic', on_loss='ignore')"
)
FIRST_USE_MILLISECONDS = 100.0
"""Issue 25's limit on a fresh process's ``import chatcodec`` plus its first conversion."""


@dataclass(frozen=True)
class _Variant:
    name: str
    statement: str
    first_use: str = "pass"


VARIANTS = (
    _Variant("bare interpreter", "pass"),
    _Variant("import pydantic", "import pydantic"),
    _Variant("from pydantic import BaseModel, TypeAdapter", "from pydantic import BaseModel, TypeAdapter"),
    _Variant("import chatcodec", "import chatcodec", _FIRST_USE),
)


def _run(script: str) -> dict[str, float]:
    completed = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        last_line = (completed.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"import run failed: {last_line}")
    return json.loads(completed.stdout.strip().splitlines()[-1])


def _interleaved(runs: int, template: str) -> dict[str, list[dict[str, float]]]:
    results: dict[str, list[dict[str, float]]] = {variant.name: [] for variant in VARIANTS}
    for index in range(runs):
        shift = index % len(VARIANTS)
        for variant in VARIANTS[shift:] + VARIANTS[:shift]:
            script = template.format(statement=variant.statement, first_use=variant.first_use)
            results[variant.name].append(_run(script))
    return results


def _median(samples: list[dict[str, float]], key: str) -> float:
    return statistics.median(sample[key] for sample in samples)


def run(runs: int, traced_runs: int) -> Section:
    for variant in VARIANTS:  # compile the bytecode caches once, outside the measurement
        _run(_TIMED.format(statement=variant.statement, first_use=variant.first_use))
    timed = _interleaved(runs, _TIMED)
    traced = _interleaved(traced_runs, _TRACED)
    baseline_rss = _median(timed["bare interpreter"], "rss_kib")
    table = Table(
        [
            "import",
            "median time",
            "modules loaded",
            "peak RSS over bare interpreter",
            "tracemalloc peak",
            "first use after import",
        ],
        caption=f"{runs} timed runs and {traced_runs} traced runs per variant, interleaved",
    )
    for variant in VARIANTS:
        samples = timed[variant.name]
        rss = _median(samples, "rss_kib") - baseline_rss
        first_use = "-"
        if variant.first_use != "pass":
            grown = (_median(samples, "rss_used_kib") - _median(samples, "rss_kib")) / 1024
            first_use = f"{_median(samples, 'first_use') * 1e3:.1f} ms, +{grown:.1f} MiB"
        table.rows.append(
            [
                f"`{variant.statement}`" if variant.statement != "pass" else variant.name,
                f"{_median(samples, 'import') * 1e3:.1f} ms",
                f"{_median(samples, 'modules'):.0f}",
                "-" if variant.statement == "pass" else f"{rss / 1024:.1f} MiB",
                f"{_median(traced[variant.name], 'peak') / 2**20:.1f} MiB",
                first_use,
            ]
        )
    chatcodec = timed["import chatcodec"]
    chatcodec_ms = _median(chatcodec, "import") * 1e3
    converting_ms = statistics.median(sample["import"] + sample["first_use"] for sample in chatcodec) * 1e3
    pydantic_ms = _median(timed["from pydantic import BaseModel, TypeAdapter"], "import") * 1e3
    section = Section("imports", "Cold import", INTRO, [table])
    section.footnotes.append(
        f"A process that converts pays the import and the first use: {converting_ms:.1f} ms (median of the sums); "
        f"importing pydantic's `BaseModel, TypeAdapter` alone takes {pydantic_ms:.1f} ms. How much of that lands on "
        "`import chatcodec` itself depends on how lazily it resolves its names (see the modules column)."
    )
    section.targets.append(
        Target(
            "cold `import chatcodec`",
            f"<= {TARGET_MILLISECONDS:.0f} ms",
            f"{chatcodec_ms:.1f} ms",
            chatcodec_ms <= TARGET_MILLISECONDS,
        )
    )
    section.targets.append(
        Target(
            "first use: cold `import chatcodec` + one OpenAI -> Anthropic conversion",
            f"<= {FIRST_USE_MILLISECONDS:.0f} ms",
            f"{converting_ms:.1f} ms",
            converting_ms <= FIRST_USE_MILLISECONDS,
        )
    )
    return section
