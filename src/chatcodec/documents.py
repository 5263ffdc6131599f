"""Reading the command line's input files: one JSON document, or JSON lines.

JSONL files (``.jsonl``/``.ndjson``) are read line by line, so a dataset of any size
converts in constant memory; a line that is not JSON is reported with its number and
never silently skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from chatcodec.errors import ChatcodecError
from chatcodec.payloads import parse_json

_JSONL_SUFFIXES = (".jsonl", ".ndjson")


@dataclass(frozen=True, slots=True)
class Document:
    """One conversation or payload read from a file."""

    label: str
    """Where it came from: ``""`` for a whole file, ``":<line>"`` for a JSONL line."""
    data: object
    """The parsed JSON, or ``None`` when ``error`` is set."""
    error: str | None = None
    """Why the line could not be parsed."""


def iter_documents(path: Path) -> Iterator[Document]:
    """The documents in ``path``: the whole file, or one per non-blank JSONL line."""
    if path.suffix in _JSONL_SUFFIXES:
        yield from _lines(path)
        return
    text = path.read_text(encoding="utf-8")
    try:
        yield Document("", parse_json(text))
    except ChatcodecError:
        if "\n" not in text.strip():
            raise
        yield from _lines(path)  # a JSONL file without the suffix


def _lines(path: Path) -> Iterator[Document]:
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                yield Document(f":{number}", parse_json(line))
            except ChatcodecError as error:
                yield Document(f":{number}", None, str(error))
