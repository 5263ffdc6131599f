"""The outside is the inside: a built-in provider folder imports what an outside codec can.

A codec written in another distribution has ``chatcodec``, ``chatcodec.contract``,
``chatcodec.codec_kit`` and ``chatcodec.options`` to import; a built-in folder imports those, its own modules and the
family folders (``_providers/families/``: a vendor's facts shared by folders), and nothing
else, so the built-ins prove the contract is enough (the Vercel AI SDK's first-party
providers import only ``@ai-sdk/provider`` and ``@ai-sdk/provider-utils``). The template is
held too: copying it is the outside recipe. Every import counts, read with ``ast``: at the
top of a module, in a function, under ``TYPE_CHECKING``, relative ones resolved.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import chatcodec

PROVIDERS = Path(chatcodec.__file__).parent / "_providers"

PUBLIC = ("chatcodec", "chatcodec.contract", "chatcodec.codec_kit", "chatcodec.options")
"""The public modules a folder may import (and what an outside codec imports)."""

FAMILIES = "chatcodec._providers.families"

CONVERTED = (
    "_template",
    "anthropic",
    "bedrock_converse",
    "bedrock_nova",
    "gemini",
    "gemini_interactions",
    "ollama",
    "openai_chat",
    "openai_responses",
)
"""The folders held to the rule. Issue 64 item 1 converts them one at a time; a folder is added
here when its imports are public (the others still import the kit and the contract's internals)."""

NOT_YET: dict[str, int] = {}
"""The folders not converted yet, each with the import statements of private modules it makes
today (a ceiling: a new one fails; a folder converted moves to :data:`CONVERTED`)."""


def _module_name(file: Path) -> tuple[str, bool]:
    parts = file.relative_to(PROVIDERS.parent.parent).with_suffix("").parts
    is_package = parts[-1] == "__init__"
    return ".".join(parts[:-1] if is_package else parts), is_package


def imported_modules(code: str, source: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """``(line, module)`` for every import in ``code``, the module ``source``: ``import a.b``
    gives ``a.b``; ``from a.b import c`` gives ``a.b``, and a relative import its absolute module."""
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                package = source.split(".") if is_package else source.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                module = ".".join([*package, module] if module else package)
            yield node.lineno, module


def forbidden(folder: str) -> list[str]:
    """Every import of a chatcodec module ``folder`` may not make, as ``file:line module``."""
    own = f"chatcodec._providers.{folder}"
    found = []
    for file in sorted((PROVIDERS / folder).rglob("*.py")):
        for line, module in imported_modules(file.read_text(encoding="utf-8"), *_module_name(file)):
            if module != "chatcodec" and not module.startswith("chatcodec."):
                continue  # the standard library, pydantic...
            if module in PUBLIC or module == own or module.startswith((f"{own}.", f"{FAMILIES}.")):
                continue
            found.append(f"{file.relative_to(PROVIDERS)}:{line} {module}")
    return found


@pytest.mark.parametrize("folder", CONVERTED)
def test_a_converted_folder_imports_only_public_modules_its_own_and_the_families(folder: str) -> None:
    assert forbidden(folder) == []


def test_the_rule_sees_a_private_import_in_any_form() -> None:
    """Not vacuous: the reader finds an absolute, a relative, a lazy and a ``TYPE_CHECKING``
    import, each resolved to its module."""
    code = (
        "from typing import TYPE_CHECKING\n"
        "from chatcodec.contract import EncodeContext\n"
        "from chatcodec import ValidationError\n"
        "from . import wire\n"
        "from chatcodec._providers.families.aws import parts\n"
        "from chatcodec._providers.kit import leftovers\n"
        "from .._template import wire as other\n"
        "if TYPE_CHECKING:\n"
        "    from chatcodec._model.request import ChatRequest\n"
        "def f():\n"
        "    import chatcodec._narrow\n"
    )
    found = [module for _, module in imported_modules(code, "chatcodec._providers.ollama.probe", False)]
    assert found == [
        "typing",
        "chatcodec.contract",
        "chatcodec",
        "chatcodec._providers.ollama",
        "chatcodec._providers.families.aws",
        "chatcodec._providers.kit",
        "chatcodec._providers._template",
        "chatcodec._model.request",
        "chatcodec._narrow",
    ]


def test_a_folder_importing_private_modules_is_reported() -> None:
    """:func:`forbidden` reports by file and line: the kit itself imports private modules."""
    found = forbidden("kit")
    assert found
    assert all(entry.startswith("kit/") and " chatcodec." in entry for entry in found)


def test_every_built_in_folder_is_held_or_named_as_not_yet_converted() -> None:
    """A folder added to ``_providers/`` is held from its first commit (in :data:`CONVERTED`)
    or named in :data:`NOT_YET` with how many private imports it still makes."""
    folders = {path.parent.name for path in PROVIDERS.glob("*/markers.py")}
    assert folders == {*CONVERTED, *NOT_YET}
    for folder, count in NOT_YET.items():
        assert len(forbidden(folder)) <= count, f"{folder} makes more private imports than {count}"
