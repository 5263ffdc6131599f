"""The JSON lines of a gateway's record store, streamed: a file (``--record PATH``), a
directory of one-writer shards (``--record DIR``), a line at a time, each shard in name order,
or a Redis stream (``--record redis://...``, :mod:`.record_stream`), a page at a time.

Why a module of its own: what makes a line a line is the store's, not the turn's. Every
reader of the store (:func:`chatcodec.read_records`, :func:`chatcodec.read_episodes`, the
gateway's ``GET /v1/sessions/{id}``) walks the same lines with the same rule for the ones
that are not whole: a line a crash cut short (no newline, the last of its file), a line that
is not JSON, nests deeper than a parser goes, or is no JSON object of this record version is
a loss naming its file and line, and the lines after it are read. Nothing is held but the line
being read, so memory stays flat however large the store grows.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

from chatcodec._losses import LossRecorder
from chatcodec._training.record_stream import is_redis, stream_lines

RECORD_VERSION = 1
"""The ``record`` field of every line: the shape's version, raised when a field changes meaning."""
SHARD_SUFFIX = ".jsonl"
"""The name ending of a directory's shards (``--record DIR``): the files read there, in name order."""


def record_files(path: str | os.PathLike[str]) -> list[Path]:
    """The files ``path`` names: itself, or a directory's shards in name order."""
    found = Path(path)
    if found.is_dir():
        return sorted(item for item in found.iterdir() if item.name.endswith(SHARD_SUFFIX) and item.is_file())
    return [found]


def record_lines(
    path: str | os.PathLike[str], recorder: LossRecorder, needle: bytes | None = None
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each whole record of the store at ``path`` with where it is (``line N``, or
    ``SHARD line N`` in a directory); every other line a loss on ``recorder``. With
    ``needle``, only the lines holding it are parsed (a read-back of one session skips the
    others at the speed of a byte search)."""
    if is_redis(path):
        for where, raw in stream_lines(str(path)):
            if needle is None or needle in raw:
                record = _parsed(raw, where, recorder)
                if record is not None:
                    yield where, record
        return
    shards = Path(path).is_dir()
    for file in record_files(path):
        yield from _file_lines(file, f"{file.name} " if shards else "", recorder, needle)


def _file_lines(
    file: Path, prefix: str, recorder: LossRecorder, needle: bytes | None = None
) -> Iterator[tuple[str, dict[str, Any]]]:
    try:
        opened = open(file, "rb")  # noqa: SIM115 - a shard removed between the listing and here is skipped below
    except FileNotFoundError:
        if prefix:  # a shard a cleaner removed after it was listed
            return
        raise
    with opened:
        for number, raw in enumerate(opened, start=1):
            where = f"{prefix}line {number}"
            if not raw.endswith(b"\n"):  # the last line, which a crash cut short
                if raw.strip():
                    recorder.add(
                        where,
                        "an unfinished last line",
                        "its writer stopped before the line's end (a crash mid-write); the lines before it are whole",
                    )
                return
            if not raw.strip() or (needle is not None and needle not in raw):
                continue
            record = _parsed(raw, where, recorder)
            if record is not None:
                yield where, record


def _parsed(raw: bytes, where: str, recorder: LossRecorder) -> dict[str, Any] | None:
    """The line's record, or None with a loss saying why it is none."""
    try:
        record = json.loads(raw)
    except (ValueError, RecursionError) as error:  # RecursionError: nested deeper than the parser goes
        why = "nested deeper than JSON is read" if isinstance(error, RecursionError) else f"not JSON ({error})"
        recorder.add(where, "a line that is no record", f"{why}; the other lines are read")
        return None
    if not isinstance(record, dict):
        recorder.add(where, "a line that is no record", f"a record is a JSON object, not {type(record).__name__}")
        return None
    record = cast("dict[str, Any]", record)
    version = record.get("record")
    if type(version) is not int or version != RECORD_VERSION:
        shown = json.dumps(version)[:40] if isinstance(version, str | int | float | bool | type(None)) else "a value"
        recorder.add(
            where,
            "a line that is no record",
            f"not a chatcodec record of version {RECORD_VERSION}: 'record' is {shown}",
        )
        return None
    return record
