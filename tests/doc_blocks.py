"""The fenced code blocks of the documentation (``docs/`` and ``README.md``), found and classified.

Every block in a code language runs in the test suite (``tests/test_doc_examples.py``); a
block that cannot (it needs a live upstream, a cluster, a browser) says so in its fence's
info, with a reason, in the form pydantic's ``pytest-examples`` uses::

    ```python {test="skip" reason="needs a live upstream"}

A Python block may state what it prints as ``#>`` lines after the statement that prints
(``...`` in an expected line stands for any text). ``text`` blocks are shown output and
usage lines, not code, and are not run.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CODE_LANGUAGES = frozenset({"python", "sh", "toml", "sql", "js", "ts"})
"""The fence languages of code; every other block (``text``) is shown output."""

RUNNABLE = CODE_LANGUAGES
"""What the harness runs (every code language; a new one must be taught to it, or skipped)."""

_FENCE = re.compile(
    r"^(?P<indent>[ ]*)```(?P<lang>[\w-]*)[ ]*(?P<info>\{[^}\n]*\})?[ ]*\n(?P<body>.*?)^(?P=indent)```[ ]*$",
    re.MULTILINE | re.DOTALL,
)
_ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')


@dataclass(frozen=True)
class Block:
    """One fenced block: where it is, its language, its code, and why it is skipped (if so)."""

    page: str
    line: int
    language: str
    code: str
    skip_reason: str | None

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    def expected_output(self) -> str | None:
        """The ``#>`` lines of a Python block, as the text it prints (None: it states none)."""
        lines = [line.strip()[2:].removeprefix(" ") for line in self.code.splitlines() if line.strip().startswith("#>")]
        return "\n".join(lines) if lines else None


def pages() -> list[Path]:
    """The README and every page of the docs site."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def blocks(page: Path) -> list[Block]:
    """The code blocks of ``page`` in order (shown-output blocks left out)."""
    text = page.read_text(encoding="utf-8")
    found: list[Block] = []
    for match in _FENCE.finditer(text):
        language = match.group("lang")
        if language not in CODE_LANGUAGES:
            continue
        attributes = dict(_ATTRIBUTE.findall(match.group("info") or ""))
        skip = None
        if attributes.get("test") == "skip":
            skip = attributes.get("reason", "")
        found.append(
            Block(
                page=str(page.relative_to(ROOT)),
                line=text.count("\n", 0, match.start()) + 1,
                language=language,
                code=textwrap.dedent(match.group("body")),
                skip_reason=skip,
            )
        )
    return found


def matches(expected: str, printed: str) -> bool:
    """Whether ``printed`` is ``expected``, each ``...`` standing for any text."""
    pattern = ".*?".join(re.escape(piece) for piece in expected.strip().split("..."))
    return re.fullmatch(pattern, printed.strip(), re.DOTALL) is not None
