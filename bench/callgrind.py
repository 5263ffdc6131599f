"""Callgrind's client requests from Python, and the instruction counts of its dumps.

A process run under ``valgrind --tool=callgrind --instr-atstart=no`` imports at the speed
of an uninstrumented run; :class:`Requests` turns instrumentation on for one measured
region, zeroes the counts, and dumps them under a label when the region ends, so each
dump file holds the instructions of exactly one region. The requests are the macros of
``valgrind/callgrind.h`` (magic instruction sequences, no-ops outside valgrind), compiled
into a small shared library with the system's C compiler and called through ``ctypes``:
the cost of the call is the same in every region and cancels in a difference of two.
"""

from __future__ import annotations

import ctypes
import os
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

_SOURCE = r"""
#include <valgrind/callgrind.h>
void start(void) { CALLGRIND_START_INSTRUMENTATION; }
void stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }
void zero(void) { CALLGRIND_ZERO_STATS; }
void dump(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }
"""


def build(directory: Path) -> Path:
    """The client-request library compiled into ``directory`` (needs ``cc`` and valgrind's headers)."""
    source = directory / "callgrind_requests.c"
    library = directory / "callgrind_requests.so"
    source.write_text(_SOURCE)
    subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
    return library


def run(arguments: Sequence[str], directory: Path, env: Mapping[str, str] | None = None) -> str:
    """Run ``python ARGUMENTS`` under callgrind, instrumentation off until its :class:`Requests`
    turn it on, its dumps written into ``directory`` (:func:`read_dumps`), with
    ``PYTHONHASHSEED=0`` so a count does not depend on the hash seed; its stderr (a failed
    run stops the bench, with the end of it)."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        f"--callgrind-out-file={directory}/callgrind.out.%p",
        sys.executable,
        *arguments,
    ]
    environment = {**os.environ, "PYTHONHASHSEED": "0", **(env or {})}
    completed = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        raise SystemExit(f"the counted process failed:\n{completed.stderr[-4000:]}")
    return completed.stderr


class Requests:
    """The client requests of one process, from the library :func:`build` made."""

    def __init__(self, library: Path) -> None:
        self._lib = ctypes.CDLL(str(library))
        self._lib.dump.argtypes = [ctypes.c_char_p]

    def start(self) -> None:
        self._lib.start()

    def stop(self) -> None:
        self._lib.stop()

    def zero(self) -> None:
        self._lib.zero()

    def dump(self, label: str) -> None:
        self._lib.dump(label.encode())


@dataclass(frozen=True)
class Dump:
    label: str
    instructions: int


_TRIGGER = re.compile(r"^desc: Trigger: Client Request: (.*)$", re.MULTILINE)
_TOTALS = re.compile(r"^(?:summary|totals): (\d+)", re.MULTILINE)


def read_dumps(directory: Path, *, in_order: bool = False) -> list[Dump]:
    """Every client-request dump in ``directory``: its label and its instruction count
    (``in_order``: in the order one process dumped them, its parts by number; else by file name)."""
    dumps: list[Dump] = []
    paths = sorted(directory.glob("callgrind.out.*"))
    if in_order:
        paths.sort(key=lambda path: int(path.suffix[1:]) if path.suffix[1:].isdigit() else 0)
    for path in paths:
        text = path.read_text(errors="replace")
        trigger = _TRIGGER.search(text)
        totals = _TOTALS.search(text)
        if trigger is not None and totals is not None:
            dumps.append(Dump(trigger.group(1).strip(), int(totals.group(1))))
    return dumps
