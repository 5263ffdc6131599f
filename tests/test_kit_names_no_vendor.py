"""The kit law: the shared packages under ``_providers/`` that are not a family name no
vendor and no model family in their code.

``_providers/kit/`` is mechanics (bags, markers, tool names, schema walking, stream
reading), ``_providers/contract/`` is what every folder implements, ``_providers/history/``
the turn rules every writer may ask for by its capabilities. A fact of one vendor that two
folders share lives in ``_providers/families/<family>/``; a fact of one folder in that
folder. So a module of these three packages that needs a vendor's name is in the wrong
package.

The rule, read with ``ast`` from the source: no *identifier* (a module, class, function,
argument, keyword, variable or attribute name, an imported module or name) and no
*string constant* other than a docstring (module, class, function and attribute
docstrings) holds one of :data:`VENDOR_WORDS` as a word, case-insensitively. A word is
bounded by anything that is not a letter, and by a change from lower to upper case
(``OPENAI_TOOL_NAMES``, ``write_openai_error``, ``isClaudeModel``, ``"OpenAI cache"``,
``"chatcodec._providers.families.claude"`` all hold one; ``draws`` does not). Docstrings and
comments may name vendors: they cite where a rule comes from.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import chatcodec

SOURCE = Path(chatcodec.__file__).parent
"""The package under test (the worktree's ``src/chatcodec`` when ``src`` comes first on the path)."""

NO_VENDOR_PACKAGES = ("_providers/kit", "_providers/contract", "_providers/history")
"""The packages the law covers, under ``src/chatcodec``."""

VENDOR_WORDS = ("anthropic", "aws", "bedrock", "claude", "gemini", "google", "gpt", "ollama", "openai")
"""The vendors and model families a provider folder or a family is named after."""

_WORD = re.compile(r"(?<![a-z])(" + "|".join(VENDOR_WORDS) + r")(?![a-z])", re.IGNORECASE)
_CASE_CHANGE = re.compile(r"([a-z0-9])([A-Z])")


def names_a_vendor(text: str) -> bool:
    """Whether ``text`` holds a vendor word (see the module docstring for a word)."""
    return bool(_WORD.search(text) or _WORD.search(_CASE_CHANGE.sub(r"\1 \2", text)))


def _docstrings(tree: ast.Module) -> set[int]:
    """The string constants that are docstrings: the first statement of a module, class or
    function, and a bare string statement after an assignment (an attribute docstring)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for statement in body:
            value = statement.value if isinstance(statement, ast.Expr) else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.add(id(value))
    return found


def _spellings(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.alias):
        return [node.name, node.asname or ""]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    if isinstance(node, ast.keyword):
        return [node.arg or ""]
    return []


def vendor_namings(path: Path) -> list[str]:
    """``"line: spelling"`` for each identifier or non-docstring string in ``path`` that
    names a vendor."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        spellings = _spellings(node)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            spellings = [node.value]
        found += [f"{getattr(node, 'lineno', 0)}: {text[:60]!r}" for text in spellings if names_a_vendor(text)]
    return sorted(set(found))


def test_no_kit_contract_or_history_module_names_a_vendor() -> None:
    offenders = {
        path.relative_to(SOURCE).as_posix(): namings
        for package in NO_VENDOR_PACKAGES
        for path in sorted((SOURCE / package).rglob("*.py"))
        if (namings := vendor_namings(path))
    }
    assert not offenders, f"vendor facts in a no-vendor package (move them to _providers/families/): {offenders}"


def test_the_packages_the_law_covers_exist() -> None:
    """A renamed package would leave the law reading nothing."""
    for package in NO_VENDOR_PACKAGES:
        assert list((SOURCE / package).glob("*.py")), package


def test_the_law_sees_identifiers_and_strings_but_not_docstrings(tmp_path: Path) -> None:
    module = tmp_path / "probe.py"
    module.write_text(
        '"""Cites Anthropic\'s and OpenAI\'s docs: allowed."""\n'
        "from chatcodec._providers.families.claude import wire_rules\n"
        "OPENAI_TOOL_NAMES = 1\n"
        '"""Names Gemini: an attribute docstring, allowed."""\n'
        "def isBedrockModel(name):\n"
        '    return f"Ollama says {name}"  # a comment naming Google is allowed\n'
        "draws = 'withdraws'\n",
        encoding="utf-8",
    )
    assert vendor_namings(module) == [
        "2: 'chatcodec._providers.families.claude'",
        "3: 'OPENAI_TOOL_NAMES'",
        "5: 'isBedrockModel'",
        "6: 'Ollama says '",
    ]
