"""``chatcodec convert``'s options for datasets: the row's own columns, the analyst's
layout and the storage mode.

``--column NAME`` (repeatable) names a dataset column that is not payload (a source, a
split, a score): it is taken out before converting, as ``--id-field`` is, and written
beside the converted payload; in a Parquet output it gets a column of its own in its
native type (the input column's Arrow type when the input is Parquet).

``--layout analyst`` (with ``--to canonical --out FOLDER``) writes the analyst's view
(:mod:`chatcodec.datasets._analyst_view`) of the converted rows: ``exchanges``, ``messages``
and ``parts`` Parquet files that join on ``exchange`` and the row's own columns.

``--storage`` writes for storage, not for a live server: no target rule (an API version's
or a model family's, :mod:`chatcodec._providers.contract.target_rules`) changes the body, as a
fine-tuning or archive file keeps what was asked (``skip_rules="*"``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from chatcodec._registry import CANONICAL
from chatcodec.batch._convert_records import ConvertOptions

LAYOUTS = ("exact", "analyst")
"""``--layout``: the exact form (the columnar form, or JSON text), or the analyst's view."""

STRICT_KINDS = ("content", "rule")
"""The loss kinds ``--strict`` refuses: what the model reads or writes was changed, or a
target rule changed what was asked (a ``temperature`` the API version refuses)."""


def add_dataset_options(convert: argparse.ArgumentParser) -> None:
    """Register ``--column``, ``--layout`` and ``--storage`` on the ``convert`` parser."""
    convert.add_argument(
        "--column",
        dest="columns",
        action="append",
        default=[],
        metavar="NAME",
        help="a dataset column (or top-level field) that is not payload, carried beside the converted payload; "
        "in Parquet output a column of its own, in its native type (repeatable)",
    )
    convert.add_argument(
        "--layout",
        choices=LAYOUTS,
        default="exact",
        help="exact: the columnar form or JSON text (default); analyst: with --to canonical and --out FOLDER, the "
        "analyst's view (exchanges, messages, parts .parquet files) for DuckDB or Polars",
    )
    convert.add_argument(
        "--storage",
        action="store_true",
        help="write for storage (training or archive files), not a live server: no API version or model family "
        "rule of the target changes the body",
    )


def layout_error(arguments: argparse.Namespace) -> str | None:
    """Why ``--layout analyst`` cannot be written with these arguments."""
    if arguments.layout != "analyst":
        return None
    if arguments.target != CANONICAL:
        return "--layout analyst is a view of canonical data: it needs --to canonical"
    if arguments.out is None:
        return "--layout analyst needs --out FOLDER (it writes exchanges, messages and parts .parquet files there)"
    return None


def analyst_sink(folder: Path, options: ConvertOptions) -> Any:
    """The writer of ``--layout analyst`` (:mod:`chatcodec.datasets._analyst_sink`, which needs pyarrow)."""
    from chatcodec.datasets._analyst_sink import AnalystSink

    return AnalystSink(folder, options)


def envelope_sink(path: Path, options: ConvertOptions) -> Any:
    """The writer of batch envelope rows to Parquet (:mod:`chatcodec.datasets._envelope_parquet`,
    which needs pyarrow): a column per field of the row."""
    from chatcodec.datasets._envelope_parquet import EnvelopeParquetSink

    return EnvelopeParquetSink(path, options)


def with_storage(options: ConvertOptions, *, storage: bool) -> ConvertOptions:
    """``options`` with every target rule skipped when writing for storage."""
    if not storage:
        return options
    from dataclasses import replace

    from chatcodec._providers.contract.target_rules import EVERY_RULE

    kept = tuple(item for item in options.encoder_options if item[0] != "skip_rules")
    return replace(options, encoder_options=(*kept, ("skip_rules", EVERY_RULE)))


def row_field_clash(options: ConvertOptions, layout: str = "exact") -> str | None:
    """Why a tabular output cannot give the row's fields columns of their own: one is a
    column the output has already (a field of the canonical form: ``--kind response
    --id-field id``; a column of the analyst's view: ``--column model``)."""
    if layout == "analyst":
        from chatcodec.datasets._analyst_view import COLUMN_NAMES

        taken, holder = set(COLUMN_NAMES), "the analyst's view"
    elif options.target == CANONICAL:
        from chatcodec.datasets._layout import columnar_layout

        taken = {name for name, _ in columnar_layout(options.kind).fields}
        holder = f"a Parquet file of canonical {options.kind}s"
    else:
        return None
    for name in options.row_fields:
        if name in taken:
            return (
                f"{name!r} is a column of {holder} already, so it cannot also be the row's own column: name "
                "another field, or write JSON lines"
            )
    return None


def column_types(parquet_input: Path | None, options: ConvertOptions) -> dict[str, Any]:
    """The Arrow types of the row's fields in a Parquet input, for the output's columns
    (scalar columns only: a nested one is written as its JSON values are)."""
    if parquet_input is None or not options.row_fields:
        return {}
    from chatcodec.datasets._arrow import pa, parquet

    schema = parquet().read_schema(parquet_input)
    scalar = (pa.types.is_integer, pa.types.is_floating, pa.types.is_boolean, pa.types.is_string)
    return {
        name: schema.field(name).type
        for name in options.row_fields
        if name in schema.names and any(check(schema.field(name).type) for check in scalar)
    }
