"""Count the public API as pyright does, and hold it to its count: ``pyright --verifytypes``.

    python tools/public_symbols.py --expected 374      (--max is the same option's old name)

runs ``pyright --verifytypes chatcodec --ignoreexternal --outputjson`` (the pyright next to
this Python, with ``src`` on ``PYTHONPATH``: pyright does not follow the editable install's
``.pth``) and fails when a symbol is not fully typed (under 100%) or when the symbols it
counts as exported (every name a user can reach through a module whose path has no
underscore) are not exactly the expected count. ``make typecheck`` runs it with the
Makefile's ``PUBLIC_SYMBOLS``: a new public name is a promise, and raising the count is a
decision made in review, not a drift; a count left above the real one would let that many
names in unseen, so a removal lowers it in the same change.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--expected", "--max", dest="expected", type=int, required=True, help="the exported symbols' count"
    )
    arguments = parser.parse_args()
    pyright = Path(sys.executable).parent / "pyright"
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run(
        [str(pyright), "--verifytypes", "chatcodec", "--ignoreexternal", "--outputjson"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(result.stdout)["typeCompleteness"]
    counts = report["exportedSymbolCounts"]
    exported = sum(counts.values())
    score = report["completenessScore"]
    print(f"pyright --verifytypes: {exported} exported symbols (expected {arguments.expected}), {score:.1%} typed")
    if score < 1 or result.returncode != 0:
        print(result.stdout[-4000:] if score >= 1 else "some exported symbols are not fully typed", file=sys.stderr)
        return 1
    problem = count_problem(exported, arguments.expected)
    if problem is not None:
        print(problem, file=sys.stderr)
        if exported > arguments.expected:
            modules = sorted({".".join(s["name"].split(".")[:-1]) for s in report["symbols"] if s["isExported"]})
            print(f"the public modules: {', '.join(modules[:40])}", file=sys.stderr)
        return 1
    return 0


def count_problem(exported: int, expected: int) -> str | None:
    """What is wrong with ``exported`` symbols against the ``expected`` count, or None when
    they are equal: more is a name made public unseen, fewer a count that would let the
    difference back in unseen."""
    if exported > expected:
        return (
            f"{exported} exported symbols, {exported - expected} over the expected {expected}: "
            "a new public name is a decision (pin it in tests/test_public_surface.py, add it to the "
            "CHANGELOG, then raise PUBLIC_SYMBOLS in the Makefile)"
        )
    if exported < expected:
        return (
            f"{exported} exported symbols, under the expected {expected}: "
            f"lower PUBLIC_SYMBOLS in the Makefile to {exported}"
        )
    return None


if __name__ == "__main__":
    sys.exit(main())
