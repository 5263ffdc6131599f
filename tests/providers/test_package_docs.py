"""Each provider package opens with its API documentation links (the
reference, the streaming reference where the codec streams, and where its changes are
announced), so a reader of a quirk's docstring finds the source it is checked against,
and maps its modules (every module and subpackage of the folder: the contract's files it has
named in one paragraph, their jobs given once by the template's map, and its own ones each a
bullet with its job), so a newcomer finds where a rule lives without opening them all. The
form is the template's (``_providers/_template/__init__.py``)."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

import chatcodec
from chatcodec._providers.contract.provider_codec import ProviderCodec
from conformance.providers import streams

PROVIDERS_FOLDER = Path(chatcodec.__file__).parent / "_providers"

FOLDERS = sorted(path.parent for path in PROVIDERS_FOLDER.glob("*/markers.py"))
"""Every provider folder (the template's too: a copy of it starts with the map)."""

UNMAPPED: dict[str, str] = {}
"""Folders whose package docstring does not map its modules yet, each with why (delete the
entry when the map lands: the case is a strict xfail, so it fails once the map is there)."""


def _package_doc(name: str) -> str:
    """The package docstring of the folder a registered provider's codec is built from
    (found from the codec, so a folder's codec registered under a second name reads the same)."""
    codec = chatcodec.get_codec(name)
    assert isinstance(codec, ProviderCodec), name
    package = getattr(codec.usage, "__package__", None)  # a role module's package: the folder
    assert isinstance(package, str), name
    return importlib.import_module(package).__doc__ or ""


def _modules(folder: Path) -> set[str]:
    """The folder's modules and subpackages, by name."""
    modules = {path.stem for path in folder.glob("*.py") if path.stem != "__init__"}
    return modules | {path.name for path in folder.iterdir() if (path / "__init__.py").is_file()}


BULLET = re.compile(r"^- ``([A-Za-z_][A-Za-z0-9_]*)``: \S", flags=re.MULTILINE)
"""A map's bullet: ``- ``name``: job``."""

CONTRACT_FILES = "The contract's files as in ``_providers/_template``"
"""How a folder's map starts the paragraph naming the contract's files it has, whose jobs the
template's map gives (so they are described once)."""


def _doc(folder: Path) -> str:
    return ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))) or ""


def _contract_files() -> set[str]:
    """The files the template's docstring describes: the contract's, optional ones included."""
    return set(BULLET.findall(_doc(PROVIDERS_FOLDER / "_template")))


def _mapped(folder: Path) -> list[str]:
    """The names the package docstring's ``Modules`` section gives a bullet, and the contract's
    files its :data:`CONTRACT_FILES` paragraph names (each one the template describes)."""
    _, found, section = _doc(folder).partition("\nModules")
    assert found, f"{folder.name}: no 'Modules' section in its package docstring"
    _, listed, paragraph = section.partition(CONTRACT_FILES)
    named = re.findall(r"``([A-Za-z_][A-Za-z0-9_]*)``", paragraph.split("\n\n", 1)[0]) if listed else []
    assert not set(named) - _contract_files(), f"{folder.name}: names a contract file the template does not describe"
    return named + BULLET.findall(section)


@pytest.mark.parametrize(
    "folder",
    [
        pytest.param(folder, marks=pytest.mark.xfail(reason=UNMAPPED[folder.name], strict=True))
        if folder.name in UNMAPPED
        else folder
        for folder in FOLDERS
    ],
    ids=lambda folder: folder.name,
)
def test_provider_package_docstring_maps_every_module_of_its_folder(folder: Path) -> None:
    mapped = _mapped(folder)
    assert len(mapped) == len(set(mapped)), f"{folder.name}: a module mapped twice"
    modules = _modules(folder)
    assert not modules - set(mapped), f"{folder.name}: modules its package docstring does not map"
    assert not set(mapped) - modules, f"{folder.name}: the map names modules the folder does not hold"


def test_the_map_check_reads_bullets_only() -> None:
    """Not vacuous: the check finds the template's contract files, and only bullets count."""
    assert {"markers", "request", "stream_encode"} <= set(_mapped(PROVIDERS_FOLDER / "_template"))
    assert "structure" not in _mapped(PROVIDERS_FOLDER / "_template")  # described, not in the toy folder
    assert {"structure", "dialect", "stream_framing"} <= _contract_files()
    assert len(FOLDERS) >= 7


def test_a_folder_names_the_contract_files_it_has_in_one_paragraph() -> None:
    """Not vacuous: a folder's paragraph of contract files counts as its map of them, and only
    that paragraph (its own modules are bullets)."""
    mapped = _mapped(PROVIDERS_FOLDER / "ollama")
    assert {"request", "stream_encode", "origins"} <= set(mapped)
    assert "timestamps" in mapped  # a bullet of its own
    assert "_providers" not in mapped


@pytest.mark.parametrize("name", chatcodec.registered_providers())
def test_provider_package_opens_with_its_api_documentation_links(name: str) -> None:
    doc = _package_doc(name)
    section = doc.split("API documentation:", 1)
    assert len(section) == 2, f"{name}: no 'API documentation:' section in its package docstring"
    bullets = [bullet for bullet in section[1].split("\n- ")[1:] if "https://" in bullet]
    labels = [bullet.split(":", 1)[0] for bullet in bullets]
    assert any(label.startswith("Reference") for label in labels), labels
    if streams(name):  # a codec without streams has no stream reference to cite
        assert any(label.startswith("Streaming") for label in labels), labels
    assert any(re.search(r"Changelog|Changes|[Mm]igration", label) for label in labels), labels
