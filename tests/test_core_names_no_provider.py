"""The edge law: no module outside a provider folder names a provider.

What a provider says lives in its folder, ``_providers/<name>/``: its wire, its rules, and
its edge (``edge.py``: routes, upstream URL and headers, stream framing, error shapes,
detection marks, strict extension rows). The rest of chatcodec reaches a provider through
the registry (``get_codec(name)``, ``get_edge(name)``), so a provider without those facts
is refused rather than given another's, and a new provider is its folder and one registry
line.

Read with ``ast`` from the source: a module *names* a provider when a string in its code
holds a registry name as a word (``"anthropic"``, ``"openai-chat"``), or a provider folder
(``chatcodec._providers.anthropic``), or an import reaches into a provider folder.
Docstrings (module, class, function and attribute docstrings) and comments may name
providers: they say where a rule comes from.

The allowance, each entry with its reason; an entry that no longer matches fails too, so
the list only shrinks:

- ``_registry.py``, the ``_BUILT_IN`` table: the one line each built-in provider adds
  outside its folder.
- ``_dialects/base.py``, ``_dialects/state.py``, ``_model/messages.py``: a dialect (Verifiers,
  LiteLLM, OpenRouter shapes in stored conversations) borrows a provider's shapes, and its
  reader names the codec that reads them.
- ``_providers/families/claude/wire_rules.py``: Claude's thinking signatures, a rule shared by the two
  providers that serve Claude (Anthropic and Bedrock).
- ``_providers/families/google/thought_signatures.py``: Gemini's thought signature as a call's
  ``gemini`` bag holds it, carried by OpenAI Chat and Anthropic in places of their own.
- ``_frameworks/pydantic_ai/reasoning_items.py``: a Responses reasoning item's id as the
  ``openai-responses`` bag of its first thinking part holds it, carried by pydantic-ai's
  ``ThinkingPart.id``.
- ``testing/_blocks.py``: the provider-metadata keys a Hypothesis strategy draws (data).
- ``_frameworks/langchain/parts.py``: LangChain passes Anthropic's ``thinking`` blocks through
  as they are, so its reader names the provider whose signature they carry.
- ``_frameworks/ai_sdk/provider_options.py``: the AI SDK keeps Claude's signatures and cache
  markers under the provider's key (``providerOptions.anthropic``), so its reader names it.
- ``_frameworks/pydantic_ai/signers.py``: pydantic-ai names the provider that signed a thought, and
  where the signature goes depends on it, so the module maps it to the format that reads it back.
- ``_row_dialects/sessions.py``: a harness's session file holds the messages of the wire it spoke
  (Claude Code's are Anthropic's, Codex's are Responses items), read by that format's codec.
- ``_frameworks/google_adk/content.py``, ``testing/_laws/built_in/google_adk.py``: an ADK event's
  content is a Gemini ``Content``, read and written by the ``gemini`` codec (through the public
  ``get_codec``), so the format's rewrites of a conversation are Gemini's.
- ``_direct/<source>_to_<target>.py`` (or a package of that name, a module per job: the messages, the
  top level field by field), ``_direct/table.py``: a direct path writes one pair in one pass by calling
  both folders' own per-part functions (CONTRIBUTING's "Direct paths"), so it names both;
  ``_direct/openai_chat_source.py``, what every direct path from OpenAI Chat admits (its content parts in
  that folder's ``admitted_parts.py``), and
  ``_direct/top_levels/<source>_to_<target>.py``, a pair's top level written field by field, name theirs.
- ``_first_names.py``, the ``FIRST_NAMES`` table: the names people type for a format (``openai``,
  ``claude``), each mapped to the registry names it may mean, for "did you mean".
- ``testing/_laws/built_in/<folder>.py``: a built-in codec's law facts (its documented rewrites,
  normal forms, bags), named by a ``chatcodec.laws`` entry point as an outside codec's are; they
  use private normal-form helpers of ``chatcodec.testing`` a folder may not import yet.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import chatcodec
from chatcodec._registry import PROVIDER_NAMES

SOURCE = Path(chatcodec.__file__).parent
"""The package under test (the worktree's ``src/chatcodec`` when ``src`` comes first on the path)."""

FOLDERS = tuple(sorted(path.name for path in (SOURCE / "_providers").iterdir() if (path / "markers.py").exists()))
"""The provider folders (``openai_chat``, ...): every folder with a ``markers.py`` (its name and
options, which ``ProviderCodec.from_package`` reads)."""

ALLOWED_MODULES: dict[str, str] = {
    "_dialects/base.py": "a dialect's reader names the codec that reads the shapes it borrows",
    "_dialects/state.py": "a dialect's reader names the codec that reads the shapes it borrows",
    "_model/messages.py": "Verifiers' thinking_blocks alias holds Anthropic blocks",
    "_providers/families/claude/wire_rules.py": "Claude's signature scheme, shared by the two providers serving Claude",
    "_providers/families/google/thought_signatures.py": "Gemini's call signature bag, carried by two other folders",
    "_frameworks/pydantic_ai/reasoning_items.py": "a Responses reasoning item's id bag, carried by pydantic-ai",
    "testing/_blocks.py": "provider-metadata keys a strategy draws (data)",
    "_frameworks/langchain/parts.py": "LangChain passes Anthropic's thinking blocks through, signed by Anthropic",
    "_frameworks/ai_sdk/provider_options.py": "the AI SDK keeps Claude's signatures under providerOptions.anthropic",
    "_frameworks/pydantic_ai/signers.py": "pydantic-ai's provider_name says whose signature a thought holds",
    "_frameworks/google_adk/content.py": "an ADK event's content is a Gemini Content, read and written by that codec",
    "testing/_laws/built_in/google_adk.py": "an ADK event's content is Gemini's: its rewrites are Gemini's",
    "_row_dialects/sessions.py": "a harness's session file holds the wire it spoke (Claude Code's Anthropic "
    "messages, Codex's Responses items), read by that format's codec",
    "_direct/openai_chat_to_anthropic.py": "a direct path writes one pair in one pass by calling both "
    "folders' own per-part functions (CONTRIBUTING, Direct paths): a rule keeps its one home in its folder",
    "_direct/openai_chat_to_anthropic_reasoned.py": "that direct path's turns of OpenRouter's reasoning, written "
    "by the reader's and writer's own per-part functions once their shape is proved (CONTRIBUTING, Direct paths)",
    "_direct/openai_chat_to_anthropic_signed.py": "that direct path's signed parts (litellm's thinking blocks, a "
    "call's Gemini signature), read and written by both folders' own per-part functions, what those answer proved "
    "once (CONTRIBUTING, Direct paths)",
    "_direct/top_levels/openai_chat_to_anthropic.py": "the top level of that direct path, written by calling both "
    "folders' own per-field functions (CONTRIBUTING, Direct paths): a rule keeps its one home in its folder",
    "_direct/anthropic_to_openai_chat.py": "a direct path writes one pair in one pass by calling both "
    "folders' own per-message functions (CONTRIBUTING, Direct paths): a rule keeps its one home in its folder",
    "_direct/openai_responses_to_openai_chat.py": "a direct path writes one pair in one pass by calling both "
    "folders' own per-part functions (CONTRIBUTING, Direct paths): a rule keeps its one home in its folder",
    "_direct/openai_responses_to_openai_chat_replayed.py": "that direct path's reading of a replayed item's bag, "
    "by the Responses reader's decode_item and the Chat writer's report_foreign (CONTRIBUTING, Direct paths)",
    "_direct/openai_chat_to_openai_responses.py": "a direct path writes one pair in one pass by calling both "
    "folders' own per-part functions (CONTRIBUTING, Direct paths): a rule keeps its one home in its folder",
    "_direct/top_levels/openai_chat_to_openai_responses.py": "the top level of that direct path, written by "
    "calling both folders' own per-field functions (CONTRIBUTING, Direct paths): a rule keeps its one home",
    "_direct/top_levels/anthropic_to_openai_chat.py": "the top level of that direct path, read and written by "
    "calling both folders' own per-field functions (CONTRIBUTING, Direct paths): a rule keeps its one home",
    "_direct/openai_chat_source.py": "the OpenAI Chat side of its direct paths: what they admit, read by that "
    "folder's own front and reader (CONTRIBUTING, Direct paths)",
    "_direct/openai_chat_assistant_turns.py": "the assistant turns those direct paths admit, asked as that "
    "folder's closed front takes them (CONTRIBUTING, Direct paths)",
    "_direct/table.py": "the direct paths' table: which pair each path writes",
    **{
        f"testing/_laws/built_in/{folder}.py": "a built-in's law facts, read by check-codec through its entry point "
        "(they move into _providers/<name>/ once chatcodec.testing names the normal-form helpers they use)"
        for folder in (
            *("anthropic", "bedrock_converse", "bedrock_nova", "gemini", "ollama", "openai_chat", "openai_responses"),
            "gemini_interactions",
        )
    },
}
"""Modules that may name providers anywhere in their code, with the reason."""
ALLOWED_TABLES: dict[str, tuple[str, ...]] = {
    "_registry.py": ("_BUILT_IN",),
    "_first_names.py": ("FIRST_NAMES",),  # the names people type (openai, claude) -> the formats they mean
}
"""Modules that may name providers only inside these module-level tables."""

_NAMES = re.compile(r"\b(" + "|".join(re.escape(name) for name in (*PROVIDER_NAMES, *FOLDERS)) + r")\b")


def _outside_provider_folders() -> Iterator[tuple[str, Path]]:
    for path in sorted(SOURCE.rglob("*.py")):
        relative = path.relative_to(SOURCE).as_posix()
        parts = relative.split("/")
        if not (parts[0] == "_providers" and len(parts) > 2 and parts[1] in FOLDERS):
            yield relative, path


def _docstrings(tree: ast.Module) -> set[int]:
    """The string constants that are docstrings: the first statement of a module, class or
    function, and a bare string statement (an attribute docstring)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }


def _in_tables(tree: ast.Module, tables: tuple[str, ...]) -> set[int]:
    """The nodes inside the module-level assignments to ``tables``."""
    inside: set[int] = set()
    for statement in tree.body:
        targets = statement.targets if isinstance(statement, ast.Assign) else [getattr(statement, "target", None)]
        if any(isinstance(target, ast.Name) and target.id in tables for target in targets):
            inside.update(id(node) for node in ast.walk(statement))
    return inside


def namings(path: Path, tables: tuple[str, ...] = ()) -> list[str]:
    """Each place ``path``'s code names a provider, as ``line: what``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _docstrings(tree) | _in_tables(tree, tables)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _NAMES.search(node.value):
            found.append((node.lineno, repr(node.value[:60])))
        elif isinstance(node, ast.ImportFrom) and node.module and _NAMES.search(node.module):
            found.append((node.lineno, f"from {node.module} import ..."))
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, f"import {alias.name}") for alias in node.names if _NAMES.search(alias.name))
    return [f"{line}: {what}" for line, what in sorted(found)]


