"""The bench's agent section, run in its quickest setting, and the workloads it stands on.

As in ``test_bench_smoke.py``: nothing here times anything that matters. The section must
run end to end without the anchor libraries (their rows say they are not installed), every
chatcodec and floor row must pass the check the bench runs before timing, and each shape
of the agent sessions must be removable alone, so "shape vs plainest twin" compares one
difference.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import chatcodec

ROOT = Path(__file__).resolve().parents[1]


def _bench(module: str) -> ModuleType:
    """``bench.<module>``; the repository root is put on the path first (plain ``pytest`` does not)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module(f"bench.{module}")


def _quickest() -> Any:
    timing = _bench("timing")
    return timing.RunSettings(
        quick=True,
        rounds=1,
        min_sample_seconds=0.0005,
        session_turns=(2,),
        stream_deltas=10,
        budget_seconds=0.5,
        agent_turns=(4,),
        agent_shape_turns=(4,),
    )


def test_the_agent_section_checks_and_times_every_pair_of_formats() -> None:
    section = _bench("section_agents").run(_quickest())

    summary = section.tables[0]
    shape_tables = [table for table in section.tables if " shapes, 4 turns" in table.caption]
    not_timed = [note for note in section.footnotes if note.startswith(("Not timed", "A contender edited"))]
    shape_targets = [target for target in section.targets if target.what.startswith("shapes vs plainest twin")]

    assert len(summary.rows) == 20
    assert all(row[2] != "-" and row[4] != "-" for row in summary.rows), summary.rows
    assert len(shape_tables) == 5
    assert not_timed == []
    assert len(shape_targets) == 20
    assert all(not target.measured.startswith("-") for target in shape_targets)


@pytest.mark.parametrize("session", ["claude_session", "openai_session"])
def test_each_shape_leaves_the_plainest_twin_in_one_place_only(session: str) -> None:
    workloads = _bench("agent_workloads")
    build = getattr(workloads, session)
    shapes = workloads.CLAUDE_SHAPES if session == "claude_session" else workloads.OPENAI_SHAPES
    plain = build(6, ())
    plain_text = json.dumps(plain)

    for shape in shapes:
        shaped = build(6, (shape,))
        assert shaped != plain, shape
        assert len(shaped["messages"]) == len(plain["messages"]), shape
        assert abs(len(json.dumps(shaped)) - len(plain_text)) < 0.2 * len(plain_text), shape
    assert build(6) == build(6)
    assert len(build(50)["messages"]) > 100


def test_a_screenshot_twin_carries_the_same_bytes_as_text() -> None:
    workloads = _bench("agent_workloads")
    plain = workloads.claude_session(4, ())
    shaped = workloads.claude_session(4, ("screenshot tool results",))

    images = [
        block
        for message in shaped["messages"]
        if isinstance(message["content"], list)
        for result in message["content"]
        if result["type"] == "tool_result" and isinstance(result["content"], list)
        for block in result["content"]
        if block["type"] == "image"
    ]

    assert images
    assert abs(workloads.size_of(shaped) - workloads.size_of(plain)) < 200
    assert all(image["source"]["data"] in json.dumps(plain) for image in images)


def test_the_agent_check_reports_a_screenshot_left_behind() -> None:
    sources, timing = _bench("agent_sources"), _bench("timing")
    payload = sources.SOURCES[0].session(4, ("screenshot tool results",), "openai-chat")
    converted = chatcodec.convert_request(payload, source="anthropic", target="openai-chat", on_loss="ignore")
    without_image = {
        **converted,
        "messages": [
            message
            for message in converted["messages"]
            if not (message["role"] == "user" and "image_url" in json.dumps(message["content"]))
        ],
    }
    contender = timing.Contender("tampered", lambda: without_image, sources.viewer("anthropic", "openai-chat"))

    failure = timing.check(contender, sources.expected(payload, "anthropic", "openai-chat"))

    assert failure is not None
    assert "differs at $.turns" in failure
