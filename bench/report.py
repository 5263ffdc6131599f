"""Markdown for the terminal and for ``bench/RESULTS.md``: one table per section, then the targets.

Sections hand over already-formatted cells; this module only lays them out, so a
section decides what its columns mean and the report stays one shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass
class Table:
    """A markdown table with an optional caption line above it."""

    headers: list[str]
    rows: list[list[str]] = field(default_factory=lambda: [])
    caption: str = ""


@dataclass
class Target:
    """One of the issue's targets, and whether this run met it."""

    what: str
    limit: str
    measured: str
    met: bool


@dataclass
class Section:
    """One part of the benchmark: what it times, its tables, footnotes and target checks."""

    key: str
    title: str
    intro: str
    tables: list[Table] = field(default_factory=lambda: [])
    footnotes: list[str] = field(default_factory=lambda: [])
    targets: list[Target] = field(default_factory=lambda: [])


def seconds(value: float) -> str:
    """A duration with a unit that keeps three significant digits readable."""
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.2f} ms"
    return f"{value * 1e6:.1f} µs"


def ratio(value: float) -> str:
    return f"{value:.2f}x"


def _table(table: Table) -> list[str]:
    lines = [table.caption, ""] if table.caption else []
    lines.append("| " + " | ".join(table.headers) + " |")
    lines.append("| " + " | ".join("---" for _ in table.headers) + " |")
    lines.extend("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in table.rows)
    lines.append("")
    return lines


def render_section(section: Section) -> str:
    lines = [f"## {section.title}", "", section.intro, ""]
    for table in section.tables:
        lines.extend(_table(table))
    for index, note in enumerate(section.footnotes, start=1):
        lines.append(f"{index}. {note}")
    if section.footnotes:
        lines.append("")
    return "\n".join(lines)


def render_targets(sections: Sequence[Section]) -> str:
    targets = [target for section in sections for target in section.targets]
    if not targets:
        return ""
    table = Table(["target", "limit", "measured", "met"])
    table.rows = [[target.what, target.limit, target.measured, "yes" if target.met else "**no**"] for target in targets]
    return "\n".join(["## Targets", "", *_table(table)])


def render(header: str, sections: Sequence[Section]) -> str:
    """The whole report: header (machine and versions), each section, the targets."""
    parts = [header, *(render_section(section) for section in sections), render_targets(sections)]
    return "\n".join(part for part in parts if part).rstrip() + "\n"
