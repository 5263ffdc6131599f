"""Parquet files for the command line: payloads read row by row, results written by batch.

A Parquet file is read in one of three ways, by what its schema says:

- the columnar form (schema metadata ``chatcodec.form``): each row is canonical data;
- a payload column (schema metadata ``chatcodec.payload_column``, which
  :class:`ParquetSink` writes, or a file with a single string column): each value is one
  payload as JSON text, read exactly;
- otherwise each row's columns are one payload's top-level keys, as Arrow writes a list of
  JSON objects (``pyarrow.Table.from_pylist``, ``datasets.Dataset.to_parquet``): the
  ``null``\\ s Arrow filled in are dropped, and those dropped from a tool schema are
  reported (:mod:`chatcodec.datasets.arrow_rows`), so the file converts as its JSON does.

Converted payloads are written as the columnar form for ``--to canonical`` and as JSON
text in a ``<target>_<kind>`` column otherwise (a wire format's payloads hold free-form
values Arrow would change); a ``--keep-lines`` placeholder is a row of ``null``\\ s. The
``--id-field NAME`` of every row goes (as JSON text) to a column ``NAME`` of its own, and a
file of the columnar form with such a column gives it back to its rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from chatcodec._narrow import is_dict
from chatcodec.batch.convert import (
    BatchResult,
    ConvertOptions,
    Outcome,
    Reject,
    convert_payload,
    dump_json,
    placeholder,
    reject_record,
)
from chatcodec.datasets._arrow import Table, pa, parquet, string_array
from chatcodec.datasets.arrow_form import arrow_schema, form_of, to_table
from chatcodec.datasets.arrow_rows import without_arrow_nulls
from chatcodec.datasets.canonical_rows import convert_canonical, settled
from chatcodec.datasets.columnar import from_columnar_row
from chatcodec.datasets.layout import ColumnarKind
from chatcodec.losses import Loss
from chatcodec.registry import CANONICAL

PAYLOAD_COLUMN_KEY = b"chatcodec.payload_column"
"""Schema metadata naming the column that holds each row's payload as JSON text."""

ROWS_PER_BATCH = 128
"""Rows converted together (one worker's unit), as the JSON-lines path's ``max_lines``."""


@dataclass(frozen=True, slots=True)
class Row:
    """One row's payload, as the converter takes it."""

    number: int
    """Its row number, counting from 1 (the ``line`` of a reject)."""
    payload: object
    """Canonical data, a wire payload, or JSON text; ``None`` for a placeholder row."""
    read_losses: tuple[Loss, ...] = ()
    """What reading it from Arrow dropped where it is ambiguous (Arrow-made ``null``\\ s)."""
    canonical: bool = False
    """Whether ``payload`` is canonical data (a row of the columnar form)."""
    row_id: dict[str, Any] = field(default_factory=dict[str, Any])
    """``{NAME: value}`` of a columnar row's ``--id-field NAME`` column, when it has one."""


@dataclass(slots=True)
class RowBatch:
    """Consecutive rows of a Parquet file, converted together."""

    rows: list[Row] = field(default_factory=list[Row])
    """The rows, in file order."""
    size: int = 0
    """The share of the file's bytes the rows stand for (for progress)."""


