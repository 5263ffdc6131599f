"""Type checkers know only the real public names: a misspelt one is an error, not a run-time surprise.

The lazy public modules (``chatcodec``, ``chatcodec.contract``, ``chatcodec.datasets``) load
their names through a module ``__getattr__`` (PEP 562). A type checker that sees that function
accepts any attribute of the module, so ``from chatcodec import convert_requets`` used to pass
``mypy --strict`` and pyright strict with 0 errors. The function is hidden from them (``if not
TYPE_CHECKING:``); this runs both checkers on ``tests/typing_errors/misspelt_names.py`` and
expects every misspelt name reported, and nothing else; and checks that the README's Python
examples type-check clean under both (what a user copies must not be an error).
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
TYPOS = ROOT / "tests" / "typing_errors" / "misspelt_names.py"
BIN = Path(sys.executable).parent


def _misspelt() -> dict[int, str]:
    """Line -> the misspelt name on it: the last name before ``# misspelt`` (a call's arguments skipped)."""
    found: dict[int, str] = {}
    for number, line in enumerate(TYPOS.read_text(encoding="utf-8").splitlines(), start=1):
        code, marker, rest = line.partition("# misspelt")
        if marker and not rest:
            name = re.search(r"([A-Za-z_]\w*)\s*(?:\(.*\))?\s*,?\s*$", code)
            assert name is not None, line
            found[number] = name.group(1)
    return found


def test_the_typo_file_marks_names_that_do_not_exist() -> None:
    import chatcodec
    import chatcodec.contract
    import chatcodec.datasets

    names = set(_misspelt().values())
    assert {"convert_requets", "encode_requets", "ProviderCodek", "ArrowConverterr"} <= names
    modules = (chatcodec, chatcodec.contract, chatcodec.datasets)
    assert [name for name in names if any(hasattr(module, name) for module in modules)] == []


def _mypy(file: Path, cache: Path) -> tuple[list[str], str]:
    """``mypy --strict``'s error lines on ``file`` (with this repository's configuration), and its output."""
    command = [str(BIN / "mypy"), "--strict", "--cache-dir", str(cache), "--no-pretty", str(file)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    return [line for line in result.stdout.splitlines() if ": error: " in line], result.stdout + result.stderr


def _pyright(file: Path) -> tuple[list[dict[str, Any]], str]:
    """pyright strict's diagnostics on ``file`` (this repository's configuration), and its output."""
    command = [str(BIN / "pyright"), "--pythonversion", "3.11", "--outputjson", str(file)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    diagnostics: list[dict[str, Any]] = json.loads(result.stdout)["generalDiagnostics"]
    return diagnostics, result.stdout


def _line(diagnostic: dict[str, Any]) -> int:
    line: int = diagnostic["range"]["start"]["line"]
    return line + 1


def test_mypy_strict_reports_every_misspelt_name(tmp_path: Path) -> None:
    errors, output = _mypy(TYPOS, tmp_path)
    reported = set(re.findall(r'has no attribute "(\w+)".*\[attr-defined\]$', "\n".join(errors), flags=re.MULTILINE))
    assert reported == set(_misspelt().values()), output
    assert len(errors) == len(_misspelt()), output  # one error each, and none on a correct line


def test_pyright_strict_reports_every_misspelt_name() -> None:
    diagnostics, output = _pyright(TYPOS)
    misspelt = _misspelt()
    unknown = {_line(diagnostic) for diagnostic in diagnostics if diagnostic["rule"] == "reportAttributeAccessIssue"}
    assert unknown == set(misspelt), output
    assert [diagnostic for diagnostic in diagnostics if _line(diagnostic) not in misspelt] == []


def _readme_python(tmp_path: Path) -> Path:
    from doc_blocks import blocks

    code = [block.code for block in blocks(ROOT / "README.md") if block.language == "python" and not block.skip_reason]
    assert code  # the README shows Python, and it is checked
    file = tmp_path / "readme_examples.py"
    file.write_text("\n".join(code), encoding="utf-8")
    return file


def test_the_readme_examples_type_check_clean_under_mypy_strict(tmp_path: Path) -> None:
    errors, output = _mypy(_readme_python(tmp_path), tmp_path / "cache")
    assert errors == [], output


def test_the_readme_examples_type_check_clean_under_pyright_strict(tmp_path: Path) -> None:
    diagnostics, output = _pyright(_readme_python(tmp_path))
    assert diagnostics == [], output


def _public_module_files() -> list[Path]:
    package = ROOT / "src" / "chatcodec"
    return [
        file
        for file in sorted(package.rglob("*.py"))
        if not any(part.startswith("_") for part in file.relative_to(package).with_suffix("").parts[:-1])
        and (file.name == "__init__.py" or not file.name.startswith("_"))
    ]


def test_no_public_module_shows_a_module_getattr_to_type_checkers() -> None:
    # a new lazy public module must hide its __getattr__ too: a visible one makes every name type-check
    shown = [
        str(file.relative_to(ROOT))
        for file in _public_module_files()
        for node in ast.parse(file.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__"
    ]
    hidden = [
        str(file.relative_to(ROOT))
        for file in _public_module_files()
        for node in ast.parse(file.read_text(encoding="utf-8")).body
        if isinstance(node, ast.If)
        and ast.unparse(node.test).replace("_typing.", "") == "not TYPE_CHECKING"
        and any(isinstance(inner, ast.FunctionDef) and inner.name == "__getattr__" for inner in node.body)
    ]
    assert shown == []
    assert sorted(hidden) == [
        "src/chatcodec/__init__.py",
        "src/chatcodec/codec_kit.py",
        "src/chatcodec/contract.py",
        "src/chatcodec/datasets/__init__.py",
        "src/chatcodec/serve/__init__.py",
    ]


@pytest.mark.parametrize(
    "module", ["chatcodec", "chatcodec.contract", "chatcodec.codec_kit", "chatcodec.datasets", "chatcodec.serve"]
)
def test_a_misspelt_name_still_fails_at_run_time(module: str) -> None:
    import importlib

    with pytest.raises(AttributeError, match="has no attribute 'Misspelt'"):
        getattr(importlib.import_module(module), "Misspelt")  # noqa: B009 (the name is the point)
