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


def test_strict_reading_knows_a_fine_tuning_rows_weight(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """OpenAI's guide puts ``weight`` (0 or 1) on assistant messages: it was an "unknown field"."""
    assert main(["validate", "--strict", "--format", "openai-chat", str(CORPUS)]) == 1
    err = capsys.readouterr().err
    assert "weight" not in err
    assert "`model`: field required" in err  # the API's rule still holds; the weight is no longer refused
    source = tmp_path / "weights.jsonl"
    row = {
        "messages": [
            {"role": "user", "content": "Hi", "weight": 1},
            {"role": "assistant", "content": "Hello", "weight": 2},
            {"role": "assistant", "content": "Hello again", "weight": 0, "wieght": 1},
        ]
    }
    source.write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert main(["validate", "--strict", str(source)]) == 1
    err = capsys.readouterr().err
    assert "at $.messages[0].weight: `weight`: on assistant messages only" in err
    assert "[rule: training_weight]" in err
    assert "at $.messages[1].weight: `weight`: 0 or 1" in err
    assert "at $.messages[2].wieght: `wieght`: unknown field" in err
    assert "$.messages[2].weight" not in err
    with_model = tmp_path / "request.jsonl"
    with_model.write_text(json.dumps({"model": "gpt-4.1", **row}) + "\n", encoding="utf-8")
    assert main(["validate", "--strict", str(with_model)]) == 1
    assert "at $.messages[2].weight: `weight`: unknown field" in capsys.readouterr().err  # an API request has none


ALPACA_DATA = FIXTURES / "alpaca_data.json"
"""Stanford alpaca's file as downloaded: one pretty-printed JSON array (README)."""


def _jsonl_twin(tmp_path: Path, source: Path) -> Path:
    twin = tmp_path / "twin.jsonl"
    twin.write_text("".join(json.dumps(row) + "\n" for row in json.loads(source.read_text("utf-8"))), "utf-8")
    return twin


def test_alpaca_data_json_converts_as_downloaded_as_its_json_lines_twin_does(tmp_path: Path) -> None:
    code, out = _convert(tmp_path, ALPACA_DATA, "--from", "alpaca", "--to", "openai-chat")
    assert code == 0
    from_array = out.read_bytes()
    code, out = _convert(tmp_path, _jsonl_twin(tmp_path, ALPACA_DATA), "--from", "alpaca", "--to", "openai-chat")
    assert code == 0
    assert from_array == out.read_bytes()
    assert len(_rows(out)) == len(json.loads(ALPACA_DATA.read_text("utf-8")))


def test_an_array_item_is_named_by_its_index_in_losses_and_rejects(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    losses_file = tmp_path / "losses.jsonl"
    arguments = ("--from", "alpaca", "--to", "openai-chat", "--losses-file", str(losses_file))
    code, _ = _convert(tmp_path, ALPACA_DATA, *arguments)
    assert code == 0
    err = capsys.readouterr().err
    assert f"{ALPACA_DATA}[0]: loss (spelling): $.input: alpaca input" in err
    assert f"{ALPACA_DATA}[3]: loss" not in err  # row 3 has an empty input
    assert [record["index"] for record in _rows(losses_file)] == [0, 1, 2]
    code, _ = _convert(tmp_path, ALPACA_DATA, "--from", "sharegpt", "--to", "openai-chat")
    assert code == 5
    rejects = _rows(tmp_path / "rejects.jsonl")
    assert [reject["index"] for reject in rejects] == [0, 1, 2, 3, 4]
    assert json.loads(rejects[1]["text"]) == json.loads(ALPACA_DATA.read_text("utf-8"))[1]
    assert f"{ALPACA_DATA}[4]: at $.conversations: expected a list of messages" in capsys.readouterr().err


def test_a_compact_array_on_standard_input_is_rows_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io
    import sys

    rows = json.loads(ALPACA_DATA.read_text("utf-8"))
    stdin = io.TextIOWrapper(io.BytesIO(json.dumps(rows).encode()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main(["convert", "-", "--from", "alpaca", "--to", "sharegpt", "--quiet"]) == 0
    written = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["conversations"][-1]["value"] for row in written] == [row["output"] for row in rows]


def test_a_broken_array_names_the_item_and_what_was_expected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('[\n  {"instruction": "a", "output": "b"}\n  {"instruction": "c", "output": "d"}\n]\n')
    code, _ = _convert(tmp_path, broken, "--from", "alpaca", "--to", "openai-chat")
    assert code == 1
    assert "at $[1]: expected ',' or ']' after item 0, found '{'" in capsys.readouterr().err


def test_validate_reads_an_array_of_rows_by_index_and_a_messages_list_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", "--format", "alpaca", str(ALPACA_DATA)]) == 0
    out = capsys.readouterr().out
    assert f"{ALPACA_DATA}[4]: ok, 2 messages (1 user, 1 assistant)" in out
    messages = tmp_path / "messages.json"
    messages.write_text(
        json.dumps([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}], indent=2)
    )
    assert main(["validate", str(messages)]) == 0
    assert f"{messages}: ok, 2 messages (1 user, 1 assistant)" in capsys.readouterr().out


def test_one_json_line_on_standard_input_comes_out_as_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``head -1 x.jsonl | chatcodec convert - ... >> out.jsonl`` kept JSON lines broken:
    the one line came out pretty-printed. A pretty-printed document stays pretty."""
    import io
    import sys

    line = (CORPUS.read_text("utf-8").splitlines()[0] + "\n").encode()
    for given, lines in ((line, 1), (json.dumps(json.loads(line), indent=2).encode(), None)):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(given), encoding="utf-8"))
        assert main(["convert", "-", "--from", "openai-chat", "--to", "openai-chat", "--storage"]) == 0
        out = capsys.readouterr().out
        assert json.loads(out) == json.loads(line)
        assert (out.count("\n") == 1) == (lines == 1)


def test_openai_chat_to_itself_keeps_each_rows_key_order(tmp_path: Path) -> None:
    """A ``weight`` came out first (``{"weight": 0, "role": "assistant", ...}``): the same
    row, but not the same bytes, and a diff of the file showed every weighted row."""
    code, out = _convert(tmp_path, CORPUS, "--from", "openai-chat", "--to", "openai-chat", "--storage")
    assert code == 0
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    weighted = [message for row in _rows(CORPUS) for message in row["messages"] if "weight" in message]
    assert weighted  # the corpus has weights, last in their messages as OpenAI's guide writes them
    for given, row in zip(_rows(CORPUS), written, strict=True):
        assert [list(message) for message in row["messages"]] == [list(message) for message in given["messages"]]
    assert out.read_text(encoding="utf-8").splitlines() == [
        json.dumps(row, ensure_ascii=False) for row in _rows(CORPUS)
    ]


def test_validate_storage_takes_rows_without_a_model_and_checks_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", "--strict", "--storage", str(CORPUS)]) == 0
    assert "ok" in capsys.readouterr().out
    anthropic = tmp_path / "anthropic.jsonl"  # an Anthropic row names no model either, in storage
    anthropic.write_text(json.dumps({"max_tokens": 64, "messages": [{"role": "user", "content": "Hi"}]}) + "\n")
    assert main(["validate", "--strict", "--storage", "--format", "anthropic", str(anthropic)]) == 0
    assert main(["validate", "--strict", "--format", "anthropic", str(anthropic)]) == 1  # an API request needs one
    capsys.readouterr()
    wrong = tmp_path / "wrong.jsonl"  # everything else is still checked: a weight of 2, an unknown field
    rows = [
        {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello", "weight": 2}]},
        {"messages": [{"role": "user", "content": "Hi", "nmae": "x"}]},
    ]
    wrong.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert main(["validate", "--strict", "--storage", str(wrong)]) == 1
    err = capsys.readouterr().err
    assert "$.messages[1].weight: `weight`: 0 or 1" in err
    assert "nmae" in err
    assert "`model`: field required" not in err
