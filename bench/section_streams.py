"""Section 3: stream accumulation at 1x, 4x and 16x length, and how the time grows.

The growth exponent is the least-squares slope of log(time) over log(length) through the
three points: 1.0 is linear, 2.0 quadratic. An accumulator that copies the whole text on
every delta looks fine at 1x and falls over on a long answer; the exponent shows it
before a user does.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import chatcodec
from bench import anchors_litellm, anchors_sdks, floor, subject, workloads
from bench.compare import Candidate, Outcome, load, run_checked
from bench.equivalence import anthropic_message_view, openai_completion_view, stream_view
from bench.report import Section, Table, Target, ratio, seconds
from bench.timing import Contender, RunSettings, growth_exponent

MULTIPLES = (1, 4, 16)
CHATCODEC = "chatcodec accumulate_stream"
CONVERT_DICTS = "chatcodec decode_stream + encode_stream"
CONVERT_BYTES = "chatcodec convert_stream"
_TARGETED = {CHATCODEC: "accumulation", CONVERT_DICTS: "conversion", CONVERT_BYTES: "conversion"}
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

CONVERT_INTRO = (
    "Stream conversion, the job of a proxy (`chatcodec serve`, `StreamConverter`): the same streams turned into "
    "the other provider's events, once from parsed event dicts to event dicts (`decode_stream` then "
    "`encode_stream`), once from an SSE body to an SSE body (`convert_stream`, one chunk). The floors map each "
    "event by hand (`bench/floor.py`: text, reasoning, tool calls, finish, usage; no validation, no losses); "
    "every row was checked by accumulating both outputs (text, reasoning, tool calls with arguments parsed, "
    "finish, usage) at every length before it was timed."
)

Build = Callable[[int], Any]
Candidates = Callable[[Any], list[Candidate]]


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


def openai_chunks_view(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    """What a list of ``chat.completion.chunk`` dicts says (reasoning included)."""
    text: list[str] = []
    reasoning: list[str] = []
    calls: dict[int, list[Any]] = {}
    finish = None
    usage: dict[str, Any] = {}
    for chunk in chunks:
        usage = chunk.get("usage") or usage
        for choice in chunk["choices"]:
            delta = choice["delta"]
            text.append(delta.get("content") or "")
            reasoning.append(delta.get("reasoning_content") or "")
            for call in delta.get("tool_calls") or ():
                entry = calls.setdefault(call["index"], [call.get("id"), call["function"].get("name"), ""])
                entry[2] += call["function"].get("arguments") or ""
            finish = choice.get("finish_reason") or finish
    return stream_view(
        text="".join(text),
        thinking="".join(reasoning),
        tool_calls=[tuple(calls[index]) for index in sorted(calls)],
        finish=finish,
        usage=(usage.get("prompt_tokens"), usage.get("completion_tokens")),
    )


def _anthropic_events_view(events: list[dict[str, Any]]) -> dict[str, Any]:
    view = anthropic_message_view(floor.accumulate_anthropic_events(events))
    return {**view, "signature": None}  # the source (OpenAI Chat) has none


def _anthropic_sse(deltas: int) -> bytes:
    events = workloads.anthropic_stream(deltas)
    return b"".join(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode() for event in events)


def _openai_sse(deltas: int) -> bytes:
    chunks = workloads.openai_stream(deltas)
    return b"".join(f"data: {json.dumps(chunk)}\n\n".encode() for chunk in chunks) + b"data: [DONE]\n\n"


def _to_openai_dicts(events: list[dict[str, Any]]) -> list[Candidate]:
    def run() -> object:
        canonical = chatcodec.decode_stream("anthropic", events)
        return list(chatcodec.encode_stream("openai-chat", canonical, on_loss="ignore"))

    return [
        Contender(
            "floor (event by event)",
            lambda: floor.anthropic_events_to_openai_chunks(events, int(time.time())),
            openai_chunks_view,
            "`floor.anthropic_events_to_openai_chunks`",
            scope="stream",
        ),
        Contender(CONVERT_DICTS, run, openai_chunks_view, "anthropic event dicts -> openai-chat chunk dicts", "stream"),
    ]


def _to_anthropic_dicts(chunks: list[dict[str, Any]]) -> list[Candidate]:
    def run() -> object:
        canonical = chatcodec.decode_stream("openai-chat", chunks)
        return list(chatcodec.encode_stream("anthropic", canonical, on_loss="ignore"))

    return [
        Contender(
            "floor (event by event)",
            lambda: floor.openai_chunks_to_anthropic_events(chunks),
            _anthropic_events_view,
            "`floor.openai_chunks_to_anthropic_events`",
            scope="stream",
        ),
        Contender(
            CONVERT_DICTS, run, _anthropic_events_view, "openai-chat chunk dicts -> anthropic event dicts", "stream"
        ),
    ]


def _openai_sse_view(output: bytes) -> object:
    return openai_chunks_view(floor.sse_events(output))


def _anthropic_sse_view(output: bytes) -> object:
    return _anthropic_events_view(floor.sse_events(output))


def _sse_contenders(body: bytes, source: str, target: str) -> list[Candidate]:
    def floor_call() -> object:
        if target == "openai-chat":
            return floor.anthropic_sse_to_openai_sse(body, int(time.time()))
        return floor.openai_sse_to_anthropic_sse(body)

    def run() -> object:
        return b"".join(chatcodec.convert_stream([body], source=source, target=target, on_loss="ignore"))

    view = _openai_sse_view if target == "openai-chat" else _anthropic_sse_view
    floor_name = (
        "`floor.anthropic_sse_to_openai_sse`" if target == "openai-chat" else "`floor.openai_sse_to_anthropic_sse`"
    )
    return [
        Contender("floor (parse, map, dump)", floor_call, view, floor_name, scope="stream"),
        Contender(CONVERT_BYTES, run, view, f"{source} SSE bytes -> {target} SSE bytes", scope="stream"),
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


def _table(stream: str, lengths: list[int], per_length: list[list[Outcome]], section: Section, lead: str = "") -> None:
    headers = [
        "contender",
        *(f"{multiple}x ({length} deltas)" for multiple, length in zip(MULTIPLES, lengths, strict=True)),
    ]
    table = Table(
        [*headers, "ratio to floor (1x / 4x / 16x)", "growth exponent", "timed / notes"],
        caption=f"{lead}**{stream}** (rounds per length: {_rounds(per_length)})",
    )
    for index in range(len(per_length[0])):
        cells, medians = _row(index, per_length)
        if medians is not None:
            exponent = growth_exponent(lengths, medians)
            cells[-2] = f"{exponent:.2f}"
            if cells[0] in _TARGETED:
                floors = [outcomes[0].median for outcomes in per_length]
                _targets(stream, medians, floors, exponent, section, job=_TARGETED[cells[0]])
        table.rows.append(cells)
    section.tables.append(table)


def _targets(
    stream: str, medians: list[float], floors: list[float | None], exponent: float, section: Section, *, job: str
) -> None:
    worst = max(median / floor_median for median, floor_median in zip(medians, floors, strict=True) if floor_median)
    section.targets.append(
        Target(
            f"{stream}: {job}, worst of the three lengths",
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
    conversions: list[tuple[str, Build, Candidates]] = [
        ("Anthropic events -> OpenAI chunks, dicts", workloads.anthropic_stream, _to_openai_dicts),
        ("OpenAI chunks -> Anthropic events, dicts", workloads.openai_stream, _to_anthropic_dicts),
        (
            "Anthropic SSE -> OpenAI SSE, bytes",
            _anthropic_sse,
            lambda body: _sse_contenders(body, "anthropic", "openai-chat"),
        ),
        (
            "OpenAI SSE -> Anthropic SSE, bytes",
            _openai_sse,
            lambda body: _sse_contenders(body, "openai-chat", "anthropic"),
        ),
    ]
    for number, (stream, build, candidates) in enumerate(conversions):
        lead = f"{CONVERT_INTRO}\n\n" if number == 0 else ""
        _table(stream, lengths, _measure_lengths(build, candidates, lengths, settings), section, lead)
    return section
