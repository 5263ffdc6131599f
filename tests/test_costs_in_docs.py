"""Costs out of the code (issue 78): a count of instructions is true for the interpreter it was
measured on, so it lives in ``docs/performance.md`` ("Levers in the code") under the lever's
name, and a comment in ``src/`` keeps only why the lever is there. At most :data:`LIMIT` lines
of ``src/`` may quote one (none do now)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src"
LIMIT = 5

COUNT = re.compile(
    r"\d[\d.,]*\s*(?:-\s*\d[\d.,]*\s*)?[kMG]?\s*(?:#\s*)?(?:\n\s*(?:#\s*)?)?instructions"
    r"|(?:third|half|quarter|fraction)\s+of\s+\S+\s+instructions"
)
"""A number of instructions (``11 k instructions``, ``~9 M instructions``, ``1-2 k
instructions``, the number and the word on two lines of one comment) or a share of them
(``a third of json.loads's instructions``)."""


def quoting_lines(text: str) -> list[int]:
    """The lines of ``text`` on which a quoted instruction count starts."""
    return sorted({text.count("\n", 0, match.start()) + 1 for match in COUNT.finditer(text)})


def test_the_pattern_finds_the_spellings_the_code_used() -> None:
    quoted = (
        "x = 1  # OpenSSL costs a first use ~9 M instructions\n"
        "cost about 0.2 M\ninstructions to split\n"
        "a decoder cost 1-2 k instructions)\n"
        "in a third of ``json.loads``'s instructions\n"
        "a task group (its ``instructions`` field) and system instructions\n"
    )
    assert quoting_lines(quoted) == [1, 2, 4, 5]


def test_at_most_five_lines_of_src_quote_instruction_counts() -> None:
    found = {
        f"{path.relative_to(SOURCE)}:{line}"
        for path in sorted(SOURCE.rglob("*.py"))
        for line in quoting_lines(path.read_text(encoding="utf-8"))
    }
    assert len(found) <= LIMIT, sorted(found)


def test_the_performance_page_lists_the_levers() -> None:
    page = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert "\n## Levers in the code\n" in page


def test_the_performance_page_is_todays_tables_and_the_diary_is_apart() -> None:
    """A reader wants today's tables and how to count them again, not every round's diary
    (issue 91): the page stays within 400 lines and points to the history, which has its own."""
    page = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert page.count("\n") <= 400
    assert "(performance-history.md)" in page
    assert (ROOT / "docs" / "performance-history.md").is_file()
