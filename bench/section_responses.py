"""Section: an OpenAI Chat request -> an OpenAI Responses request, at 10, 50 and 200 turns."""

from __future__ import annotations

from typing import Any

from bench import anchors_litellm, floor, subject, workloads
from bench.compare import Candidate, Outcome, load, median_of, ratio_table, run_checked
from bench.equivalence import responses_view
from bench.report import Section, Target, ratio
from bench.timing import Contender, RunSettings

CHATCODEC = "chatcodec convert_request"
LITELLM_BRIDGE = "litellm Responses bridge"
AIM_RATIO = 7.0
"""Issue 25: below litellm's bridge on every row, aiming at <= 7x the floor; without
litellm installed the aim is what is judged."""

INTRO = (
    "The agent session of the first section, converted from an OpenAI Chat Completions request to an OpenAI "
    "Responses request: messages become flat items (tool calls `function_call` items, tool messages "
    "`function_call_output` items, images `input_image` parts), tools flatten. The floor is "
    "`floor.openai_to_responses`, plain dicts and no validation. Every row's output was compared with the floor's "
    "(`equivalence.responses_view`: `instructions` count as a leading system message) before it was timed."
)

FOOTNOTES = [
    "Reasoning: Responses takes no unsigned reasoning text (a replayed reasoning item needs the id and "
    "`encrypted_content` OpenAI gave it): chatcodec drops `reasoning_content` and reports a loss, the floor drops "
    "it, litellm drops it.",
    *anchors_litellm.RESPONSES_FOOTNOTES,
]


def _candidates(payload: dict[str, Any]) -> list[Candidate]:
    floor_contender = Contender(
        "floor (plain dicts)", lambda: floor.openai_to_responses(payload), responses_view, "`floor.openai_to_responses`"
    )
    return [
        floor_contender,
        *subject.openai_to_responses(payload),
        *load("litellm", lambda: anchors_litellm.openai_to_responses(payload)),
    ]


def run(settings: RunSettings) -> Section:
    section = Section("responses", "OpenAI Chat -> OpenAI Responses request", INTRO, footnotes=list(FOOTNOTES))
    for turns in settings.session_turns:
        payload = workloads.openai_session(turns)
        expected = {"request": responses_view(floor.openai_to_responses(payload))}
        outcomes = run_checked(_candidates(payload), expected, settings=settings)
        size = workloads.size_of(payload) / 1024
        caption = f"**{turns} turns**: {len(payload['messages'])} messages, {size:.0f} KiB of JSON"
        section.tables.append(ratio_table(outcomes, caption))
        _target(section, outcomes, turns)
    return section


def _target(section: Section, outcomes: list[Outcome], turns: int) -> None:
    floor_median = outcomes[0].median
    chatcodec_median = median_of(outcomes, CHATCODEC)
    if not floor_median or not chatcodec_median:
        return
    measured = chatcodec_median / floor_median
    bridge_median = median_of(outcomes, LITELLM_BRIDGE)
    limit = f"below litellm's bridge (aim <= {AIM_RATIO:.0f}x floor)"
    if bridge_median is None:
        limit += ", litellm not timed"
        shown, met = ratio(measured), measured <= AIM_RATIO
    else:
        shown = f"{ratio(measured)} (litellm {ratio(bridge_median / floor_median)})"
        met = chatcodec_median < bridge_median
    section.targets.append(Target(f"validated OpenAI Chat -> Responses, {turns} turns", limit, shown, met))
