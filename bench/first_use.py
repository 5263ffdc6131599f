"""First use: a fresh process's ``import chatcodec`` and its first conversion, per pair.

A process that converts once (a CLI call, a serverless function, a server's first
request) pays the import and everything the first conversion builds on the way: the
modules of the pair it converts, their validators and serializers. The warm tables never
see that cost. Each case here is a new ``python -I`` process that reads its input from a
file first (``json``: the input is given, not built, as a caller would hold it), then
imports chatcodec and converts once:

* every pair of :data:`PAIRS` on its 50-turn agent session (:mod:`bench.agent_sources`,
  the full session as an agent sends it);
* the first stream: an SSE body of :data:`STREAM_DELTAS` deltas through ``convert_stream``,
  each way between Anthropic and OpenAI Chat.

Two measures, both per case:

* instructions (``--instructions``): the child runs under ``valgrind --tool=callgrind
  --instr-atstart=no`` with ``PYTHONHASHSEED=0`` and counts the import and the first
  conversion as two regions (:mod:`bench.callgrind`); the machine's load does not move them;
* CPU time (``time.process_time``), the median of ``--runs`` interleaved runs; the target,
  100 ms for the import and the first conversion together, is judged on it.

``python bench/first_use.py [--instructions] [--runs 5] [--only openai-chat->anthropic]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import callgrind  # noqa: E402

TURNS = 50
STREAM_DELTAS = 500
TARGET_MILLISECONDS = 100.0
"""Issue 47: import + the first conversion of a realistic session, CPU time on a quiet machine."""

PAIRS: tuple[tuple[str, str], ...] = (
    ("openai-chat", "anthropic"),
    ("anthropic", "openai-chat"),
    ("openai-chat", "openai-responses"),
    ("openai-responses", "openai-chat"),
    ("openai-chat", "bedrock-converse"),
    ("bedrock-converse", "openai-chat"),
    ("openai-chat", "gemini"),
    ("gemini", "openai-chat"),
)
STREAMS: tuple[tuple[str, str], ...] = (("anthropic", "openai-chat"), ("openai-chat", "anthropic"))


@dataclass(frozen=True)
class Case:
    """One fresh process: its label, the conversion it runs and the file it reads."""

    label: str
    source: str
    target: str
    stream: bool
    path: Path

    def conversion(self) -> str:
        if self.stream:
            return (
                f"b''.join(chatcodec.convert_stream([given], source={self.source!r}, target={self.target!r}, "
                "on_loss='ignore'))"
            )
        return f"chatcodec.convert_request(given, source={self.source!r}, target={self.target!r}, on_loss='ignore')"


_CHILD = """
import json, sys, time
sys.path.insert(0, {root!r})
with open({path!r}, 'rb') as file:
    given = file.read()
if not {stream!r}:
    given = json.loads(given)
{requests}
modules = len(sys.modules)
start = time.process_time()
{start}
import chatcodec
{imported}
imported = time.process_time()
imported_modules = len(sys.modules)
{conversion}
{converted}
used = time.process_time()
assert chatcodec.__file__.startswith({root!r}), chatcodec.__file__
print(json.dumps({{"import": imported - start, "first_use": used - imported,
                  "import_modules": imported_modules - modules,
                  "first_use_modules": len(sys.modules) - imported_modules}}))
