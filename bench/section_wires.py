"""Section: OpenAI Chat <-> Gemini and OpenAI Chat <-> Bedrock Converse requests, at 10, 50 and 200 turns."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import chatcodec
from bench import floor_wires, workloads
from bench.compare import median_of, ratio_table, run_checked
from bench.equivalence import openai_view
from bench.report import Section, Target, ratio
from bench.timing import Contender, RunSettings

CHATCODEC = "chatcodec convert_request"
TARGET_RATIO = 3.0

INTRO = (
    "The agent session of the first section converted from OpenAI Chat to Gemini (`generateContent`) and to "
    "Bedrock Converse, and back: the Gemini and Bedrock sessions are that session written by chatcodec in those "
    "formats (without the https image links, which neither carries back as images). The floors are "
    "`bench/floor_wires.py`, plain dicts and no validation; every row's output was compared with the floor's "
    "(the request as it is, less reasoning, for Gemini and Bedrock; `equivalence.openai_view` for OpenAI Chat) "
    "before it was timed. No anchor library converts these pairs request-to-request, so the floor is the only "
    "comparison."
)

FOOTNOTES = [
    "Reasoning: neither Gemini nor Bedrock takes OpenAI's unsigned `reasoning_content`; chatcodec drops it and "
    "reports a loss, the floors drop it. Bedrock fetches no URL, so the https images are dropped (a loss) in "
    "OpenAI -> Bedrock, by chatcodec and by the floor.",
]


@dataclass(frozen=True)
class _Direction:
    source: str
    target: str
    workload: Callable[[int], dict[str, Any]]
    floor: Callable[[dict[str, Any]], dict[str, Any]]
    view: Callable[[dict[str, Any]], object]


def _without_url_images(turns: int) -> dict[str, Any]:
    payload = copy.deepcopy(workloads.openai_session(turns))
    for message in payload["messages"]:
        if message["role"] == "user" and isinstance(message["content"], list):
            message["content"] = [
                part for part in message["content"] if not part.get("image_url", {}).get("url", "").startswith("http")
            ]
    return payload


def _written_as(target: str) -> Callable[[int], dict[str, Any]]:
    def session(turns: int) -> dict[str, Any]:
        payload = _without_url_images(turns)
        return chatcodec.convert_request(payload, source="openai-chat", target=target, on_loss="ignore")

    return session


DIRECTIONS = (
    _Direction(
        "openai-chat", "gemini", workloads.openai_session, floor_wires.openai_to_gemini, floor_wires.gemini_view
    ),
    _Direction("gemini", "openai-chat", _written_as("gemini"), floor_wires.gemini_to_openai, openai_view),
    _Direction(
        "openai-chat",
        "bedrock-converse",
        workloads.openai_session,
        floor_wires.openai_to_bedrock,
        floor_wires.bedrock_view,
    ),
    _Direction(
        "bedrock-converse", "openai-chat", _written_as("bedrock-converse"), floor_wires.bedrock_to_openai, openai_view
    ),
)


def _candidates(direction: _Direction, payload: dict[str, Any]) -> list[Contender]:
    def convert() -> object:
        return chatcodec.convert_request(payload, source=direction.source, target=direction.target, on_loss="ignore")

    note = f"{direction.source} dict -> {direction.target} dict, validated"
    return [
        Contender("floor (plain dicts)", lambda: direction.floor(payload), direction.view, "`bench/floor_wires.py`"),
        Contender(CHATCODEC, convert, direction.view, note),
    ]


def run(settings: RunSettings) -> Section:
    section = Section("wires", "OpenAI Chat <-> Gemini and Bedrock Converse requests", INTRO, footnotes=list(FOOTNOTES))
    for direction in DIRECTIONS:
        for turns in settings.session_turns:
            payload = direction.workload(turns)
            expected = {"request": direction.view(direction.floor(payload))}
            outcomes = run_checked(_candidates(direction, payload), expected, settings=settings)
            size = workloads.size_of(payload) / 1024
            caption = f"**{direction.source} -> {direction.target}, {turns} turns**: {size:.0f} KiB of JSON"
            section.tables.append(ratio_table(outcomes, caption))
            floor_median = outcomes[0].median
            chatcodec_median = median_of(outcomes, CHATCODEC)
            if floor_median and chatcodec_median:
                measured = chatcodec_median / floor_median
                section.targets.append(
                    Target(
                        f"{direction.source} -> {direction.target}, {turns} turns",
                        f"<= {TARGET_RATIO:.0f}x floor",
                        ratio(measured),
                        measured <= TARGET_RATIO,
                    )
                )
    return section
