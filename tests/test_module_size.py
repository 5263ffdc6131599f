"""Small units: no module under ``src/`` is over 600 lines (STYLE.md, "modules under ~600
lines"), so a module stays readable in one sitting; one that grows past it is split along
its concerns, not cut at a line count."""

from __future__ import annotations

from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src"
LIMIT = 600


def _lines(path: Path) -> int:
    with path.open("rb") as handle:
        return sum(1 for _ in handle)


def test_no_module_under_src_is_over_600_lines() -> None:
    modules = sorted(SOURCE.rglob("*.py"))
    assert len(modules) > 100  # the tree was found
    too_long = {str(path.relative_to(SOURCE)): _lines(path) for path in modules if _lines(path) > LIMIT}
    assert too_long == {}
