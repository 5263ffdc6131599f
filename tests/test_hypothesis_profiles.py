"""``make test`` (what CI runs) is deterministic: its Hypothesis examples do not depend on a
draw or on a local example database; the random run is a named, documented command."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import settings

_ROOT = Path(__file__).resolve().parents[1]


def _recipe(target: str) -> list[str]:
    text = (_ROOT / "Makefile").read_text()
    found = re.search(rf"^{re.escape(target)}:.*\n((?:\t.*\n)+)", text, re.MULTILINE)
    assert found is not None, f"no `{target}` target in the Makefile"
    return [line.strip() for line in found.group(1).splitlines()]


def test_make_tests_pytest_run_uses_the_derandomized_profile() -> None:
    recipe = _recipe("pytest")
    assert any(line.startswith("CHATCODEC_HYPOTHESIS_PROFILE=chatcodec-ci ") for line in recipe), recipe


def test_the_ci_profile_is_derandomized_and_reads_no_example_database() -> None:
    profile = settings.get_profile("chatcodec-ci")
    assert profile.derandomize
    assert profile.database is None


def test_the_random_run_is_a_documented_make_target() -> None:
    assert any("CHATCODEC_HYPOTHESIS_PROFILE=$(RANDOM_PROFILE)" in line for line in _recipe("pytest-random"))
    assert "make pytest-random" in (_ROOT / "docs" / "contributing.md").read_text()
