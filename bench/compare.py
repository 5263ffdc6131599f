"""Check every contender of one workload, time the ones that pass, and say what happened to each.

A contender is *unavailable* when its library is not installed (anchors are imported
lazily, so a missing one costs a row, not the run), *failed* when its output is not
equivalent to the floor's, and *timed* otherwise. Only timed contenders have a median.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bench.report import Table, ratio, seconds
from bench.timing import Contender, RunSettings, check, measure


@dataclass
class Unavailable:
    """A contender that cannot run here, and why (its library is missing)."""

    name: str
    reason: str


Candidate = Contender | Unavailable


@dataclass
class Outcome:
    """What happened to one contender on one workload."""

    name: str
    median: float | None
    status: str
    """Empty when timed; otherwise why there is no median."""
    note: str = ""
    rounds: int = 0
    """How many interleaved rounds the median is of."""


def load(label: str, factory: Callable[[], Sequence[Candidate]]) -> list[Candidate]:
    """The contenders ``factory`` builds, or one unavailable row when its library is missing."""
    try:
        return list(factory())
    except ImportError as error:
        return [Unavailable(label, f"not installed ({error.name or error})")]


def run_checked(
    candidates: Sequence[Candidate],
    expected: Mapping[str, object],
    *,
    settings: RunSettings,
) -> list[Outcome]:
    """Outcomes in the order given; ``expected`` maps each contender's scope to the floor's view."""
    passed: list[Contender] = []
    verdicts: dict[str, str] = {}
    for candidate in candidates:
        if isinstance(candidate, Unavailable):
            verdicts[candidate.name] = candidate.reason
            continue
        failure = check(candidate, expected[candidate.scope])
        if failure is None:
            passed.append(candidate)
        else:
            verdicts[candidate.name] = f"check failed, not timed: {failure}"
    measured = measure(
        passed, settings.rounds, settings.min_sample_seconds, settings.budget_seconds, clock=settings.clock
    )
    return [
        Outcome(
            candidate.name,
            measured[candidate.name].median if candidate.name in measured else None,
            verdicts.get(candidate.name, ""),
            candidate.note if isinstance(candidate, Contender) else "",
            len(measured[candidate.name].samples) if candidate.name in measured else 0,
        )
        for candidate in candidates
    ]


def ratio_table(outcomes: Sequence[Outcome], caption: str) -> Table:
    """Contender, median, ratio to the first outcome (the floor), notes."""
    floor = outcomes[0].median
    rounds = max(outcome.rounds for outcome in outcomes)
    table = Table(["contender", "median", "ratio to floor", "timed / notes"], caption=f"{caption} ({rounds} rounds)")
    for outcome in outcomes:
        if outcome.median is None:
            table.rows.append([outcome.name, "-", "-", outcome.status])
            continue
        relative = ratio(outcome.median / floor) if floor else "-"
        table.rows.append([outcome.name, seconds(outcome.median), relative, outcome.note])
    return table


def median_of(outcomes: Sequence[Outcome], name: str) -> float | None:
    """The median of the outcome called ``name`` (``None`` when it was not timed)."""
    return next((outcome.median for outcome in outcomes if outcome.name == name), None)
