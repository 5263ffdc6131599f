"""Measure chatcodec's module import graph: its import cycles and its upward imports.

Run it from the repository root (``python tools/import_graph.py``) or point it at another
checkout's source folder (``python tools/import_graph.py /work/main/src``); add
``--list`` to print every cycle and every upward import, not only the counts.

``--walk`` traces ``convert_request`` (openai-chat -> anthropic) over the OpenAI Chat request
fixtures instead and counts its *climbs back*: a call from one module into another that
imports the caller (:func:`climbs_back`), against the graph this tool draws. This one imports
chatcodec from the source folder; the graph itself is read by ``ast`` only.

This module is the one implementation of the graph and the one table of layers
(:data:`PLACES`): the layering law, ``tests/test_layers.py``, imports it, so the tool's
counts and the law's verdict cannot disagree.

What it reads: every ``import`` statement of every module under ``<src>/chatcodec``, by
``ast`` only (nothing is imported but for ``--walk``). Each import is one of three kinds, counted apart:

``top level``      runs when the module is imported (a class body counts as top level)
``in functions``   runs when the function is first called (an import delayed to dodge a circle)
``TYPE_CHECKING``  read by type checkers only (``if TYPE_CHECKING:``)

A codec names its edge and structure roles by dotted name
(``ProviderCodec(edge="chatcodec._providers.x.edge")``), imported on first read, and a
folder's ``markers.ROLES`` names the modules that play its roles from elsewhere (``"parts":
"chatcodec._providers.families.aws.parts"``), imported when ``ProviderCodec.from_package``
builds the codec: both count as imports in functions (:data:`LAZY_ROLES`).

``import a.b.c`` and ``from a.b import c`` are edges to ``a.b.c`` when that is a module,
else to the nearest module above it. The parent packages Python also initialises on the
way are not edges (as grimp and import-linter count them), so a package ``__init__``
that re-exports its modules does not make every module of the package a circle.

Cycles are the strongly connected components of more than one module, counted three
times: over top-level imports, then adding the imports in functions, then adding the
``TYPE_CHECKING`` ones; none over all kinds may hold more than :data:`LARGEST_CIRCLE`
modules. An import is *upward* when it goes against the layer order (CONTRIBUTING.md),
lowest first: vocabulary -> core validation -> kit -> providers -> readers ->
API -> CLI (:data:`PLACES` says which module is where). An import from one provider
folder into another is counted too (CONTRIBUTING.md forbids it).
Standard library only, so it runs before anything is installed (``--walk`` needs chatcodec's
dependencies).
"""

from __future__ import annotations

import argparse
import ast
import functools
import json
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

PACKAGE = "chatcodec"
KINDS = ("top level", "in functions", "TYPE_CHECKING")

LAYER_NAMES = ("vocabulary", "core validation", "kit", "providers", "readers", "API", "CLI")
"""Lowest first: a module imports its own layer and earlier ones only."""

PLACES: tuple[tuple[str, str], ...] = (
    # (layer, module paths under src/chatcodec; the first line a module matches places it;
    #  ``*`` stays inside one directory, ``**`` spans any depth)
    ("vocabulary", "_model/**"),  # the canonical models and their JSON as TypedDicts (canonical_types: generated)
    ("vocabulary", "_narrow.py _compat.py _errors.py _error_statuses.py _losses.py _payloads.py _public_label.py"),
    ("vocabulary", "_extras.py _text_memory.py"),  # the optional dependencies, and how to install one that is missing
    ("vocabulary", "options.py _option_table.py"),  # the encoders' options: typed for callers, and their one check
    ("core validation", "_canonical_validation.py"),
    ("kit", "_providers/__init__.py _providers/contract/** _providers/kit/**"),  # the codec contract; mechanics
    ("kit", "_providers/families/** _providers/history/**"),  # a vendor's facts shared by folders; history rules
    (
        "kit",
        "_codec_protocols.py _registry.py _installed_codecs.py _codec_options.py _detect.py streams/__init__.py "
        "_first_names.py streams/_builder.py streams/_builder_records.py streams/_part_builder.py "
        "streams/_sse.py streams/_event_stream.py streams/_framing.py contract.py codec_kit.py",
    ),  # the codec interface, the stream path, SSE framing; the format markers; the public codec contract and kit
    ("readers", "_providers/*/convenience.py"),  # a provider's helpers over the boundary
    ("providers", "_providers/*/**"),
    ("providers", "_frameworks/**"),  # agent frameworks' stored histories: codecs on the public contract
    (
        "readers",
        "_dialects/** _validation.py _sdk_objects.py _content_rule.py _canonical_codec.py _boundary_messages.py",
    ),
    (
        "readers",
        "_rendering.py streams/_input.py streams/_replay.py _strict/** _error_shapes.py _conversion.py "
        "_harness_roles.py",
    ),  # strict: the boundary checks; conversion: the one request path, through get_codec; a harness's roles read
    ("readers", "_direct/**"),  # direct paths: a pair's two folders' functions, the canonical path their fallback
    (
        "readers",
        "_row_dialects/**",
    ),  # the rows datasets keep conversations in: below batch/ and _training/, both read them
    ("API", "__init__.py _api.py _conversation.py streams/_accumulator.py batch/**"),
    ("API", "_row_dialects/**"),  # other projects' records of a conversation: dataset rows, harness session files
    ("API", "_schema.py _portable_schema.py testing/** streams/_convert.py _warm.py"),
    ("API", "datasets/**"),  # the columnar form and the engines' batch helpers
    ("API", "_training/**"),  # the training boundary: templates, profiles, render, parsers, on the public API
    ("CLI", "__main__.py cli/** serve/**"),
)
"""Every module's layer, by its path under ``src/chatcodec``: the one table of layers."""


