"""``chatcodec check-codec``: what it says without the testing extra, for an unknown name, and
its last line (the laws themselves run in ``tests/conformance/test_laws.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from chatcodec.cli import main

_WITHOUT_HYPOTHESIS = "import sys; sys.modules['hypothesis'] = None; from chatcodec.cli import main; sys.exit(main())"


def test_without_the_testing_extra_it_says_what_to_install() -> None:
    result = subprocess.run(
        [sys.executable, "-c", _WITHOUT_HYPOTHESIS, "check-codec", "ollama"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 69
    assert "needs the testing extra (hypothesis): pip install" in result.stderr
    assert "testing" in result.stderr.rpartition("pip install")[2]


def test_an_unknown_codec_is_bad_usage_with_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    """64 (EX_USAGE) as an unknown format is for every command; it exited 1, the code of a failed law."""
    assert main(["check-codec", "olama"]) == 64
    assert capsys.readouterr().err.startswith("chatcodec check-codec: error: unknown format 'olama'; did you mean")


def test_the_last_line_counts_the_laws(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Every case runs and is counted; a failing one is printed with its first line."""
    import chatcodec.testing

    def fails() -> None:
        raise AssertionError("the law does not hold\nmore detail")

    cases = [
        chatcodec.testing.LawCase("m::holds[x]", ("x",), lambda: None),
        chatcodec.testing.LawCase("m::fails[x]", ("x",), fails),
    ]
    monkeypatch.setattr("chatcodec.testing._laws.check.codec_law_cases", lambda name, entry=None: cases)
    assert main(["check-codec", "ollama"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "FAILED m::fails[x]: AssertionError: the law does not hold",
        "laws: 1 passed, 1 failed",
    ]


def test_a_stored_history_format_passes_its_laws(capsys: pytest.CaptureFixture[str]) -> None:
    """A framework history has no tool definitions or sampling settings; the laws that carry
    them read its capabilities and have no case for it, rather than fail on the reported losses.
    (The AI SDK's formats are checked the same way in
    tests/conformance/test_laws_read_tool_and_sampling_capabilities.py: ``law_losses`` still
    finds an empty system message they change, a codec fix of its own.)"""
    status = main(["check-codec", "langchain"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.splitlines()[-1].endswith(" passed, 0 failed")


_TOY_LAWS = """
from hypothesis import given, strategies as st

from chatcodec.testing._laws.registry import law

DRAWN = {"holds": [], "fails": []}


@law(lambda suite: suite.entries)
@given(st.integers(0, 10**9))
def law_toy_holds(entry, number):
    DRAWN["holds"].append(number)


@law(lambda suite: suite.entries)
@given(st.integers(0, 10**9))
def law_toy_fails(entry, number):
    DRAWN["fails"].append(number)
    assert number < 1000, f"{number} is too big"
"""

_RUN_WITH_TOY_LAWS = textwrap.dedent(
    """
    import importlib, json, sys
    import chatcodec.testing._laws.every_law as every

    shipped = every.import_every_law
    every.import_every_law = lambda: (shipped(), importlib.import_module("toy_laws"))
    from chatcodec.cli import main

    code = main(["check-codec", "ollama", *sys.argv[1:]])
    print(json.dumps([code, importlib.import_module("toy_laws").DRAWN]))
    """
)


def _check_toy_laws(folder: Path, *arguments: str) -> tuple[int, dict[str, list[int]], str]:
    """``check-codec ollama ARGUMENTS`` in a fresh process where two toy laws are declared
    beside the shipped ones (imported when the laws are, after the run's settings are made):
    the exit code, the examples each toy law drew, and what the command printed."""
    (folder / "toy_laws.py").write_text(_TOY_LAWS, encoding="utf-8")
    root = Path(__file__).resolve().parents[1]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(root / "src")])}
    result = subprocess.run(
        [sys.executable, "-c", _RUN_WITH_TOY_LAWS, *arguments],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=environment,
        cwd=folder,
    )
    assert result.returncode == 0, result.stderr
    *printed, last = result.stdout.splitlines()
    code, drawn = json.loads(last)
    return code, drawn, "\n".join(printed)


def test_k_picks_the_laws_by_their_id(tmp_path: Path) -> None:
    code, drawn, printed = _check_toy_laws(tmp_path, "-k", "law_toy_holds", "--max-examples", "5")
    assert code == 0
    assert printed == "laws: 1 passed, 0 failed"
    assert len(drawn["holds"]) == 5  # the budget: --max-examples
    assert drawn["fails"] == []  # not picked


def test_a_run_is_derandomized_and_a_seed_draws_other_examples(tmp_path: Path) -> None:
    first = _check_toy_laws(tmp_path, "-k", "law_toy_holds", "--max-examples", "8")[1]["holds"]
    again = _check_toy_laws(tmp_path, "-k", "law_toy_holds", "--max-examples", "8")[1]["holds"]
    seeded = _check_toy_laws(tmp_path, "-k", "law_toy_holds", "--max-examples", "8", "--seed", "7")[1]["holds"]
    seeded_again = _check_toy_laws(tmp_path, "-k", "law_toy_holds", "--max-examples", "8", "--seed", "7")[1]["holds"]
    assert first == again  # the same examples every run: a CI check says the same twice
    assert seeded == seeded_again
    assert seeded != first


def test_a_failing_law_is_reported_as_drawn_not_shrunk_unless_asked(tmp_path: Path) -> None:
    """Shrinking is what took one law over five minutes (Hypothesis bounds it at 300 s a law):
    by default the first failing example is reported; --shrink asks for the smallest one."""
    code, drawn, printed = _check_toy_laws(tmp_path, "-k", "law_toy_fails")
    assert code == 1
    assert printed.splitlines()[-1] == "laws: 0 passed, 1 failed"
    assert len(drawn["fails"]) <= 100 + 2  # the budget, and Hypothesis's replay of the failure
    code, shrunk, printed = _check_toy_laws(tmp_path, "-k", "law_toy_fails", "--shrink")
    assert code == 1
    assert "AssertionError: 1000 is too big" in printed  # the smallest failing example
    assert "1000 is too big" not in _check_toy_laws(tmp_path, "-k", "law_toy_fails")[2]
    assert len(shrunk["fails"]) > len(drawn["fails"])
