"""The interpreter-specific levers' micro cases (``bench/comprehension_loops.py``) compare like
with like: each case's loop gives what its comprehension gives, and the reader's loop is the
one ``src/`` runs (the same parts from the same calls)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

from chatcodec._providers.openai_chat import plain_turn

ROOT = Path(__file__).resolve().parents[1]


def _cases() -> ModuleType:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module("bench.comprehension_loops")


@pytest.mark.parametrize("case", ["plain_calls", "spelled_nulls", "write_calls"])
@pytest.mark.parametrize("calls", [1, 3])
def test_each_loop_gives_what_its_comprehension_gives(case: str, calls: int) -> None:
    loops = _cases()
    loop, comprehension = loops.CASES[case]
    given = loops.given(case, calls)
    assert loop(given) == comprehension(given)
    assert loop(given)  # a case with nothing in it would count nothing


def test_the_reading_loop_is_the_one_src_runs() -> None:
    loops = _cases()
    calls = loops.given("plain_calls", 3)
    assert plain_turn._plain_calls(calls, True) == loops.plain_calls_loop(calls)  # pyright: ignore[reportPrivateUsage]
