"""``chatcodec convert --keep-lines`` keeps output lines aligned with
input lines: a rejected row leaves a placeholder (``null``, or its passed-through id)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chatcodec.cli import main


def _request(text: str, row_id: str) -> str:
    return json.dumps({"id": row_id, "model": "m", "max_tokens": 9, "messages": [{"role": "user", "content": text}]})


def _source(tmp_path: Path) -> Path:
    lines = [_request("one", "a"), '{"id": "b", "messages": [ oops', _request("three", "c"), '{"id": "d"}']
    path = tmp_path / "in.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _converted(tmp_path: Path, *options: str) -> list[Any]:
    out = tmp_path / "out.jsonl"
    code = main(
        ["convert", str(_source(tmp_path)), "--from", "openai-chat", "--to", "anthropic", "--out", str(out), *options]
    )
    assert code == 2  # two rows rejected, as without the option
    assert (tmp_path / "out.rejects.jsonl").read_text(encoding="utf-8").count("\n") == 2
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def test_convert_keep_lines_writes_null_for_each_rejected_row(tmp_path: Path) -> None:
    rows = _converted(tmp_path, "--keep-lines")
    assert len(rows) == 4
    assert rows[1] is None
    assert rows[3] is None
    assert [row["messages"][0]["content"] for row in (rows[0], rows[2])] == ["one", "three"]


def test_convert_keep_lines_can_pass_an_id_field_through(tmp_path: Path) -> None:
    rows = _converted(tmp_path, "--keep-lines", "--id-field", "id")
    assert rows[3] == {"id": "d"}  # read from the rejected row
    assert rows[1] is None  # not JSON: no id to read


def test_convert_without_the_option_still_writes_only_converted_rows(tmp_path: Path) -> None:
    assert len(_converted(tmp_path)) == 2


def test_id_field_works_alone(tmp_path: Path) -> None:
    """An id column is useful without placeholders (issue 63: it was a usage error)."""
    rows = _converted(tmp_path, "--id-field", "id")
    assert [row["id"] for row in rows] == ["a", "c"]
    assert [next(iter(row)) for row in rows] == ["id", "id"]  # the row's id first, and no loss for it


def test_keep_lines_is_in_the_convert_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["convert", "--help"])
    assert "--keep-lines" in capsys.readouterr().out


def _rows_with_ids(tmp_path: Path) -> Path:
    lines = [
        {"id": "row-1", "model": "m", "messages": [{"role": "user", "content": "one"}]},
        {"id": "row-2", "model": "m", "messages": [{"role": "user", "content": "two"}]},
    ]
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_the_id_field_is_the_rows_id_not_payload_so_it_is_no_loss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.jsonl"
    arguments = ["convert", str(_rows_with_ids(tmp_path)), "--from", "openai-chat", "--to", "gemini"]
    assert main([*arguments, "--out", str(out), "--keep-lines", "--id-field", "id"]) == 0
    assert "loss" not in capsys.readouterr().err
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [row["id"] for row in rows] == ["row-1", "row-2"]  # carried, first
    assert [next(iter(row)) for row in rows] == ["id", "id"]
    assert [row["contents"][0]["parts"][0]["text"] for row in rows] == ["one", "two"]


def test_strict_all_does_not_reject_a_row_for_having_an_id_field(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    arguments = ["convert", str(_rows_with_ids(tmp_path)), "--from", "openai-chat", "--to", "gemini"]
    assert main([*arguments, "--out", str(out), "--keep-lines", "--id-field", "id", "--strict-all"]) == 0
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2
