"""``chatcodec convert`` stopped by a real signal, in a real process (issue 77): SIGTERM and
SIGHUP leave no ``.OUT.<pid>.partial`` and no rejects or losses file (what was at those names stays
as it was), the process ends by that signal; with ``--workers 2``, the workers end with
their parent, even one killed with SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

BATCH = 128
"""Lines in one batch (:func:`chatcodec.batch._convert.iter_line_batches`)."""


def _lines(count: int) -> bytes:
    """``count`` chat requests, every tenth one not JSON (a reject), each other one with a
    ``seed`` (a loss: Anthropic's Messages API has no such field)."""
    rows = []
    for index in range(count):
        row = {"model": "m", "seed": 1, "messages": [{"role": "user", "content": f"hi {index}"}]}
        rows.append(b"{not json\n" if index % 10 == 9 else json.dumps(row).encode() + b"\n")
    return b"".join(rows)


@contextmanager
def _converting(folder: Path, *arguments: str, nohup: bool = False) -> Iterator[subprocess.Popen[bytes]]:
    """``chatcodec convert -`` writing to ``folder``, its standard input left open (the run
    waits for more); ``nohup``: started with SIGHUP ignored, as ``nohup`` starts it."""
    command = [sys.executable, "-m", "chatcodec", "convert", "-", "--from", "openai-chat", "--to", "anthropic"]
    command += ["--option", "max_tokens=9", "--quiet", "--progress", "none"]
    command += ["--out", str(folder / "out.jsonl"), "--rejects", str(folder / "rejects.jsonl")]
    command += ["--losses-file", str(folder / "losses.jsonl"), *arguments]
    # SIGHUP as a terminal or a service manager leaves it (its default), whatever the test
    # runner inherited: under nohup it is ignored, and so is it by the command started (an
    # ignored signal stays ignored across exec)
    inherited = signal.signal(signal.SIGHUP, signal.SIG_IGN if nohup else signal.SIG_DFL)
    try:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    finally:
        signal.signal(signal.SIGHUP, inherited)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)
        assert process.stdin is not None
        assert process.stderr is not None
        process.stdin.close()
        process.stderr.close()


def _partials(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.name.endswith(".partial"))


def _wait_for(condition: Callable[[], bool], what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s for {what}")
        time.sleep(0.05)


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False).stdout
    return [int(line) for line in found.split()]


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie no one reaped has ended)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def _started(process: subprocess.Popen[bytes], folder: Path, lines: int) -> None:
    """Feed ``lines`` lines and wait until output and rejects are written (under whichever names)."""
    assert process.stdin is not None
    process.stdin.write(_lines(lines))
    process.stdin.flush()

    def written() -> bool:
        names = _partials(folder)
        rejects = folder / "rejects.jsonl"
        return any(".out.jsonl." in name for name in names) and (
            any(".rejects.jsonl." in name for name in names) or (rejects.exists() and "line" in rejects.read_text())
        )

    _wait_for(written, "the output and the rejects to be written")


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_run_stopped_by_a_signal_leaves_nothing_half_written(tmp_path: Path, number: signal.Signals) -> None:
    (tmp_path / "out.jsonl").write_text("the last complete run's output\n")
    (tmp_path / "rejects.jsonl").write_text("the last complete run's rejects\n")
    (tmp_path / "losses.jsonl").write_text("the last complete run's losses\n")
    with _converting(tmp_path) as process:
        _started(process, tmp_path, 3 * BATCH)
        process.send_signal(number)
        code = process.wait(timeout=30)
        assert process.stderr is not None
        said = process.stderr.read().decode()
    assert _partials(tmp_path) == []  # was .out.jsonl.<pid>.partial
    assert (tmp_path / "out.jsonl").read_text() == "the last complete run's output\n"
    assert (tmp_path / "rejects.jsonl").read_text() == "the last complete run's rejects\n"  # was written over
    assert (tmp_path / "losses.jsonl").read_text() == "the last complete run's losses\n"  # was written over
    assert code == -number, said  # ended by the signal, as it would have been without the cleanup
    assert f"stopped by {number.name}" in said


def test_a_run_started_under_nohup_goes_on_after_a_hangup(tmp_path: Path) -> None:
    """SIGHUP ignored by whoever started the run (``nohup``) stays ignored: the command does
    not take it over."""
    with _converting(tmp_path, nohup=True) as process:
        _started(process, tmp_path, 3 * BATCH)
        process.send_signal(signal.SIGHUP)
        time.sleep(1)
        assert process.poll() is None  # still running
        assert process.stdin is not None
        process.stdin.close()
        code = process.wait(timeout=60)
    assert code == 38  # finished: the rejected lines, every tenth of 384
    assert _partials(tmp_path) == []


def test_a_run_that_completes_renames_its_rejects_too(tmp_path: Path) -> None:
    with _converting(tmp_path) as process:
        assert process.stdin is not None
        process.stdin.write(_lines(3 * BATCH))
        process.stdin.close()
        code = process.wait(timeout=60)
    assert code == 38  # the rejected lines: every tenth of 384
    assert _partials(tmp_path) == []
    assert len((tmp_path / "rejects.jsonl").read_text().splitlines()) == 38
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 3 * BATCH - 38
    losses = [json.loads(line) for line in (tmp_path / "losses.jsonl").read_text().splitlines()]
    assert len(losses) == 3 * BATCH - 38
    assert {loss["path"] for loss in losses} == {"$.seed"}


def test_workers_end_with_a_parent_stopped_by_sigterm(tmp_path: Path) -> None:
    with _converting(tmp_path, "--workers", "2") as process:
        _started(process, tmp_path, 6 * BATCH)
        workers = _children(process.pid)
        assert len(workers) >= 2, workers
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == -signal.SIGTERM
    _wait_for(lambda: not any(_running(worker) for worker in workers), "the workers to end")
    assert _partials(tmp_path) == []


def test_workers_end_with_a_parent_killed_outright(tmp_path: Path) -> None:
    with _converting(tmp_path, "--workers", "2") as process:
        _started(process, tmp_path, 6 * BATCH)
        workers = _children(process.pid)
        assert len(workers) >= 2, workers
        os.kill(process.pid, signal.SIGKILL)  # no cleanup can run: the workers must notice themselves
        process.wait(timeout=30)
        _wait_for(lambda: not any(_running(worker) for worker in workers), "the workers to end", seconds=10)