def _pattern(glob: str) -> re.Pattern[str]:
    escaped = re.escape(glob).replace(r"\*\*", ".*").replace(r"\*", "[^/]*")
    return re.compile(escaped + r"\Z")


_PATTERNS = [(layer, _pattern(glob)) for layer, globs in PLACES for glob in globs.split()]


def layer_of(path: str) -> str | None:
    """The layer of a module given by its path under ``chatcodec/`` (``_providers/kit/bags.py``),
    None for a module no line of :data:`PLACES` places."""
    return next((layer for layer, pattern in _PATTERNS if pattern.match(path)), None)


SHARED_PACKAGES = frozenset({"contract", "families", "history", "kit"})
"""The packages under ``_providers/`` that are no provider folder: every folder may import them."""


def provider_of(path: str) -> str | None:
    """The provider folder a module belongs to (``anthropic``), None outside one."""
    parts = path.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "_providers" and parts[1] not in SHARED_PACKAGES else None


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


def module_paths(src: Path) -> dict[str, str]:
    """Dotted name -> path under ``src/chatcodec`` (``chatcodec._providers.kit`` ->
    ``_providers/kit/__init__.py``), the spelling :data:`PLACES` uses."""
    root = src / PACKAGE
    return {name: file.relative_to(root).as_posix() for name, file in module_names(src).items()}


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


LAZY_ROLES = frozenset({"edge", "structure"})
"""The ``ProviderCodec`` arguments a codec may give as a module's dotted name,
imported on the role's first read (a conversion reads neither): counted as imports in
functions, since that is what they are."""


