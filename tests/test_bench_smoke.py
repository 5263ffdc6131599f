"""The benchmark's floor converters and chatcodec contenders, checked at a small size.

``bench/`` is a script, not part of the package, and nothing in the test run times
anything; these tests only keep it from rotting: the floor must keep doing exactly what
chatcodec does on the bench workloads (so the ratios in ``bench/RESULTS.md`` compare the
same job), and the equivalence check the bench runs before timing must pass for chatcodec
and catch a real difference. The anchor libraries are not needed (nor imported) here.
"""

from __future__ import annotations

import copy
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


@pytest.mark.parametrize("turns", [1, 5])
def test_openai_to_anthropic_floor_is_chatcodec_exactly(turns: int) -> None:
    workloads, floor = _bench("workloads"), _bench("floor")
    payload = workloads.openai_session(turns)
    untouched = copy.deepcopy(payload)

    converted = chatcodec.convert_request(
        payload, source="openai-chat", target="anthropic", on_loss="ignore", options=workloads.ANTHROPIC_OPTIONS
    )

    assert floor.openai_to_anthropic(payload) == converted
    assert payload == untouched


@pytest.mark.parametrize("turns", [1, 5])
def test_anthropic_to_openai_floor_is_chatcodec_exactly(turns: int) -> None:
    workloads, floor = _bench("workloads"), _bench("floor")
    payload = workloads.anthropic_session(turns)

    converted = chatcodec.convert_request(payload, source="anthropic", target="openai-chat", on_loss="ignore")

    assert floor.anthropic_to_openai(payload) == converted


def test_every_chatcodec_request_contender_passes_the_bench_check() -> None:
    workloads, floor, subject = _bench("workloads"), _bench("floor"), _bench("subject")
    equivalence, timing = _bench("equivalence"), _bench("timing")
    openai_payload = workloads.openai_session(4)
    anthropic_payload = workloads.anthropic_session(4)

    forward = equivalence.anthropic_view(floor.openai_to_anthropic(openai_payload))
    backward = equivalence.openai_view(floor.anthropic_to_openai(anthropic_payload))

    failures = [timing.check(contender, forward) for contender in subject.openai_to_anthropic(openai_payload)]
    failures += [timing.check(contender, backward) for contender in subject.anthropic_to_openai(anthropic_payload)]
    assert failures == [None, None, None, None]


@pytest.mark.parametrize(("provider", "workload", "accumulator", "view"), [
    ("openai-chat", "openai_stream", "accumulate_openai_chunks", "openai_completion_view"),
    ("anthropic", "anthropic_stream", "accumulate_anthropic_events", "anthropic_message_view"),
])  # fmt: skip
def test_stream_floor_and_chatcodec_accumulate_the_same_answer(
    provider: str, workload: str, accumulator: str, view: str
) -> None:
    workloads, floor, subject = _bench("workloads"), _bench("floor"), _bench("subject")
    equivalence, timing = _bench("equivalence"), _bench("timing")
    events = getattr(workloads, workload)(40)

    expected = getattr(equivalence, view)(getattr(floor, accumulator)(events))
    (contender,) = subject.accumulate(provider, events)

    assert timing.check(contender, expected) is None
    assert len(expected["tool_calls"]) == 2
    assert expected["text"]


def test_the_check_reports_a_dropped_tool_call() -> None:
    workloads, floor, subject = _bench("workloads"), _bench("floor"), _bench("subject")
    equivalence, timing = _bench("equivalence"), _bench("timing")
    payload = workloads.openai_session(2)
    tampered: dict[str, Any] = floor.openai_to_anthropic(payload)
    assistant = next(turn for turn in tampered["messages"] if turn["role"] == "assistant")
    assistant["content"].pop()

    (contender, *_) = subject.openai_to_anthropic(payload)
    failure = timing.check(contender, equivalence.anthropic_view(tampered))

    assert failure is not None
    assert "differs at $.turns" in failure


def test_the_bench_session_has_the_size_and_mix_of_an_agent_session() -> None:
    workloads = _bench("workloads")
    payload = workloads.openai_session(50)
    roles = [message["role"] for message in payload["messages"]]
    images = [
        part["image_url"]["url"][:5]
        for message in payload["messages"]
        if message["role"] == "user" and isinstance(message["content"], list)
        for part in message["content"]
        if part["type"] == "image_url"
    ]

    assert 180 <= len(roles) <= 200
    assert 160 * 1024 <= len(json.dumps(payload)) <= 220 * 1024
    assert {"system", "user", "assistant", "tool"} == set(roles)
    assert {"data:", "https"} == set(images)
    assert any(len(message.get("tool_calls") or ()) > 1 for message in payload["messages"])
    assert any("reasoning_content" in message for message in payload["messages"])


