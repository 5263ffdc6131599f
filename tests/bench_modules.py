"""The bench's modules (``bench/``) imported by the tests that check them: the repository root on
the path once, then ``bench.<name>``, so every bench test loads them the one way."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def bench_module(name: str) -> ModuleType:
    """``bench.<name>``, the repository root put on ``sys.path`` first where it is not."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module(f"bench.{name}")
