"""``chatcodec convert --out`` writes under a temporary name and renames when complete
(issue 63): an interrupted or failed run leaves nothing under the final name (a Parquet
file closed part-way has a valid footer and reads as a whole file), and what was there
before stays as it was."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chatcodec.batch._convert import BatchResult, ConvertOptions, LineBatch
from chatcodec.cli import _convert as convert_command
from chatcodec.cli import _pending_output as pending_output
from chatcodec.cli import main

ROWS = 300
"""Three batches of lines (128 a batch)."""

OUTPUTS = {
    "json lines": ("out.jsonl", ("--to", "anthropic", "--option", "max_tokens=9")),
    "parquet of json text": ("out.parquet", ("--to", "anthropic", "--option", "max_tokens=9")),
    "columnar parquet": ("out.parquet", ("--to", "canonical")),
    "envelope parquet": ("out.parquet", ("--to", "anthropic-batch", "--option", "max_tokens=9", "--id-field", "id")),
    "analyst folder": ("view", ("--to", "canonical", "--layout", "analyst")),
}


def _source(tmp_path: Path) -> Path:
    rows = [{"id": f"r{index}", "model": "m", "messages": [{"role": "user", "content": "hi"}]} for index in range(ROWS)]
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _interrupted_at_the_second_batch(monkeypatch: pytest.MonkeyPatch, out: Path) -> list[list[str]]:
    """Stop the run at its second batch; what the folder held then, name by name."""
    seen: list[list[str]] = []
    real = convert_command.convert_lines

    def convert(batch: LineBatch, options: ConvertOptions) -> BatchResult:
        seen.append(sorted(path.name for path in out.parent.iterdir()))
        if len(seen) == 2:
            raise KeyboardInterrupt
        return real(batch, options)

    monkeypatch.setattr(convert_command, "convert_lines", convert)
    return seen


def _run(source: Path, out: Path, *arguments: str) -> int:
    return main(["convert", str(source), "--from", "openai-chat", "--out", str(out), "--quiet", *arguments])


@pytest.mark.parametrize("output", list(OUTPUTS))
def test_an_interrupted_run_leaves_no_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, output: str) -> None:
    from chatcodec.datasets import _envelope_parquet as envelope_parquet
    from chatcodec.datasets import _parquet_sink as parquet_sink

    monkeypatch.setattr(parquet_sink, "ROWS_PER_GROUP", 64)  # a row group written before the interrupt
    monkeypatch.setattr(envelope_parquet, "ROWS_PER_GROUP", 64)
    name, arguments = OUTPUTS[output]
    out = tmp_path / name
    seen = _interrupted_at_the_second_batch(monkeypatch, out)
    assert _run(_source(tmp_path), out, *arguments) == 130
    assert name not in seen[1]  # the run wrote under another name meanwhile
    assert any(entry.endswith(".partial") for entry in seen[1])
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.jsonl"]


@pytest.mark.parametrize("output", list(OUTPUTS))
def test_a_complete_run_renames_its_output_and_leaves_no_partial(tmp_path: Path, output: str) -> None:
    name, arguments = OUTPUTS[output]
    out = tmp_path / name
    assert _run(_source(tmp_path), out, *arguments) == 0
    assert out.exists()
    assert not [path for path in tmp_path.rglob("*") if path.name.endswith(".partial")]


def test_what_was_at_the_final_name_survives_a_failed_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("the last good run\n", encoding="utf-8")
    _interrupted_at_the_second_batch(monkeypatch, out)
    assert _run(_source(tmp_path), out, "--to", "anthropic", "--option", "max_tokens=9") == 130
    assert out.read_text(encoding="utf-8") == "the last good run\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.jsonl", "out.jsonl"]


def test_a_single_document_is_renamed_into_place_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    document = tmp_path / "request.json"
    document.write_text(json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}, indent=2))
    out = tmp_path / "out.json"
    written: list[Any] = []
    real = Path.write_bytes

    def write_bytes(path: Path, data: bytes) -> int:
        written.append(path.name)
        return real(path, data)

    monkeypatch.setattr(Path, "write_bytes", write_bytes)
    assert _run(document, out, "--to", "anthropic", "--option", "max_tokens=9") == 0
    (partial,) = written
    assert re.fullmatch(rf"\.out\.json\.{os.getpid()}\.[0-9a-f]{{8}}\.partial", partial)
    assert json.loads(out.read_text(encoding="utf-8"))["max_tokens"] == 9
    assert sorted(path.name for path in tmp_path.iterdir()) == ["out.json", "request.json"]


def test_a_symlink_planted_at_a_partials_name_is_never_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pid is known to whoever shares the folder; the partial's random bits are not, and a
    name that exists (a symlink planted there) is never opened: another name is taken."""
    victim = tmp_path / "victim.txt"
    victim.write_text("not yours\n", encoding="utf-8")
    tokens = iter(["00000000", "11111111"])
    monkeypatch.setattr(pending_output.secrets, "token_hex", lambda _: next(tokens))
    planted = [tmp_path / f".out.jsonl.{os.getpid()}.partial", tmp_path / f".out.jsonl.{os.getpid()}.00000000.partial"]
    for name in planted:  # the name a run used to write under, and the first this one draws
        name.symlink_to(victim)
    out = tmp_path / "out.jsonl"
    assert _run(_source(tmp_path), out, "--to", "anthropic", "--option", "max_tokens=9") == 0
    assert victim.read_text(encoding="utf-8") == "not yours\n"
    assert all(name.is_symlink() for name in planted)
    assert len(out.read_text(encoding="utf-8").splitlines()) == ROWS


def test_the_output_gets_the_mode_the_umask_leaves(tmp_path: Path) -> None:
    """Created by this module, not by ``open()``: still the mode ``open()`` would give."""
    previous = os.umask(0o022)
    try:
        out = tmp_path / "out.jsonl"
        assert _run(_source(tmp_path), out, "--to", "anthropic", "--option", "max_tokens=9") == 0
    finally:
        os.umask(previous)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644


def test_stale_partials_of_dead_runs_are_removed_and_a_running_ones_kept(tmp_path: Path) -> None:
    """A run killed too hard to clean up (SIGKILL) leaves its partial: the next run for the same
    output removes it (its pid no longer runs), a file or a folder, old name or new, and leaves a
    running run's partial and another output's alone."""
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, check=True)
    dead = int(finished.stdout)
    stale = [
        tmp_path / f".out.jsonl.{dead}.partial",
        tmp_path / f".out.jsonl.{dead}.0a1b2c3d.partial",
    ]
    for path in stale:
        path.write_text("half a run\n", encoding="utf-8")
    stale_folder = tmp_path / f".out.jsonl.{dead}.deadbeef.partial"
    stale_folder.mkdir()
    (stale_folder / "part.parquet").write_bytes(b"PAR1")
    running = tmp_path / f".out.jsonl.{os.getppid()}.12345678.partial"  # the test runner's parent: alive
    other = tmp_path / f".other.jsonl.{dead}.partial"
    for path in (running, other):
        path.write_text("kept\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert _run(_source(tmp_path), out, "--to", "anthropic", "--option", "max_tokens=9") == 0
    left = sorted(path.name for path in tmp_path.iterdir())
    assert left == sorted(["in.jsonl", "out.jsonl", running.name, other.name])
