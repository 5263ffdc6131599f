"""Section 1: an OpenAI Chat request -> an Anthropic Messages request, at 10, 50 and 200 turns."""

from __future__ import annotations

from typing import Any

from bench import anchors_langchain, anchors_litellm, anchors_pydantic_ai, floor, subject, workloads
from bench.compare import Candidate, load, median_of, ratio_table, run_checked
from bench.equivalence import anthropic_view
from bench.report import Section, Target, ratio
from bench.timing import Contender, RunSettings

CHATCODEC = "chatcodec convert_request"
TARGET_RATIO = 2.0

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
        floor_median = outcomes[0].median
        chatcodec_median = median_of(outcomes, CHATCODEC)
        if floor_median and chatcodec_median:
            measured = chatcodec_median / floor_median
            section.targets.append(
                Target(
                    f"validated OpenAI -> Anthropic, {turns} turns",
                    f"<= {TARGET_RATIO:.0f}x floor",
                    ratio(measured),
                    measured <= TARGET_RATIO,
                )
            )
    return section
