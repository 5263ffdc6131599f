"""Move a codec's imports to the two namespaces: what a codec is from ``chatcodec.contract``, its
helpers from ``chatcodec.codec_kit`` under the names that say their job.

Contract version 1 exported the helpers from ``chatcodec.contract`` too, some under generic
names (``loads``, ``path``, ``runs``, ``tag``, ``NOW``, ``ID``); those names stay importable
there at run time until the contract's next version (``chatcodec.contract._KEPT_UNTIL_NEXT_VERSION``,
read here; type checkers know them in the kit only). This
rewrites code written against them, for the built-in folders and for a codec outside::

    python tools/codec_kit_names.py                    # src/, tests/, tools/, examples/
    python tools/codec_kit_names.py path/to/my_codec   # an outside codec's package
    python tools/codec_kit_names.py --check            # list what would change, change nothing

In each ``.py`` file: a ``from chatcodec.contract import ...`` (at the top, in a function, under
``TYPE_CHECKING``) is split into the contract's names and the kit's, renamed; an import of a
renamed helper from the private module defining it (``from chatcodec._payloads import loads``)
takes the new name; the module defining it renames it; every use of a renamed name in the file
(``loads(text)``, ``chatcodec._payloads.loads``) follows. A file that binds a renamed name
otherwise too (a parameter called ``path``) is left alone and named, to be done by hand. Run
``ruff format`` and ``ruff check --fix`` afterwards: the new imports are written on one line each,
unsorted. The tables are read from ``contract.py`` and ``codec_kit.py`` with ``ast``; nothing is
imported.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "chatcodec"
CONTRACT, KIT = "chatcodec.contract", "chatcodec.codec_kit"
DEFAULT_PLACES = ("src", "tests", "tools", "examples")


def _type_checking_imports(tree: ast.Module) -> dict[str, str]:
    """``name -> module`` of the imports under the first ``if TYPE_CHECKING:``."""
    block = next(node for node in tree.body if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test))
    return {
        alias.asname or alias.name: node.module or ""
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def _kept_names(tree: ast.Module) -> dict[str, str]:
    """Old name -> kit name: the contract's run-time table ``_KEPT_UNTIL_NEXT_VERSION``, its
    expression evaluated alone (string literals and ``str.split``; nothing is imported)."""
    table = next(
        node.value
        for node in tree.body
        if isinstance(node, ast.AnnAssign | ast.Assign)
        and "_KEPT_UNTIL_NEXT_VERSION"
        in ast.unparse(node.target if isinstance(node, ast.AnnAssign) else node.targets[0])
        and node.value is not None
    )
    kept: dict[str, str] = eval(compile(ast.Expression(table), "contract.py", "eval"), {"__builtins__": {}})
    return kept


@dataclass(frozen=True)
class Tables:
    contract: frozenset[str]
    """The names ``chatcodec.contract`` exports."""
    kept: dict[str, str]
    """An old contract name -> its name in the kit."""
    renamed: dict[tuple[str, str], str]
    """``(defining module, old name) -> new name`` for the helpers renamed where they are defined."""


def read_tables() -> Tables:
    contract = ast.parse((PACKAGE / "contract.py").read_text(encoding="utf-8"))
    kit = _type_checking_imports(ast.parse((PACKAGE / "codec_kit.py").read_text(encoding="utf-8")))
    kept = _kept_names(contract)
    renamed = {(kit[new], old): new for old, new in kept.items() if old != new}
    return Tables(frozenset({*_type_checking_imports(contract), "CONTRACT_VERSION"}), kept, renamed)


def module_of(file: Path) -> str:
    """The dotted module a file under ``src/`` is (``""`` elsewhere)."""
    try:
        parts = file.resolve().relative_to(ROOT / "src").with_suffix("").parts
    except ValueError:
        return ""
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@dataclass
class Rewrite:
    """The edits of one file: ``(line, start, end) -> text`` over its UTF-8 lines (ast's offsets)."""

    edits: dict[tuple[int, int, int, int], str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    """Old -> new for the names this file uses unqualified."""
    problems: list[str] = field(default_factory=list)


def _import_text(node: ast.ImportFrom, groups: dict[str, list[str]]) -> str:
    indent = " " * node.col_offset
    lines = [f"from {module} import {', '.join(names)}" for module, names in groups.items() if names]
    return f"\n{indent}".join(lines)


def _alias_text(alias: ast.alias, name: str) -> str:
    return f"{name} as {alias.asname}" if alias.asname and alias.asname != name else name


def _span(node: ast.AST) -> tuple[int, int, int, int]:
    return (node.lineno, node.col_offset, node.end_lineno or node.lineno, node.end_col_offset or 0)


def _imports(tree: ast.Module, tables: Tables, rewrite: Rewrite, own_module: str) -> None:
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level:
            continue
        module = node.module or ""
        if module == CONTRACT:
            groups: dict[str, list[str]] = {CONTRACT: [], KIT: []}
            for alias in node.names:
                if alias.name in tables.contract:
                    groups[CONTRACT].append(_alias_text(alias, alias.name))
                elif alias.name in tables.kept:
                    new = tables.kept[alias.name]
                    groups[KIT].append(_alias_text(alias, new))
                    if alias.asname is None and new != alias.name:
                        rewrite.names[alias.name] = new
                else:  # not a name of either: left for the type checker to name
                    groups[CONTRACT].append(_alias_text(alias, alias.name))
            if groups[KIT]:
                rewrite.edits[_span(node)] = _import_text(node, groups)
        elif any((module, alias.name) in tables.renamed for alias in node.names) and module != own_module:
            names = []
            for alias in node.names:
                new = tables.renamed.get((module, alias.name), alias.name)
                names.append(_alias_text(alias, new))
                if alias.asname is None and new != alias.name:
                    rewrite.names[alias.name] = new
            rewrite.edits[_span(node)] = _import_text(node, {module: names})


def _definitions(tree: ast.Module, tables: Tables, rewrite: Rewrite, own_module: str) -> None:
    """The module defining a renamed helper renames it (the definition is edited with its uses)."""
    for (module, old), new in tables.renamed.items():
        if module == own_module:
            rewrite.names[old] = new


def _other_bindings(tree: ast.Module, names: dict[str, str]) -> Iterator[str]:
    """Bindings of a renamed name that are not the import or the top-level definition."""
    top = {id(node) for node in tree.body}
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.arg in names:
            yield f"line {node.lineno}: a parameter {node.arg}"
        elif isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef) and node.name in names:
            if id(node) not in top:
                yield f"line {node.lineno}: a nested definition {node.name}"
        elif isinstance(node, ast.Name) and node.id in names and isinstance(node.ctx, ast.Store):
            parent_is_top = any(
                isinstance(statement, ast.Assign | ast.AnnAssign) and node in ast.walk(statement)
                for statement in tree.body
            )
            if not parent_is_top:
                yield f"line {node.lineno}: {node.id} assigned"


def _uses(tree: ast.Module, tables: Tables, rewrite: Rewrite) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in rewrite.names:
            rewrite.edits[_span(node)] = rewrite.names[node.id]
        elif isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name in rewrite.names:
            line = node.lineno  # the ``def`` line (a decorator has its own)
            keyword = "class " if isinstance(node, ast.ClassDef) else "def "
            start = node.col_offset + len(keyword)
            rewrite.edits[(line, start, line, start + len(node.name))] = rewrite.names[node.name]
        elif isinstance(node, ast.Attribute):
            new = tables.renamed.get((ast.unparse(node.value), node.attr))
            if new is not None:
                end_line, end = node.end_lineno or node.lineno, node.end_col_offset or 0
                rewrite.edits[(end_line, end - len(node.attr), end_line, end)] = new


def rewrite_text(text: str, tables: Tables, own_module: str = "") -> tuple[str, list[str]]:
    """``text`` with its imports and renamed names moved; the problems that stopped it."""
    tree = ast.parse(text)
    rewrite = Rewrite()
    _imports(tree, tables, rewrite, own_module)
    _definitions(tree, tables, rewrite, own_module)
    clashes = list(_other_bindings(tree, rewrite.names))
    if clashes:
        return text, [*rewrite.problems, *clashes]
    _uses(tree, tables, rewrite)
    if rewrite.problems:
        return text, rewrite.problems
    lines = [line.encode() for line in text.splitlines(keepends=True)]
    for (line, start, end_line, end), new in sorted(rewrite.edits.items(), reverse=True):
        head, tail = lines[line - 1][:start], lines[end_line - 1][end:]
        lines[line - 1 : end_line] = [head + new.encode() + tail]
    return b"".join(lines).decode(), []


def python_files(places: list[Path]) -> Iterator[Path]:
    for place in places:
        if place.is_file():
            yield place
        else:
            yield from (file for file in sorted(place.rglob("*.py")) if ".venv" not in file.parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("places", nargs="*", type=Path, help=f"files or folders (default: {', '.join(DEFAULT_PLACES)})")
    parser.add_argument("--check", action="store_true", help="name the files that would change, change nothing")
    arguments = parser.parse_args()
    tables = read_tables()
    places = arguments.places or [ROOT / place for place in DEFAULT_PLACES]
    changed, failed = [], False
    for file in python_files(places):
        if file.resolve() in {
            (PACKAGE / "contract.py").resolve(),
            (PACKAGE / "codec_kit.py").resolve(),
            Path(__file__),
        }:
            continue
        text = file.read_text(encoding="utf-8")
        new, problems = rewrite_text(text, tables, module_of(file))
        for problem in problems:
            print(f"{file}: {problem} (left alone: move it by hand)", file=sys.stderr)
            failed = True
        if new != text:
            changed.append(file)
            if not arguments.check:
                file.write_text(new, encoding="utf-8")
    for file in changed:
        print(file)
    return 1 if failed or (arguments.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
