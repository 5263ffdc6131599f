"""The long fuzz run: every entry point, as many inputs as asked, from one command.

    PYTHONPATH=src:tests .venv/bin/python -m fuzz.run --inputs 1000000
    PYTHONPATH=src:tests .venv/bin/python -m fuzz.run --per-entry-point 1000000 --part 1/2
    PYTHONPATH=src:tests .venv/bin/python -m fuzz.run --inputs 20000 --target 'decode_request[anthropic]'
    PYTHONPATH=src:tests .venv/bin/python -m fuzz.run --atheris --target 'decode_stream[openai-chat]' -- -runs=1000000

The default driver is a seeded ``random.Random`` (reproducible: the seed and the input's
number name an input); ``--atheris`` hands one target to atheris (the ``fuzz`` extra),
whose coverage-guided bytes drive the same mutation engine. Counts, outcomes and
throughput are printed per target (and, with ``--per-entry-point``, per entry point: a
function such as ``convert_request`` has a target per provider or pair, which share its
count); the first input that breaks the law is written to
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
    parser.add_argument(
        "--per-entry-point",
        type=int,
        metavar="N",
        help="N inputs per entry point, shared evenly by its targets (instead of --inputs per target)",
    )
    parser.add_argument("--part", default="1/1", help="K/N: run only the K-th of N interleaved shares of the targets")
    parser.add_argument("--targets-file", type=Path, help="a file of target names, one per line (as --target)")
    parser.add_argument("--target", action="append", help="a target's name (repeat; default: every target)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first target (each target adds its index)")
    parser.add_argument("--crashes", type=Path, default=Path("fuzz-crashes"), help="where failing inputs go")
    parser.add_argument("--list", action="store_true", help="list the targets and exit")
    parser.add_argument("--atheris", action="store_true", help="fuzz the one --target with atheris")
    parser.add_argument("extra", nargs="*", help="after --: arguments for atheris (libFuzzer's -runs=N ...)")
    arguments = parser.parse_args(argv)
    targets = all_targets()
    shares = _inputs_per_target(targets, arguments.inputs, arguments.per_entry_point)  # before --target picks
    if arguments.list:
        print("\n".join(target.name for target in targets))
        return 0
    chosen = set(arguments.target or [])
    if arguments.targets_file is not None:
        chosen |= set(arguments.targets_file.read_text(encoding="utf-8").split("\n")) - {""}
    if chosen:
        targets = [target for target in targets if target.name in chosen]
    if arguments.atheris:
        if len(targets) != 1:
            parser.error("--atheris fuzzes exactly one --target")
        _run_atheris(targets[0], arguments.extra)
        return 0
    part, parts = (int(number) for number in arguments.part.split("/"))
    sys.setrecursionlimit(1000)  # the default, whatever the caller set: depth bugs must show
    started = time.perf_counter()
    results: dict[str, bool] = {}
    for index, target in enumerate(targets):
        if index % parts == part - 1:
            results[target.name] = run_target(target, shares[target.name], arguments.seed + index, arguments.crashes)
    _print_entry_points(results, shares, time.perf_counter() - started)
    return 0 if all(results.values()) else 1


def entry_point(target_name: str) -> str:
    """The entry point a target exercises: its name without the provider (``convert_request``)."""
    return target_name.partition("[")[0]


def _inputs_per_target(targets: list[Target], inputs: int, per_entry_point: int | None) -> dict[str, int]:
    if per_entry_point is None:
        return {target.name: inputs for target in targets}
    sharing = Counter(entry_point(target.name) for target in targets)
    return {target.name: -(-per_entry_point // sharing[entry_point(target.name)]) for target in targets}


def _print_entry_points(results: dict[str, bool], shares: dict[str, int], elapsed: float) -> None:
    """Inputs per entry point over the targets that ran to the end (a failed one counts none)."""
    done: Counter[str] = Counter()
    for name, passed in results.items():
        done[entry_point(name)] += shares[name] if passed else 0
    print(f"entry points ({elapsed / 60:.1f} min):", flush=True)
    for name, count in sorted(done.items()):
        print(f"  {name}: {count} inputs", flush=True)


if __name__ == "__main__":
    sys.exit(main())
