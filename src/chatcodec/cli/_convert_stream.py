"""``chatcodec convert`` of a stream's server-sent events: the source's events written as the
target's stream (its own SSE framing), through the one stream path every proxy uses
(:class:`~chatcodec.StreamConverter`), line by line in constant memory.

A file whose first line is an SSE field (``event:``, ``data:``) is a stream, so the same
command converts a recorded request, response or stream. What the target cannot carry is
reported on standard error as a document's losses are; under ``--strict`` a stream with a
refused loss is written nowhere (its output is held until the stream has ended). A stream cut
before its format's last event is an error naming what never came, or with ``--partial`` the
events that arrived, closed in the target's shape.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from chatcodec._errors import ChatcodecError
from chatcodec._losses import Loss
from chatcodec.batch._convert_records import ConvertOptions
from chatcodec.cli import _exit_codes as exit_codes
from chatcodec.cli._pending_output import PendingOutput
from chatcodec.cli._run_report import report_losses
from chatcodec.streams._convert import StreamConverter


def convert_event_stream(
    arguments: argparse.Namespace, options: ConvertOptions, lines: Iterable[bytes], out: Callable[[bytes], object]
) -> int:
    """The stream in ``lines`` converted and written to ``--out`` (or with ``out``); the exit code."""
    if arguments.out is None or options.strict:  # under --strict the output is held until the end
        return _converted(arguments, options, lines, out)
    with PendingOutput(arguments.out) as pending:
        with Path(pending.path or arguments.out).open("wb") as file:
            code = _converted(arguments, options, lines, file.write)
        if code == exit_codes.OK:
            pending.commit()
    return code


def _converted(
    arguments: argparse.Namespace, options: ConvertOptions, lines: Iterable[bytes], out: Callable[[bytes], object]
) -> int:
    path: Path = arguments.file
    losses: list[Loss] = []
    held: list[bytes] = []
    write: Callable[[bytes], object] = held.append if options.strict else out
    try:
        converter = StreamConverter(
            options.source, options.target, options=dict(options.encoder_options), on_loss="ignore", losses=losses
        )
        for line in lines:
            write(converter.feed(line))
        write(converter.close(partial=arguments.partial))
    except ChatcodecError as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 1
    refused = [loss for loss in losses if loss.kind in options.strict_kinds] if options.strict else []
    if refused:
        listed = "\n".join(f"  {loss}" for loss in refused)
        print(f"{path}: not converted under strict: {len(refused)} loss(es):\n{listed}", file=sys.stderr)
        return 1
    report_losses(path, losses, sys.stderr.write, quiet=arguments.quiet)
    if options.strict:
        _write_held(arguments, b"".join(held), out)
    return exit_codes.OK


def _write_held(arguments: argparse.Namespace, body: bytes, out: Callable[[bytes], object]) -> None:
    if arguments.out is None:
        out(body)
        return
    with PendingOutput(arguments.out) as pending:
        Path(pending.path or arguments.out).write_bytes(body)
        pending.commit()
