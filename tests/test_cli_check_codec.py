"""``chatcodec check-codec``: what it says without the testing extra, for an unknown name, and
its last line (the laws themselves run in ``tests/conformance/test_laws.py``)."""

from __future__ import annotations

import subprocess
import sys

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


def test_an_unknown_codec_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-codec", "no-such-codec"]) == 1
    assert "no-such-codec" in capsys.readouterr().err


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
