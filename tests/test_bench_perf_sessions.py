"""``bench/perf_sessions.py``: the acceptance sessions are read by their file names, each
stem to its pair and shape, every size asked for, a missing file skipped; the view the
instruction counts check every output against says what such a session says."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from types import ModuleType

import chatcodec

ROOT = Path(__file__).resolve().parents[1]


def _bench(module: str) -> ModuleType:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import importlib

    return importlib.import_module(f"bench.{module}")


_BODY = {
    "model": "claude-sonnet-4-5",
    "messages": [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "edit", "arguments": '{"edits": [{"old": "a: 1", "new": "b"}], "n": 1.5}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "done"},
    ],
}


def _write(folder: Path, name: str, body: object) -> None:
    with gzip.open(folder / name, "wt", encoding="utf-8") as file:
        json.dump(body, file)


def test_sessions_are_read_by_stem_and_size(tmp_path: Path) -> None:
    perf_sessions = _bench("perf_sessions")
    _write(tmp_path, "oc-anthropic-real-10.json.gz", _BODY)
    _write(tmp_path, "oc-anthropic-nulls-50.json.gz", _BODY)
    _write(tmp_path, "unknown-stem-10.json.gz", _BODY)
    assert perf_sessions.available(tmp_path)
    found = perf_sessions.sessions([10, 50], tmp_path)
    assert [(s.source, s.target, s.shape, s.steps) for s in found] == [
        ("openai-chat", "anthropic", perf_sessions.REAL, 10),
        ("openai-chat", "anthropic", perf_sessions.NULLS, 50),
    ]
    assert found[0].body == _BODY
    assert not perf_sessions.available(tmp_path / "absent")


def test_a_sessions_conversion_passes_the_check_the_counts_make_first() -> None:
    agent_sources = _bench("agent_sources")
    written = chatcodec.convert_request(_BODY, source="openai-chat", target="anthropic", on_loss="ignore")
    view = agent_sources.viewer("openai-chat", "anthropic")
    assert view(written) == agent_sources.expected(_BODY, "openai-chat", "anthropic")
    assert view({**written, "messages": written["messages"][:1]}) != agent_sources.expected(
        _BODY, "openai-chat", "anthropic"
    )


def test_same_work_compares_a_messages_only_anchor_with_chatcodec_given_messages_only() -> None:
    instructions = _bench("instructions")
    row = instructions.row_key("openai-chat", "anthropic", "perf session", 10)
    converter = f"{row}|dict|{instructions.LITELLM}litellm converter{instructions.SCOPE_MESSAGES}"
    transform = f"{row}|dict|{instructions.LITELLM}litellm request transform"
    counts = {
        f"{row}|dict|{instructions.CHATCODEC}": 2_000.0,
        f"{row}|dict|{instructions.MESSAGES_ONLY}": 1_500.0,
        converter: 1_600.0,
        transform: 4_000.0,
    }
    # the converter writes messages only: 1500 / 1600; the transform the whole request: 2000 / 4000
    assert instructions.same_work(counts, row) == "0.94x ✓"
    counts[converter] = 1_000.0
    assert instructions.same_work(counts, row) == "1.50x ✗"
    assert instructions.same_work({}, row) == ""


def test_pieces_split_a_session_into_the_request_its_messages_and_its_tools() -> None:
    instructions = _bench("instructions")
    body = {**_BODY, "tools": [{"type": "function", "function": {"name": "edit"}}], "tool_choice": "auto"}
    pieces = instructions._pieces(body)
    assert pieces[instructions.NO_TOOLS] == _BODY
    assert pieces[instructions.FIRST_MESSAGE] == {"model": _BODY["model"], "messages": _BODY["messages"][:1]}
    responses = instructions._pieces({"model": "m", "input": [1, 2, 3], "tools": []})
    assert responses[instructions.FIRST_MESSAGE] == {"model": "m", "input": [1]}
    row = instructions.row_key("openai-chat", "anthropic", "perf session", 10)
    counts = {
        f"{row}|dict|{instructions.CHATCODEC}": 2.5e6,
        f"{row}|dict|{instructions.NO_TOOLS}": 2.0e6,
        f"{row}|dict|{instructions.FIRST_MESSAGE}": 0.25e6,
    }
    assert "| openai-chat -> anthropic | 10 | 2.50 M | 0.25 M | 1.75 M | 0.50 M |" in instructions.pieces_table(
        counts, [10]
    )
