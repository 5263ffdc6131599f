"""Importing a codec loads no canonical model.

A conversion reads and writes canonical *data*: the models (and pydantic, which they pull
in) are built only where the public API returns one. So a fresh process that imports a
registered codec (looks it up in the registry, which imports its package and role modules) has loaded neither: a
folder that imports its stream classes, or a model, at the top of a role module pays the
models' start-up cost on every conversion. One fresh process per codec, as the first use
of ``tests/test_first_use.py`` checks the conversion itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import chatcodec
from chatcodec._public_label import defined_in

SOURCE = Path(chatcodec.__file__).parent.parent
"""The tree under test (the worktree's ``src`` when it comes first on the path)."""

TESTS = Path(__file__).resolve().parents[1]
"""The tests' own modules (``session_codecs``)."""

CANONICAL_MODELS = tuple(
    sorted(
        {
            defined_in(chatcodec.ChatRequest),
            defined_in(chatcodec.ChatResponse),
            defined_in(chatcodec.UserMessage),
            defined_in(chatcodec.TextPart),
            defined_in(chatcodec.ToolDefinition),
            defined_in(chatcodec.TextDeltaEvent),
            "pydantic",
        }
    )
)
"""The modules a codec must not load: those defining the canonical models (read from the
classes, so the law follows a module wherever it moves) and pydantic."""

_PROBE = textwrap.dedent(
    """
    import json, sys
    import chatcodec
    import session_codecs

    session_codecs.register_session_codecs()  # the codecs the test session registers, as in the session
    name, models = sys.argv[1], json.loads(sys.argv[2])
    chatcodec.get_codec(name)  # imports the codec's module, so its package and every role module
    print(json.dumps(sorted(model for model in models if model in sys.modules)))
    """
)


def _loaded_on_import(name: str) -> list[str]:
    path = f"sys.path[:0] = [{str(SOURCE)!r}, {str(TESTS)!r}]"
    command = [sys.executable, "-c", f"import sys; {path}\n{_PROBE}"]
    result = subprocess.run(
        [*command, name, json.dumps(CANONICAL_MODELS)], capture_output=True, text=True, check=True, timeout=60
    )
    loaded: list[str] = json.loads(result.stdout)
    return loaded


@pytest.mark.parametrize("name", chatcodec.registered_providers())
def test_importing_a_codec_and_looking_it_up_loads_no_canonical_model(name: str) -> None:
    assert _loaded_on_import(name) == []


def test_the_probe_sees_a_model_loaded() -> None:
    """The law could not fail if the probe could not see: the canonical codec is the
    models, and the probe finds them loaded."""
    assert "pydantic" in _loaded_on_import("canonical")