def iter_row_batches(
    path: Path,
    kind: ColumnarKind | None = None,
    source: str | None = None,
    id_field: str | None = None,
    batch_size: int = ROWS_PER_BATCH,
) -> Iterator[RowBatch]:
    """The rows of the Parquet file at ``path``, by batch, lazily; ``kind``: what a file of
    the columnar form must hold (``None``: whichever it holds); ``source``: the format the
    rows are said to be in (the columnar form is canonical's); ``id_field``: the column of
    a columnar file that holds each row's id (as JSON text)."""
    file = parquet().ParquetFile(path)
    total = max(file.metadata.num_rows, 1)
    file_size = path.stat().st_size
    reader = _reader(file.schema_arrow, kind, source, id_field)
    number = 0
    for batch in file.iter_batches(batch_size=batch_size):
        rows: list[Row] = []
        for row in cast(list[dict[str, Any]], batch.to_pylist()):
            number += 1
            rows.append(reader(number, row))
        yield RowBatch(rows, file_size * len(rows) // total)


def _reader(schema: Any, kind: ColumnarKind | None, source: str | None, id_field: str | None) -> Any:
    """How to read one row of a file with ``schema``."""
    form = form_of(schema)
    if form is not None:
        if source not in (None, CANONICAL):
            raise ValueError(f"the file holds the columnar form of canonical {form}s, not {source} (--from canonical)")
        if kind is not None and form != kind:
            raise ValueError(f"the file holds canonical {form}s, not {kind}s (--kind {form})")
        return _ColumnarRow(form, tuple(arrow_schema(form).names), id_field if id_field in schema.names else None)
    metadata: dict[bytes, bytes] = schema.metadata or {}
    column = metadata.get(PAYLOAD_COLUMN_KEY, b"").decode() or _only_text_column(schema)
    if column:
        return _TextRow(column)
    return _wire_row


@dataclass(frozen=True, slots=True)
class _TextRow:
    """Reads a row's payload from its JSON text column."""

    column: str

    def __call__(self, number: int, row: dict[str, Any]) -> Row:
        payload: object = row[self.column]
        return Row(number, payload)


@dataclass(frozen=True, slots=True)
class _ColumnarRow:
    """Reads a row of the columnar form: its form's columns only (an ``--id-field``
    column beside them is not canonical data); a row with all of them null is a
    ``--keep-lines`` placeholder."""

    form: ColumnarKind
    names: tuple[str, ...]
    id_column: str | None

    def __call__(self, number: int, row: dict[str, Any]) -> Row:
        fields = {name: row[name] for name in self.names if name in row}
        found = None if self.id_column is None else row.get(self.id_column)
        row_id = {} if self.id_column is None or found is None else {self.id_column: json.loads(found)}
        if all(value is None for value in fields.values()):
            return Row(number, None, canonical=True, row_id=row_id)
        return Row(number, from_columnar_row(fields, self.form), canonical=True, row_id=row_id)


def _wire_row(number: int, row: dict[str, Any]) -> Row:
    payload, losses = without_arrow_nulls(row)
    return Row(number, payload, tuple(losses))


def _only_text_column(schema: Any) -> str | None:
    """The name of a file's one column when it is a string column (JSON text)."""
    if len(schema) == 1 and schema.field(0).type in (pa.string(), pa.large_string()):
        name: str = schema.field(0).name
        return name
    return None


def convert_rows(batch: RowBatch, options: ConvertOptions, indent: int | None = None) -> BatchResult:
    """Convert every row of ``batch``, as :func:`~chatcodec.batch.convert.convert_lines` does lines
    (the output is JSON lines; a reject's record holds the row as JSON)."""
    result = BatchResult(size=batch.size)
    pieces: list[bytes] = []
    for row in batch.rows:
        payload, outcome = _converted(row, options)
        if outcome.converted is None:
            text = payload.encode() if isinstance(payload, str) else dump_json(payload)
            error = outcome.error or "not converted"
            result.rejects.append(Reject(row.number, error, reject_record(row.number, error, text, outcome.losses)))
            if options.keep_lines:
                result.placeholders.append(result.converted + len(result.placeholders))
                pieces.append(placeholder(text, options.id_field))
            continue
        pieces += (dump_json(outcome.converted, indent), b"\n")
        result.converted += 1
        result.losses.extend((row.number, loss) for loss in outcome.losses)
    result.output = b"".join(pieces)
    return result


def _converted(row: Row, options: ConvertOptions) -> tuple[object, Outcome]:
    """What a reject's record shows of ``row``, and what became of it."""
    payload = row.payload
    if not row.canonical:
        return payload, with_read_losses(convert_payload(payload, options), row.read_losses, options)
    if not is_dict(payload):
        return row.row_id or None, Outcome(None, PLACEHOLDER_ERROR)
    outcome = convert_canonical(payload, options)
    if outcome.converted is not None and row.row_id:
        outcome = replace(outcome, converted={**row.row_id, **outcome.converted})
    return {**row.row_id, **payload}, outcome


PLACEHOLDER_ERROR = "a placeholder: this row was rejected when the file was written (its rejects file says why)"
"""The error of a columnar row of nulls, which ``--keep-lines`` wrote for a rejected row."""


def with_read_losses(outcome: Outcome, read_losses: tuple[Loss, ...], options: ConvertOptions) -> Outcome:
    """``outcome`` with what reading the row from Arrow lost; under ``strict``, a row with
    such a loss (of a kind ``strict`` refuses) is not converted."""
    if not read_losses:
        return outcome
    return settled(outcome.converted, (*read_losses, *outcome.losses), options, outcome.error)


class ParquetSink:
    """Where converted JSON lines go when the output is a Parquet file (see the module
    docstring for its columns); one row group per batch written."""

    def __init__(self, path: Path, options: ConvertOptions) -> None:
        self._form: ColumnarKind | None = options.kind if options.target == CANONICAL else None
        self._column = f"{options.target}_{options.kind}"
        self._id_field = options.id_field
        fields = list(arrow_schema(self._form)) if self._form else [pa.field(self._column, pa.string())]
        if self._id_field is not None:
            if self._id_field in [item.name for item in fields]:
                raise ValueError(f"--id-field {self._id_field} is a column of the output already")
            fields.append(pa.field(self._id_field, pa.string()))
        metadata = arrow_schema(self._form).metadata if self._form else {PAYLOAD_COLUMN_KEY: self._column.encode()}
        self._schema = pa.schema(fields, metadata=metadata)
        self._writer = parquet().ParquetWriter(path, self._schema)

    def write(self, result: BatchResult) -> None:
        """Append the rows of one batch's output."""
        lines = result.output.splitlines()
        if not lines:
            return
        placeholders = set(result.placeholders)
        self._writer.write_table(self._table(lines, placeholders))

    def _table(self, lines: list[bytes], placeholders: set[int]) -> Table:
        if self._id_field is None:
            payloads: list[Any] = [None if index in placeholders else line for index, line in enumerate(lines)]
            ids: list[bytes | None] = []
        else:  # each line holds the row's id first (converted or placeholder): it goes to its own column
            payloads, ids = self._split_ids(lines, placeholders, self._id_field)
        if self._form is not None:
            parsed = [payload if payload is None or is_dict(payload) else json.loads(payload) for payload in payloads]
            table = to_table(parsed, self._form)
        else:
            texts = [
                payload if payload is None or isinstance(payload, bytes) else dump_json(payload) for payload in payloads
            ]
            table = pa.Table.from_arrays([string_array(texts)], names=[self._column])
        if self._id_field is not None:
            table = table.append_column(self._id_field, string_array(ids))
        return table.replace_schema_metadata(self._schema.metadata)

    @staticmethod
    def _split_ids(lines: list[bytes], placeholders: set[int], id_field: str) -> tuple[list[Any], list[bytes | None]]:
        """Each line's payload without the ``--id-field`` (``None`` for a placeholder) and
        the id as JSON text (``None`` when the row has none)."""
        payloads: list[Any] = []
        ids: list[bytes | None] = []
        for index, line in enumerate(lines):
            value: object = json.loads(line)
            fields = value if is_dict(value) else {}
            ids.append(dump_json(fields[id_field]) if id_field in fields else None)
            payloads.append(
                None if index in placeholders else {key: item for key, item in fields.items() if key != id_field}
            )
        return payloads, ids

    def close(self) -> None:
        """Write the file's footer."""
        self._writer.close()
