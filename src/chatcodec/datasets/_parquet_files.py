"""Parquet files for the command line: payloads read row by row, converted by batch.

A Parquet file is read in one of three ways, by what its schema says:

- the columnar form (schema metadata ``chatcodec.form``): each row is canonical data;
- a payload column (schema metadata ``chatcodec.payload_column``, which
  :class:`~chatcodec.datasets._parquet_sink.ParquetSink` writes; or a file's only string
  column; or its one string column holding JSON objects beside scalar columns, as
  ``bench/ray_dataset.py`` writes ``row`` and ``request``): each value is one payload as
  JSON text, read exactly, and the columns beside it are the dataset's, not payload, but
  for those ``chatcodec.payload_fields`` names (a rollout's token columns), put back into it;
- a batch envelope's rows (schema metadata ``chatcodec.envelope``, which
  :class:`~chatcodec.datasets._envelope_parquet.EnvelopeParquetSink` writes): each row's
  columns are the row's fields, the JSON-text ones (``chatcodec.json_columns``) parsed;
- otherwise each row's columns are one payload's top-level keys, as Arrow writes a list of
  JSON objects (``pyarrow.Table.from_pylist``, ``datasets.Dataset.to_parquet``): the
  ``null``\\ s Arrow filled in are dropped, and those dropped from a tool schema are
  reported (:mod:`chatcodec.datasets._arrow_rows`), so the file converts as its JSON does.

A value JSON has no form for (a timestamp, a date, bytes, a decimal) is a rejected row
naming its path, with the rejects file, never a crash part-way through the output. The
row's own fields (``--id-field NAME``, ``--column NAME``) are read from columns beside the
payload and written first in the converted row (``Row.carried``).
"""

from __future__ import annotations

import datetime
import decimal
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from chatcodec._errors import ChatcodecError, json_path
from chatcodec._losses import Loss
from chatcodec._narrow import is_dict, is_list
from chatcodec._payloads import load_object
from chatcodec._registry import CANONICAL
from chatcodec.batch._convert import convert_payload, placeholder, reject_record
from chatcodec.batch._convert_records import BatchResult, ConvertOptions, Outcome, Reject
from chatcodec.batch._json_dump import dump_json
from chatcodec.datasets import _token_columns as token_columns
from chatcodec.datasets._arrow import Schema, pa, parquet
from chatcodec.datasets._arrow_form import arrow_schema, form_of
from chatcodec.datasets._arrow_rows import without_arrow_nulls
from chatcodec.datasets._canonical_rows import convert_canonical, settled
from chatcodec.datasets._columnar import from_columnar_row
from chatcodec.datasets._layout import ColumnarKind

PAYLOAD_COLUMN_KEY = b"chatcodec.payload_column"
"""Schema metadata naming the column that holds each row's payload as JSON text."""
FORMAT_KEY = b"chatcodec.format"
"""Schema metadata naming the format of the payloads in that column (the ``--to`` of
the run that wrote it), which ``validate`` reads instead of guessing."""
JSON_COLUMNS_KEY = b"chatcodec.json_columns"
"""Schema metadata listing (as a JSON array) the row columns written as JSON text
because their values were objects, lists or of mixed types."""

ENVELOPE_KEY = b"chatcodec.envelope"
"""Schema metadata naming the batch envelope of a file's rows (``openai-batch``), each
field a column (:mod:`chatcodec.datasets._envelope_parquet`)."""

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
    carried: dict[str, Any] = field(default_factory=lambda: {})
    """``{NAME: value}`` of the row's ``--id-field`` and ``--column`` columns, when they
    are columns beside the payload (the columnar form, a payload column)."""
    error: str | None = None
    """Why the row cannot be read as JSON (a value JSON has no form for), naming its path."""
    format: str | None = None
    """The format the file says its payloads are in (``canonical`` for the columnar form,
    the format chatcodec wrote a payload column in); ``None`` when it says nothing."""