def test_no_module_outside_a_provider_folder_names_a_provider() -> None:
    offenders = {
        relative: places
        for relative, path in _outside_provider_folders()
        if relative not in ALLOWED_MODULES
        for places in [namings(path, ALLOWED_TABLES.get(relative, ()))]
        if places
    }
    assert not offenders, f"provider facts outside their folder (move them to _providers/<name>/): {offenders}"


def test_every_allowance_is_still_needed() -> None:
    modules = dict(_outside_provider_folders())
    stale = [relative for relative in ALLOWED_MODULES if relative not in modules or not namings(modules[relative])]
    stale += [
        relative
        for relative, tables in ALLOWED_TABLES.items()
        if relative not in modules or namings(modules[relative]) == namings(modules[relative], tables)
    ]
    assert not stale, f"allowed modules that no longer name a provider (drop them from the allowance): {stale}"


def test_the_law_sees_a_provider_named_in_code_but_not_in_a_docstring(tmp_path: Path) -> None:
    module = tmp_path / "probe.py"
    module.write_text(
        '"""Reads anthropic errors."""\n'
        "TABLE = {'gemini': 1}\n"
        "def framing(provider):\n"
        '    """As openai-chat does."""\n'
        "    return provider == 'bedrock-converse'  # a comment naming anthropic is fine\n"
        "from chatcodec._providers.anthropic import edge\n"
    )
    assert [place.split(":")[0] for place in namings(module)] == ["2", "5", "6"]
    assert [place.split(":")[0] for place in namings(module, ("TABLE",))] == ["5", "6"]
