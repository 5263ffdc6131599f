"""A law over every codec calls no stream entry point: streams are optional in the contract,
so a law that streams takes its cases from the codecs that say they stream (``Suite.streaming``,
read from each codec's ``decodes_streams``/``encodes_streams``), and one over every codec must
hold for a codec without streams too (which refuses every stream entry point at the call).

The check is static, by ``ast``, over the shipped laws (``chatcodec/testing/_laws/law_*.py``):
every function declared with ``@law(cases)`` whose cases read the suite's every-codec names
(:data:`EVERY_PROVIDER`, directly or through a module-level function), and every function it
calls that the laws define (in its module, or imported from ``chatcodec.testing._laws.*``),
transitively, names none of :data:`STREAM_ENTRY_POINTS`.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

import chatcodec.testing._laws as laws

HERE = Path(laws.__file__).resolve().parent
PACKAGE = "chatcodec.testing._laws."

STREAM_ENTRY_POINTS = frozenset(
    {
        "decode_stream",
        "encode_stream",
        "accumulate_stream",
        "convert_stream",
        "aconvert_stream",
        "StreamConverter",
        "stream_decoder",
        "stream_encoder",
        "append_chunk",
        "stream_codecs",
    }
)
"""The public stream entry points (``chatcodec``'s, a codec's own, ``Conversation``'s),
each refused at the call by a codec without streams."""

EVERY_PROVIDER = frozenset({"entries", "names", "pairs", "recorded"})
"""The suite's names that hold every codec."""

STREAMING_PROVIDERS = frozenset({"streaming", "recorded_streams"})
"""The suite's names that hold the codecs that stream (built from every codec, filtered)."""


@cache
def _tree(module: str) -> ast.Module:
    return ast.parse((HERE / f"{module}.py").read_text(encoding="utf-8"))


def _names(node: ast.AST) -> set[str]:
    """Every name and attribute ``node`` reads."""
    found: set[str] = set()
    for each in ast.walk(node):
        if isinstance(each, ast.Name):
            found.add(each.id)
        elif isinstance(each, ast.Attribute):
            found.add(each.attr)
    return found


@cache
def _definitions(module: str) -> dict[str, tuple[str, ast.AST]]:
    """The module-level functions, classes and assignments a module's code can reach:
    its own, and those it imports from ``conformance.*`` (by the module they live in)."""
    found: dict[str, tuple[str, ast.AST]] = {}
    for node in _tree(module).body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PACKAGE):
            source = (node.module or "").removeprefix(PACKAGE)
            for alias in node.names:
                found.update({alias.asname or alias.name: _definitions(source).get(alias.name, (source, node))})
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found[node.name] = (module, node)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    found[target.id] = (module, node)
    return found


def _reaches(module: str, node: ast.AST, wanted: frozenset[str], seen: set[tuple[str, str]]) -> set[str]:
    """The names of ``wanted`` that ``node`` reads, directly or through what it calls."""
    names = _names(node)
    hit = names & wanted
    definitions = _definitions(module)
    for name in names - wanted:
        if name in definitions and (definitions[name][0], name) not in seen:
            seen.add((definitions[name][0], name))
            home, definition = definitions[name]
            if not isinstance(definition, ast.ImportFrom | ast.ClassDef):  # a class: an annotation's type
                hit |= _reaches(home, definition, wanted, seen)
    return hit


def _parametrized_over_every_provider(module: str, function: ast.FunctionDef) -> bool:
    for decorator in function.decorator_list:
        if isinstance(decorator, ast.Call) and _names(decorator.func) == {"law"}:
            values = decorator.args + [keyword.value for keyword in decorator.keywords]
            reached = _reaches(module, values[0], EVERY_PROVIDER | STREAMING_PROVIDERS, set()) if values else set()
            if reached & EVERY_PROVIDER and not reached & STREAMING_PROVIDERS:
                return True
    return False


def _laws() -> list[tuple[str, ast.FunctionDef]]:
    return [
        (path.stem, node)
        for path in sorted(HERE.glob("law_*.py"))
        for node in _tree(path.stem).body
        if isinstance(node, ast.FunctionDef) and any(_names(each) >= {"law"} for each in node.decorator_list)
    ]


def _over_every_provider() -> list[str]:
    return [f"{module}::{law.name}" for module, law in _laws() if _parametrized_over_every_provider(module, law)]


def test_the_check_finds_laws_over_every_provider_and_over_streaming_ones() -> None:
    """The check sees the laws it guards: some over every provider, some over ``STREAMING``."""
    every = _over_every_provider()
    assert len(every) >= 20, every
    streaming = [
        law.name
        for module, law in _laws()
        if any(_reaches(module, decorator, STREAMING_PROVIDERS, set()) for decorator in law.decorator_list)
    ]
    assert streaming, "no law reads the streaming codecs"
    assert not set(every) & set(streaming)


@pytest.mark.parametrize("case", _over_every_provider())
def test_a_law_over_every_provider_calls_no_stream_entry_point(case: str) -> None:
    module, _, name = case.partition("::")
    law = next(law for home, law in _laws() if home == module and law.name == name)
    body = ast.Module(body=law.body, type_ignores=[])
    called = _reaches(module, body, STREAM_ENTRY_POINTS, set())
    assert not called, (
        f"{case} is over every codec but calls {sorted(called)}: a codec without "
        "streams refuses those; take its cases from suite.streaming instead"
    )