def _lazy_roles(tree: ast.Module) -> Iterator[tuple[str, int]]:
    """Every ``edge="chatcodec...."`` / ``structure="..."`` keyword of a call, and every
    module a ``ROLES = {...}`` table names (``"module"`` or ``"module:attribute"``), with its line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                value = keyword.value
                if keyword.arg in LAZY_ROLES and isinstance(value, ast.Constant) and isinstance(value.value, str):
                    yield value.value, keyword.lineno
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict) and _names_roles(node):
            for value in node.value.values:
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    yield value.value.partition(":")[0], value.lineno


def _names_roles(node: ast.Assign) -> bool:
    return any(isinstance(target, ast.Name) and target.id == "ROLES" for target in node.targets)


def _lazy_tables(modules: dict[str, Path]) -> dict[str, dict[str, str]]:
    """Each lazy public module's ``_EXPORTED_FROM`` (``chatcodec``, ``chatcodec.contract``, ``chatcodec.codec_kit``):
    name -> the module its ``__getattr__`` imports it from."""
    tables: dict[str, dict[str, str]] = {}
    for name in (PACKAGE, f"{PACKAGE}.contract", f"{PACKAGE}.codec_kit"):
        if name not in modules:
            continue
        for node in ast.parse(modules[name].read_text(encoding="utf-8")).body:
            target = node.target if isinstance(node, ast.AnnAssign) else None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
            value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
            if isinstance(target, ast.Name) and target.id == "_EXPORTED_FROM" and isinstance(value, ast.DictComp):
                rows = ast.literal_eval(value.generators[0].iter)  # ((module, "its names"), ...): tools/exports.py
                tables[name] = {member: module for module, members in rows for member in members.split()}
    return tables


def _through(name: str, tables: dict[str, dict[str, str]]) -> str:
    """``chatcodec.ValidationError`` -> ``chatcodec._errors.ValidationError``: a name taken
    from a lazy public module is an import of the module that defines it, which is all its
    ``__getattr__`` imports (the package itself is initialised on the way to any module)."""
    module, _, leaf = name.rpartition(".")
    found = tables.get(module, {}).get(leaf)
    return f"{found}.{leaf}" if found else name


def imports(modules: dict[str, Path]) -> list[Import]:
    """Every edge between two chatcodec modules, with its kind and line (a name from a lazy
    public module counts as an import of the module defining it: :func:`_through`)."""
    edges: dict[Import, None] = {}  # one edge per statement and target, in order
    tables = _lazy_tables(modules)
    for source, file in modules.items():
        tree = ast.parse(file.read_text(encoding="utf-8"), str(file))
        found = [
            (name, kind, statement.lineno)
            for statement, kind in _statements(tree.body, "top level")
            for name in _targets(statement, source, file.name == "__init__.py")
        ]
        found += [(name, "in functions", line) for name, line in _lazy_roles(tree)]
        for name, kind, line in found:
            target = _resolve(name if source in tables else _through(name, tables), modules)
            if target is not None and target != source:
                edges[Import(source, target, kind, line)] = None
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


def unplaced(paths: dict[str, str]) -> list[str]:
    """The modules no line of :data:`PLACES` places (by path)."""
    return sorted(path for path in paths.values() if layer_of(path) is None)


def upward(edges: Iterable[Import], paths: dict[str, str]) -> list[Import]:
    """The imports from a lower layer into a higher one (``paths``: :func:`module_paths`)."""
    found: list[Import] = []
    for edge in edges:
        source, target = layer_of(paths[edge.source]), layer_of(paths[edge.target])
        if source is not None and target is not None and LAYER_NAMES.index(target) > LAYER_NAMES.index(source):
            found.append(edge)
    return found


def across_providers(edges: Iterable[Import], paths: dict[str, str]) -> list[Import]:
    """The imports from one provider folder into another."""
    found: list[Import] = []
    for edge in edges:
        source, target = provider_of(paths[edge.source]), provider_of(paths[edge.target])
        if source is not None and target is not None and source != target:
            found.append(edge)
    return found


def spanning_layers(components: Iterable[list[str]], paths: dict[str, str]) -> list[list[str]]:
    """The circles whose modules sit in more than one layer (or more than one provider folder)."""
    return [
        component
        for component in components
        if len({layer_of(paths[name]) for name in component}) > 1
        or len({provider_of(paths[name]) for name in component}) > 1
    ]


LARGEST_CIRCLE = 3
"""The most modules an import circle (every kind of import counted) may hold: a pair or three
modules of one folder that name each other (a TYPE_CHECKING annotation, a lazy import back) is
a local knot; a longer circle ties separate jobs together, so none can be read or loaded alone."""


def too_large(components: Iterable[list[str]]) -> list[list[str]]:
    """The circles of more than :data:`LARGEST_CIRCLE` modules."""
    return [component for component in components if len(component) > LARGEST_CIRCLE]


def _by_kind(edges: list[Import]) -> str:
    counts = [sum(edge.kind == kind for edge in edges) for kind in KINDS]
    return ", ".join(f"{kind} {count}" for kind, count in zip(KINDS, counts, strict=True))


def report(src: Path, listing: bool) -> list[str]:
    """The summary lines for the source folder ``src``."""
    modules = module_names(src)
    paths = module_paths(src)
    edges = imports(modules)
    lines = [f"{src}: {len(modules)} modules, {len(edges)} imports ({_by_kind(edges)})", "cycles:"]
    for count in range(1, len(KINDS) + 1):
        kinds = KINDS[:count]
        found = cycles(modules, [edge for edge in edges if edge.kind in kinds])
        sizes = ", ".join(str(len(component)) for component in found) or "-"
        lines.append(f"  {' + '.join(kinds):<40} {len(found)} (modules in each: {sizes})")
        if listing and count == len(KINDS):
            lines.extend(f"    {' '.join(component)}" for component in found)
    spanning = spanning_layers(cycles(modules, edges), paths)
    lines.append(f"  {'spanning layers (all kinds)':<40} {len(spanning)}")
    lines.append(
        f"  {f'of more than {LARGEST_CIRCLE} modules (all kinds)':<40} {len(too_large(cycles(modules, edges)))}"
    )
    missing = unplaced(paths)
    lines.append(f"modules in no layer (add them to PLACES): {len(missing)}")
    if listing:
        lines.extend(f"    {path}" for path in missing)
    order = " -> ".join(LAYER_NAMES)
    for title, found_edges in (
        (f"upward imports (against {order})", upward(edges, paths)),
        ("imports from one provider folder into another", across_providers(edges, paths)),
    ):
        lines.append(f"{title}: {len(found_edges)} ({_by_kind(found_edges)})")
        if listing:
            lines.extend(
                f"    {edge.source}:{edge.line} -> {edge.target} ({edge.kind})"
                for edge in sorted(found_edges, key=lambda edge: (edge.source, edge.line))
            )
    return lines


FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "openai-chat" / "request"
"""The request bodies :func:`walk` converts: every OpenAI Chat request fixture."""


def trace(src: Path, calls: Iterable[Callable[[], object]]) -> tuple[list[str], list[tuple[str, str]]]:
    """The chatcodec modules ``calls`` call into, in the order first entered, and their steps from
    one module into another (caller, callee). Each call runs once untraced first (it imports).

    This imports chatcodec from ``src`` (the rest of this tool only reads the source); run it
    in a process of its own, before anything else imports chatcodec."""
    sys.path.insert(0, str(src.resolve()))
    import chatcodec  # from ``src``, only when a walk is asked for

    root = Path(chatcodec.__file__).parent
    named: dict[str, str | None] = {}

    def module(frame: FrameType) -> str | None:
        file = frame.f_code.co_filename
        if file not in named:
            path = Path(file)
            parts = path.relative_to(root.parent).with_suffix("").parts if path.is_relative_to(root) else ()
            named[file] = ".".join(parts[:-1] if parts[-1:] == ("__init__",) else parts) or None
        return named[file]

    entered: dict[str, None] = {}
    steps: dict[tuple[str, str], None] = {}

    def profile(frame: FrameType, event: str, _argument: object) -> None:
        callee = module(frame) if event == "call" else None
        if callee is None:
            return
        entered[callee] = None
        outer = frame.f_back
        while outer is not None and module(outer) is None:  # through a library's frames (pydantic)
            outer = outer.f_back
        caller = module(outer) if outer is not None else None
        if caller is not None and caller != callee:
            steps[(caller, callee)] = None

    for call in calls:
        call()
        sys.setprofile(profile)
        try:
            call()
        finally:
            sys.setprofile(None)
    return list(entered), list(steps)


def walk(src: Path, bodies: Path = FIXTURES) -> tuple[list[str], list[tuple[str, str]]]:
    """The modules ``chatcodec.convert_request`` (openai-chat -> anthropic) calls into over
    every body under ``bodies``, and its steps from one module into another (:func:`trace`)."""
    sys.path.insert(0, str(src.resolve()))
    import chatcodec  # from ``src``, only when a walk is asked for

    convert = functools.partial(chatcodec.convert_request, source="openai-chat", target="anthropic", on_loss="ignore")
    payloads = [json.loads(body.read_text(encoding="utf-8")) for body in sorted(bodies.glob("*.json"))]
    return trace(src, [functools.partial(convert, payload) for payload in payloads])


def climbs_back(steps: Iterable[tuple[str, str]], edges: Iterable[Import]) -> list[tuple[str, str]]:
    """The steps of a walk into a module that imports its caller, directly or through other
    modules (every kind of import): a call against the import order, as an upward import goes
    against the layer order. A clean walk calls down what the caller imports."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)

    def reaches(start: str, goal: str) -> bool:
        seen, todo = {start}, [start]
        while todo:
            for target in graph.get(todo.pop(), ()):
                if target == goal:
                    return True
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        return False

    return [(caller, callee) for caller, callee in steps if reaches(callee, caller)]


def walk_report(src: Path, listing: bool) -> list[str]:
    """The summary of :func:`walk` over ``src``: modules walked, steps, climbs back."""
    entered, steps = walk(src)
    back = climbs_back(steps, imports(module_names(src)))
    lines = [
        f"convert_request walk (openai-chat -> anthropic, {len(list(FIXTURES.glob('*.json')))} bodies): "
        f"{len(entered)} modules, {len(steps)} steps between modules, {len(back)} climbs back"
    ]
    lines.extend(f"    {caller} -> {callee}" for caller, callee in back)
    if listing:
        lines.extend(f"  walked: {name}" for name in entered)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0] if __doc__ else None)
    parser.add_argument("src", nargs="?", default="src", type=Path, help="the folder holding chatcodec/ (src)")
    parser.add_argument("--list", action="store_true", help="print every cycle and upward import")
    parser.add_argument(
        "--walk", action="store_true", help="trace convert_request (openai-chat -> anthropic): its climbs back"
    )
    arguments = parser.parse_args(argv)
    lines = walk_report(arguments.src, arguments.list) if arguments.walk else report(arguments.src, arguments.list)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
