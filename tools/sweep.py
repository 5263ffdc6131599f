"""The long random property sweep: every Hypothesis test, round after round, for a set time.

``make test`` runs the properties derandomized (the ``chatcodec-ci`` profile), so a green run
never depends on a draw; this sweep is where new counterexamples are found. Each round runs
every test module that uses Hypothesis once under the random ``chatcodec`` profile with a fresh
seed, so an hour of rounds draws new examples for every law rather than spending the hour on
the first few modules (a single ``chatcodec-long`` pass at 2,000 examples per law does not end
within an hour on two cores). Rounds start until the time is up; the last one runs to its end.

A failing round prints the seed that reproduces it::

    CHATCODEC_HYPOTHESIS_PROFILE=chatcodec .venv/bin/python -m pytest <test id> --hypothesis-seed=<seed>

Usage: ``python tools/sweep.py --minutes 60 [--log-dir sweep-logs]`` (``make sweep``). Exit
status 1 if any round failed.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
_USES_HYPOTHESIS = re.compile(r"^\s*(from hypothesis\b|import hypothesis\b)", re.MULTILINE)
_SUMMARY = re.compile(r"^=*\s*(\d+ (?:passed|failed|errors?)[^\n]*?) in [\d.]+s", re.MULTILINE)


def property_modules() -> list[str]:
    """Every test module that imports Hypothesis: the laws, the fuzz short run, the dialects."""
    found = [
        str(path.relative_to(ROOT))
        for path in sorted(TESTS.rglob("test_*.py"))
        if _USES_HYPOTHESIS.search(path.read_text(encoding="utf-8"))
    ]
    return found


def run_round(number: int, modules: list[str], log_dir: Path) -> tuple[int, str, float]:
    """One pytest run of every property module under a fresh random seed; returns status, summary, seconds."""
    seed = random.SystemRandom().randrange(2**32)
    log = log_dir / f"round-{number:03d}-seed-{seed}.log"
    environment = {**os.environ, "CHATCODEC_HYPOTHESIS_PROFILE": "chatcodec"}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--hypothesis-seed={seed}", *modules]
    started = time.monotonic()
    with log.open("w", encoding="utf-8") as out:
        status = subprocess.call(command, cwd=ROOT, env=environment, stdout=out, stderr=subprocess.STDOUT)
    seconds = time.monotonic() - started
    summary = _SUMMARY.findall(log.read_text(encoding="utf-8"))
    return status, f"seed {seed}: {summary[-1] if summary else 'no summary'}", seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60.0, help="start rounds until this much time has passed")
    parser.add_argument("--log-dir", type=Path, default=ROOT / "sweep-logs", help="one log per round")
    arguments = parser.parse_args()
    arguments.log_dir.mkdir(parents=True, exist_ok=True)
    modules = property_modules()
    print(f"{len(modules)} property modules; rounds for {arguments.minutes:g} minutes", flush=True)
    deadline = time.monotonic() + arguments.minutes * 60
    failed = 0
    number = 0
    start = time.monotonic()
    while time.monotonic() < deadline:
        number += 1
        status, summary, seconds = run_round(number, modules, arguments.log_dir)
        failed += status != 0
        print(f"round {number}: {'FAIL' if status else 'ok'} in {seconds:.0f} s, {summary}", flush=True)
    elapsed = (time.monotonic() - start) / 60
    print(f"{number} rounds in {elapsed:.1f} minutes, {failed} failed; logs in {arguments.log_dir}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
