"""``convert --from codex FOLDER`` (or ``claude-code``): a folder of a harness's session files,
a row each, a subagent's file linked to the session that spawned it by the ``parent`` column a
subagent held inside its parent's file carries (issue 110). Fixtures:
``tests/fixtures/harness_sessions`` (``codex-subagents/``, ``claude-code*.jsonl``; their shapes
in its ``SOURCES.md``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from chatcodec._row_dialects.codex_threads import thread_links
from chatcodec._row_dialects.sessions import read_session, session_links
from chatcodec.cli._commands import main

SESSIONS = Path(__file__).parents[1] / "fixtures" / "harness_sessions"
CODEX = SESSIONS / "codex-subagents"
PARENT_THREAD = "019e2a10-1111-7000-8000-00000000a001"
CHILD_THREAD = "019e2a10-3333-7000-8000-00000000c001"


def _events(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _rows(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[list[dict[str, Any]], str]:
    assert main(["convert", *arguments]) == 0
    captured = capsys.readouterr()
    return [json.loads(line) for line in captured.out.splitlines()], captured.err


def test_a_codex_subagents_rollout_is_a_row_linked_to_the_call_that_spawned_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows, _ = _rows(["--from", "codex", "--to", "hf-chat", str(CODEX)], capsys)
    assert len(rows) == 2
    assert "parent" not in rows[0]  # the user's session
    assert rows[1]["parent"] == {"session": PARENT_THREAD, "agent": CHILD_THREAD, "tool_use_id": "call_spawn_reviewer"}
    spawn = rows[0]["messages"][2]["tool_calls"][0]
    assert (spawn["id"], spawn["function"]["name"]) == ("call_spawn_reviewer", "spawn_agent")
    assert rows[1]["messages"][1]["content"][0]["text"] == "Read calc.py and list its bugs."


def test_a_folder_is_told_by_its_first_file_without_from(capsys: pytest.CaptureFixture[str]) -> None:
    rows, said = _rows(["--to", "hf-chat", str(CODEX), "--quiet"], capsys)
    assert "read as codex" in said
    assert [row.get("parent", {}).get("agent") for row in rows] == [None, CHILD_THREAD]


def test_a_providers_body_has_no_column_for_the_link_and_the_loss_names_it(capsys: pytest.CaptureFixture[str]) -> None:
    rows, said = _rows(["--from", "codex", "--to", "openai-chat", str(CODEX)], capsys)
    assert len(rows) == 2
    assert all("parent" not in row for row in rows)
    assert f"parent session (a subagent's session: the thread {PARENT_THREAD}" in said


def test_a_childs_rollout_without_its_parents_file_names_the_parent_thread_only() -> None:
    child = _events(sorted(CODEX.glob("*.jsonl"))[1])
    assert thread_links([child]) == [{"session": PARENT_THREAD, "agent": CHILD_THREAD}]
    assert session_links([_events(path) for path in sorted(CODEX.glob("*.jsonl"))], "codex")[0] is None


def _claude_code_folder(tmp_path: Path, *, lines_in_parent: bool) -> Path:
    """Claude Code's newer layout: the session's file, its subagent's ``agent-<id>.jsonl`` in
    ``<session>/subagents/`` (the session's file without its sidechain lines, unless
    ``lines_in_parent``, as older versions wrote it)."""
    folder = tmp_path / "project"
    (folder / "7f3c2a91" / "subagents").mkdir(parents=True)
    lines = (SESSIONS / "claude-code.jsonl").read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if lines_in_parent or json.loads(line).get("isSidechain") is not True]
    (folder / "7f3c2a91.jsonl").write_text("\n".join(kept) + "\n", encoding="utf-8")
    shutil.copy(
        SESSIONS / "claude-code-agent-a1b2c3d4.jsonl", folder / "7f3c2a91" / "subagents" / "agent-a1b2c3d4.jsonl"
    )
    return folder


def test_a_claude_code_agent_file_is_linked_to_the_task_call_its_work_answered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _claude_code_folder(tmp_path, lines_in_parent=False)
    rows, _ = _rows(["--from", "claude-code", "--to", "hf-chat", str(folder), "--quiet"], capsys)
    assert len(rows) == 2
    assert rows[1]["parent"] == {
        "session": "7f3c2a91-5b4e-4d2a-9c1e-2f8b6d4e1a37",
        "agent": "a1b2c3d4",
        "tool_use_id": "toolu_03Task",
    }


def test_a_subagent_in_its_parents_file_and_its_own_is_read_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _claude_code_folder(tmp_path, lines_in_parent=True)
    rows, said = _rows(["--from", "claude-code", "--to", "hf-chat", str(folder), "--quiet"], capsys)
    assert [row.get("parent", {}).get("agent") for row in rows] == [None, "a1b2c3d4"]  # from the parent's file
    assert "agent-a1b2c3d4.jsonl: the subagent a1b2c3d4's lines, read from" in said
    assert "not read twice" in said


def test_a_folder_of_another_format_or_of_no_session_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["convert", "--from", "openai-chat", "--to", "anthropic", str(CODEX)]) == 64
    assert "a folder is read as a harness's session files" in capsys.readouterr().err
    assert main(["convert", "--from", "codex", "--to", "hf-chat", str(tmp_path)]) == 66
    assert "no session file" in capsys.readouterr().err


def test_a_file_of_the_folder_that_is_not_a_session_is_refused_with_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(CODEX, tmp_path / "rollouts")
    (tmp_path / "rollouts" / "notes.jsonl").write_text("not json\n", encoding="utf-8")
    assert main(["convert", "--from", "codex", "--to", "hf-chat", str(tmp_path / "rollouts")]) == 1
    said = capsys.readouterr().err
    assert "notes.jsonl: " in said
    assert "line 1 of the session is not JSON" in said


@pytest.mark.parametrize("source", [CODEX, SESSIONS / "codex.jsonl"])
def test_a_session_is_not_written_as_tables(source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It wrote its JSON lines' text into the .parquet file."""
    out = tmp_path / "rows.parquet"
    with pytest.raises(SystemExit) as refused:
        main(["convert", "--from", "codex", "--to", "hf-chat", str(source), "--out", str(out)])
    assert refused.value.code == 64  # a usage error (EX_USAGE), as the parser's
    assert "converts to JSON lines" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(
    ("meta", "parent"),
    [
        ({"id": "c", "parent_thread_id": "p", "thread_source": "subagent", "source": "vscode"}, "p"),
        ({"id": "c", "source": {"subagent": "memory_consolidation"}}, None),  # a subagent no thread spawned
        ({"id": "c", "source": {"subagent": {"other": "guardian"}}}, None),
    ],
)
def test_a_rollouts_parent_thread_is_read_where_codex_writes_it(meta: dict[str, Any], parent: str | None) -> None:
    links = thread_links([[{"timestamp": "t", "type": "session_meta", "payload": meta}]])
    assert links == [None if parent is None else {"session": parent, "agent": "c"}]


def test_a_parent_thread_written_at_the_metas_top_is_the_readers_parent_loss() -> None:
    meta = {"id": "c", "parent_thread_id": "p", "thread_source": "subagent", "source": "vscode"}
    user = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Go."}]}
    events = [
        {"timestamp": "t", "type": "session_meta", "payload": meta},
        {"timestamp": "t", "type": "response_item", "payload": user},
    ]
    losses = read_session(events, "codex").losses
    parent = next(loss for loss in losses if loss.what == "parent session")
    assert (parent.path, parent.kind) == ("$[0].payload.parent_thread_id", "metadata")
    assert "the thread p holds the call" in parent.why
    assert "session_meta.parent_thread_id" not in {loss.what for loss in losses}
