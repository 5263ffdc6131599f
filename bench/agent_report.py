"""The agent section's tables and target rows, from its measurements.

One measurement (:class:`Measured`) is one source, target and size, timed together. The
report folds them three ways: a summary per size (one row per pair), one table of shapes
per source and size (shapes down, targets across), and litellm's rows beside chatcodec's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bench.agent_sources import FULL, PLAIN, PROVIDERS, Input
from bench.compare import Outcome, median_of
from bench.report import Table, Target, ratio, seconds

CHATCODEC = "chatcodec"
ALL_SHAPES = "all shapes (full session)"


def chatcodec_name(label: str) -> str:
    """The row name of chatcodec converting the input called ``label``."""
    return f"{CHATCODEC}, {label}" if label in (PLAIN, FULL) else f"{CHATCODEC}, + {label}"


@dataclass
class Measured:
    """One interleaved measurement: the inputs and what happened to each contender."""

    source: str
    target: str
    turns: int
    inputs: list[Input]
    outcomes: list[Outcome]
    changed: list[str]
    """The labels of inputs some contender edited in place (reported: the rows after it timed another job)."""

    @property
    def pair(self) -> str:
        return f"{self.source} -> {self.target}"

    def chatcodec(self, label: str) -> float | None:
        return median_of(self.outcomes, chatcodec_name(label))

    def shaped(self) -> list[Input]:
        """The inputs other than the plain twin (each shape, then the full session)."""
        return self.inputs[1:]

    def per_kib(self, item: Input) -> float | None:
        """Time per KiB of ``item`` over the plain twin's (``None`` if either was not timed)."""
        plain, shaped = self.chatcodec(PLAIN), self.chatcodec(item.label)
        if not plain or not shaped:
            return None
        return (shaped / item.kib) / (plain / self.inputs[0].kib)

    def per_message(self, item: Input) -> float | None:
        """Time of ``item`` over the plain twin's: the same messages, so time per message."""
        plain, shaped = self.chatcodec(PLAIN), self.chatcodec(item.label)
        return shaped / plain if plain and shaped else None

    def floor_ratio(self) -> float | None:
        floor, plain = median_of(self.outcomes, "floor, plain twin"), self.chatcodec(PLAIN)
        return plain / floor if floor and plain else None

    def fastest_litellm(self) -> Outcome | None:
        timed = [outcome for outcome in self.litellm() if outcome.median is not None]
        return min(timed, key=lambda outcome: outcome.median or 0.0) if timed else None

    def litellm(self) -> list[Outcome]:
        return [outcome for outcome in self.outcomes if outcome.name.startswith("litellm")]

    def worst_shape(self) -> tuple[float, str] | None:
        ratios = [(self.per_kib(item), item.label) for item in self.inputs[1:-1]]
        timed = [(value, label) for value, label in ratios if value is not None]
        return max(timed) if timed else None


def _cell(value: float | None) -> str:
    return ratio(value) if value is not None else "-"


def _time(value: float | None) -> str:
    return seconds(value) if value is not None else "-"


def _summary(turns: int, measured: Sequence[Measured]) -> Table:
    rounds = max(outcome.rounds for item in measured for outcome in item.outcomes)
    table = Table(
        [
            "pair",
            "full session",
            "chatcodec, plain twin",
            "ratio to floor",
            "chatcodec, full session",
            "full / plain, per KiB",
            "worst shape, per KiB",
            "litellm's fastest, full session",
            "chatcodec / litellm",
        ],
        caption=f"**{turns} turns**, chatcodec `convert_request` ({rounds} rounds at most)",
    )
    for item in measured:
        full = item.inputs[-1]
        worst = item.worst_shape()
        litellm = item.fastest_litellm()
        chatcodec_full = item.chatcodec(FULL)
        litellm_median = litellm.median if litellm else None
        table.rows.append(
            [
                item.pair,
                f"{full.kib:.0f} KiB",
                _time(item.chatcodec(PLAIN)),
                _cell(item.floor_ratio()),
                _time(chatcodec_full),
                _cell(item.per_kib(full)),
                f"{ratio(worst[0])} ({worst[1]})" if worst else "-",
                f"{_time(litellm_median)} ({litellm.name.split(',')[0]})" if litellm else "-",
                _cell(chatcodec_full / litellm_median if chatcodec_full and litellm_median else None),
            ]
        )
    return table


def _shape_table(source: str, turns: int, measured: Sequence[Measured]) -> Table:
    """Shapes down, targets across: per KiB / per message, against the plain twin."""
    by_target = {item.target: item for item in measured}
    targets = [target for target in PROVIDERS if target in by_target]
    table = Table(
        ["shape", *targets],
        caption=f"**{source} shapes, {turns} turns**: chatcodec per KiB / per message, against the plain twin",
    )
    plain_row = [PLAIN]
    for target in targets:
        item = by_target[target]
        plain_row.append(_time(item.chatcodec(PLAIN)))
    table.rows.append(plain_row)
    labels = [item.label for item in measured[0].shaped()]
    for label in labels:
        row = [ALL_SHAPES if label == FULL else label]
        for target in targets:
            row.append(_shape_cell(by_target[target], label))
        table.rows.append(row)
    return table


