"""What ``chatcodec convert`` tells about a run of many payloads: rejects, losses, counts.

A dataset run can lose the same field on every row: a 200k-row run printed 560,880 loss
lines, which no one reads. So the first :data:`SHOWN` losses and rejects are printed as
they come (a small run reads as before), and the run ends with a summary of every loss by
kind and path (list indices folded: ``$.messages[*].content[*].detail``), each with its
count and the first line that had it, which fits a screen whatever the size of the run.
``--all-losses`` prints every loss line instead; ``--losses-file PATH`` writes every loss
as a JSON line (``{"line", "kind", "path", "what", "why"}``) for a script to read. Every
reject is in the rejects file, whatever is printed.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from chatcodec._losses import LOSS_KINDS, Loss
from chatcodec.batch._convert_records import BatchResult, RowNumbering
from chatcodec.cli import _exit_codes as exit_codes
from chatcodec.cli._pending_output import PendingOutput
from chatcodec.cli._progress import ProgressBar

SHOWN = 20
"""Losses (and rejects) printed one by one before the run keeps to counting them."""

SUMMARY_ROWS = 20
"""(kind, path) groups the closing summary lists, the most frequent first."""

_INDEX = re.compile(r"\[\d+\]")


def path_pattern(path: str) -> str:
    """A loss path with its list indices folded (``$.messages[3]`` -> ``$.messages[*]``),
    so the losses of every row at the same place count together."""
    return _INDEX.sub("[*]", path)


def by_kind(counts: Counter[str]) -> str:
    """``3 content, 1 setting``: loss counts by kind, in :data:`LOSS_KINDS` order."""
    return ", ".join(f"{counts[kind]:,} {kind}" for kind in LOSS_KINDS if counts[kind])


def report_losses(path: Path, losses: Sequence[Loss], write: Callable[[str], object], *, quiet: bool) -> None:
    """A single document's losses: each on a line, or (``quiet``) their counts by kind."""
    if quiet:
        if losses:
            write(f"{len(losses)} loss(es), {by_kind(Counter(loss.kind for loss in losses))} (run without --quiet)\n")
        return
    for loss in losses:
        write(f"{path}: loss ({loss.kind}): {loss}\n")


@dataclass(slots=True)
class _Group:
    """The losses of one kind at one path pattern."""

    count: int
    first_line: int
    first: Loss


class RejectsFile:
    """The rejects file: written from the first reject under a temporary name, as the output is
    (:class:`~chatcodec.cli._pending_output.PendingOutput`), and given its name with the output's
    when the run completes (:meth:`commit`); as a context manager, removed unless committed, so
    an interrupted or failed run leaves none (and an old one as it was). A complete run that
    rejects nothing empties an old one, never leaves it stale."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._pending = PendingOutput(path)
        self._file: IO[bytes] | None = None
        self._committed = False

    def write(self, record: bytes) -> None:
        if self._file is None:
            self._file = (self._pending.path or self.path).open("wb")
        self._file.write(record)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()

    def commit(self) -> None:
        """Give the rejects their final name (the run completed)."""
        self._committed = True
        if self._file is not None:
            self._pending.commit()
        elif self.path.is_file() and self.path.stat().st_size:
            self.path.write_bytes(b"")  # from an earlier run: this one rejected nothing

    def __enter__(self) -> RejectsFile:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()
        if not self._committed:
            self._pending.discard()


def _no_kinds() -> Counter[str]:
    """An empty count of loss kinds, typed (``Counter[str]`` as the factory calls a generic alias)."""
    return Counter()


@dataclass(slots=True)
class RunReport:
    """Where a run's rejects, losses and counts go (see the module docstring)."""

    path: Path
    progress: ProgressBar
    rejects: RejectsFile
    quiet: bool = False
    all_losses: bool = False
    losses_file: IO[str] | None = None
    losses_output: PendingOutput | None = None
    """Where ``losses_file`` is written, renamed when the run completes (an interrupted run leaves none)."""
    numbered: RowNumbering = "line"
    """Rows by JSON Lines line (``file:3``) or JSON array index (``file[2]``)."""
    converted: int = 0
    rejected: int = 0
    losses: int = 0
    lossy_lines: int = 0
    kinds: Counter[str] = field(default_factory=_no_kinds)
    groups: dict[tuple[str, str], _Group] = field(default_factory=lambda: {})

    def record(self, result: BatchResult) -> None:
        """Count one batch's result, print what is due, advance the progress."""
        for reject in result.rejects:
            self.rejects.write(reject.record)
            if self._shows(self.rejected):
                self.progress.print(f"{self.where(reject.line)}: {reject.error}")
            self.rejected += 1
        for line, loss in result.losses:
            self._count(line, loss)
        self.converted += result.converted
        self.lossy_lines += len({line for line, _ in result.losses})
        self.progress.advance(result.converted + len(result.rejects), result.size)

    def where(self, number: int) -> str:
        """A row's place: ``file:LINE``, or ``file[INDEX]`` for an item of a JSON array."""
        return f"{self.path}:{number}" if self.numbered == "line" else f"{self.path}[{number}]"

    def _shows(self, seen: int) -> bool:
        return not self.quiet and (self.all_losses or seen < SHOWN)

    def _count(self, line: int, loss: Loss) -> None:
        if self._shows(self.losses):
            self.progress.print(f"{self.where(line)}: loss ({loss.kind}): {loss}")
        self.losses += 1
        self.kinds[loss.kind] += 1
        key = (loss.kind, path_pattern(loss.path))
        group = self.groups.get(key)
        if group is None:
            self.groups[key] = _Group(1, line, loss)
        else:
            group.count += 1
        if self.losses_file is not None:
            record = {self.numbered: line, "kind": loss.kind, "path": loss.path, "what": loss.what, "why": loss.why}
            self.losses_file.write(json.dumps(record, ensure_ascii=False) + "\n")

    def close(self) -> None:
        self.progress.close()
        self.rejects.close()
        if self.losses_file is not None:
            self.losses_file.close()

    def summarize(self) -> int:
        """Print the closing counts (and the loss summary); the run's exit code."""
        if self.losses:
            self._print_losses()
        if self.rejected:
            total = self.converted + self.rejected
            where = self.rejects.path
            print(f"{self.rejected} of {total} payload(s) not converted; they are in {where}", file=sys.stderr)
        return exit_codes.rejects_exit_code(self.rejected)

    def _print_losses(self) -> None:
        head = f"{self.losses:,} loss(es) in {self.lossy_lines:,} converted payload(s): {by_kind(self.kinds)}"
        if self.quiet:
            print(f"{head} (run without --quiet to see them)", file=sys.stderr)
            return
        if self.all_losses or self.losses <= SHOWN:
            return  # every one was printed
        print(f"{head}; by kind and path (the first {SHOWN} were printed above):", file=sys.stderr)
        ranked = sorted(self.groups.items(), key=lambda item: -item[1].count)
        for (kind, pattern), group in ranked[:SUMMARY_ROWS]:
            first = group.first
            at = f"line {group.first_line}" if self.numbered == "line" else f"[{group.first_line}]"
            where = f"{pattern}: {first.what} ({first.why}; first at {at})"
            print(f"  {group.count:>10,}  {kind:<8}  {where}", file=sys.stderr)
        if len(ranked) > SUMMARY_ROWS:
            print(f"  ... {len(ranked) - SUMMARY_ROWS:,} more (kind, path) groups", file=sys.stderr)
        if self.losses_file is None:
            print("  (--losses-file PATH writes every loss as a JSON line; --all-losses prints each)", file=sys.stderr)
