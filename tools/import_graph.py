"""Measure chatcodec's module import graph: its import cycles and its upward imports.

Run it from the repository root (``python tools/import_graph.py``) or point it at another
checkout's source folder (``python tools/import_graph.py /work/main/src``); add
``--list`` to print every cycle and every upward import, not only the counts.

What it reads: every ``import`` statement of every module under ``<src>/chatcodec``, by
``ast`` only (nothing is imported). Each import is one of three kinds, counted apart:

``top level``      runs when the module is imported (a class body counts as top level)
``in functions``   runs when the function is first called (an import delayed to dodge a circle)
``TYPE_CHECKING``  read by type checkers only (``if TYPE_CHECKING:``)

``import a.b.c`` and ``from a.b import c`` are edges to ``a.b.c`` when that is a module,
else to the nearest module above it. The parent packages Python also initialises on the
way are not edges (as grimp and import-linter count them), so a package ``__init__``
that re-exports its modules does not make every module of the package a circle.

Cycles are the strongly connected components of more than one module, counted three
times: over top-level imports, then adding the imports in functions, then adding the
``TYPE_CHECKING`` ones. An import is *upward* when it goes against the layer order of
issue 20, lowest first: vocabulary -> core validation -> kit -> providers -> readers
(dialects, sdk_objects) -> API -> CLI (:data:`LAYERS` says which module is where; the
registry of codecs is at the providers' level, below the readers that use it). An import
from one provider folder into another is counted too (CONTRIBUTING.md forbids it).
Standard library only, so it runs before anything is installed.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "chatcodec"
KINDS = ("top level", "in functions", "TYPE_CHECKING")

LAYER_NAMES = ("vocabulary", "core validation", "kit", "providers", "readers", "API", "CLI")
LAYERS: dict[str, str] = {
    "chatcodec.validation": "core validation",
    "chatcodec.canonical_validation": "core validation",
    "chatcodec.providers.kit": "kit",
    "chatcodec.providers.provider_codec": "providers",
    "chatcodec.providers.kit.context": "providers",
    "chatcodec.providers.claude": "providers",
    "chatcodec.providers": "providers",
    "chatcodec.registry": "providers",
    "chatcodec.canonical_codec": "providers",
    "chatcodec.dialects": "readers",
    "chatcodec.dialect_state": "readers",
    "chatcodec.dialect_tools": "readers",
    "chatcodec.sdk_objects": "readers",
    "chatcodec.detect": "readers",
    "chatcodec.documents": "readers",
    "chatcodec.stream_input": "readers",
    "chatcodec": "API",
    "chatcodec.api": "API",
    "chatcodec.batch": "API",
    "chatcodec.batch_converter": "API",
    "chatcodec.parallel": "API",
    "chatcodec.conversation": "API",
    "chatcodec.schema": "API",
    "chatcodec._portable_schema": "API",
    "chatcodec.testing": "API",
    "chatcodec.serve": "API",
    "chatcodec.cli": "CLI",
    "chatcodec.cli_convert": "CLI",
    "chatcodec.__main__": "CLI",
    "chatcodec.progress": "CLI",
    "chatcodec.exit_codes": "CLI",
}
"""A module's layer is that of the longest name here that is it or a package above it
(``chatcodec`` itself names only the package's ``__init__``); every other ``chatcodec``
module is vocabulary (the canonical models and their helpers)."""


@dataclass(frozen=True, slots=True)
class Import:
    """One import statement's edge."""

    source: str
    target: str
    kind: str
    line: int


def module_names(src: Path) -> dict[str, Path]:
    """Every module under ``src/chatcodec`` by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for file in sorted((src / PACKAGE).rglob("*.py")):
        parts = file.relative_to(src).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = file
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(body: Iterable[ast.stmt], kind: str) -> Iterator[tuple[ast.stmt, str]]:
    """Every statement with the kind of import it would be, walking into blocks."""
    for statement in body:
        yield statement, kind
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            inner = "TYPE_CHECKING" if kind == "TYPE_CHECKING" else "in functions"
            yield from _statements(statement.body, inner)
        elif isinstance(statement, ast.If) and _is_type_checking(statement.test):
            yield from _statements(statement.body, "TYPE_CHECKING")
            yield from _statements(statement.orelse, kind)
        else:
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                for child in getattr(statement, field, ()):
                    if isinstance(child, ast.ExceptHandler | ast.match_case):
                        yield from _statements(child.body, kind)
                    elif isinstance(child, ast.stmt):
                        yield from _statements([child], kind)


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The module ``name`` names, or the nearest module above it; None outside chatcodec."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _targets(statement: ast.stmt, source: str, is_package: bool) -> Iterator[str]:
    if isinstance(statement, ast.Import):
        yield from (alias.name for alias in statement.names)
    elif isinstance(statement, ast.ImportFrom):
        base = statement.module or ""
        if statement.level:
            package = source if is_package else source.rpartition(".")[0]
            for _ in range(statement.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{base}" if base else package
        for alias in statement.names:
            yield f"{base}.{alias.name}"


def imports(modules: dict[str, Path]) -> list[Import]:
    """Every edge between two chatcodec modules, with its kind and line."""
    edges: dict[Import, None] = {}  # one edge per statement and target, in order
    for source, file in modules.items():
        tree = ast.parse(file.read_text(encoding="utf-8"), str(file))
        for statement, kind in _statements(tree.body, "top level"):
            for name in _targets(statement, source, file.name == "__init__.py"):
                target = _resolve(name, modules)
                if target is not None and target != source:
                    edges[Import(source, target, kind, statement.lineno)] = None
    return list(edges)


def cycles(nodes: Iterable[str], edges: Iterable[Import]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    graph: dict[str, set[str]] = {node: set() for node in nodes}
    for edge in edges:
        graph[edge.source].add(edge.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root, targets in graph.items():
        if root in index:
            continue
        work = [(root, iter(sorted(targets)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = _pop_component(stack, on_stack, node)
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return sorted(found, key=lambda component: (-len(component), component))


def _pop_component(stack: list[str], on_stack: set[str], root: str) -> list[str]:
    component: list[str] = []
    while True:
        node = stack.pop()
        on_stack.discard(node)
        component.append(node)
        if node == root:
            return component


def layer(module: str) -> int:
    """The rank of ``module``'s layer in :data:`LAYER_NAMES`."""
    if module == PACKAGE:  # the package's own __init__ (the public names); not a prefix
        return LAYER_NAMES.index(LAYERS[PACKAGE])
    name = module
    while name != PACKAGE:
        if name in LAYERS:
            return LAYER_NAMES.index(LAYERS[name])
        name = name.rpartition(".")[0]
    return 0


def provider_folder(module: str) -> str | None:
    """The provider folder ``module`` is in (``openai_chat``), or None."""
    parts = module.split(".")
    if len(parts) > 3 and parts[1] == "providers" and parts[2] != "kit":
        return parts[2]
    return None


def upward(edges: Iterable[Import]) -> list[Import]:
    """The imports from a lower layer into a higher one."""
    return [edge for edge in edges if layer(edge.target) > layer(edge.source)]


def across_providers(edges: Iterable[Import]) -> list[Import]:
    """The imports from one provider folder into another."""
    return [
        edge
        for edge in edges
        if None not in (provider_folder(edge.source), provider_folder(edge.target))
        and provider_folder(edge.source) != provider_folder(edge.target)
    ]


def _by_kind(edges: list[Import]) -> str:
    counts = [sum(edge.kind == kind for edge in edges) for kind in KINDS]
    return ", ".join(f"{kind} {count}" for kind, count in zip(KINDS, counts, strict=True))


def report(src: Path, listing: bool) -> list[str]:
    """The summary lines for the source folder ``src``."""
    modules = module_names(src)
    edges = imports(modules)
    lines = [f"{src}: {len(modules)} modules, {len(edges)} imports ({_by_kind(edges)})", "cycles:"]
    for count in range(1, len(KINDS) + 1):
        kinds = KINDS[:count]
        found = cycles(modules, [edge for edge in edges if edge.kind in kinds])
        sizes = ", ".join(str(len(component)) for component in found) or "-"
        lines.append(f"  {' + '.join(kinds):<40} {len(found)} (modules in each: {sizes})")
        if listing and count == len(KINDS):
            lines.extend(f"    {' '.join(component)}" for component in found)
    order = " -> ".join(LAYER_NAMES)
    for title, found_edges in (
        (f"upward imports (against {order})", upward(edges)),
        ("imports from one provider folder into another", across_providers(edges)),
    ):
        lines.append(f"{title}: {len(found_edges)} ({_by_kind(found_edges)})")
        if listing:
            lines.extend(
                f"    {edge.source}:{edge.line} -> {edge.target} ({edge.kind})"
                for edge in sorted(found_edges, key=lambda edge: (edge.source, edge.line))
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0] if __doc__ else None)
    parser.add_argument("src", nargs="?", default="src", type=Path, help="the folder holding chatcodec/ (src)")
    parser.add_argument("--list", action="store_true", help="print every cycle and upward import")
    arguments = parser.parse_args(argv)
    print("\n".join(report(arguments.src, arguments.list)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
