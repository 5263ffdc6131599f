"""The long fuzz run: every entry point, as many inputs as asked, from one command.

    PYTHONPATH=src:tests .venv/bin/python -m fuzz.run --inputs 1000000
    PYTHONPATH=src:tests .venv/bin/python -m fuzz.run --inputs 20000 --target 'decode_request[anthropic]'
    PYTHONPATH=src:tests .venv/bin/python -m fuzz.run --atheris --target 'decode_stream[openai-chat]' -- -runs=1000000

The default driver is a seeded ``random.Random`` (reproducible: the seed and the input's
number name an input); ``--atheris`` hands one target to atheris (the ``fuzz`` extra),
whose coverage-guided bytes drive the same mutation engine. Counts, outcomes and
throughput are printed per target; the first input that breaks the law is written to
``--crashes`` (as Python ``repr``) with its traceback, and the run exits 1.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from fuzz.targets import Target, all_targets, check


class RandomChooser:
    """Choices from a seeded ``random.Random``."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def below(self, count: int) -> int:
        return self.random.randrange(count) if count > 1 else 0


class BytesChooser:
    """Choices read from atheris' bytes (``FuzzedDataProvider``): coverage steers them."""

    def __init__(self, provider: Any) -> None:
        self.provider = provider

    def below(self, count: int) -> int:
        return int(self.provider.ConsumeIntInRange(0, count - 1)) if count > 1 else 0


def _save(crashes: Path, target: Target, value: Any, details: str) -> Path:
    crashes.mkdir(parents=True, exist_ok=True)
    safe = "".join(character if character.isalnum() else "_" for character in target.name)
    found = crashes / f"{safe}-{int(time.time())}.txt"
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(50_000)  # the input may be nested past the usual limit
    try:
        shown = repr(value)
    finally:
        sys.setrecursionlimit(limit)
    found.write_text(f"{details}\n\ninput = {shown}\n", encoding="utf-8", errors="backslashreplace")
    return found


def run_target(target: Target, inputs: int, seed: int, crashes: Path) -> bool:
    """Fuzz one target; print its counts and throughput; False when the law broke."""
    chooser = RandomChooser(seed)
    outcomes: Counter[str] = Counter()
    started = time.perf_counter()
    for number in range(inputs):
        value = target.make(chooser)
        try:
            outcomes[check(target, value)] += 1
        except Exception:  # the law broke: keep the input
            where = _save(crashes, target, value, f"seed {seed}, input {number}\n{traceback.format_exc()}")
            print(f"FAIL {target.name} at input {number}: saved to {where}", flush=True)
            print(traceback.format_exc(limit=-6), flush=True)
            return False
    elapsed = time.perf_counter() - started
    summary = ", ".join(f"{name} {count}" for name, count in outcomes.most_common())
    print(f"{target.name}: {inputs} inputs in {elapsed:.1f} s ({inputs / elapsed:.0f}/s): {summary}", flush=True)
    return True


def _run_atheris(target: Target, extra: list[str]) -> None:
    import atheris  # the `fuzz` extra; only this driver needs it

    def one_input(data: bytes) -> None:
        check(target, target.make(BytesChooser(atheris.FuzzedDataProvider(data))))

    atheris.instrument_all()  # coverage of chatcodec (imported already, so not by import hooks)
    atheris.Setup([sys.argv[0], *extra], one_input)
    atheris.Fuzz()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz.run", description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=10_000, help="inputs per target (default 10,000)")
    parser.add_argument("--target", action="append", help="a target's name (repeat; default: every target)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first target (each target adds its index)")
    parser.add_argument("--crashes", type=Path, default=Path("fuzz-crashes"), help="where failing inputs go")
    parser.add_argument("--list", action="store_true", help="list the targets and exit")
    parser.add_argument("--atheris", action="store_true", help="fuzz the one --target with atheris")
    parser.add_argument("extra", nargs="*", help="after --: arguments for atheris (libFuzzer's -runs=N ...)")
    arguments = parser.parse_args(argv)
    targets = all_targets()
    if arguments.list:
        print("\n".join(target.name for target in targets))
        return 0
    if arguments.target:
        targets = [target for target in targets if target.name in arguments.target]
    if arguments.atheris:
        if len(targets) != 1:
            parser.error("--atheris fuzzes exactly one --target")
        _run_atheris(targets[0], arguments.extra)
        return 0
    sys.setrecursionlimit(1000)  # the default, whatever the caller set: depth bugs must show
    results = [
        run_target(target, arguments.inputs, arguments.seed + index, arguments.crashes)
        for index, target in enumerate(targets)
    ]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
