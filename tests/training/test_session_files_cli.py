"""``chatcodec validate --format claude-code``/``codex`` reads a harness's session file whole, as
the one conversation ``convert --from`` reads; ``convert`` without ``--from`` tells a session
file by its first line's own fields (issue 110). Fixtures: ``tests/fixtures/harness_sessions``
(their sources in its ``SOURCES.md``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chatcodec._row_dialects.session_lines import harness_of
from chatcodec.cli._commands import main
from chatcodec.cli._source_format import source_format

SESSIONS = Path(__file__).parents[1] / "fixtures" / "harness_sessions"

_FILES = [
    ("claude-code.jsonl", "claude-code", 10),
    ("claude-code-compacted.jsonl", "claude-code", 4),
    ("claude-code-agent-a1b2c3d4.jsonl", "claude-code", 2),
    ("codex.jsonl", "codex", 12),
    ("codex-legacy.jsonl", "codex", 4),
    ("held_out/claude-code-log-dag_compact_after_rewind.jsonl", "claude-code", 8),
    ("held_out/claude-code-log-representative_messages.jsonl", "claude-code", 11),
    ("held_out/claude-code-log-codex-rollout-11111111.jsonl", "codex", 8),
]


@pytest.mark.parametrize(("name", "dialect", "count"), _FILES)
def test_validate_reads_a_session_file_as_one_conversation(
    name: str, dialect: str, count: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(SESSIONS / name), "--format", dialect, "--canonical"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 1  # one conversation, not a row a line
    assert len(json.loads(printed[0])) == count


@pytest.mark.parametrize(("name", "dialect", "_count"), _FILES)
def test_convert_without_from_tells_a_session_file_by_its_first_line(name: str, dialect: str, _count: int) -> None:
    assert source_format(SESSIONS / name) == dialect


def test_a_codex_rollout_given_as_claude_code_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(SESSIONS / "codex.jsonl"), "--format", "claude-code"]) == 1
    assert "no user or assistant message" in capsys.readouterr().err


def test_a_claude_code_session_given_as_codex_is_refused_at_its_first_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(SESSIONS / "claude-code.jsonl"), "--format", "codex"]) == 1
    said = capsys.readouterr().err
    assert "$[0]" in said  # the summary line, before: read as one Responses item, "ok, 1 messages"
    assert "--from claude-code" in said


def test_a_session_line_that_is_not_json_fails_validation_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (SESSIONS / "codex.jsonl").read_text(encoding="utf-8").splitlines()
    broken = tmp_path / "rollout.jsonl"
    broken.write_text("\n".join([lines[0], '{"type": "response_item", ', *lines[1:]]) + "\n", encoding="utf-8")
    assert main(["validate", str(broken), "--format", "codex"]) == 1
    assert "line 2 of the session is not JSON" in capsys.readouterr().err


@pytest.mark.parametrize(
    "line",
    [
        {"model": "gpt-4.1", "input": "hi", "instructions": "be brief"},  # a Responses request
        {"type": "message", "role": "user", "content": "hi"},  # a Responses item
        {"type": "user", "message": {"role": "user", "content": "hi"}},  # no Claude Code field
        {"id": "x", "timestamp": "t", "instructions": None, "input": []},  # a header names no input
        {"type": "response_item", "payload": {"type": "message"}},  # a RolloutLine has its timestamp
    ],
)
def test_what_is_no_session_line_is_not_taken_for_one(line: dict[str, object]) -> None:
    assert harness_of(line) is None
