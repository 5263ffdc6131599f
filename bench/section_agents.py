"""Section: agent sessions as Claude and OpenAI-SDK agents send them, between every two of the five formats.

For each size, source and target, one interleaved measurement times chatcodec's
``convert_request`` on the session's plainest twin, on the twin plus each single shape,
and on the full session, beside litellm where it converts the pair and the bench's floor
where one converts the plain twin. Every row's output is checked against its own input
(:mod:`bench.agent_views`) before it is timed. Two of the issue's targets are judged:

* on every pair litellm also converts, chatcodec converts the full session in no more time
  than litellm's fastest conversion of it (no floor converts the shaped sessions; against
  any common floor the ratios would order the same way);
* no shape costs more than 1.5x its plainest twin, per KiB of input.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Sequence

import chatcodec
from bench import agent_report, agent_sources, anchors_litellm_agents
from bench.agent_report import Measured, chatcodec_name
from bench.agent_sources import FLOORS, FULL, PLAIN, PROVIDERS, SOURCES, Input, Sessions, Source
from bench.compare import Candidate, Unavailable, run_checked
from bench.report import Section
from bench.timing import Contender, RunSettings

SHAPE_LIMIT = 1.5
FLOOR = "floor, plain twin"

INTRO = (
    "Agent sessions as coding agents send them. A **Claude agent** (Anthropic Messages): a system block with "
    "`cache_control`, assistant turns opening with signed thinking, then text and one to three `tool_use` blocks; "
    "tool results as strings, as text parts, as screenshots (an image block inside the `tool_result`) and with "
    "`is_error`; a cache marker on the last user turn; strict tools; a thinking config; `metadata.user_id`. An "
    "**OpenAI-SDK agent** (OpenAI Chat): `reasoning_effort`, a `response_format` JSON schema, strict function tools, "
    '`user` and `metadata`, assistant turns appended as the SDK dumps them (`"refusal": null`...), `"name": '
    "null`, parallel tool calls, text-part tool results, screenshots as image parts of the next user message, "
    "gateway `cache_control` markers. The Gemini, Bedrock Converse and Responses sessions are those written by "
    "chatcodec in each format (`bench/agent_sources.py`). Each session has a *plainest twin* without any of its "
    "shapes (screenshots replaced by a text of the same length), and one twin per shape with that shape alone "
    "(`bench/agent_workloads.py`). Medians of interleaved rounds, in one process; every row's output was checked "
    "to say what its input says before it was timed."
)

FOOTNOTES = [
    "Clock: this section reads every sample on the process's CPU time (`time.process_time`), not the wall clock "
    "(`--cpu-time` does the same for every section). Its targets compare rows of one table, some of which run "
    "for a second a call; on shared cores, time spent waiting for a core moved such ratios by 2-4x from run to run "
    "where CPU time held them within about 15%. The conversions are single-threaded and do no I/O.",
    "Check: each output's view (`bench/agent_views.py`: system text, every text, image, tool call with parsed "
    "arguments and tool result, in order, consecutive turns joined, a user turn's results first) must equal its "
    "input's view. Left out of the view, because the libraries keep or drop them by different policies: thinking "
    "and its signatures, cache markers, `is_error`, call ids on Gemini's side, and the settings (thinking config, "
    "effort, `response_format`, `metadata`, `user`, `strict`: litellm writes a thinking budget for "
    "`reasoning_effort` where chatcodec writes `output_config.effort`, for example).",
    "Per KiB: a shape is judged on time per KiB of input JSON (compact), against its plainest twin. A twin has "
    "the same messages, so time per message is the plain time ratio (shown beside it); but thinking blocks, a "
    "settings object or a `null` add bytes that any converter must read, and per KiB charges a shape only for "
    "what it costs beyond its bytes. Screenshot twins carry the same bytes as text, so the two measures agree "
    "there.",
    *anchors_litellm_agents.FOOTNOTES,
    "litellm *converter* rows write the system prompt and messages only (less than the request chatcodec "
    "writes), as in the first section; the target compares chatcodec with litellm's fastest row of the pair.",
    "Floors: the bench's plain-dict converters (`bench/floor.py`, `bench/floor_wires.py`) do not handle the "
    "shapes, so they convert the plainest twin only; the ratio to floor is chatcodec's on that twin.",
    "Screenshots are base64 data: an https image would have litellm fetch it over the network.",
]


def _chatcodec(item: Input, source: str, target: str) -> Contender:
    payload = item.payload

    def convert() -> object:
        return chatcodec.convert_request(payload, source=source, target=target, on_loss="ignore")

    view = agent_sources.viewer(source, target)
    return Contender(chatcodec_name(item.label), convert, view, f"{item.kib:.0f} KiB", scope=item.label)


def _litellm(source: str, target: str, full: Input) -> list[Candidate]:
    if (source, target) not in anchors_litellm_agents.PAIRS:
        return []
    try:
        anchors = anchors_litellm_agents.anchors(source, target, full.payload)
    except ImportError as error:
        return [Unavailable("litellm", f"not installed ({error.name or error})")]
    return [
        Contender(
            f"{anchor.name}, {FULL}",
            anchor.call,
            agent_sources.viewer(source, target, messages_only=anchor.messages_only),
            anchor.note,
            scope=f"{FULL} (messages)" if anchor.messages_only else FULL,
        )
        for anchor in anchors
    ]


def _candidates(source: str, target: str, inputs: Sequence[Input]) -> list[Candidate]:
    candidates: list[Candidate] = []
    plain_floor = FLOORS.get((source, target))
    if plain_floor is not None:
        plain = inputs[0].payload
        view = agent_sources.viewer(source, target)
        candidates.append(Contender(FLOOR, lambda: plain_floor(plain), view, "plain dicts", scope=PLAIN))
    candidates.extend(_chatcodec(item, source, target) for item in inputs)
    candidates.extend(_litellm(source, target, inputs[-1]))
    return candidates


def measure_pair(
    sessions: Sessions, source: Source, target: str, settings: RunSettings, *, with_shapes: bool
) -> Measured:
    """Check and time every contender of one source, target and size."""
    inputs = sessions.inputs(source, target, with_shapes=with_shapes)
    provider = source.provider
    expected: dict[str, object] = {
        item.label: agent_sources.expected(item.payload, provider, target) for item in inputs
    }
    expected[f"{FULL} (messages)"] = agent_sources.expected(inputs[-1].payload, provider, target, messages_only=True)
    before = [_fingerprint(item.payload) for item in inputs]
    outcomes = run_checked(_candidates(provider, target, inputs), expected, settings=settings)
    changed = [
        item.label for item, original in zip(inputs, before, strict=True) if _fingerprint(item.payload) != original
    ]
    return Measured(provider, target, sessions.turns, inputs, outcomes, changed)


def _fingerprint(payload: object) -> str:
    """The payload as JSON: a contender that edits its input in place would time a different job."""
    return json.dumps(payload, sort_keys=True)


def run(settings: RunSettings) -> Section:
    """Every size, source and target; timed on CPU time (see :data:`FOOTNOTES`)."""
    settings = dataclasses.replace(settings, cpu_time=True)
    section = Section("agents", "Agent sessions, every pair of formats", INTRO, footnotes=list(FOOTNOTES))
    measured: list[Measured] = []
    for turns in settings.agent_turns:
        print(f"bench: agents, {turns} turns ...", file=sys.stderr, flush=True)
        sessions = Sessions(turns)
        with_shapes = turns in settings.agent_shape_turns
        for source in SOURCES:
            for target in PROVIDERS:
                if target != source.provider:
                    measured.append(measure_pair(sessions, source, target, settings, with_shapes=with_shapes))
    section.tables.extend(agent_report.tables(measured))
    section.footnotes.extend(agent_report.failures(measured))
    section.targets.extend(agent_report.litellm_targets(measured))
    section.targets.extend(agent_report.shape_targets(measured, SHAPE_LIMIT))
    return section
