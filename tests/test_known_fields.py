"""The committed ``_providers/<name>/known_fields.json`` files are what the installed SDKs
define: regenerated here, and compared with the files."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from chatcodec._providers.contract.provider_codec import ProviderCodec
from chatcodec._providers.kit.field_sets import load_field_sets
from chatcodec._registry import get_codec

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
    committed = GENERATOR.data_path(package).read_text(encoding="utf-8")
    assert committed == GENERATOR.render(package), f"run: python tools/known_fields.py ({package} drifted)"


def test_a_request_field_the_sdk_defines_is_known() -> None:
    codec = get_codec("openai-chat")
    assert isinstance(codec, ProviderCodec)
    field_sets = codec.field_sets()
    assert field_sets is not None
    request_kinds = [field_sets.kinds[arm] for arm in field_sets.unions[field_sets.roots["request"]]]
    assert all("max_completion_tokens" in kind for kind in request_kinds)


def test_the_field_sets_are_read_once_per_provider() -> None:
    codec = get_codec("anthropic")
    assert isinstance(codec, ProviderCodec)
    assert codec.field_sets() is codec.field_sets() is load_field_sets("chatcodec._providers.anthropic")


def test_a_package_without_a_data_file_has_no_field_sets() -> None:
    """Read by the package's loader (``pkgutil``): none for a package without the file, a
    package not installed (an outside codec's, named wrong) or no name, never an error."""
    assert load_field_sets("chatcodec._providers.kit") is None
    assert load_field_sets("no_such_package_here.sub") is None
    assert load_field_sets("") is None
