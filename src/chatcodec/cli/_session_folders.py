"""``convert --from codex FOLDER`` (or ``claude-code``): a folder of a harness's session files,
each file a row, a subagent's file linked to the session that spawned it.

A Codex subagent is a thread of its own, its rollout a file of its own naming its parent thread;
Claude Code writes a subagent's lines to its own ``agent-<id>.jsonl`` beside (or under) the
session's file. Converted one by one, a subagent's row would lose which call its work answered;
read as a folder, each file is a row, the sessions the user started first, then the
subagents', each group in the files' order (their paths: Codex names a rollout by its start
time), and a subagent's row carries the ``parent`` column a subagent held inside its parent's
file carries (``session``, ``agent``, ``tool_use_id``:
:func:`chatcodec._row_dialects.sessions.session_links`), for a target whose rows have that
column; a provider's body or ATIF's trajectory is written alone, the reader's loss naming the
parent. Every ``*.jsonl`` file under the folder is a session file; one that is not is refused
with its name, as a single file is.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from chatcodec._errors import ChatcodecError
from chatcodec._payloads import parse_json
from chatcodec._row_dialects.sessions import session_links
from chatcodec.cli import _exit_codes as exit_codes
from chatcodec.cli._documents import open_input
from chatcodec.cli._session_files import (
    LinkedRow,
    linked_rows,
    links_in_rows,
    reads_session,
    session_document,
    subagent_documents,
)

if TYPE_CHECKING:
    from chatcodec.batch._convert_records import ConvertOptions


def session_files(folder: Path) -> list[Path]:
    """The session files under ``folder``, in their paths' order."""
    return sorted(path for path in folder.rglob("*.jsonl") if path.is_file())


def first_file(folder: Path) -> Path:
    """The file a folder's format is told by (its first session file; the folder itself when it
    holds none, which the reading then refuses)."""
    files = session_files(folder)
    return files[0] if files else folder


def convert_folder(arguments: argparse.Namespace, options: ConvertOptions, write: Callable[[bytes], int]) -> int:
    """Every session file of the folder ``arguments.file`` converted, a row each (and a row per
    subagent a file holds), written by ``write``; the exit code."""
    folder: Path = arguments.file
    if not reads_session(options.source):
        print(f"{folder}: a folder is read as a harness's session files (--from claude-code or codex)", file=sys.stderr)
        return exit_codes.USAGE
    documents: list[tuple[Path, bytes]] = []
    for path in session_files(folder):
        try:
            with open_input(path) as source:
                whole = source.document if source.lines is None else session_document(source.lines)
        except (OSError, ChatcodecError) as error:
            print(f"{path}: {error}", file=sys.stderr)
            return exit_codes.NO_INPUT if isinstance(error, OSError) else 1
        documents.append((path, whole or b"[]"))
    if not documents:
        print(f"{folder}: no session file (*.jsonl) in the folder", file=sys.stderr)
        return exit_codes.NO_INPUT
    rows = _rows(documents, options)
    body = linked_rows(rows, options, quiet=arguments.quiet)
    return 1 if body is None else write(body)


def _rows(documents: list[tuple[Path, bytes]], options: ConvertOptions) -> list[LinkedRow]:
    """Each file's row with its link (a file whose lines are not a session's has none: its own
    conversion says what is wrong), then the subagents it holds inside it."""
    try:
        links = session_links([parse_json(document) for _, document in documents], options.source)
    except ChatcodecError:
        links = [None] * len(documents)
    carried = links_in_rows(options.target)
    held = {
        (parent.get("session"), parent.get("agent")): path
        for path, document in documents
        for _, parent in subagent_documents(document, options.source, options.target)
    }
    rows: list[LinkedRow] = []
    ordered = sorted(zip(documents, links, strict=True), key=lambda read: read[1] is not None)  # sessions first
    for (path, document), link in ordered:
        if link is not None and (link.get("session"), link.get("agent")) in held:
            where = held[link.get("session"), link.get("agent")]
            said = f"{path}: the subagent {link.get('agent')}'s lines, read from {where} already: not read twice"
            print(said, file=sys.stderr)
            continue
        rows.append((path, document, link if carried else None))
        for events, parent in subagent_documents(document, options.source, options.target):
            rows.append((Path(f"{path} (subagent {parent.get('agent', '')})"), events, parent))
    return rows
