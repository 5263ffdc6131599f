"""Reading the command line's input files: one JSON document, or JSON lines.

JSONL files (``.jsonl``/``.ndjson``, or for ``convert`` any file whose first line is a
whole JSON value followed by more lines) are read line by line, so a dataset of any size
converts in constant memory; a line that is not JSON is reported with its number and
never silently skipped. Blank lines are skipped but still count in the line numbers.
"""

from __future__ import annotations

import io
import itertools
import os
import stat
import sys
from collections.abc import Generator, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from chatcodec._errors import ChatcodecError
from chatcodec._narrow import as_dict
from chatcodec._payloads import parse_json
from chatcodec.cli._json_array import array_items, starts_an_array

_JSONL_SUFFIXES = (".jsonl", ".ndjson")


@dataclass(frozen=True, slots=True)
class Document:
    """One conversation or payload read from a file."""

    label: str
    """Where it came from: ``""`` for a whole file, ``":<line>"`` for a JSONL line,
    ``"[<index>]"`` for an item of a JSON array."""
    data: object
    """The parsed JSON, or ``None`` when ``error`` is set."""
    error: str | None = None
    """Why the line could not be parsed."""
    notes: tuple[str, ...] = ()
    """What reading it changed where that is ambiguous (a ``null`` Arrow filled into a
    Parquet row's tool schema, dropped: :mod:`chatcodec.datasets._arrow_rows`)."""
    format: str | None = None
    """The format the file says it holds (a Parquet file chatcodec wrote names it in its
    schema metadata), read as told rather than guessed from markers."""


STDIN = "-"
"""The file name that means standard input, as for most command-line tools."""


def is_stdin(path: Path) -> bool:
    """Whether ``path`` is ``-``, standard input."""
    return str(path) == STDIN


def iter_documents(path: Path, *, parquet: bool = False, one_list: bool = False) -> Iterator[Document]:
    """The documents in ``path`` (``-``: standard input): the whole file, or one per
    non-blank JSONL line; with ``parquet``, one per row of a Parquet file
    (:mod:`chatcodec.datasets._parquet_files`, which needs pyarrow); ``one_list``: a JSON
    array of objects is one conversation (a framework's stored message list, whose
    messages have no ``role``), not a row per item."""
    if parquet:
        from chatcodec.datasets._parquet_files import iter_row_batches

        for batch in iter_row_batches(path):
            for row in batch.rows:
                notes = tuple(str(loss) for loss in row.read_losses)
                if row.error is not None:
                    yield Document(f":{row.number}", None, row.error)
                    continue
                payload = parse_json(row.payload) if isinstance(row.payload, str) else row.payload
                yield Document(f":{row.number}", payload, notes=notes, format=row.format)
        return
    if path.suffix in _JSONL_SUFFIXES and not is_stdin(path):
        yield from _lines(path)
        return
    with _binary(path) as stream:
        head = _through_first_content(stream)
        if head and starts_an_array(head[-1]):
            yield from _array_documents(array_items(stream, b"".join(head)), one_list=one_list)
            return
        # bytes: text that is not UTF-8 is then a PayloadError, not a crash
        data = b"".join(head) + stream.read()
    try:
        yield Document("", parse_json(data))
    except ChatcodecError:
        if b"\n" not in data.strip():
            raise
        yield from _numbered(io.BytesIO(data))  # a JSONL file without the suffix


def _array_documents(items: Iterator[bytes], *, one_list: bool = False) -> Iterator[Document]:
    """A JSON array file's documents: one conversation when it is a list of messages (its
    first item has a ``role``, or is an object that holds no ``messages`` when ``one_list``
    says the file is a framework's message list or when it is a stored conversation's first
    item without a role: a Responses item the OpenAI Agents SDK stored, a framework's message),
    else a row per item, labelled by its index (``[3]``)."""
    first = next(items, None)
    if first is None:
        yield Document("", [])
        return
    try:
        opening: object = parse_json(first)
    except ChatcodecError:
        opening = None
    first_object = as_dict(opening)
    whole = first_object is not None and (
        "role" in first_object or ((one_list or _stored_item(first_object)) and "messages" not in first_object)
    )
    if opening is None or whole:  # read whole: errors name $[0]...
        yield Document("", parse_json(b"[" + b",".join([first, *items]) + b"]"))
        return
    yield Document("[0]", opening)
    for index, item in enumerate(items, start=1):
        try:
            yield Document(f"[{index}]", parse_json(item))
        except ChatcodecError as error:
            yield Document(f"[{index}]", None, str(error))


