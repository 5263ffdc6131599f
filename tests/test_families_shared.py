"""The family law: a module under ``_providers/families/`` is a fact more than one provider
folder needs, so at least two provider folders import it (directly, or through another
family module they import). A fact of one folder stays in that folder; a family module
only one folder reaches is moved back there (CONTRIBUTING, "Families for sibling wires").

Read with ``ast`` from the source, by ``tools/import_graph.py`` (the one import graph).
The family packages' ``__init__`` modules hold only their map (a docstring): they are not
counted.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from test_layers import SOURCE, graph

PATHS = graph.module_paths(SOURCE.parent)
EDGES = graph.imports(graph.module_names(SOURCE.parent))
FAMILY = "_providers/families/"
FAMILY_MODULES = sorted(
    name for name, path in PATHS.items() if path.startswith(FAMILY) and not path.endswith("__init__.py")
)


def _reached_by() -> dict[str, set[str]]:
    """Family module -> the provider folders whose modules import it, directly or through
    other family modules."""
    direct: dict[str, set[str]] = defaultdict(set)
    family_imports: dict[str, set[str]] = defaultdict(set)
    for edge in EDGES:
        target = PATHS.get(edge.target, "")
        if not target.startswith(FAMILY):
            continue
        folder = graph.provider_of(PATHS[edge.source])
        if folder is not None and folder != "_template":
            direct[edge.target].add(folder)
        elif PATHS[edge.source].startswith(FAMILY):
            family_imports[edge.source].add(edge.target)
    reached = {name: set(direct[name]) for name in FAMILY_MODULES}
    changed = True
    while changed:  # a family module imported by one another family module is reached by its folders
        changed = False
        for source, targets in family_imports.items():
            for target in targets:
                before = len(reached.get(target, set()))
                reached.setdefault(target, set()).update(reached.get(source, set()))
                changed |= len(reached[target]) != before
    return reached


REACHED = _reached_by()

ONE_FOLDER_TODAY: dict[str, str] = {
    "chatcodec._providers.families.google.single_types": (
        "Google's Schema type rule for Gemini's OpenAI-compatible endpoint, read by "
        "openai_chat/servers/gemini.py alone (move it there, or let the gemini folder use it)"
    ),
}
"""Family modules this law found reached by one folder, each with what to do: the list
only shrinks (an entry whose module is reached by two folders, or is gone, fails)."""


def test_there_are_family_modules() -> None:
    assert len(FAMILY_MODULES) >= 10


@pytest.mark.parametrize("module", FAMILY_MODULES)
def test_every_family_module_is_imported_by_two_provider_folders(module: str) -> None:
    folders = sorted(REACHED.get(module, set()))
    if module in ONE_FOLDER_TODAY:
        assert len(folders) == 1, f"{module} is reached by {folders}: take it off ONE_FOLDER_TODAY"
        return
    assert len(folders) >= 2, f"{module} is reached by {folders or 'no provider folder'}: it belongs in that folder"


def test_the_allowance_names_family_modules() -> None:
    assert set(ONE_FOLDER_TODAY) <= set(FAMILY_MODULES)
