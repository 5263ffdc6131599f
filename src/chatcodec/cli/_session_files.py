"""A harness's session file (``convert --from claude-code``/``codex``) read whole, as one
conversation.

A session file looks like JSON lines, and every other JSON-lines input is a row a line; here the
lines are one session (each a harness event), so they are gathered, in order, into the one list
the session reader takes (:mod:`chatcodec._row_dialects.sessions`), and converted as a single
document. A line that is not JSON refuses the session with its line number: a session read
without one of its lines would be a different conversation. ``validate --format claude-code``
(or ``codex``) reads the file the same way, as one conversation.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from chatcodec._errors import ChatcodecError, PayloadError
from chatcodec._payloads import parse_json
from chatcodec._row_dialects.dialects import SESSION_DIALECTS, TRAINING_DIALECTS, WRITTEN_ONLY_DIALECTS
from chatcodec._row_dialects.sessions import read_session, session_subagents
from chatcodec.batch._convert import convert_payload
from chatcodec.batch._json_dump import dump_json
from chatcodec.cli._documents import Document, open_input
from chatcodec.cli._run_report import report_losses

if TYPE_CHECKING:
    from chatcodec._model.messages import AnyMessage
    from chatcodec.batch._convert_records import ConvertOptions

TABLES_REFUSED = (
    "a session file (or a folder of them) converts to JSON lines, a row each (a subagent's with its parent "
    "column): write --out FILE.jsonl, then convert that file to Parquet or --layout analyst"
)
"""Why a session is not written as tables: its rows are gathered whole, never through the table writer."""
LinkedRow = tuple[Path, bytes, "dict[str, str] | None"]
"""A session's document, where its losses are reported, and its ``parent`` link (None: none)."""


def reads_session(source: str) -> bool:
    """Whether ``--from source`` names a session dialect (a file is one conversation)."""
    return source in SESSION_DIALECTS


def session_document(lines: Iterable[bytes]) -> bytes:
    """A session file's non-blank lines as one JSON array; a line that is not JSON is a
    :class:`~chatcodec.PayloadError` naming its line number (counting from 1)."""
    events: list[object] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            events.append(parse_json(line))
        except ChatcodecError as error:
            raise PayloadError(f"line {number} of the session is not JSON: {error}") from None
    return dump_json(events)


def session_file_document(path: Path) -> Document:
    """``validate --format claude-code``'s one document: the file's events, as a list (its
    lines gathered as ``convert`` gathers them, or a JSON array of them); a line that is not
    JSON is the document's error."""
    try:
        with open_input(path) as source:
            whole = source.document if source.lines is None else session_document(source.lines)
        return Document("", parse_json(whole or b"[]"))
    except ChatcodecError as error:
        return Document("", None, str(error))


def session_messages(events: object, dialect: str, *, strict: bool) -> list[AnyMessage]:
    """The conversation of a session's ``events``, as its harness's wire codec reads the
    request the session reader makes of them (``strict``: that codec's strict reading)."""
    from chatcodec._api import decode_request

    read = read_session(events, dialect)
    return list(decode_request(read.format, read.body, strict=strict).messages)


def subagent_documents(whole: bytes, source: str, target: str) -> list[tuple[bytes, dict[str, str]]]:
    """The subagents' conversations a session file holds beside its own (its lines ``whole``, a
    JSON array), each as the document of its own lines and its ``parent`` link, for a ``target``
    whose rows carry that link in a column (a training dialect's row, not ATIF's one trajectory
    nor a provider's body); none for another target, whose row's loss names each subagent."""
    if not links_in_rows(target):
        return []
    try:
        found = session_subagents(parse_json(whole), source)
    except ChatcodecError:  # the session's own reading says what is wrong with it
        return []
    return [(dump_json(subagent["events"]), subagent["parent"]) for subagent in found]


def links_in_rows(target: str) -> bool:
    """Whether ``target``'s rows carry a subagent's ``parent`` link in a column (a training
    dialect's row; not ATIF's one trajectory nor a provider's body, whose losses name it)."""
    return target in TRAINING_DIALECTS and target not in WRITTEN_ONLY_DIALECTS


def linked_rows(rows: Sequence[LinkedRow], options: ConvertOptions, *, quiet: bool) -> bytes | None:
    """Each session document converted, one JSON line each, its losses reported under its
    place and its ``parent`` link (where it has one) in the row's ``parent`` column; None
    after printing the first that fails."""
    body = b""
    for where, document, parent in rows:
        row = convert_payload(document, options)
        if row.converted is None:
            print(f"{where}: {row.error}", file=sys.stderr)
            return None
        report_losses(where, row.losses, sys.stderr.write, quiet=quiet)
        body += dump_json(row.converted if parent is None else {**row.converted, "parent": parent}) + b"\n"
    return body
