"""``chatcodec convert``'s options for datasets: the row's own columns and the storage mode.

``--column NAME`` (repeatable) names a dataset column that is not payload (a source, a
split, a score): it is taken out before converting, as ``--id-field`` is, and written
beside the converted payload; in a Parquet output it gets a column of its own in its
native type (the input column's Arrow type when the input is Parquet).

``--storage`` writes for storage, not for a live server: no target rule (an API version's
or a model family's, :mod:`chatcodec.providers.target_rules`) changes the body, as a
fine-tuning or archive file keeps what was asked (``skip_rules="*"``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from chatcodec.batch.convert import ConvertOptions
from chatcodec.registry import CANONICAL

STRICT_KINDS = ("content", "rule")
"""The loss kinds ``--strict`` refuses: what the model reads or writes was changed, or a
target rule changed what was asked (a ``temperature`` the API version refuses)."""


def add_dataset_options(convert: argparse.ArgumentParser) -> None:
    """Register ``--column`` and ``--storage`` on the ``convert`` parser."""
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
        "--storage",
        action="store_true",
        help="write for storage (training or archive files), not a live server: no API version or model family "
        "rule of the target changes the body",
    )


def with_storage(options: ConvertOptions, *, storage: bool) -> ConvertOptions:
    """``options`` with every target rule skipped when writing for storage."""
    if not storage:
        return options
    from dataclasses import replace

    from chatcodec.providers.target_rules import EVERY_RULE

    kept = tuple(item for item in options.encoder_options if item[0] != "skip_rules")
    return replace(options, encoder_options=(*kept, ("skip_rules", EVERY_RULE)))


def row_field_clash(options: ConvertOptions) -> str | None:
    """Why a Parquet output cannot give the row's fields columns of their own: one is a
    field of the canonical form the output holds (``--kind response --id-field id``)."""
    if options.target != CANONICAL:
        return None
    from chatcodec.datasets.layout import columnar_layout

    names = {name for name, _ in columnar_layout(options.kind).fields}
    for name in options.row_fields:
        if name in names:
            return (
                f"{name!r} is a field of canonical {options.kind}s, so it cannot also be the row's own column in a "
                f"Parquet file of the columnar form: name another field, or write JSON lines"
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
