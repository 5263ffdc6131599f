"""The reading is a value (issue 78): what a conversion's reader leaves its writer is a
:class:`~chatcodec.contract.Reading` handed from one to the other by argument, never state
beside the data. No module under ``_providers/`` holds a ``ContextVar``, and a reader is
not told which writer follows (``DecodeContext`` has no ``writer``)."""

from __future__ import annotations

import ast
import dataclasses
import gc
import warnings
from pathlib import Path

import chatcodec
from chatcodec.contract import DecodeContext, EncodeContext, Reading

PROVIDERS = Path(chatcodec.__file__).parent / "_providers"


def _context_variable_imports() -> list[str]:
    found = []
    for path in sorted(PROVIDERS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.ImportFrom | ast.Import) else []
            if "contextvars" in names or (isinstance(node, ast.ImportFrom) and node.module == "contextvars"):
                found.append(str(path.relative_to(PROVIDERS)))
    return found


def test_no_context_variable_under_the_providers() -> None:
    # parsed with the collector held off: CPython 3.11.7's ast.parse raises "AST constructor
    # recursion depth mismatch" when a collection inside it runs the finalizer of an object an
    # earlier test on the same xdist worker leaked (an event loop's, a socket's: seen in two
    # fresh-clone runs), so what is garbage is collected first, outside the parse, its
    # finalizers' ResourceWarnings (another test's leak, not this test's) left unraised here
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()
    gc.disable()
    try:
        assert _context_variable_imports() == []
    finally:
        gc.enable()


def test_a_reader_is_not_told_its_writer() -> None:
    fields = {field.name for field in dataclasses.fields(DecodeContext)}
    assert "writer" not in fields
    assert "reading" in fields  # the record it fills, whoever writes next
    assert "reading" in {field.name for field in dataclasses.fields(EncodeContext)}


def test_the_record_reaches_the_writer_as_an_argument() -> None:
    """``convert_request`` reads into a record and hands it to the writer: the same
    conversion by hand, the record passed along, writes the same body."""
    from chatcodec._losses import LossRecorder
    from chatcodec._registry import get_codec

    request = {
        "model": "gpt-5",
        "messages": [{"role": "user", "content": "hi", "name": None}],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}, "strict": True}}],
    }
    noted = Reading()
    canonical = get_codec("openai-chat").read_request(dict(request), noted=noted)
    assert noted.reader == "openai-chat"
    assert noted.own  # the SDK dump's null name, kept for OpenAI Chat's own writer
    assert noted.schema_texts  # the strict schema's JSON text, made once for both ends
    written = get_codec("anthropic").write_request(canonical, LossRecorder(), noted=noted)
    converted = chatcodec.convert_request(dict(request), source="openai-chat", target="anthropic", on_loss="ignore")
    assert written == converted
    assert "provider_metadata" not in canonical["messages"][0]  # another writer passed the marker over
