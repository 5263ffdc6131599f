"""Checked contenders, interleaved rounds, medians and growth exponents.

Why interleaved: on a shared two-core machine, load comes and goes. Running contender A
for a minute and then B for a minute charges whichever ran during the busy spell; a round
that runs every contender once, repeated many times with the order rotated, spreads the
noise over all of them, and the median of the rounds ignores the spikes.

Each sample times a batch of calls sized (once, before the rounds) to take at least
``min_sample_seconds``, so the clock's resolution and the loop's own cost do not count.
The garbage collector stays on during a sample (real code pays for the garbage it makes)
and is run before every sample, outside the clock, so no contender pays for the garbage
the one before it left. Before the rounds, everything alive (the anchor libraries, the
workloads) is moved out of the collector's reach with ``gc.freeze()``: otherwise every
full collection walks half a million objects that litellm and LangChain leave behind,
charging each contender for the libraries that happen to share its process.

Nothing is timed before it is checked: :func:`check` runs the contender twice and
compares each result's view with the floor's; a contender that fails is reported with
the first difference and never timed.
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.equivalence import first_difference

MIN_ROUNDS = 5
"""The fewest rounds a time budget can cut a workload down to."""


@dataclass
class Contender:
    """One way of doing a section's job: a call to time and how to view its result."""

    name: str
    call: Callable[[], object]
    """One complete run of the job (inputs are prepared beforehand, outside the clock)."""
    view: Callable[[Any], object]
    """The comparable view of what ``call`` returned (see :mod:`bench.equivalence`)."""
    note: str = ""
    """What exactly is timed, when the name does not say it all."""
    scope: str = "request"
    """Which of the floor's views this contender's output is compared with."""


@dataclass
class Measurement:
    """The samples of one contender: seconds per call, one per round."""

    samples: list[float] = field(default_factory=lambda: [])
    batch: int = 1

    @property
    def median(self) -> float:
        return statistics.median(self.samples)


def check(contender: Contender, expected: object) -> str | None:
    """``None`` when two calls both give a result equivalent to ``expected``, else why not."""
    for attempt in ("first", "second"):
        try:
            actual = contender.view(contender.call())
        except Exception as error:  # an anchor failing on the workload is a finding, not a crash
            return f"{attempt} call raised {type(error).__name__}: {error}"[:300]
        difference = first_difference(expected, actual)
        if difference is not None:
            return f"{attempt} call differs at {difference}"
    return None


Clock = Callable[[], float]


def _calibrate(call: Callable[[], object], min_sample_seconds: float, clock: Clock) -> tuple[int, float]:
    """The batch size, and the seconds one sample of that batch should take."""
    start = clock()
    call()
    elapsed = max(clock() - start, 1e-7)
    batch = max(1, math.ceil(min_sample_seconds / elapsed))
    return batch, batch * elapsed


def _sample(call: Callable[[], object], batch: int, clock: Clock) -> float:
    start = clock()
    for _ in range(batch):
        call()
    return (clock() - start) / batch


def measure(
    contenders: Sequence[Contender],
    rounds: int,
    min_sample_seconds: float,
    budget_seconds: float = math.inf,
    clock: Clock = time.perf_counter,
) -> dict[str, Measurement]:
    """Seconds per call of each contender, over interleaved rounds, read on ``clock``.

    ``rounds`` is lowered (to :data:`MIN_ROUNDS` at least) when a round is estimated to
    take so long that they would not fit in ``budget_seconds``: a 16x stream through a
    slow accumulator takes seconds per call, and five medians of it say enough.
    """
    measurements: dict[str, Measurement] = {}
    if not contenders:
        return measurements
    round_seconds = 0.0
    for contender in contenders:
        batch, sample_seconds = _calibrate(contender.call, min_sample_seconds, clock)
        measurements[contender.name] = Measurement(batch=batch)
        round_seconds += sample_seconds
    if round_seconds > 0:
        rounds = max(min(rounds, MIN_ROUNDS), min(rounds, int(budget_seconds / round_seconds)))
    gc.collect()
    gc.freeze()
    order = list(contenders)
    for round_index in range(rounds):
        shift = round_index % len(order)
        for contender in order[shift:] + order[:shift]:
            measurement = measurements[contender.name]
            gc.collect()
            measurement.samples.append(_sample(contender.call, measurement.batch, clock))
    gc.unfreeze()
    return measurements


def growth_exponent(lengths: Sequence[float], seconds: Sequence[float]) -> float:
    """Least-squares slope of log(time) against log(length): 1 is linear, 2 quadratic."""
    xs = [math.log(length) for length in lengths]
    ys = [math.log(value) for value in seconds]
    mean_x = statistics.fmean(xs)
    mean_y = statistics.fmean(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread


@dataclass(frozen=True)
class RunSettings:
    """How hard to measure: the same for every section of one run."""

    quick: bool
    """Small sizes and few rounds: a smoke run that proves the bench works, not a measurement."""
    rounds: int
    """Interleaved rounds per workload (each gives one sample per contender)."""
    min_sample_seconds: float
    """Each sample times a batch of calls lasting at least this long."""
    session_turns: tuple[int, ...]
    """Agent-session sizes, in assistant turns, for the request conversions."""
    stream_deltas: int
    """Deltas in the 1x stream; the stream section also runs 4x and 16x."""
    budget_seconds: float
    """Time one workload's rounds should take at most (slow contenders get fewer rounds)."""
    agent_turns: tuple[int, ...] = (10, 50, 200, 1000)
    """Agent-session sizes, in agent steps, for the agent section (every pair of formats)."""
    agent_shape_turns: tuple[int, ...] = (50,)
    """The sizes of ``agent_turns`` at which each input shape is timed against its plainest twin."""
    cpu_time: bool = False
    """Read samples on this process's CPU time (``time.process_time``) instead of the wall
    clock: on shared cores, time spent waiting for a core does not count. Conversions are
    single-threaded and do no I/O, so the two agree on an idle machine."""

    @property
    def clock(self) -> Clock:
        return time.process_time if self.cpu_time else time.perf_counter