@pytest.mark.parametrize("turns", [1, 5])
def test_openai_to_responses_floor_is_chatcodec_exactly(turns: int) -> None:
    workloads, floor, subject = _bench("workloads"), _bench("floor"), _bench("subject")
    equivalence, timing = _bench("equivalence"), _bench("timing")
    payload = workloads.openai_session(turns)

    converted = chatcodec.convert_request(payload, source="openai-chat", target="openai-responses", on_loss="ignore")

    assert floor.openai_to_responses(payload) == converted
    expected = equivalence.responses_view(floor.openai_to_responses(payload))
    assert [timing.check(contender, expected) for contender in subject.openai_to_responses(payload)] == [None, None]


@pytest.mark.parametrize("turns", [1, 5, 10])  # 10: the session's https images appear
def test_gemini_and_bedrock_floors_mean_what_chatcodec_writes_both_ways(turns: int) -> None:
    """The Gemini and Bedrock Converse rows compare the same job (and the
    chatcodec rows pass the check the bench runs before timing them)."""
    section = _bench("section_wires")
    for direction in section.DIRECTIONS:
        payload = direction.workload(turns)
        untouched = copy.deepcopy(payload)
        converted = chatcodec.convert_request(
            payload, source=direction.source, target=direction.target, on_loss="ignore"
        )
        assert direction.view(direction.floor(payload)) == direction.view(converted), direction
        assert payload == untouched


def test_json_bytes_rows_convert_the_body_as_the_dict_rows_do() -> None:
    workloads, subject, equivalence = _bench("workloads"), _bench("subject"), _bench("equivalence")
    payload = workloads.openai_session(3)
    contender = subject.json_bytes(json.dumps(payload).encode(), "openai-chat", "anthropic", equivalence.anthropic_view)
    options = workloads.ANTHROPIC_OPTIONS  # as the dict rows convert (the anchors' API version)
    expected = chatcodec.convert_request(
        payload, source="openai-chat", target="anthropic", on_loss="ignore", options=options
    )
    assert contender.call() == expected


@pytest.mark.parametrize(("builder", "candidates"), [
    ("anthropic_stream", "_to_openai_dicts"),
    ("openai_stream", "_to_anthropic_dicts"),
    ("_anthropic_sse", "anthropic_to_openai_sse"),
    ("_openai_sse", "openai_to_anthropic_sse"),
])  # fmt: skip
def test_stream_conversion_floor_and_chatcodec_write_the_same_answer(builder: str, candidates: str) -> None:
    workloads, section = _bench("workloads"), _bench("section_streams")
    timing = _bench("timing")
    build = getattr(workloads, builder, None) or getattr(section, builder)
    payload = build(40)
    if candidates.endswith("_sse"):
        source, target = (
            ("anthropic", "openai-chat") if candidates.startswith("anthropic") else ("openai-chat", "anthropic")
        )
        floor_contender, contender = section._sse_contenders(payload, source, target)
    else:
        floor_contender, contender = getattr(section, candidates)(payload)

    expected = floor_contender.view(floor_contender.call())

    assert timing.check(contender, expected) is None
    assert len(expected["tool_calls"]) == 2
    assert expected["text"]


def test_the_stream_conversion_check_reports_a_lost_fragment() -> None:
    workloads, floor, section = _bench("workloads"), _bench("floor"), _bench("section_streams")
    timing = _bench("timing")
    events = workloads.anthropic_stream(40)
    chunks = floor.anthropic_events_to_openai_chunks(events, 0)
    text_chunk = next(chunk for chunk in chunks if chunk["choices"] and chunk["choices"][0]["delta"].get("content"))
    chunks.remove(text_chunk)

    (_, contender) = section._to_openai_dicts(events)

    failure = timing.check(contender, section.openai_chunks_view(chunks))
    assert failure is not None
    assert "text" in failure


def test_the_proxy_benchs_long_stream_converts_whole() -> None:
    """The stream the proxy bench times is one the proxy converts to its end (it once sent
    deltas for a block never started, and the proxy broke it off at its 18th event)."""
    from chatcodec.streams._convert import convert_stream

    body, deltas = _bench("proxy")._long_stream(3)
    converted = b"".join(convert_stream([body], source="anthropic", target="openai-chat", on_loss="ignore"))
    assert deltas > 300
    assert b'"error"' not in converted
    assert converted.endswith(b"data: [DONE]\n\n")