"""

_REQUESTS = """
import ctypes
_lib = ctypes.CDLL({library!r})
_lib.dump.argtypes = [ctypes.c_char_p]
"""


def _script(case: Case, source_root: str, library: Path | None) -> str:
    requests = _REQUESTS.format(library=str(library)) if library is not None else ""
    return _CHILD.format(
        root=source_root,
        path=str(case.path),
        stream=case.stream,
        requests=requests,
        start="_lib.start(); _lib.zero()" if library else "",
        imported="_lib.dump(b'import')" if library else "",
        conversion=case.conversion(),
        converted="_lib.dump(b'first use'); _lib.stop()" if library else "",
    )


def _source_root() -> str:
    import chatcodec

    return str(Path(chatcodec.__file__).resolve().parent.parent)


def cases(directory: Path, only: Sequence[str]) -> list[Case]:
    """Every case, its input written to ``directory`` (made in this process, read by the child)."""
    from bench import agent_sources, section_streams

    sessions = agent_sources.Sessions(TURNS)
    made: list[Case] = []
    for source, target in PAIRS:
        if only and f"{source}->{target}" not in only:
            continue
        reader = next(item for item in agent_sources.SOURCES if item.provider == source)
        path = directory / f"{source}-{target}.json"
        path.write_text(json.dumps(sessions.get(reader, reader.full, target)))
        made.append(Case(f"{source} -> {target}, {TURNS}-turn session", source, target, False, path))
    bodies = {"anthropic": section_streams._anthropic_sse, "openai-chat": section_streams._openai_sse}
    for source, target in STREAMS:
        if only and f"stream:{source}->{target}" not in only:
            continue
        path = directory / f"stream-{source}-{target}.sse"
        path.write_bytes(bodies[source](STREAM_DELTAS))
        made.append(Case(f"stream {source} -> {target}, {STREAM_DELTAS} deltas (SSE)", source, target, True, path))
    return made


def _run(command: list[str], env: dict[str, str]) -> dict[str, float]:
    completed = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if completed.returncode != 0:
        raise SystemExit(f"the first-use process failed:\n{completed.stderr[-3000:]}")
    return json.loads(completed.stdout.strip().splitlines()[-1])


def warm_bytecode(made: Sequence[Case]) -> None:
    """One run of each case first, so neither measure counts compiling a module whose
    bytecode cache is missing or stale (a fresh checkout, an edited module): about 300 M
    instructions of a first stream on a tree never run before."""
    root = _source_root()
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    for case in made:
        _run([sys.executable, "-I", "-c", _script(case, root, None)], env)


def cpu_times(made: Sequence[Case], runs: int) -> dict[str, list[dict[str, float]]]:
    """Per case, ``runs`` fresh processes, interleaved (one of each case per round)."""
    root = _source_root()
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    results: dict[str, list[dict[str, float]]] = {case.label: [] for case in made}
    for _ in range(runs):
        for case in made:
            results[case.label].append(_run([sys.executable, "-I", "-c", _script(case, root, None)], env))
    return results


def instructions(made: Sequence[Case], keep: Path | None) -> dict[str, dict[str, int]]:
    """Per case, the instructions of ``import chatcodec`` and of the first conversion."""
    root = _source_root()
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    counts: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory(prefix="chatcodec-first-use-") as temporary:
        library = callgrind.build(Path(temporary))
        for number, case in enumerate(made):
            directory = (keep or Path(temporary)) / f"case{number}"
            directory.mkdir(parents=True, exist_ok=True)
            for stale in directory.glob("callgrind.out.*"):
                stale.unlink()
            command = [
                "valgrind",
                "--tool=callgrind",
                "--instr-atstart=no",
                f"--callgrind-out-file={directory}/callgrind.out.%p",
                sys.executable,
                "-I",
                "-c",
                _script(case, root, library),
            ]
            _run(command, env)
            counts[case.label] = {dump.label: dump.instructions for dump in callgrind.read_dumps(directory)}
    return counts


HEADERS = [
    "first use, fresh process",
    "import, M instructions",
    "first conversion, M instructions",
    "import + first, CPU ms (median)",
    "modules: import + first",
    "<= 100 ms",
]


def rows(
    made: Sequence[Case], times: dict[str, list[dict[str, float]]], counts: dict[str, dict[str, int]]
) -> list[list[str]]:
    """One row per case: its instructions (when counted) and CPU time (when timed)."""
    found: list[list[str]] = []
    for case in made:
        counted = counts.get(case.label, {})
        samples = times.get(case.label, [])
        cells = [case.label]
        cells.append(f"{counted['import'] / 1e6:.1f}" if "import" in counted else "")
        cells.append(f"{counted['first use'] / 1e6:.1f}" if "first use" in counted else "")
        if samples:
            total, first = (
                total_milliseconds(samples),
                statistics.median(sample["first_use"] for sample in samples) * 1e3,
            )
            modules = f"{samples[0]['import_modules']:.0f} + {samples[0]['first_use_modules']:.0f}"
            cells += [f"{total:.1f} (first {first:.1f})", modules, "✓" if total <= TARGET_MILLISECONDS else "✗"]
        else:
            cells += ["", "", ""]
        found.append(cells)
    return found


def total_milliseconds(samples: list[dict[str, float]]) -> float:
    """The median of import + first conversion, CPU milliseconds."""
    return statistics.median(sample["import"] + sample["first_use"] for sample in samples) * 1e3


def table(made: Sequence[Case], times: dict[str, list[dict[str, float]]], counts: dict[str, dict[str, int]]) -> str:
    lines = ["| " + " | ".join(HEADERS) + " |", "|" + "---|" * len(HEADERS)]
    lines += ["| " + " | ".join(cells) + " |" for cells in rows(made, times, counts)]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per case for CPU time (0: none)")
    parser.add_argument("--instructions", action="store_true", help="also count instructions under callgrind")
    parser.add_argument("--only", nargs="+", default=[], help="pairs as source->target, streams as stream:a->b")
    parser.add_argument("--keep", type=Path, help="keep the callgrind dumps in this directory")
    arguments = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="chatcodec-first-use-inputs-") as temporary:
        made = cases(Path(temporary), arguments.only)
        warm_bytecode(made)
        counts = instructions(made, arguments.keep) if arguments.instructions else {}
        times = cpu_times(made, arguments.runs) if arguments.runs else {}
    print(
        f"First use (fresh `python -I` process: import chatcodec + one conversion), Python {sys.version.split()[0]}, "
        f"CPU time median of {arguments.runs} runs; instructions under callgrind, PYTHONHASHSEED=0."
    )
    print()
    print(table(made, times, counts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