@dataclass(slots=True)
class RowBatch:
    """Consecutive rows of a Parquet file, converted together."""

    rows: list[Row] = field(default_factory=lambda: [])
    """The rows, in file order."""
    size: int = 0
    """The share of the file's bytes the rows stand for (for progress)."""


def iter_row_batches(
    path: Path,
    kind: ColumnarKind | None = None,
    source: str | None = None,
    id_field: str | None = None,
    batch_size: int = ROWS_PER_BATCH,
    *,
    columns: Sequence[str] = (),
) -> Iterator[RowBatch]:
    """The rows of the Parquet file at ``path``, by batch, lazily; ``kind``: what a file of
    the columnar form must hold (``None``: whichever it holds); ``source``: the format the
    rows are said to be in (the columnar form is canonical's); ``id_field`` and
    ``columns``: the row's own fields, read from columns beside the payload."""
    file = parquet().ParquetFile(path)
    total = max(file.metadata.num_rows, 1)
    file_size = path.stat().st_size
    row_fields = tuple(name for name in (id_field, *columns) if name is not None)
    reader: Any = None
    number = 0
    for batch in file.iter_batches(batch_size=batch_size):
        listed = cast("list[dict[str, Any]]", batch.to_pylist())
        if reader is None:
            reader = _reader(file.schema_arrow, listed, kind, source, row_fields)
        rows: list[Row] = []
        for row in listed:
            number += 1
            rows.append(reader(number, row))
        yield RowBatch(rows, file_size * len(rows) // total)


def file_format(schema: Schema) -> str | None:
    """The format a Parquet file chatcodec wrote says its payloads are in, or ``None``."""
    if form_of(schema) is not None:
        return CANONICAL
    metadata: dict[bytes, bytes] = schema.metadata or {}
    return metadata.get(FORMAT_KEY, b"").decode() or None


def _reader(
    schema: Schema,
    first: list[dict[str, Any]],
    kind: ColumnarKind | None,
    source: str | None,
    row_fields: tuple[str, ...],
) -> Any:
    """How to read one row of a file with ``schema`` (``first``: its first rows)."""
    metadata: dict[bytes, bytes] = schema.metadata or {}
    json_columns = frozenset(json.loads(metadata.get(JSON_COLUMNS_KEY, b"[]")))
    form = form_of(schema)
    if form is not None:
        if source not in (None, CANONICAL):
            raise ValueError(f"the file holds the columnar form of canonical {form}s, not {source} (--from canonical)")
        if kind is not None and form != kind:
            raise ValueError(f"the file holds canonical {form}s, not {kind}s (--kind {form})")
        names = tuple(arrow_schema(form).names)
        beside = tuple(name for name in row_fields if name in schema.names and name not in names)
        return _ColumnarRow(form, names, _Carried(beside, json_columns))
    if ENVELOPE_KEY in metadata:
        return _EnvelopeRow(json_columns, metadata[ENVELOPE_KEY].decode())
    column = metadata.get(PAYLOAD_COLUMN_KEY, b"").decode() or _payload_column(schema, first)
    if column:
        beside = tuple(name for name in row_fields if name in schema.names and name != column)
        fields = token_columns.listed(metadata)
        return _TextRow(column, _Carried(beside, json_columns), file_format(schema), fields)
    return _wire_row


@dataclass(frozen=True, slots=True)
class _Carried:
    """Reads the row's own fields from their columns (JSON text where chatcodec wrote it so)."""

    names: tuple[str, ...]
    json_columns: frozenset[str]

    def __call__(self, row: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
        carried: dict[str, Any] = {}
        for name in self.names:
            value = row.get(name)
            if value is not None:
                carried[name] = json.loads(value) if name in self.json_columns else value
        return carried, non_json_value(carried)


@dataclass(frozen=True, slots=True)
class _TextRow:
    """Reads a row's payload from its JSON text column."""

    column: str
    carried: _Carried
    format: str | None
    fields: tuple[str, ...] = ()

    def __call__(self, number: int, row: dict[str, Any]) -> Row:
        payload: object = token_columns.joined(row[self.column], row, self.fields)
        carried, error = self.carried(row)
        return Row(number, payload, carried=carried, error=error, format=self.format)


@dataclass(frozen=True, slots=True)
class _ColumnarRow:
    """Reads a row of the columnar form: its form's columns only (an ``--id-field``
    column beside them is not canonical data); a row with all of them null is a
    ``--keep-lines`` placeholder."""

    form: ColumnarKind
    names: tuple[str, ...]
    carried: _Carried

    def __call__(self, number: int, row: dict[str, Any]) -> Row:
        fields = {name: row[name] for name in self.names if name in row}
        carried, error = self.carried(row)
        if all(value is None for value in fields.values()):
            return Row(number, None, canonical=True, carried=carried, error=error, format=CANONICAL)
        payload = from_columnar_row(fields, self.form)
        return Row(number, payload, canonical=True, carried=carried, error=error, format=CANONICAL)


@dataclass(frozen=True, slots=True)
class _EnvelopeRow:
    """Reads a batch envelope's row, a field per column, back into its JSON object: an
    Arrow ``null`` is an absent field, a JSON column's text is parsed (a present ``null``)."""

    json_columns: frozenset[str]
    envelope: str

    def __call__(self, number: int, row: dict[str, Any]) -> Row:
        payload = {
            name: json.loads(value) if name in self.json_columns else value
            for name, value in row.items()
            if value is not None
        }
        return Row(number, payload, error=non_json_value(payload), format=self.envelope)


def _wire_row(number: int, row: dict[str, Any]) -> Row:
    payload, losses = without_arrow_nulls(row)
    return Row(number, payload, tuple(losses), error=non_json_value(payload))


def _payload_column(schema: Schema, first: list[dict[str, Any]]) -> str | None:
    """The column holding each row's payload as JSON text: a file's only column when it is
    a string column; else its one string column, when the first value in it is a JSON
    object and every other column is a scalar (an id, a score, a split): a wire payload
    stored as columns always has a list or a struct among them (``messages``, ``input``)."""
    texts = [item.name for item in schema if item.type in (pa.string(), pa.large_string())]
    if len(schema) == 1:
        return texts[0] if texts else None
    if len(texts) != 1 or any(pa.types.is_nested(item.type) for item in schema):
        return None
    name = texts[0]
    sample = next((row[name] for row in first if row.get(name) is not None), None)
    return name if isinstance(sample, str) and sample.lstrip().startswith("{") else None


_NO_JSON_FORM: tuple[tuple[type, str], ...] = (
    (datetime.datetime, "a timestamp"),
    (datetime.date, "a date"),
    (datetime.time, "a time of day"),
    (datetime.timedelta, "a duration"),
    (bytes, "binary data"),
    (decimal.Decimal, "a decimal"),
)


def non_json_value(value: object, steps: tuple[int | str, ...] = ()) -> str | None:
    """Why ``value`` (read from Arrow) is not JSON, naming the first path to a value JSON
    has no form for; ``None`` when it is JSON. Converting such a value to text would be a
    choice (which time zone, which encoding) chatcodec will not make silently."""
    if is_dict(value):
        for key, item in value.items():
            found = non_json_value(item, (*steps, key))
            if found is not None:
                return found
        return None
    if is_list(value):
        for index, item in enumerate(value):
            found = non_json_value(item, (*steps, index))
            if found is not None:
                return found
        return None
    for kind, what in _NO_JSON_FORM:
        if isinstance(value, kind):
            return (
                f"at {json_path(steps)}: {what} ({type(value).__name__}) has no JSON form: cast the column to a "
                "string (or a number) before converting, or leave it out of the file"
            )
    return None


def convert_rows(batch: RowBatch, options: ConvertOptions, indent: int | None = None) -> BatchResult:
    """Convert every row of ``batch``, as :func:`~chatcodec.batch._convert.convert_lines` does lines
    (the output is JSON lines; a reject's record holds the row as JSON)."""
    result = BatchResult(size=batch.size)
    pieces: list[bytes] = []
    for row in batch.rows:
        payload, outcome = _converted(row, options)
        if outcome.converted is None:
            text = _record_text(payload)
            error = outcome.error or "not converted"
            result.rejects.append(Reject(row.number, error, reject_record(row.number, error, text, outcome.losses)))
            if options.keep_lines:
                result.placeholders.append(result.converted + len(result.placeholders))
                held = _placeholder_fields(row, options)
                pieces.append(dump_json(held) + b"\n" if held else placeholder(text, options.id_field, options.columns))
            continue
        pieces += (dump_json(outcome.converted, indent), b"\n")
        result.converted += 1
        result.losses.extend((row.number, loss) for loss in outcome.losses)
    result.output = b"".join(pieces)
    return result


def _record_text(payload: object) -> bytes:
    """A rejected row as its rejects-file text: JSON text as it is, else the row as JSON
    (a value JSON has no form for written as its ``str``, so the record shows it)."""
    if isinstance(payload, str):
        return payload.encode()
    return json.dumps(payload, ensure_ascii=False, default=str).encode("utf-8", "surrogatepass")


def _placeholder_fields(row: Row, options: ConvertOptions) -> dict[str, Any]:
    """What a ``--keep-lines`` placeholder of a row with columns beside its payload holds:
    its ``--id-field`` and ``--column`` values (none when it has no id)."""
    if options.id_field is None or options.id_field not in row.carried or row.error is not None:
        return {}
    return row.carried


def _converted(row: Row, options: ConvertOptions) -> tuple[object, Outcome]:
    """What a reject's record shows of ``row``, and what became of it."""
    payload = row.payload
    shown = {**row.carried, **payload} if row.carried and is_dict(payload) else payload
    if row.error is not None:
        return shown, Outcome(None, row.error)
    if row.canonical:
        if not is_dict(payload):
            return row.carried or None, Outcome(None, PLACEHOLDER_ERROR)
        if options.out_envelope is None:
            return shown, _with_carried(convert_canonical(payload, options), row.carried)
    if options.out_envelope is not None:
        # the envelope places the id and carries the columns itself: they go in with the body
        return _into_envelope(row, options)
    outcome = with_read_losses(convert_payload(payload, options), row.read_losses, options)
    return shown, _with_carried(outcome, row.carried)


def _into_envelope(row: Row, options: ConvertOptions) -> tuple[object, Outcome]:
    """A row whose ``--id-field``/``--column`` values are columns beside its payload, written
    in an envelope: the row is rebuilt with them (the envelope takes its id from there)."""
    if not row.carried:
        return row.payload, with_read_losses(convert_payload(row.payload, options), row.read_losses, options)
    try:
        body = load_object(row.payload, f"{options.source} {options.kind}")
    except ChatcodecError as error:
        return row.payload, Outcome(None, str(error))
    rebuilt = {**row.carried, **body}
    return rebuilt, with_read_losses(convert_payload(rebuilt, options), row.read_losses, options)


def _with_carried(outcome: Outcome, carried: dict[str, Any]) -> Outcome:
    """``outcome`` with the row's own fields first in the converted row."""
    if outcome.converted is None or not carried:
        return outcome
    return replace(outcome, converted={**carried, **outcome.converted})


PLACEHOLDER_ERROR = "a placeholder: this row was rejected when the file was written (its rejects file says why)"
"""The error of a columnar row of nulls, which ``--keep-lines`` wrote for a rejected row."""


def with_read_losses(outcome: Outcome, read_losses: tuple[Loss, ...], options: ConvertOptions) -> Outcome:
    """``outcome`` with what reading the row from Arrow lost; under ``strict``, a row with
    such a loss (of a kind ``strict`` refuses) is not converted."""
    if not read_losses:
        return outcome
    return settled(outcome.converted, (*read_losses, *outcome.losses), options, outcome.error)
