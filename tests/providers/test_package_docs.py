"""Each provider package opens with its API documentation links (the
reference, the streaming reference where the codec streams, and where its changes are
announced), so a reader of a quirk's docstring finds the source it is checked against.
The form is the template's (``providers/_template/__init__.py``)."""

from __future__ import annotations

import importlib
import re

import pytest

import chatcodec
from conformance.providers import streams


def _package_doc(name: str) -> str:
    package = importlib.import_module(f"chatcodec.providers.{name.replace('-', '_')}")
    return package.__doc__ or ""


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
