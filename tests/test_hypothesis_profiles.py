"""``make test`` (what CI runs) is deterministic: its Hypothesis examples do not depend on a
draw or on a local example database; the random run is a named, documented command."""

from __future__ import annotations

import re
import time
from pathlib import Path

from hypothesis import settings

from chatcodec import testing
from doc_blocks import blocks

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


def test_the_documented_strategy_example_survives_a_loaded_machine() -> None:
    """Issue 101: getting-started's Hypothesis example, its draws slowed as a loaded machine
    slows them, still passes (its settings suppress the too_slow health check and the deadline,
    as a reader running it outside this suite's profile needs)."""
    page = _ROOT / "docs" / "getting-started.md"
    (block,) = [block for block in blocks(page) if "from chatcodec.testing import conversations" in block.code]
    slowed = testing.conversations().map(lambda messages: (time.sleep(0.3), messages)[1])
    code = block.code.replace("from chatcodec.testing import conversations\n", "")
    exec(compile(code, block.where, "exec"), {"conversations": lambda: slowed})
