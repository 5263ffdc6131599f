"""Section 2: an Anthropic Messages request -> an OpenAI Chat request, at 10, 50 and 200 turns."""

from __future__ import annotations

import json
from typing import Any

from bench import anchors_litellm, floor, subject, workloads
from bench.compare import Candidate, load, median_of, ratio_table, run_checked
from bench.equivalence import openai_view
from bench.report import Section, Target, ratio
from bench.timing import Contender, RunSettings

INTRO = (
    "The same session as a native Anthropic request (assistant turns open with *signed* thinking blocks) converted "
    "to an OpenAI Chat Completions request: tool results split out of user turns into `tool` messages, `tool_use` "
    "blocks into `tool_calls` with the input serialized, base64 images into data URLs. The *JSON bytes in* tables "
    "time the same conversion from the body as bytes, against `json.loads` plus the floor."
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
        body = json.dumps(payload).encode()
        json_outcomes = run_checked(_json_candidates(body), expected, settings=settings)
        section.tables.append(ratio_table(json_outcomes, f"**{turns} turns, JSON bytes in**"))
        _target(section, outcomes, "chatcodec convert_request", f"validated Anthropic -> OpenAI, {turns} turns", 3.0)
        _target(section, json_outcomes, subject.CONVERT_JSON, f"Anthropic -> OpenAI, JSON bytes in, {turns} turns", 2.0)
    return section


def _json_candidates(body: bytes) -> list[Candidate]:
    floor_contender = Contender(
        "floor (json.loads + plain dicts)",
        lambda: floor.anthropic_to_openai(json.loads(body)),
        openai_view,
        "`json.loads` then `floor.anthropic_to_openai`",
    )
    return [floor_contender, subject.json_bytes(body, "anthropic", "openai-chat", openai_view)]


def _target(section: Section, outcomes: list[Any], name: str, what: str, limit: float) -> None:
    floor_median = outcomes[0].median
    measured_median = median_of(outcomes, name)
    if floor_median and measured_median:
        measured = measured_median / floor_median
        section.targets.append(Target(what, f"<= {limit:.0f}x floor", ratio(measured), measured <= limit))
