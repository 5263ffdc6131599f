"""Section 3: stream accumulation at 1x, 4x and 16x length, and how the time grows.

The growth exponent is the least-squares slope of log(time) over log(length) through the
three points: 1.0 is linear, 2.0 quadratic. An accumulator that copies the whole text on
every delta looks fine at 1x and falls over on a long answer; the exponent shows it
before a user does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bench import anchors_litellm, anchors_sdks, floor, subject, workloads
from bench.compare import Candidate, Outcome, load, run_checked
from bench.equivalence import anthropic_message_view, openai_completion_view
from bench.report import Section, Table, Target, ratio, seconds
from bench.timing import Contender, RunSettings, growth_exponent

MULTIPLES = (1, 4, 16)
CHATCODEC = "chatcodec accumulate_stream"
TARGET_RATIO = 3.0
TARGET_EXPONENT = 1.05

INTRO = (
    "A streamed answer accumulated into the final message, from already-parsed event dicts (no SSE parsing). "
    "OpenAI: text deltas, then the arguments of two parallel tool calls, the finish chunk and the usage chunk. "
    "Anthropic: a signed thinking block, a text block and two `tool_use` blocks streamed as `input_json_delta`, "
    "then `message_delta` and `message_stop`. Deltas are 4 to 20 characters. The floor appends each delta to a "
    "list and joins once (`bench/floor.py`). Every row was checked against the floor (text, thinking and "
    "signature, tool calls with arguments parsed, finish reason, usage) at every length before it was timed."
)

FOOTNOTES = [
    "chatcodec starts from the same dicts as the floor and validates the finished `ChatResponse`; the SDKs are "
    "handed typed objects built outside the clock.",
    *anchors_sdks.FOOTNOTES,
    "litellm: `stream_chunk_builder` on `ModelResponseStream` objects built beforehand, as its streaming "
    "wrapper yields them.",
]

Build = Callable[[int], list[dict[str, Any]]]
Candidates = Callable[[list[dict[str, Any]]], list[Candidate]]


def _openai_candidates(chunks: list[dict[str, Any]]) -> list[Candidate]:
    floor_contender = Contender(
        "floor (list + join)",
        lambda: floor.accumulate_openai_chunks(chunks),
        openai_completion_view,
        "`floor.accumulate_openai_chunks`",
        scope="stream",
    )
    return [
        floor_contender,
        *subject.accumulate("openai-chat", chunks),
        *load("openai SDK", lambda: anchors_sdks.accumulate_openai(chunks)),
        *load("litellm", lambda: anchors_litellm.accumulate_openai(chunks)),
    ]


def _anthropic_candidates(events: list[dict[str, Any]]) -> list[Candidate]:
    floor_contender = Contender(
        "floor (list + join)",
        lambda: floor.accumulate_anthropic_events(events),
        anthropic_message_view,
        "`floor.accumulate_anthropic_events`",
        scope="stream",
    )
    return [
        floor_contender,
        *subject.accumulate("anthropic", events),
        *load("anthropic SDK", lambda: anchors_sdks.accumulate_anthropic(events)),
    ]


def _measure_lengths(
    build: Build, candidates: Candidates, lengths: list[int], settings: RunSettings
) -> list[list[Outcome]]:
    """Outcomes per length (each list in the candidates' order)."""
    per_length: list[list[Outcome]] = []
    for length in lengths:
        events = build(length)
        listed = candidates(events)
        floor_contender = listed[0]
        assert isinstance(floor_contender, Contender)
        expected = {"stream": floor_contender.view(floor_contender.call())}
        per_length.append(run_checked(listed, expected, settings=settings))
    return per_length


def _rounds(per_length: list[list[Outcome]]) -> str:
    return " / ".join(str(max(outcome.rounds for outcome in outcomes)) for outcomes in per_length)


def _row(index: int, per_length: list[list[Outcome]]) -> tuple[list[str], list[float] | None]:
    outcomes = [outcomes[index] for outcomes in per_length]
    floors = [outcomes[0].median for outcomes in per_length]
    name = outcomes[0].name
    missing = next((outcome.status for outcome in outcomes if outcome.median is None), None)
    if missing is not None:
        return [name, *("-" for _ in outcomes), "-", "-", missing], None
    medians = [outcome.median for outcome in outcomes if outcome.median is not None]
    ratios = [
        f"{ratio(median / floor_median)}" for median, floor_median in zip(medians, floors, strict=True) if floor_median
    ]
    return [name, *(seconds(median) for median in medians), " / ".join(ratios), "", outcomes[0].note], medians


def _table(stream: str, lengths: list[int], per_length: list[list[Outcome]], section: Section) -> None:
    headers = [
        "contender",
        *(f"{multiple}x ({length} deltas)" for multiple, length in zip(MULTIPLES, lengths, strict=True)),
    ]
    table = Table(
        [*headers, "ratio to floor (1x / 4x / 16x)", "growth exponent", "timed / notes"],
        caption=f"**{stream}** (rounds per length: {_rounds(per_length)})",
    )
    for index in range(len(per_length[0])):
        cells, medians = _row(index, per_length)
        if medians is not None:
            exponent = growth_exponent(lengths, medians)
            cells[-2] = f"{exponent:.2f}"
            if cells[0] == CHATCODEC:
                _targets(stream, medians, [outcomes[0].median for outcomes in per_length], exponent, section)
        table.rows.append(cells)
    section.tables.append(table)


def _targets(stream: str, medians: list[float], floors: list[float | None], exponent: float, section: Section) -> None:
    worst = max(median / floor_median for median, floor_median in zip(medians, floors, strict=True) if floor_median)
    section.targets.append(
        Target(
            f"{stream}: accumulation, worst of the three lengths",
            f"<= {TARGET_RATIO:.0f}x floor",
            ratio(worst),
            worst <= TARGET_RATIO,
        )
    )
    section.targets.append(
        Target(f"{stream}: growth exponent", f"<= {TARGET_EXPONENT}", f"{exponent:.2f}", exponent <= TARGET_EXPONENT)
    )


def run(settings: RunSettings) -> Section:
    section = Section("streams", "Stream accumulation", INTRO, footnotes=list(FOOTNOTES))
    lengths = [settings.stream_deltas * multiple for multiple in MULTIPLES]
    _table(
        "OpenAI chunks",
        lengths,
        _measure_lengths(workloads.openai_stream, _openai_candidates, lengths, settings),
        section,
    )
    _table(
        "Anthropic events",
        lengths,
        _measure_lengths(workloads.anthropic_stream, _anthropic_candidates, lengths, settings),
        section,
    )
    return section
