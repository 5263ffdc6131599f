"""What a dataset run prints: progress off a terminal, a loss summary that fits a screen
whatever the number of rows, and output paths refused before the input is read."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from chatcodec.cli import main
from chatcodec.cli._progress import PLAIN_INTERVAL, ProgressBar, progress_mode
from chatcodec.cli._run_report import SHOWN, SUMMARY_ROWS, path_pattern

IMAGE_DETAIL = "image detail 'high' (Anthropic has no resolution hint)"


def _lossy_request(text: str, images: int = 1) -> dict[str, object]:
    """An OpenAI Chat request whose image ``detail`` Anthropic has no place for: one
    ``content`` loss per image."""
    image = {"type": "image_url", "image_url": {"url": "https://example.com/a.png", "detail": "high"}}
    content: list[object] = [{"type": "text", "text": text}, *([image] * images)]
    return {"model": "m", "max_completion_tokens": 64, "messages": [{"role": "user", "content": content}]}


def _write(path: Path, rows: list[object]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _to_anthropic(source: Path, tmp_path: Path, *arguments: str) -> int:
    out = tmp_path / "out.jsonl"
    return main(["convert", str(source), "--from", "openai-chat", "--to", "anthropic", "--out", str(out), *arguments])


def test_a_large_run_prints_a_loss_summary_by_kind_and_path_not_a_line_per_loss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _write(tmp_path / "in.jsonl", [_lossy_request(str(index), images=3) for index in range(400)])
    losses_file = tmp_path / "losses.jsonl"
    assert _to_anthropic(source, tmp_path, "--losses-file", str(losses_file)) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) < SHOWN + SUMMARY_ROWS + 5  # 1,200 losses: a screen, not 1,200 lines
    assert sum(": loss (content): " in line for line in err) == SHOWN
    assert "1,200 loss(es) in 400 converted payload(s): 1,200 content; by kind and path" in "\n".join(err)
    [group] = [line for line in err if "$.messages[*].content[*].detail" in line]
    assert group.split()[:2] == ["1,200", "content"]
    assert "first at line 1" in group
    written = [json.loads(line) for line in losses_file.read_text(encoding="utf-8").splitlines()]
    assert len(written) == 1_200
    assert written[0] == {
        "line": 1,
        "kind": "content",
        "path": "$.messages[0].content[1].detail",
        "what": "image detail 'high'",
        "why": "Anthropic has no resolution hint",
    }


def test_all_losses_prints_every_loss_and_a_small_run_prints_each_as_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    many = _write(tmp_path / "many.jsonl", [_lossy_request(str(index)) for index in range(SHOWN + 5)])
    assert _to_anthropic(many, tmp_path, "--all-losses") == 0
    err = capsys.readouterr().err
    assert err.count(f": loss (content): $.messages[0].content[1].detail: {IMAGE_DETAIL}") == SHOWN + 5
    assert "by kind and path" not in err
    few = _write(tmp_path / "few.jsonl", [_lossy_request("a"), _lossy_request("b")])
    assert _to_anthropic(few, tmp_path) == 0
    assert capsys.readouterr().err.splitlines() == [
        f"{few}:1: loss (content): $.messages[0].content[1].detail: {IMAGE_DETAIL}",
        f"{few}:2: loss (content): $.messages[0].content[1].detail: {IMAGE_DETAIL}",
    ]


def test_list_indices_are_folded_in_a_loss_pattern() -> None:
    assert path_pattern("$.messages[12].content[0].detail") == "$.messages[*].content[*].detail"
    assert path_pattern("$.tools[3]['a[1]']") == "$.tools[*]['a[*]']"


def test_off_a_terminal_progress_is_a_plain_line_every_few_seconds() -> None:
    assert progress_mode("auto", stream=io.StringIO()) == "plain"
    assert progress_mode("auto", quiet=True, stream=io.StringIO()) == "none"
    assert progress_mode("plain", quiet=True, stream=io.StringIO()) == "plain"
    now = [0.0]
    log = io.StringIO()
    progress = ProgressBar(log, 10_000, clock=lambda: now[0], mode="plain")
    for _ in range(20):
        now[0] += 1.0
        progress.advance(100, 250)
    lines = log.getvalue().splitlines()
    assert len(lines) == int(20 // PLAIN_INTERVAL)
    assert lines[0] == "converting: 500 lines, 100 lines/s, 12% of 10.0 kB"
    assert "\r" not in log.getvalue()
    assert "\x1b" not in log.getvalue()
    progress.print("a message")
    assert log.getvalue().endswith(lines[-1] + "\na message\n")


def test_progress_plain_is_printed_by_a_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from chatcodec.cli import _progress as progress

    monkeypatch.setattr(progress, "PLAIN_INTERVAL", 0.0)  # a line after every batch, not every 5 s
    source = _write(tmp_path / "in.jsonl", [_lossy_request("a")] * 300)
    assert _to_anthropic(source, tmp_path, "--progress", "plain", "--quiet") == 0
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(" lines,")[0] for line in lines[:3]] == [
        "converting: 128",
        "converting: 256",
        "converting: 300",
    ]  # a batch is 128 lines
    assert lines[3].startswith("300 loss(es) in 300 converted payload(s)")


def test_a_missing_parquet_output_folder_is_refused_before_the_input_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from chatcodec.cli import _convert as convert

    def never(*_: object) -> None:
        raise AssertionError("the input was opened")

    monkeypatch.setattr(convert, "open_input", never)
    source = _write(tmp_path / "in.jsonl", [_lossy_request("a")])
    out = tmp_path / "missing" / "out.parquet"
    code = main(["convert", str(source), "--from", "openai-chat", "--to", "canonical", "--out", str(out)])
    assert code == 74
    assert f"--out {out}: the folder {out.parent} does not exist" in capsys.readouterr().err
