"""The repository stands alone: no test, tool or bench module reads a path beside the checkout.

Two halves. At run time ``outside_reads`` (installed by ``conftest.py``) fails any test that
opens or lists a path beside the checkout. A test that only reads a sibling folder when it
is there would pass that on a fresh clone by skipping, so here the source itself is read: every
``Path(__file__)`` (and every name bound to one) that climbs above the checkout, and every string
starting ``../``, outside docstrings, is refused.
"""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

import pytest

from outside_reads import ROOT, WATCH, OutsideReads

_SCANNED = ("tests", "tools", "bench")


def _docstrings(tree: ast.AST) -> set[int]:
    """Strings standing as statements: docstrings of modules, classes, functions and attributes."""
    return {
        id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def _climb(node: ast.expr, levels: dict[str, int]) -> int | None:
    """How many folders above its module's folder ``node`` names (``Path(__file__).parent`` is 1),
    when it is a chain of ``.parent``/``.parents[N]`` over ``Path(__file__)`` or a name bound to one."""
    steps = 0
    while True:
        match node:
            case ast.Attribute(value=inner, attr="parent"):
                steps, node = steps + 1, inner
            case ast.Subscript(value=ast.Attribute(value=inner, attr="parents"), slice=ast.Constant(value=int(index))):
                steps, node = steps + index + 1, inner
            case ast.Call(func=ast.Attribute(value=inner, attr="resolve" | "absolute")):
                node = inner
            case ast.Call(func=ast.Name(id="Path"), args=[ast.Name(id="__file__")]):
                return steps
            case ast.Name(id=name) if name in levels:
                return levels[name] + steps
            case _:
                return None


def _escapes(path: Path, source: str) -> list[str]:
    """The places in one module's source that name a path above the checkout."""
    tree = ast.parse(source)
    depth = len(path.relative_to(ROOT).parts)  # Path(__file__) climbed this far is the checkout
    levels: dict[str, int] = {}
    docstrings = _docstrings(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            climbed = _climb(node.value, levels)
            if climbed is not None:
                levels[node.targets[0].id] = climbed
        if isinstance(node, ast.Attribute | ast.Subscript):
            climbed = _climb(node, levels)
            if climbed is not None and climbed > depth:
                found.append(f"line {node.lineno}: {ast.unparse(node)} is above the checkout")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            text = node.value
            if text.startswith("../"):
                found.append(f"line {node.lineno}: {text!r} names a path beside the checkout")
    return found


def _modules() -> list[Path]:
    """Every module of the scanned folders but this one, whose cases name such paths on purpose."""
    here = Path(__file__).resolve()
    return sorted(path for folder in _SCANNED for path in (ROOT / folder).rglob("*.py") if path != here)


def test_no_module_names_a_path_beside_the_checkout() -> None:
    found = {
        str(path.relative_to(ROOT)): escapes
        for path in _modules()
        if (escapes := _escapes(path, path.read_text(encoding="utf-8")))
    }
    assert found == {}


@pytest.mark.parametrize(
    ("source", "escapes"),
    [
        ('X = Path(__file__).resolve().parents[2] / "data"', 1),
        ('X = Path(__file__).resolve().parents[1] / "data"', 0),
        ('X = Path(__file__).parent.parent / "data"', 0),
        ("ROOT = Path(__file__).resolve().parents[1]\nX = ROOT.parent", 1),
        ('ROOT = Path(__file__).resolve().parents[1]\nX = ROOT / "tests"', 0),
        ("HERE = Path(__file__).parent\nX = HERE.parent.parent", 1),
        ('ROOT = Path(__file__).resolve().parents[1]\nX = ROOT.parent / "sibling" / "sessions"', 1),
        ('X = open("../sibling/fixtures/a.json")', 1),
        ('"""Copied from ../sibling/fixtures."""\nX = 1', 0),
    ],
)
def test_the_scan_finds_a_climb_above_the_checkout(source: str, escapes: int) -> None:
    assert len(_escapes(ROOT / "tests" / "x.py", source)) == escapes


def test_a_read_beside_the_checkout_is_recorded(tmp_path: Path) -> None:
    (tmp_path / "repo").mkdir()
    (tmp_path / "venv").mkdir()
    watch = OutsideReads(tmp_path / "repo", [str(tmp_path / "venv"), str(tmp_path)])
    watch.hook("open", (str(tmp_path / "repo" / "tests" / "a.json"), "r", 0))
    watch.hook("open", (str(tmp_path / "venv" / "lib" / "x.py"), "r", 0))
    watch.hook("open", (3, "r", 0))  # a file descriptor
    watch.hook("open", ("/elsewhere/x", "r", 0))
    assert watch.take() == []
    watch.hook("open", (str(tmp_path / "sibling" / "fixtures" / "a.json"), "rb", 0))
    watch.hook("os.scandir", (os.fsencode(tmp_path / "sibling"),))
    watch.hook("glob.glob", (str(tmp_path / "repo" / ".." / "sibling" / "*.gz"), False))
    # tmp_path holds the checkout's parent here: allowing it would allow everything beside
    assert watch.take() == [
        f"open {tmp_path / 'sibling' / 'fixtures' / 'a.json'}",
        f"os.scandir {tmp_path / 'sibling'}",
        f"glob.glob {tmp_path / 'sibling' / '*.gz'}",
    ]
    assert watch.take() == []


def test_the_session_watches_this_checkout() -> None:
    assert WATCH.root == str(ROOT)
    sys.audit("open", str(ROOT.parent / "sibling" / "fixtures" / "MANIFEST.md"), "r", 0)  # an event, no read
    assert WATCH.take() == [f"open {ROOT.parent / 'sibling' / 'fixtures' / 'MANIFEST.md'}"]
