"""Every setting is checked before ``chatcodec serve`` starts: a wrong one exits 64 with one
line on standard error naming it, before the banner, never a traceback and never a
server that starts and fails (or ignores it) later."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from chatcodec.cli._commands import main
from chatcodec.serve import ServeConfig

RESPONSES = ["--api", "openai-responses", "--upstream", "anthropic", "--upstream-url", "https://api.anthropic.com"]
CHAT = ["--api", "openai-chat", "--upstream", "anthropic", "--upstream-url", "https://api.anthropic.com"]
GOOD_KEY = "k" * 32


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[ServeConfig]:
    """The configs the server was started with (none, when a setting stops it first)."""
    from chatcodec.serve import _server as server

    runs: list[ServeConfig] = []
    monkeypatch.setattr(server, "run", lambda config, **_: runs.append(config))
    monkeypatch.delenv("CHATCODEC_SEAL_KEY", raising=False)
    return runs


def _refused(arguments: list[str], capsys: pytest.CaptureFixture[str], started: list[ServeConfig]) -> str:
    """The one line ``serve`` refused ``arguments`` with (exit 64, no banner, not started)."""
    assert main(["serve", *arguments]) == 64
    written = capsys.readouterr()
    assert "API on http" not in written.out
    assert started == []
    lines = written.err.splitlines()
    assert len(lines) == 1, written.err
    assert lines[0].startswith("chatcodec serve: ")
    return lines[0].removeprefix("chatcodec serve: ")


@pytest.mark.parametrize("key", ["a", " ", "", "fifteen-chars!!"])
def test_a_seal_key_from_the_environment_is_held_to_the_key_files_rule(
    key: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], started: list[ServeConfig]
) -> None:
    monkeypatch.setenv("CHATCODEC_SEAL_KEY", key)
    line = _refused(RESPONSES, capsys, started)
    assert line == "CHATCODEC_SEAL_KEY: the seal key is shorter than 16 characters"


def test_a_seal_key_holding_a_control_character_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], started: list[ServeConfig]
) -> None:
    monkeypatch.setenv("CHATCODEC_SEAL_KEY", "sixteen-chars-an\x07d-more")
    assert _refused(RESPONSES, capsys, started) == "CHATCODEC_SEAL_KEY: the seal key holds a control character"


def test_a_good_seal_key_from_the_environment_or_a_file_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started: list[ServeConfig]
) -> None:
    monkeypatch.setenv("CHATCODEC_SEAL_KEY", GOOD_KEY)
    assert main(["serve", *RESPONSES]) == 0
    key_file = tmp_path / "seal-key"
    key_file.write_text(GOOD_KEY + "\n")
    assert main(["serve", *RESPONSES, "--seal-key-file", str(key_file)]) == 0
    assert len(started) == 2


def _binary(folder: Path) -> str:
    path = folder / "binary-key"
    path.write_bytes(bytes(range(256)) * 4)
    return str(path)


def _long(folder: Path) -> str:
    path = folder / "long-key"
    path.write_text("k" * 5000)
    return str(path)


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda folder: str(folder / "missing"), "cannot be read: No such file or directory"),
        (str, "cannot be read: Is a directory"),
        (_binary, "not UTF-8 text (a seal key file holds one key on a line)"),
        (_long, "longer than 4096 bytes (a seal key file holds one key)"),
        (lambda folder: "/dev/zero", "longer than 4096 bytes (a seal key file holds one key)"),
    ],
    ids=["missing", "folder", "binary", "long", "dev-zero"],
)
def test_a_seal_key_file_that_cannot_be_used_stops_the_server_before_it_listens(
    make: Callable[[Path], str],
    reason: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    started: list[ServeConfig],
) -> None:
    key_file = make(tmp_path)
    line = _refused([*RESPONSES, "--seal-key-file", key_file], capsys, started)
    assert line == f"--seal-key-file {key_file}: {reason}"


def test_a_seal_key_file_on_a_front_that_seals_nothing_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], started: list[ServeConfig]
) -> None:
    key_file = tmp_path / "seal-key"
    key_file.write_text(GOOD_KEY)
    line = _refused([*CHAT, "--seal-key-file", str(key_file)], capsys, started)
    assert line == (
        "--seal-key-file (seal_key_file) only acts on a front that seals reasoning (openai-responses), not openai-chat"
    )


def test_no_keep_thinking_without_a_store_is_refused(
    capsys: pytest.CaptureFixture[str], started: list[ServeConfig]
) -> None:
    line = _refused([*CHAT, "--no-keep-thinking"], capsys, started)
    assert line.startswith("--no-keep-thinking (keep_thinking = false) only acts with --store")
    assert main(["serve", *CHAT, "--no-keep-thinking", "--store", "memory"]) == 0


@pytest.mark.parametrize("flags", [["--strict", "--on-loss", "report"]], ids=["strict-report"])
def test_strict_with_on_loss_report_is_refused(
    flags: list[str], capsys: pytest.CaptureFixture[str], started: list[ServeConfig]
) -> None:
    line = _refused([*CHAT, *flags], capsys, started)
    assert line.startswith("--strict is --validate --on-loss error: it cannot go with --on-loss report")


def test_strict_with_validate_false_in_the_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], started: list[ServeConfig]
) -> None:
    settings = tmp_path / "gateway.toml"
    settings.write_text("strict = true\nvalidate = false\n")
    line = _refused([*CHAT, "--config", str(settings)], capsys, started)
    assert line.startswith(f"{settings}: --strict is --validate --on-loss error")  # both set in the file


def test_a_sqlite_store_file_that_is_not_a_database_is_a_setting_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], started: list[ServeConfig]
) -> None:
    path = tmp_path / "answers.db"
    path.write_text("these are my notes, not a database\n" * 100)
    line = _refused([*RESPONSES, "--store", f"sqlite:{path}"], capsys, started)
    assert line == f"--store sqlite:{path}: the SQLite store cannot be opened: file is not a database"


def test_a_sqlite_store_that_is_a_folder_is_a_setting_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], started: list[ServeConfig]
) -> None:
    line = _refused([*RESPONSES, "--store", f"sqlite:{tmp_path}"], capsys, started)
    assert line.startswith(f"--store sqlite:{tmp_path}: the SQLite store cannot be opened: ")


def test_a_good_sqlite_store_starts_and_is_a_database(tmp_path: Path, started: list[ServeConfig]) -> None:
    path = tmp_path / "answers.db"
    assert main(["serve", *RESPONSES, "--store", f"sqlite:{path}"]) == 0
    tables = {row[0] for row in sqlite3.connect(path).execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"answers", "threads", "secrets"} <= tables