def _stored_item(first: dict[str, Any]) -> bool:
    from chatcodec._validation import opens_stored_list

    return opens_stored_list(first)


@dataclass(frozen=True, slots=True)
class InputFile:
    """An input file opened for ``convert``: JSON lines to stream, or one JSON document."""

    lines: Iterator[bytes] | None
    """The raw lines (terminators kept) when the file holds JSON lines, read lazily."""
    document: bytes | None
    """The whole file when it holds one JSON document (or something that is not JSON)."""
    size: int | None
    """Its size in bytes when known (a regular file), for progress."""
    indexed: bool = False
    """Whether ``lines`` are the items of a JSON array (:mod:`chatcodec.cli._json_array`),
    numbered by their index from 0, not by line."""


@contextmanager
def open_input(path: Path) -> Generator[InputFile]:
    """Open ``path`` and tell JSON lines from one JSON document, reading each byte once.

    JSON lines: the ``.jsonl``/``.ndjson`` suffixes, an empty or blank file (no
    documents), or a first non-blank line that is a whole JSON value followed by more
    non-blank lines; they stream in constant memory, from a pipe too. A JSON array (a
    training file as downloaded: ``alpaca_data.json``) streams its items as rows. Only
    when the first line is not JSON on its own (a pretty-printed document, or JSON lines
    whose first line is broken) is the whole file read to tell the two apart.
    """
    with _binary(path) as stream:
        size = _regular_size(stream)
        if path.suffix in _JSONL_SUFFIXES:
            yield InputFile(iter(stream), None, size)
            return
        head = _through_first_content(stream)
        if not head or not head[-1].strip():  # nothing but blank lines
            yield InputFile(iter(head), None, size)
        elif starts_an_array(head[-1]):
            yield InputFile(array_items(stream, b"".join(head)), None, size, indexed=True)
        elif _is_json(head[-1]):
            after = _through_first_content(stream)
            if after and after[-1].strip():
                yield InputFile(itertools.chain(head, after, stream), None, size)
            else:
                yield InputFile(None, b"".join(head + after), size)
        else:
            whole = b"".join(head) + stream.read()
            if _is_json(whole) or b"\n" not in whole.strip():
                yield InputFile(None, whole, size)
            else:
                yield InputFile(iter(io.BytesIO(whole)), None, size)  # split exactly as a file is


@contextmanager
def _binary(path: Path) -> Generator[BinaryIO]:
    """``path`` opened for reading bytes; ``-`` is standard input, left open after."""
    if is_stdin(path):
        yield sys.stdin.buffer
        return
    with path.open("rb", buffering=_READ_BUFFER) as stream:
        yield stream


_READ_BUFFER = 1 << 20
"""Bytes read from a file at a time: a dataset's lines run to tens of kilobytes, and
with Python's default 8 KiB buffer reading a 40 KB line took ~20 us, 7 us with 1 MiB
(``chatcodec convert``)."""


def _through_first_content(stream: BinaryIO) -> list[bytes]:
    """Lines up to and including the next non-blank one (or to the end)."""
    lines: list[bytes] = []
    for line in stream:
        lines.append(line)
        if line.strip():
            break
    return lines


def _is_json(text: bytes) -> bool:
    try:
        parse_json(text)
    except ChatcodecError:
        return False
    return True


def _regular_size(stream: BinaryIO) -> int | None:
    try:
        status = os.fstat(stream.fileno())
    except (OSError, ValueError):  # a stream with no file behind it (a test's standard input)
        return None
    return status.st_size if stat.S_ISREG(status.st_mode) and status.st_size > 0 else None


def _lines(path: Path) -> Iterator[Document]:
    with path.open("rb") as lines:  # bytes: a line that is not UTF-8 is one bad document
        yield from _numbered(lines)


def _numbered(lines: Iterable[bytes]) -> Iterator[Document]:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield Document(f":{number}", parse_json(line))
        except ChatcodecError as error:
            yield Document(f":{number}", None, str(error))
