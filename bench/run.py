"""Run the benchmarks: ``python bench/run.py [--quick] [--only SECTION] [--rounds N] [--output FILE]``.

Run as a script, Python puts ``bench/`` itself first on the path, where module names such
as ``report`` or ``timing`` could shadow other top-level modules; the repository root
takes its place so everything is imported as ``bench.*``.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main() -> int:
    root = str(Path(__file__).resolve().parent.parent)
    if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
        sys.path[0] = root
    elif root not in sys.path:
        sys.path.insert(0, root)
    from bench.cli import main as run_bench

    return run_bench(sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
