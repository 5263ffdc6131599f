"""``chatcodec convert``: move requests or responses between wire formats.

Losses go to standard error with the document's label and JSON path; ``--strict``
turns any loss into a failure. Exit code 0 when every document converted, 1 when any
failed (each failure is printed), 2 for bad usage or an unreadable file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from chatcodec.api import convert_request, convert_response
from chatcodec.documents import Document, iter_documents
from chatcodec.errors import ChatcodecError
from chatcodec.losses import Loss
from chatcodec.payloads import load_object
from chatcodec.registry import CANONICAL, PROVIDER_NAMES


def add_convert_command(commands: Any) -> None:
    """Register ``convert`` on the CLI's sub-command parser."""
    formats = [*PROVIDER_NAMES, CANONICAL]
    convert = commands.add_parser("convert", help="convert requests or responses between wire formats")
    convert.add_argument("file", type=Path, help="a JSON payload, or JSONL with one payload per line")
    convert.add_argument("--from", dest="source", required=True, choices=formats, help="the input format")
    convert.add_argument("--to", dest="target", required=True, choices=formats, help="the output format")
    convert.add_argument("--kind", choices=("request", "response"), default="request", help="what the payloads are")
    convert.add_argument("--strict", action="store_true", help="fail a payload that cannot be carried exactly")
    convert.add_argument("--out", type=Path, help="write here instead of standard output")
    convert.add_argument("--compact", action="store_true", help="one line per payload even for a single JSON file")
    convert.set_defaults(run=run_convert)


def run_convert(arguments: argparse.Namespace, out: TextIO) -> int:
    """Convert every document of the input file; returns the exit code."""
    if arguments.out is None:
        return _convert_all(arguments, out)
    with arguments.out.open("w", encoding="utf-8") as target:
        return _convert_all(arguments, target)


def _convert_all(arguments: argparse.Namespace, out: TextIO) -> int:
    failures = 0
    total = 0
    for document in iter_documents(arguments.file):
        total += 1
        converted = _convert_one(arguments, document)
        if converted is None:
            failures += 1
            continue
        indent = None if document.label or arguments.compact else 2
        out.write(json.dumps(converted, ensure_ascii=False, indent=indent) + "\n")
    if failures:
        print(f"{failures} of {total} payload(s) not converted", file=sys.stderr)
    return 1 if failures else 0


def _convert_one(arguments: argparse.Namespace, document: Document) -> dict[str, Any] | None:
    where = f"{arguments.file}{document.label}"
    if document.error is not None:
        print(f"{where}: {document.error}", file=sys.stderr)
        return None
    convert = convert_request if arguments.kind == "request" else convert_response
    losses: list[Loss] = []
    try:
        payload = load_object(document.data, f"{arguments.source} {arguments.kind}")
        converted = convert(payload, source=arguments.source, target=arguments.target, on_loss="ignore", losses=losses)
    except ChatcodecError as error:
        print(f"{where}: {error}", file=sys.stderr)
        return None
    for loss in losses:
        print(f"{where}: loss: {loss}", file=sys.stderr)
    if losses and arguments.strict:
        print(f"{where}: not converted: {len(losses)} loss(es) under --strict", file=sys.stderr)
        return None
    return converted
