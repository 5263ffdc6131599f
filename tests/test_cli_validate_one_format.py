"""``chatcodec validate`` holds a file of rows to one format when no ``--format`` is given: a
file mixing OpenAI, Anthropic and Gemini lines passed, each line "ok" in its own format, and
a dataset tool reading it as one format then refuses half of it (issue 63)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chatcodec.cli import main

ANTHROPIC_TOOL_TURN = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 10,
    "system": "be brief",
    "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]},
    ],
}
OPENAI_TOOL_TURN = {
    "model": "gpt-4o",
    "messages": [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    ],
}
GEMINI_TURN = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
PLAIN_TURN = {"model": "claude-sonnet-4-5", "max_tokens": 10, "messages": [{"role": "user", "content": "plain"}]}


def _file(tmp_path: Path, *rows: object) -> Path:
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_a_file_mixing_openai_anthropic_and_gemini_lines_is_refused_at_the_lines_that_mix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, ANTHROPIC_TOOL_TURN, OPENAI_TOOL_TURN, GEMINI_TURN, PLAIN_TURN)
    assert main(["validate", str(path)]) == 1
    captured = capsys.readouterr()
    refused = [line for line in captured.err.splitlines() if "a file holds one format" in line]
    assert [line.split(": ")[0] for line in refused] == [f"{path}:2", f"{path}:3"]
    assert "openai-chat" in refused[0].partition("but")[0]  # what the row fits (a test session's toy codecs too)
    assert "but the rows before it fit only anthropic (placed at :1)" in refused[0]
    assert "its marks fit gemini" in refused[1]
    assert f"{path}:1: ok" in captured.out
    assert f"{path}:4: ok" in captured.out  # a plain row fits the file's format
    assert "2 of 4 conversation(s) invalid" in captured.err


def test_a_file_of_one_format_with_plain_rows_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(tmp_path, PLAIN_TURN, ANTHROPIC_TOOL_TURN, PLAIN_TURN)
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.count(": ok,") == 3


def test_rows_only_canonical_data_holds_together_must_be_canonical(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An OpenAI row with a system turn and an Anthropic row with a top-level system share
    only canonical: both are canonical data, so the file passes; an OpenAI tool turn after
    them is no canonical data, and is refused."""
    openai_system = {
        "model": "gpt-4o",
        "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "hi"}],
    }
    anthropic_system = {**PLAIN_TURN, "system": "s"}
    assert main(["validate", str(_file(tmp_path, openai_system, anthropic_system))]) == 0
    capsys.readouterr()
    assert main(["validate", str(_file(tmp_path, openai_system, anthropic_system, OPENAI_TOOL_TURN))]) == 1
    err = capsys.readouterr().err
    assert ":3: its marks fit " in err
    assert "but the rows before it fit only canonical (placed at :1)" in err


def test_a_format_given_reads_every_row_as_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(tmp_path, OPENAI_TOOL_TURN, PLAIN_TURN)
    assert main(["validate", str(path), "--format", "openai-chat"]) == 0
    assert "a file holds one format" not in capsys.readouterr().err
