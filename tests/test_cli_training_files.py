"""Training files as people hold them (issue 63): rows that name no model, JSON arrays
of rows, and output that is never left half-written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chatcodec.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "training"
CORPUS = FIXTURES / "openai-fine-tuning.jsonl"
"""Rows built from OpenAI's supervised fine-tuning guide: no ``model``, ``weight`` flags."""


def _rows(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _convert(tmp_path: Path, source: Path, *arguments: str) -> tuple[int, Path]:
    out = tmp_path / "out.jsonl"
    code = main(["convert", str(source), *arguments, "--out", str(out), "--rejects", str(tmp_path / "rejects.jsonl")])
    return code, out


def test_strict_all_storage_passes_a_clean_openai_fine_tuning_file(tmp_path: Path) -> None:
    assert all("model" not in row for row in _rows(CORPUS))
    code, out = _convert(tmp_path, CORPUS, "--from", "openai-chat", "--to", "openai-chat", "--storage", "--strict-all")
    assert code == 0
    assert _rows(out) == _rows(CORPUS)
    assert not (tmp_path / "rejects.jsonl").exists()


def test_storage_reports_no_model_for_any_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = _convert(tmp_path, CORPUS, "--from", "openai-chat", "--to", "anthropic", "--storage")
    assert code == 0
    assert "$.model" not in capsys.readouterr().err


def test_a_live_request_without_a_model_is_a_loss_that_names_storage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = _convert(tmp_path, CORPUS, "--from", "openai-chat", "--to", "openai-chat", "--strict-all")
    assert code == len(_rows(CORPUS))
    err = capsys.readouterr().err
    assert "$.model: model (openai-chat requires it" in err
    assert "convert --storage" in err


@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "canonical"])
def test_a_training_dialect_row_names_no_model_and_loses_none(tmp_path: Path, target: str) -> None:
    arguments = ("--from", "sharegpt", "--to", target, "--strict-all", "--option", "max_tokens=64")
    options = arguments if target == "anthropic" else arguments[:-2]
    code, out = _convert(tmp_path, FIXTURES / "sharegpt.jsonl", *options)
    assert code == 0
    assert all("model" not in row for row in _rows(out))


def test_strict_reading_of_a_row_without_a_model_says_a_training_row_needs_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", "--strict", "--format", "openai-chat", str(CORPUS)]) == 1
    err = capsys.readouterr().err
    assert "`model`: field required (an API request names its model; a fine-tuning file's rows name none" in err
