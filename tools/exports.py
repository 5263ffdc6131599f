"""Keep each lazy public module's one export list: its ``TYPE_CHECKING`` imports.

``chatcodec/__init__.py``, ``chatcodec/contract.py``, ``chatcodec/codec_kit.py`` and
``chatcodec/serve/__init__.py`` load their names on first access (PEP 562), so each needs
three things: the imports under ``if TYPE_CHECKING:`` (what type checkers and readers see:
every public name and the module it comes from), ``__all__`` (a literal list, the only
form pyright and mypy read) and ``_EXPORTED_FROM`` (the table ``__getattr__`` imports
from, written one entry a module: the module and its names). The
imports are the one list; this tool writes the other two from them::

    python tools/exports.py          # rewrite __all__ and _EXPORTED_FROM
    python tools/exports.py --check  # fail when either has drifted (tests/test_public_api.py)

Standard library only: it reads the source with ``ast`` and imports nothing.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = (
    "src/chatcodec/__init__.py",
    "src/chatcodec/contract.py",
    "src/chatcodec/codec_kit.py",
    "src/chatcodec/serve/__init__.py",
)


def sort_key(name: str) -> tuple[int, str]:
    """Constants, then classes, then functions: the order ruff's RUF022 keeps."""
    group = 0 if name.isupper() else 1 if name[0].isupper() else 2
    return group, name


def exported_from(tree: ast.Module) -> dict[str, str]:
    """``name -> module`` of the imports under ``if TYPE_CHECKING:``."""
    block = next(
        node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")
    )
    return {
        alias.asname or alias.name: node.module or ""
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def _assignment(tree: ast.Module, target: str) -> ast.stmt:
    for node in tree.body:
        names = [t.id for t in node.targets if isinstance(t, ast.Name)] if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        if target in names:
            return node
    raise LookupError(f"no {target} assignment")


def defined_here(tree: ast.Module) -> set[str]:
    """The public names the module assigns itself (``CONTRACT_VERSION``): in ``__all__``,
    not in the lazy table."""
    targets = [node.target for node in tree.body if isinstance(node, ast.AnnAssign)]
    targets += [target for node in tree.body if isinstance(node, ast.Assign) for target in node.targets]
    return {target.id for target in targets if isinstance(target, ast.Name) and not target.id.startswith("_")}


_WIDTH = 120
"""The line length ruff keeps (pyproject.toml)."""


def _module_entry(module: str, members: list[str]) -> str:
    """One ``(module, "its names")`` row of the lazy table, as ruff formats it: on one line
    when it fits, else the names as a run of strings of at most the line's width."""
    one_line = f'        ("{module}", "{" ".join(members)}"),\n'
    if len(one_line) <= _WIDTH + 1:
        return one_line
    joined = f'            "{" ".join(members)}",'
    if len(joined) <= _WIDTH:  # ruff joins the strings of a run that fits on one line
        return f'        (\n            "{module}",\n{joined}\n        ),\n'
    chunks: list[str] = []
    current = ""
    for member in members:
        if current and len(current) + len(member) + 1 > _WIDTH - 16:
            chunks.append(current)
            current = ""
        current += f"{member} "
    chunks.append(current.rstrip())
    strings = "".join(f'            "{chunk}"\n' for chunk in chunks)
    return f'        (\n            "{module}",\n{strings.rstrip(chr(10))},\n        ),\n'


def render(text: str) -> str:
    """``text`` with ``__all__`` and ``_EXPORTED_FROM`` written from its imports (and the
    public names it defines itself, for ``__all__``)."""
    tree = ast.parse(text)
    table = exported_from(tree)
    names = sorted({*table, *defined_here(tree)}, key=sort_key)
    by_module: dict[str, list[str]] = {}
    for name in names:
        if name in table:
            by_module.setdefault(table[name], []).append(name)
    lines = text.splitlines(keepends=True)
    blocks = {
        "__all__": "__all__ = [\n" + "".join(f'    "{name}",\n' for name in names) + "]\n",
        "_EXPORTED_FROM": "_EXPORTED_FROM: dict[str, str] = {\n    name: module\n    for module, names in (\n"
        + "".join(_module_entry(module, sorted(members, key=sort_key)) for module, members in by_module.items())
        + "    )\n    for name in names.split()\n}\n",
    }
    spans = sorted(((_assignment(tree, target), block) for target, block in blocks.items()), key=lambda s: -s[0].lineno)
    for node, block in spans:
        end = node.end_lineno or node.lineno
        lines[node.lineno - 1 : end] = [block]
    return "".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="fail when a list has drifted")
    arguments = parser.parse_args()
    drifted = []
    for module in MODULES:
        path = ROOT / module
        text = path.read_text(encoding="utf-8")
        new = render(text)
        if new != text:
            drifted.append(module)
            if not arguments.check:
                path.write_text(new, encoding="utf-8")
    if drifted and arguments.check:
        print(f"drifted (run python tools/exports.py): {', '.join(drifted)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
