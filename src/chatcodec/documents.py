"""Reading the command line's input files: one JSON document, or JSON lines.

JSONL files (``.jsonl``/``.ndjson``, or any file whose first line is a whole JSON value
followed by more lines) are read line by line, so a dataset of any size converts in
constant memory; a line that is not JSON is reported with its number and never
silently skipped. Blank lines are skipped but still count in the line numbers.
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


def is_json_lines(path: Path) -> bool:
    """Whether ``path`` holds JSON lines rather than one JSON document.

    True for the ``.jsonl``/``.ndjson`` suffixes, for an empty or blank file (no
    documents), and for a file whose first non-blank line is a whole JSON value followed
    by more non-blank lines. Only when the first line is not JSON on its own (a
    pretty-printed document, or JSONL whose first line is broken) is the whole file read
    to tell the two apart.
    """
    if path.suffix in _JSONL_SUFFIXES:
        return True
    with path.open("rb") as lines:
        first = next((line for line in lines if line.strip()), None)
        if first is None:
            return True
        try:
            parse_json(first)
        except ChatcodecError:
            pass
        else:
            return any(line.strip() for line in lines)
    text = path.read_bytes()
    try:
        parse_json(text)
    except ChatcodecError:
        return b"\n" in text.strip()
    return False


def _lines(path: Path) -> Iterator[Document]:
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                yield Document(f":{number}", parse_json(line))
            except ChatcodecError as error:
                yield Document(f":{number}", None, str(error))
