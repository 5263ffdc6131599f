"""Section 1: an OpenAI Chat request -> an Anthropic Messages request, at 10, 50 and 200 turns."""

from __future__ import annotations

import json
from typing import Any

from bench import anchors_langchain, anchors_litellm, anchors_pydantic_ai, floor, subject, workloads
from bench.compare import Candidate, Outcome, load, median_of, ratio_table, run_checked
from bench.equivalence import anthropic_view
from bench.report import Section, Target, ratio
from bench.timing import Contender, RunSettings

CHATCODEC = "chatcodec convert_request"
TARGET_RATIO = 3.0
JSON_TARGET_RATIO = 2.0

INTRO = (
    "An agent session (system prompt, user text and images as base64 data URLs and https URLs, assistant "
    "`reasoning_content`, text and parallel tool calls, tool results, six tool definitions) converted from an "
    "OpenAI Chat Completions request to an Anthropic Messages request. The floor is `bench/floor.py`, plain dicts "
    "and no validation; chatcodec validates the input and the canonical model. Every row's output was compared "
    "with the floor's (see `bench/equivalence.py`) before it was timed; rows marked *system + messages* are "
    "converters compared on those only. Medians of interleaved rounds, in one process."
)

FOOTNOTES = [
    "Reasoning: no contender can send OpenAI `reasoning_content` to Anthropic (Anthropic rejects thinking without "
    "its own signature); chatcodec drops it and reports a loss, the floor drops it, and the comparison leaves "
    "thinking out. Image `detail` hints are not in the workload; tool ids are OpenAI-style (`call_...`), which "
    "Anthropic accepts, so chatcodec's id rewriting does not fire.",
    "chatcodec stages: *decode* is OpenAI dict -> validated `ChatRequest` (checked by encoding its result), "
    "*encode* is a prebuilt `ChatRequest` -> Anthropic dict; the two add up to about the whole.",
    *anchors_litellm.FOOTNOTES,
    *anchors_pydantic_ai.FOOTNOTES,
    *anchors_langchain.FOOTNOTES,
]


def _candidates(payload: dict[str, Any]) -> list[Candidate]:
    floor_contender = Contender(
        "floor (plain dicts)", lambda: floor.openai_to_anthropic(payload), anthropic_view, "`floor.openai_to_anthropic`"
    )
    return [
        floor_contender,
        *subject.openai_to_anthropic(payload),
        *load("litellm", lambda: anchors_litellm.openai_to_anthropic(payload)),
        *load("pydantic-ai", lambda: anchors_pydantic_ai.openai_to_anthropic(payload)),
        *load("langchain", lambda: anchors_langchain.openai_to_anthropic(payload)),
    ]


def run(settings: RunSettings) -> Section:
    section = Section("convert", "OpenAI Chat -> Anthropic request", INTRO, footnotes=list(FOOTNOTES))
    for turns in settings.session_turns:
        payload = workloads.openai_session(turns)
        expected_result = floor.openai_to_anthropic(payload)
        expected = {"request": anthropic_view(expected_result), "messages": anthropic_view(expected_result, "messages")}
        outcomes = run_checked(_candidates(payload), expected, settings=settings)
        size = workloads.size_of(payload) / 1024
        caption = f"**{turns} turns**: {len(payload['messages'])} messages, {size:.0f} KiB of JSON"
        section.tables.append(ratio_table(outcomes, caption))
        _dict_target(section, outcomes, turns)
        body = json.dumps(payload).encode()
        json_outcomes = run_checked(_json_candidates(body), {"request": expected["request"]}, settings=settings)
        section.tables.append(ratio_table(json_outcomes, f"**{turns} turns, JSON bytes in**"))
        what = f"validated OpenAI -> Anthropic, JSON bytes in, {turns} turns"
        _target(section, json_outcomes, subject.CONVERT_JSON, what, JSON_TARGET_RATIO)
    return section


def _json_candidates(body: bytes) -> list[Candidate]:
    floor_contender = Contender(
        "floor (json.loads + plain dicts)",
        lambda: floor.openai_to_anthropic(json.loads(body)),
        anthropic_view,
        "`json.loads` then `floor.openai_to_anthropic`",
    )
    return [floor_contender, subject.json_bytes(body, "openai-chat", "anthropic", anthropic_view)]


LITELLM_CONVERTER = "litellm converter"
"""litellm's messages-only converter: issue 25 asks for no more than its time on every row."""


def _dict_target(section: Section, outcomes: list[Outcome], turns: int) -> None:
    """Issue 25: <= 3x the floor, and no slower than litellm's messages-only converter
    (when litellm is installed; without it only the ratio is judged, and the limit says so)."""
    floor_median = outcomes[0].median
    chatcodec_median = median_of(outcomes, CHATCODEC)
    if not floor_median or not chatcodec_median:
        return
    measured = chatcodec_median / floor_median
    litellm_median = median_of(outcomes, LITELLM_CONVERTER)
    met = measured <= TARGET_RATIO
    limit = f"<= {TARGET_RATIO:.0f}x floor and <= litellm's messages-only converter"
    shown = ratio(measured)
    if litellm_median is None:
        limit += " (litellm not timed)"
    else:
        shown += f" (litellm {ratio(litellm_median / floor_median)})"
        met = met and chatcodec_median <= litellm_median
    section.targets.append(Target(f"validated OpenAI -> Anthropic, {turns} turns", limit, shown, met))


def _target(section: Section, outcomes: list[Outcome], name: str, what: str, limit: float) -> None:
    floor_median = outcomes[0].median
    chatcodec_median = median_of(outcomes, name)
    if floor_median and chatcodec_median:
        measured = chatcodec_median / floor_median
        section.targets.append(Target(what, f"<= {limit:.0f}x floor", ratio(measured), measured <= limit))
