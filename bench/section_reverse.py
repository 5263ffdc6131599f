"""Section 2: an Anthropic Messages request -> an OpenAI Chat request, at 10, 50 and 200 turns."""

from __future__ import annotations

from typing import Any

from bench import anchors_litellm, floor, subject, workloads
from bench.compare import Candidate, load, ratio_table, run_checked
from bench.equivalence import openai_view
from bench.report import Section
from bench.timing import Contender, RunSettings

INTRO = (
    "The same session as a native Anthropic request (assistant turns open with *signed* thinking blocks) converted "
    "to an OpenAI Chat Completions request: tool results split out of user turns into `tool` messages, `tool_use` "
    "blocks into `tool_calls` with the input serialized, base64 images into data URLs."
)

FOOTNOTES = [
    "OpenAI Chat takes no reasoning input: chatcodec drops the thinking blocks (a loss), the floor drops them, "
    "and the comparison leaves reasoning fields out (litellm keeps them as `thinking_blocks`).",
]


def _candidates(payload: dict[str, Any]) -> list[Candidate]:
    floor_contender = Contender(
        "floor (plain dicts)", lambda: floor.anthropic_to_openai(payload), openai_view, "`floor.anthropic_to_openai`"
    )
    return [
        floor_contender,
        *subject.anthropic_to_openai(payload),
        *load("litellm", lambda: anchors_litellm.anthropic_to_openai(payload)),
    ]


def run(settings: RunSettings) -> Section:
    section = Section("reverse", "Anthropic -> OpenAI Chat request", INTRO, footnotes=list(FOOTNOTES))
    for turns in settings.session_turns:
        payload = workloads.anthropic_session(turns)
        expected = {"request": openai_view(floor.anthropic_to_openai(payload))}
        outcomes = run_checked(_candidates(payload), expected, settings=settings)
        size = workloads.size_of(payload) / 1024
        caption = f"**{turns} turns**: {len(payload['messages'])} Anthropic turns, {size:.0f} KiB of JSON"
        section.tables.append(ratio_table(outcomes, caption))
    return section
