"""The ``convert`` command's arguments, one function per option group: what is converted,
which losses reject a payload, the files and processes, what is printed, the rows' places
and ids, and what the target's encoder is given. Split from :mod:`chatcodec.cli._convert`
(which runs the command) so neither grows past a screen per function.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from chatcodec.cli import _presets as presets
from chatcodec.cli._progress import PROGRESS_CHOICES
from chatcodec.cli._run_report import SHOWN

REJECTS_SUFFIX = ".rejects.jsonl"

FILE_FORMATS = ("json", "parquet")
"""The file formats ``--in-format`` and ``--out-format`` name (JSON covers JSON lines)."""


EXIT_CODES_HELP = (
    "exit codes: 0 everything converted; 1-63 that many payloads rejected (63: 63 or more, the count is printed); "
    "64 bad usage; 66 input missing or unreadable; 69 an extra or an installed codec not available; "
    "70 internal error; 74 I/O error"
)


def add_convert_arguments(convert: Any) -> None:
    """Every argument of ``convert`` except the layout and dataset ones, by option group."""
    _add_payloads(convert)
    _add_strictness(convert)
    _add_files(convert)
    _add_reports(convert)
    _add_rows(convert)
    _add_encoder_settings(convert)


def _add_payloads(convert: Any) -> None:
    """What is converted: the file, its wire formats and the payloads' kind."""
    convert.add_argument(
        "file",
        type=Path,
        help="a JSON payload, JSONL with one payload per line, or a stream's server-sent events ('-': standard input)",
    )
    convert.add_argument(
        "--from",
        dest="source",
        type=presets.row_format,
        metavar="FORMAT",
        help=presets.FORMATS_HELP + " (left out: the format the file's first document shows, said on standard error)",
    )
    convert.add_argument("--to", dest="target", required=True, type=presets.row_format, metavar="FORMAT")
    convert.add_argument(
        "--kind", choices=("request", "response"), help="what the payloads are (default: request, or the envelope's)"
    )
    convert.add_argument(
        "--partial",
        action="store_true",
        help="a stream cut before its last event: write what arrived, closed in the target's shape (else an error)",
    )


def _add_strictness(convert: Any) -> None:
    """Which losses reject a payload."""
    convert.add_argument(
        "--strict",
        action="store_true",
        help="reject a payload with a content loss (what the model reads or writes) or one a target rule changed",
    )
    convert.add_argument(
        "--strict-all", action="store_true", help="reject a payload with a loss of any kind (settings, rules, ...)"
    )


def _add_files(convert: Any) -> None:
    """Where the output goes, the files' formats, and how many processes write it."""
    convert.add_argument("--out", type=Path, help="write here instead of standard output")
    convert.add_argument(
        "--in-format",
        choices=FILE_FORMATS,
        help="the input file's format: json (a JSON document or JSON lines) or parquet (default: parquet for a "
        ".parquet file, else json)",
    )
    convert.add_argument(
        "--out-format",
        choices=FILE_FORMATS,
        help="the output file's format (default: parquet when --out ends in .parquet, else json): Parquet holds "
        "the columnar form for --to canonical, else each payload as JSON text",
    )
    convert.add_argument("--compact", action="store_true", help="one line per payload even for a single JSON file")
    convert.add_argument(
        "--workers",
        type=_workers,
        default=1,
        metavar="N",
        help="processes converting JSONL lines: a number, or 'auto' for every usable core (default: 1)",
    )
    convert.add_argument(
        "--rejects",
        type=Path,
        metavar="PATH",
        help=f"JSONL of the lines not converted (default: OUT's stem + {REJECTS_SUFFIX} beside --out, or the "
        f"input's stem + {REJECTS_SUFFIX} in the current folder); written only when a line is rejected",
    )


def _add_reports(convert: Any) -> None:
    """What is printed of the losses and the progress."""
    convert.add_argument("--quiet", action="store_true", help="print only counts of losses and rejects, not each one")
    convert.add_argument(
        "--progress",
        choices=PROGRESS_CHOICES,
        default="auto",
        help="auto (default): a bar on a terminal, else a line every few seconds (none with --quiet); bar; plain; none",
    )
    convert.add_argument(
        "--all-losses",
        action="store_true",
        help=f"print every loss on its own line (default: the first {SHOWN}, then a summary by kind and path)",
    )
    convert.add_argument(
        "--losses-file",
        type=Path,
        metavar="PATH",
        help='write every loss as a JSON line ({"line", "kind", "path", "what", "why"}) to PATH',
    )


def _add_rows(convert: Any) -> None:
    """How JSONL rows keep their place and their id."""
    convert.add_argument(
        "--keep-lines",
        action="store_true",
        help="keep JSONL output aligned with the input: write a placeholder line (null) for each rejected line",
    )
    convert.add_argument(
        "--id-field",
        metavar="NAME",
        help=(
            "the row's id, not payload: taken out before converting (no loss for it) and written first in the "
            "converted row; with --keep-lines the placeholder of a rejected line is {NAME: value}"
        ),
    )


def _add_encoder_settings(convert: Any) -> None:
    """What the target's encoder is given besides the payload."""
    convert.add_argument(
        "--option",
        dest="encoder_options",
        type=encoder_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a setting for the target's encoder by its name, VALUE read as JSON when it is JSON (repeatable; e.g. "
        "--option max_tokens=1024 for Anthropic, which requires max_tokens); a name the encoder does not take is "
        "refused, with its options listed",
    )
    convert.add_argument(
        "--extra-field",
        dest="extra_fields",
        type=encoder_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a wire field every converted request sends as it is, VALUE read as JSON when it is JSON (repeatable; "
        'e.g. --extra-field metadata=\'{"user_id": "u-1"}\')',
    )


def encoder_option(text: str) -> tuple[str, object]:
    key, equals, value = text.partition("=")
    if not equals or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


def _workers(text: str) -> int:
    if text == "auto":
        from chatcodec.batch._parallel import usable_cores

        return usable_cores()
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of processes or 'auto', got {text!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"needs at least 1 process, got {count}")
    return count
