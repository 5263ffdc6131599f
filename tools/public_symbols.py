"""Count the public API as pyright does, and hold it to a budget: ``pyright --verifytypes``.

    python tools/public_symbols.py --max 360

runs ``pyright --verifytypes chatcodec --ignoreexternal --outputjson`` (the pyright next to
this Python, with ``src`` on ``PYTHONPATH``: pyright does not follow the editable install's
``.pth``) and fails when a symbol is not fully typed (under 100%) or when the symbols it
counts as exported (every name a user can reach through a module whose path has no
underscore) exceed the budget. ``make typecheck`` runs it: a new public name is a promise,
and raising the budget is a decision made in review, not a drift.
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
    parser.add_argument("--max", type=int, required=True, help="the most exported symbols allowed")
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
    print(f"pyright --verifytypes: {exported} exported symbols (budget {arguments.max}), {score:.1%} typed")
    if score < 1 or result.returncode != 0:
        print(result.stdout[-4000:] if score >= 1 else "some exported symbols are not fully typed", file=sys.stderr)
        return 1
    if exported > arguments.max:
        modules = sorted({".".join(s["name"].split(".")[:-1]) for s in report["symbols"] if s["isExported"]})
        print(f"over budget; the public modules: {', '.join(modules[:40])}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
