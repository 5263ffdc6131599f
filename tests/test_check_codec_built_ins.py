"""Every built-in codec passes ``chatcodec check-codec NAME`` by name alone: the laws read its
facts from the ``chatcodec.laws`` entry points of chatcodec's own distribution
(``chatcodec.testing._laws.built_in``), as they read an outside codec's, not from this
repository's tests (``tests/conformance`` adds the recordings' and SDKs' facts to them).

One fresh process runs :func:`chatcodec.testing.check_codec` over every built-in, derandomized
and with few examples (the laws at length run in ``tests/conformance/test_laws.py``): what it
checks is that the stated facts are found and hold, in about half a minute (measured: 33 s).
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from chatcodec.testing import ProviderEntry

BUILT_IN = (
    *("openai-chat", "anthropic", "openai-responses", "gemini", "bedrock-converse", "bedrock-nova", "ollama"),
    "gemini-interactions",
    *("langchain", "pydantic-ai", "ai-sdk-model", "ai-sdk-ui"),
    "google-adk",
    "otel-genai",
    "a2a",
    "ag-ui",
    "mcp-sampling",
)

_RUN = """
import json, sys
from hypothesis import settings
settings.register_profile("quick", deadline=None, derandomize=True, database=None, max_examples=10)
settings.load_profile("quick")  # before the laws are imported: their settings are made at import
import chatcodec
from chatcodec.testing import check_codec
failed = {name: [case.id for case, error in check_codec(name) if error is not None] for name in sys.argv[1:]}
print(json.dumps({"formats": chatcodec.available_formats(), "failed": failed}))
"""


@pytest.fixture(scope="module")
def checked() -> dict[str, Any]:
    source = Path(__file__).resolve().parents[1] / "src"
    result = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(source)!r})\n{_RUN}", *BUILT_IN],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    found: dict[str, Any] = json.loads(result.stdout.splitlines()[-1])
    return found


def test_every_built_in_format_is_checked(checked: dict[str, Any]) -> None:
    formats: list[str] = checked["formats"]
    assert sorted(name for name in formats if name != "canonical") == sorted(BUILT_IN)


@pytest.mark.parametrize("name", BUILT_IN)
def test_a_built_in_passes_every_law_by_name(name: str, checked: dict[str, Any]) -> None:
    failed: dict[str, list[str]] = checked["failed"]
    assert failed[name] == []


def test_every_built_in_format_states_its_law_facts_as_an_outside_codec_does() -> None:
    """One home per codec (issue 78): each built-in format's facts are the entry its
    ``chatcodec.laws`` entry point names in ``pyproject.toml``, read from the source tree (an
    installed copy's metadata is as old as its last install), and each entry is its codec's."""
    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    stated: dict[str, str] = project["project"]["entry-points"]["chatcodec.laws"]
    assert sorted(stated) == sorted(BUILT_IN)
    for name, value in stated.items():
        module, _, attribute = value.partition(":")
        entry = getattr(importlib.import_module(module), attribute)()
        assert isinstance(entry, ProviderEntry)
        assert entry.name == name
        assert entry.names_in_prose, f"{name} states no words that name it"