def _shape_cell(item: Measured, label: str) -> str:
    found = next((entry for entry in item.inputs if entry.label == label), None)
    if found is None:
        return "(not in format)"
    per_kib, per_message = item.per_kib(found), item.per_message(found)
    if per_kib is None or per_message is None:
        return "not timed"
    return f"{ratio(per_kib)} / {ratio(per_message)}"


def _litellm_table(measured: Sequence[Measured]) -> Table | None:
    table = Table(
        ["pair", "turns", "chatcodec, full session", "litellm row", "litellm", "chatcodec / litellm"],
        caption="**litellm on the full sessions**, beside chatcodec in the same interleaved rounds",
    )
    for item in measured:
        chatcodec_full = item.chatcodec(FULL)
        for outcome in item.litellm():
            relative = chatcodec_full / outcome.median if chatcodec_full and outcome.median else None
            name = outcome.name.split(",")[0]
            shown = _time(outcome.median) if outcome.median is not None else outcome.status[:80]
            table.rows.append([item.pair, str(item.turns), _time(chatcodec_full), name, shown, _cell(relative)])
    return table if table.rows else None


def tables(measured: Sequence[Measured]) -> list[Table]:
    """The summary per size, the shape tables, the litellm table."""
    sizes = sorted({item.turns for item in measured})
    result = [_summary(turns, [item for item in measured if item.turns == turns]) for turns in sizes]
    for turns in sizes:
        for source in PROVIDERS:
            group = [item for item in measured if item.turns == turns and item.source == source]
            if group and len(group[0].inputs) > 2:
                result.append(_shape_table(source, turns, group))
    litellm = _litellm_table(measured)
    if litellm is not None:
        result.append(litellm)
    return result


def failures(measured: Sequence[Measured]) -> list[str]:
    """One footnote per contender not timed: why (check failed, library missing)."""
    notes: list[str] = []
    for item in measured:
        for outcome in item.outcomes:
            if outcome.median is None and not outcome.status.startswith("not installed"):
                notes.append(f"Not timed, {item.pair}, {item.turns} turns, {outcome.name}: {outcome.status}")
    notes.extend(
        f"A contender edited its input in place: {item.pair}, {item.turns} turns, {label}."
        for item in measured
        for label in item.changed
    )
    missing = {outcome.name for item in measured for outcome in item.outcomes if outcome.status.startswith("not ins")}
    notes.extend(f"`{name}` is not installed here: its rows are empty." for name in sorted(missing))
    return notes


def litellm_targets(measured: Sequence[Measured]) -> list[Target]:
    """Per pair litellm converts: chatcodec's full-session time at or below litellm's fastest, every size."""
    targets: list[Target] = []
    pairs = dict.fromkeys(item.pair for item in measured if item.fastest_litellm() is not None)
    for pair in pairs:
        ratios: list[tuple[int, float]] = []
        for item in measured:
            litellm = item.fastest_litellm() if item.pair == pair else None
            chatcodec_full = item.chatcodec(FULL)
            if litellm is not None and litellm.median and chatcodec_full:
                ratios.append((item.turns, chatcodec_full / litellm.median))
        if not ratios:
            continue
        sizes = " / ".join(str(turns) for turns, _ in ratios)
        shown = " / ".join(ratio(value) for _, value in ratios) + " of litellm's time"
        met = all(value <= 1.0 for _, value in ratios)
        what = f"agent sessions {pair}, full session ({sizes} turns)"
        targets.append(Target(what, "<= litellm's fastest (no floor converts these)", shown, met))
    return targets


def shape_targets(measured: Sequence[Measured], limit: float) -> list[Target]:
    """Per pair: no shape (nor all of them together) above ``limit`` times the plain twin, per KiB."""
    targets: list[Target] = []
    pairs = dict.fromkeys(item.pair for item in measured if len(item.inputs) > 2)
    for pair in pairs:
        group = [item for item in measured if item.pair == pair and len(item.inputs) > 2]
        worst: tuple[float, str] | None = None
        untimed: list[str] = []
        for item in group:
            for entry in item.shaped():
                value = item.per_kib(entry)
                label = f"{ALL_SHAPES if entry.label == FULL else entry.label}, {item.turns} turns"
                if value is None:
                    untimed.append(label)
                elif worst is None or value > worst[0]:
                    worst = (value, label)
        shown = f"{ratio(worst[0])} ({worst[1]})" if worst else "-"
        if untimed:
            shown += f"; not timed: {', '.join(untimed)}"
        met = worst is not None and worst[0] <= limit and not untimed
        targets.append(Target(f"shapes vs plainest twin, {pair}", f"<= {limit}x per KiB, worst shown", shown, met))
    return targets
