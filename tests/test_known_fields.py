"""The committed ``providers/<name>/known_fields.py`` modules are what the installed SDKs
define (issue 22): regenerated here, and compared with the files."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("known_fields_tool", ROOT / "tools" / "known_fields.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


GENERATOR = _generator()


@pytest.mark.parametrize("package", list(GENERATOR.GENERATORS))
def test_known_fields_match_the_installed_sdk(package: str) -> None:
    committed = GENERATOR.module_path(package).read_text()
    assert committed == GENERATOR.render(package), f"run: python tools/known_fields.py ({package} drifted)"


def test_a_request_field_the_sdk_defines_is_known() -> None:
    from chatcodec.providers.openai_chat import known_fields

    request_kinds = [known_fields.KINDS[arm] for arm in known_fields.UNIONS[known_fields.ROOTS["request"]]]
    assert all("max_completion_tokens" in kind for kind in request_kinds)
