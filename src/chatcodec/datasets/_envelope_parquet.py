"""Batch envelope rows as Parquet: a column per field of the row, the id typed.

An envelope (:mod:`chatcodec.batch._envelopes`) is a layout of the row, not of the file, so
``--to openai-batch --out batch.parquet`` writes the rows a JSON-lines run writes, each
top-level field in a column of its own: the id (``custom_id``, ``recordId``, ``key``) and
the other scalars in their JSON type (``string``, ``int64``, ``float64``, ``bool``), the
body and every other object, list or ``null`` as JSON text (listed in the schema metadata
``chatcodec.json_columns``), so the body comes back exactly and a present ``null`` (OpenAI's
``"error": null``) stays apart from an absent field (an Arrow ``null``). The schema metadata
``chatcodec.envelope`` names the envelope; ``--from <envelope>`` reads each row back as
the JSON object it was (``parquet_files``' envelope reader), as it reads a Parquet file whose columns
are the rows' fields (a Hugging Face dataset of batch rows, the body a struct).

A column's type is read from the first row group (:data:`~chatcodec.datasets._parquet_sink.ROWS_PER_GROUP`
rows) as the command line's other Parquet output types its row fields
(:class:`~chatcodec.datasets._parquet_sink.TypedColumns`, the one column writer of both): a
later row with a field of another type, or a field no earlier row had, stops the run with
:class:`~chatcodec.datasets._parquet_sink.ColumnTypeError` (exit 74) rather than change a value.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chatcodec._narrow import is_dict
from chatcodec.batch._convert_records import BatchResult, ConvertOptions
from chatcodec.batch._envelopes import Envelope, envelope_named, row_keys, split_pointer
from chatcodec.datasets._arrow import pa, parquet
from chatcodec.datasets._parquet_files import ENVELOPE_KEY, FORMAT_KEY, JSON_COLUMNS_KEY
from chatcodec.datasets._parquet_sink import COMPRESSION, GROUP_BYTES, ROWS_PER_GROUP, ColumnTypeError, TypedColumns

_ABSENT = object()


class EnvelopeParquetSink:
    """Where converted envelope rows go when the output is a Parquet file."""

    def __init__(self, path: Path, options: ConvertOptions, rows_per_group: int | None = None) -> None:
        spec = options.out_envelope or ""
        envelope, _ = envelope_named(spec)
        self._path = path
        self._spec = spec
        self._known = _known_columns(envelope, options.columns)
        self._rows_per_group = rows_per_group or ROWS_PER_GROUP
        self._pending: list[dict[str, Any]] = []
        self._pending_bytes = 0
        self._names: list[str] = []
        self._columns = TypedColumns(absent=_ABSENT)  # a present ``null`` is JSON text, apart from an absent field
        self._writer: Any = None
        self._schema: Any = None

    def write(self, result: BatchResult) -> None:
        """Take the rows of one batch's output (written when a row group is full)."""
        placeholders = set(result.placeholders)
        for index, line in enumerate(result.output.splitlines()):
            parsed: object = json.loads(line)
            self._pending.append(parsed if is_dict(parsed) and index not in placeholders else {})
            self._pending_bytes += len(line)
        if len(self._pending) >= self._rows_per_group or self._pending_bytes >= GROUP_BYTES:
            self._flush()

    def close(self) -> None:
        """Write what is left and the file's footer."""
        self._flush()
        writer = self._writer or self._open([])  # no row at all: the envelope's columns, every one JSON text
        writer.close()

    def _flush(self) -> None:
        if not self._pending:
            return
        rows, self._pending, self._pending_bytes = self._pending, [], 0
        writer = self._writer or self._open(rows)
        for row in rows:
            stray = next((key for key in row if key not in self._columns.types), None)
            if stray is not None:
                raise ColumnTypeError(
                    f"a row has a field {stray!r} no row of the first row group had, so the file has no column for "
                    "it; the file holds the rows before that row group: write JSON lines"
                )
        columns = [self._columns.array(name, [row.get(name, _ABSENT) for row in rows]) for name in self._names]
        table = pa.Table.from_arrays(columns, schema=self._schema)
        writer.write_table(table, row_group_size=len(table))

    def _open(self, rows: list[dict[str, Any]]) -> Any:
        """The columns, in the order of the first rows' fields, then the envelope's others."""
        seen = dict.fromkeys(key for row in rows for key in row)
        self._names = [*seen, *(name for name in self._known if name not in seen)]
        fields = [self._columns.settle(name, [row.get(name, _ABSENT) for row in rows]) for name in self._names]
        metadata = {
            ENVELOPE_KEY: self._spec.encode(),
            FORMAT_KEY: self._spec.encode(),
            JSON_COLUMNS_KEY: self._columns.json_listed(self._names),
        }
        self._schema = pa.schema(fields, metadata=metadata)
        self._writer = parquet().ParquetWriter(self._path, self._schema, compression=COMPRESSION)
        return self._writer


def _known_columns(envelope: Envelope, columns: tuple[str, ...]) -> list[str]:
    """Every top-level field the envelope's rows may hold, the dataset's own columns first."""
    placed = [split_pointer(pointer)[0] for pointer, _ in envelope.layout]
    return list(dict.fromkeys([*columns, *placed, *sorted(row_keys(envelope) - set(placed))]))
