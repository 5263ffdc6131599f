"""Each provider package opens with its API documentation links (the
reference, the streaming reference where the codec streams, and where its changes are
announced), so a reader of a quirk's docstring finds the source it is checked against,
and maps its modules (every module and subpackage of the folder, its own ones included,
each a bullet with its job), so a newcomer finds where a rule lives without opening them
all. The form is the template's (``_providers/_template/__init__.py``)."""

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


def _mapped(folder: Path) -> list[str]:
    """The names the package docstring's ``Modules`` section gives a bullet (``- ``name``: job``)."""
    doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))) or ""
    _, found, section = doc.partition("\nModules")
    assert found, f"{folder.name}: no 'Modules' section in its package docstring"
    return re.findall(r"^- ``([A-Za-z_][A-Za-z0-9_]*)``: \S", section, flags=re.MULTILINE)


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
    assert len(FOLDERS) >= 7


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
