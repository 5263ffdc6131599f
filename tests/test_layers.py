"""The import layering law (issue 20, item 3 and "Done when"), read with ``ast`` from the source.

chatcodec is drawn in seven layers, lowest first::

    vocabulary -> core validation -> kit -> providers -> readers -> API -> CLI

A module may import its own layer and the layers before it, never a later one; and no
provider imports another provider (each ``providers/<name>/`` folder is sealed: providers
meet only through the kit and the registry). :data:`PLACES` puts every module in a layer,
one line per group of modules; a new module matching no line fails
:func:`test_every_module_has_a_layer` until it is placed.

Every import counts: at the top of a module, inside a function (a lazy import is still a
dependency, taken on first use), and under ``if TYPE_CHECKING:`` (a type names a module
the reader has to know; the ones there today point down or sideways, so no exception is
needed). An import of a package's ``__init__`` is an import of that package's module.
What the AST does not see: the registry imports codecs by name (``importlib``), which is
the one door from the readers and the API down to the providers.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import chatcodec

SOURCE = Path(chatcodec.__file__).parent
"""The package under test (the worktree's ``src/chatcodec`` when ``src`` comes first on the path)."""

LAYERS = ("vocabulary", "core validation", "kit", "providers", "readers", "API", "CLI")
"""Lowest first: a module imports its own layer and earlier ones only."""

PLACES: tuple[tuple[str, str], ...] = (
    # (layer, module paths under src/chatcodec; the first line a module matches places it;
    #  ``*`` stays inside one directory, ``**`` spans any depth)
    ("vocabulary", "_base.py _field_docs.py _narrow.py compat.py content.py messages.py tools.py request.py"),
    ("vocabulary", "response.py stream_events.py errors.py error_statuses.py losses.py payloads.py"),
    ("core validation", "canonical_validation.py"),
    ("kit", "providers/__init__.py providers/*.py providers/kit/**"),  # kit, provider_codec, context, claude, ...
    (
        "kit",
        "registry.py stream_builder.py sse.py event_stream.py stream_framing.py",
    ),  # the codec interface, the stream path, SSE framing
    ("readers", "providers/*/__init__.py providers/*/convenience.py"),  # a provider's helpers over the boundary
    ("providers", "providers/*/**"),
    ("readers", "dialects.py dialect_*.py validation.py sdk_objects.py content_rule.py canonical_codec.py"),
    (
        "readers",
        "detect.py rendering.py stream_input.py stream_replay.py strict*.py error_shapes.py one_pass.py",
    ),  # strict: the boundary checks; one_pass: the fast request path, through get_codec
    ("API", "__init__.py api.py conversation.py accumulator.py batch.py batch_converter.py parallel.py"),
    ("API", "schema.py _portable_schema.py testing/** stream_convert.py warm.py one_pass.py"),
    ("CLI", "__main__.py cli.py cli_*.py documents.py progress.py exit_codes.py serve/**"),
)


def _pattern(glob: str) -> re.Pattern[str]:
    escaped = re.escape(glob).replace(r"\*\*", ".*").replace(r"\*", "[^/]*")
    return re.compile(escaped + r"\Z")


_PATTERNS = [(layer, _pattern(glob)) for layer, globs in PLACES for glob in globs.split()]


def layer_of(path: str) -> str | None:
    """The layer of a module given by its path under ``chatcodec/`` (``providers/kit.py``)."""
    return next((layer for layer, pattern in _PATTERNS if pattern.match(path)), None)


def provider_of(path: str) -> str | None:
    """The provider folder a module belongs to (``anthropic``), None outside one."""
    parts = path.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "providers" and parts[1] != "kit" else None


def modules(root: Path) -> dict[str, str]:
    """Dotted module name -> path under ``root`` (``chatcodec.providers.kit`` ->
    ``providers/kit.py``), for every module of the package at ``root``."""
    found: dict[str, str] = {}
    for file in sorted(root.rglob("*.py")):
        relative = file.relative_to(root).as_posix()
        parts = [root.name, *relative.removesuffix(".py").split("/")]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = relative
    return found


def _imported(tree: ast.Module, name: str, is_package: bool, known: dict[str, str]) -> Iterator[str]:
    """The package's own modules a module imports, anywhere in its body."""
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:  # ``from package import module`` imports the module
                yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base


@cache
def import_graph(root: Path) -> dict[str, frozenset[str]]:
    """Path -> the paths of the package's modules it imports (itself excluded)."""
    known = modules(root)
    graph: dict[str, frozenset[str]] = {}
    for name, path in known.items():
        tree = ast.parse((root / path).read_text(encoding="utf-8"))
        targets = {
            known[target] for target in _imported(tree, name, path.endswith("__init__.py"), known) if target in known
        }
        graph[path] = frozenset(targets - {path})
    return graph


def upward_imports(root: Path) -> list[tuple[str, str]]:
    """Every ``(importer, imported)`` pair where the imported module sits in a later layer,
    or in another provider's folder."""
    found: list[tuple[str, str]] = []
    for path, targets in sorted(import_graph(root).items()):
        layer, provider = layer_of(path), provider_of(path)
        for target in sorted(targets):
            target_layer, target_provider = layer_of(target), provider_of(target)
            if layer is None or target_layer is None:
                continue  # reported by test_every_module_has_a_layer
            upward = LAYERS.index(target_layer) > LAYERS.index(layer)
            if upward or (provider and target_provider and provider != target_provider):
                found.append((path, target))
    return found


def cycles(root: Path) -> list[list[str]]:
    """The import circles: strongly connected sets of more than one module (Tarjan)."""
    graph = import_graph(root)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: list[str] = []
            while not component or component[-1] != node:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def cycles_spanning_layers(root: Path) -> list[list[str]]:
    """The circles whose modules sit in more than one layer (or more than one provider)."""
    return [
        component
        for component in cycles(root)
        if len({layer_of(path) for path in component}) > 1 or len({provider_of(path) for path in component}) > 1
    ]


# --- the law ---------------------------------------------------------------------------


def test_every_module_has_a_layer() -> None:
    unplaced = [path for path in modules(SOURCE).values() if layer_of(path) is None]
    assert not unplaced, f"modules in no layer (add them to PLACES): {unplaced}"


def test_no_import_goes_upward_and_no_provider_imports_another() -> None:
    found = [
        f"{path} ({layer_of(path)}) imports {target} ({layer_of(target)})" for path, target in upward_imports(SOURCE)
    ]
    assert not found, "\n".join(found)


def test_no_import_circle_spans_layers() -> None:
    assert cycles_spanning_layers(SOURCE) == []


def test_the_places_of_modules_in_flight_on_other_branches() -> None:
    """The kit package, the context and Claude modules, provider rules and the server
    land on other branches; their places are settled here."""
    assert layer_of("providers/kit/__init__.py") == layer_of("providers/kit/bags.py") == "kit"
    assert layer_of("providers/context.py") == layer_of("providers/claude.py") == "kit"
    assert layer_of("providers/gemini/rules.py") == "providers"
    assert layer_of("serve/__init__.py") == layer_of("serve/app.py") == "CLI"
    assert provider_of("providers/kit/bags.py") is None
    assert provider_of("providers/gemini/rules.py") == "gemini"


def test_the_law_sees_an_upward_import(tmp_path: Path) -> None:
    """The helpers find what they are meant to: a kit module importing a dialect reader,
    a provider importing another, and the circle the two close."""
    package = tmp_path / "chatcodec"
    (package / "providers" / "openai_chat").mkdir(parents=True)
    (package / "providers" / "anthropic").mkdir()
    files = {
        "__init__.py": "",
        "dialects.py": "from chatcodec.providers.openai_chat import parts\n",
        "providers/__init__.py": "",
        "providers/tool_names.py": "def f():\n    from chatcodec import dialects\n",
        "providers/openai_chat/__init__.py": "",
        "providers/openai_chat/parts.py": "from chatcodec.providers import tool_names\n",
        "providers/anthropic/__init__.py": "",
        "providers/anthropic/parts.py": "from ..openai_chat.parts import x\n",
    }
    for path, text in files.items():
        (package / path).write_text(text)
    assert upward_imports(package) == [
        ("providers/anthropic/parts.py", "providers/openai_chat/parts.py"),
        ("providers/tool_names.py", "dialects.py"),
    ]
    circle = ["dialects.py", "providers/openai_chat/parts.py", "providers/tool_names.py"]
    assert cycles_spanning_layers(package) == [circle]


# --- what the law buys: canonical validation loads no codec ------------------------------

_PROBE = textwrap.dedent(
    """
    import sys
    import chatcodec
    from chatcodec import ChatRequest, UserMessage

    chatcodec.validate_messages([{"role": "user", "content": "hi"}])
    chatcodec.validate_message({"role": "assistant", "content": [{"type": "text", "text": "hello"}]})
    chatcodec.validate_model(ChatRequest, {"messages": [{"role": "system", "content": "be brief"}]})
    UserMessage.model_validate({"role": "user", "content": "hi"})
    print(sorted(name for name in sys.modules if name.startswith("chatcodec.providers")))
    chatcodec.validate_messages([{"role": "assistant", "content": "x", "reasoning_content": "because"}])
    print(sorted(name for name in sys.modules if name.startswith("chatcodec.providers.openai_chat.codec")))
    """
)


def test_validating_canonical_messages_loads_no_provider_module() -> None:
    """Issue 20, item 3: in a fresh interpreter, ``import chatcodec`` and validating
    canonical data import nothing under ``chatcodec.providers``; a dialect (an OpenAI
    reasoning field) loads the codec that reads it, on first use."""
    source = str(SOURCE.parent)
    result = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {source!r})\n{_PROBE}"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    before, after = result.stdout.splitlines()
    assert before == "[]"
    assert after == "['chatcodec.providers.openai_chat.codec']"
