"""The command line's Parquet output: converted rows as a file an analyst can query.

Converted payloads are written as the columnar form for ``--to canonical`` and as JSON
text in a ``<target>_<kind>`` column otherwise (a wire format's payloads hold free-form
values Arrow would change), but for a rollout's token columns, typed lists beside it
(:mod:`~chatcodec.datasets._token_columns`); a ``--keep-lines`` placeholder is a row of ``null``\\ s. The
row's own fields (``--id-field NAME``, ``--column NAME``) each get a column of their own,
in their native type: the Arrow type of the input column when the input was Parquet
(``column_types``), else the one JSON type their values share in the first row group
(``int64``, ``float64``, ``bool``, ``string``); objects, lists and mixed types are JSON
text, listed in the schema metadata ``chatcodec.json_columns`` so a reader gives the
values back.

Rows are written in row groups of :data:`ROWS_PER_GROUP` (or :data:`GROUP_BYTES`) with zstd compression (measured:
128-row groups gave 93 MB and a 19 MB footer for 200k rows, against 5 MB with zstd
and 64k-row groups); the columnar form's round trip stays exact, as the bytes of a
Parquet file are not its values.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from chatcodec._narrow import is_dict
from chatcodec._registry import CANONICAL
from chatcodec.batch._convert_records import BatchResult, ConvertOptions
from chatcodec.batch._json_dump import dump_json
from chatcodec.datasets import _token_columns as token_columns
from chatcodec.datasets._arrow import Array, DataType, Field, Table, pa, parquet, string_array
from chatcodec.datasets._arrow_form import arrow_schema, to_table
from chatcodec.datasets._layout import ColumnarKind
from chatcodec.datasets._parquet_files import FORMAT_KEY, JSON_COLUMNS_KEY, PAYLOAD_COLUMN_KEY

ROWS_PER_GROUP = 65_536
"""Rows in one Parquet row group: large enough that a column chunk compresses well and
the footer stays small, small enough that a reader's filter skips most of a file."""

GROUP_BYTES = 128 << 20
"""The most bytes of Arrow data held for one row group: a group closes at
:data:`ROWS_PER_GROUP` rows or this size, whichever comes first, so a dataset of long
agent sessions (tens of kilobytes a row) is still written in bounded memory."""

COMPRESSION = "zstd"
"""The Parquet compression codec of the files the command line writes."""


class ColumnTypeError(ValueError):
    """A row field's value (``--id-field``, ``--column``, an envelope's field) does not fit
    the type its column got."""


class TypedColumns:
    """The columns of a row's own fields, as both Parquet sinks write them (this module's, and
    the envelope rows' of :mod:`~chatcodec.datasets._envelope_parquet`): each in the one scalar
    JSON type its values share in the first row group (``bool``, ``int64``, ``float64``,
    ``string``), else JSON text (objects, lists, mixed types), those listed in the schema
    metadata ``chatcodec.json_columns`` so a reader gives the values back; a later value that
    does not fit its column stops the run with :class:`ColumnTypeError` rather than change.
    ``absent`` is the value that stands for no value (an Arrow ``null``), and ``empty`` the
    type of a column the first row group gives no value (``None``: JSON text)."""

    def __init__(
        self, types: Mapping[str, DataType] | None = None, *, absent: object = None, empty: DataType | None = None
    ) -> None:
        self.types: dict[str, DataType] = dict(types or {})
        """Each column's type, given (the input Parquet file's) or read from the first row group."""
        self.json: set[str] = set()
        """The columns written as JSON text."""
        self._absent = absent
        self._empty = empty

    def settle(self, name: str, first: list[Any]) -> Field:
        """The column's field, its type read from the first row group's values (unless given)."""
        if name not in self.types:
            present: set[type[Any]] = {type(value) for value in first if value is not self._absent}
            kind = _scalar_type(present) if present else self._empty
            if kind is None:
                self.json.add(name)
            self.types[name] = kind or pa.string()
        return pa.field(name, self.types[name])

    def json_listed(self, names: Sequence[str]) -> bytes:
        """The schema metadata value naming the JSON-text columns among ``names``, in order."""
        return json.dumps([name for name in names if name in self.json]).encode()

    def array(self, name: str, values: list[Any]) -> Array:
        """One row group's values of the column, in its type."""
        absent = self._absent
        if name in self.json:
            return string_array([None if value is absent else dump_json(value) for value in values])
        kind = self.types[name]
        try:
            return pa.array([None if value is absent else value for value in values], kind)
        except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError) as error:
            raise ColumnTypeError(
                f"the column {name!r} is {kind} (the type of its values in the first row group), and a later row's "
                f"value does not fit ({error}); the file holds the rows before that row group: give the column one "
                "type, or write JSON lines"
            ) from None


class ParquetSink:
    """Where converted JSON lines go when the output is a Parquet file (see the module
    docstring for its columns)."""

    def __init__(
        self,
        path: Path,
        options: ConvertOptions,
        column_types: Mapping[str, DataType] | None = None,
        rows_per_group: int | None = None,
    ) -> None:
        self._path = path
        self._form: ColumnarKind | None = options.kind if options.target == CANONICAL else None
        self._column = f"{options.target}_{options.kind}"
        self._target = options.target
        self._row_fields = options.row_fields
        self._typed = token_columns.payload_fields(options.target) if self._form is None else []
        clash = [name for name in self._row_fields if name in self._payload_fields()]
        if clash:
            raise ValueError(f"{clash[0]!r} is a column of the output already (a field of the payload)")
        self._columns = TypedColumns(column_types, empty=pa.string())
        self._rows_per_group = rows_per_group or ROWS_PER_GROUP
        self._pending: list[tuple[Table, list[list[Any]]]] = []
        self._pending_rows = 0
        self._pending_bytes = 0
        self._writer: Any = None
        self._metadata: dict[bytes, bytes] = {}

    def write(self, result: BatchResult) -> None:
        """Take the rows of one batch's output (written when a row group is full)."""
        lines = result.output.splitlines()
        if not lines:
            return
        payloads, values = self._split(lines, set(result.placeholders))
        self._pending.append((payloads, values))
        self._pending_rows += len(lines)
        self._pending_bytes += payloads.nbytes
        if self._pending_rows >= self._rows_per_group or self._pending_bytes >= GROUP_BYTES:
            self._flush()

    def close(self) -> None:
        """Write what is left and the file's footer."""
        self._flush()
        writer = self._writer
        if writer is None:  # no row at all: an empty file of the same schema
            writer = self._open([[] for _ in self._row_fields])
        writer.close()

    def _payload_fields(self) -> list[Field]:
        return list(arrow_schema(self._form)) if self._form else [pa.field(self._column, pa.string()), *self._typed]

    def _split(self, lines: list[bytes], placeholders: set[int]) -> tuple[Table, list[list[Any]]]:
        """The batch's payloads as a table, and each row field's values (each line holds
        the row's fields first, converted or placeholder: they go to their own columns)."""
        payloads: list[Any] = []
        values: list[list[Any]] = [[] for _ in self._row_fields]
        for index, line in enumerate(lines):
            if not self._row_fields and not self._typed:
                payloads.append(None if index in placeholders else line)
                continue
            parsed: object = json.loads(line)
            row = parsed if is_dict(parsed) else {}
            for column, name in zip(values, self._row_fields, strict=True):
                column.append(row.get(name))
            kept = {key: item for key, item in row.items() if key not in self._row_fields}
            payloads.append(None if index in placeholders else kept)
        if self._form is not None:
            parsed_rows = [item if item is None or is_dict(item) else json.loads(item) for item in payloads]
            return to_table(parsed_rows, self._form), values
        names = [field.name for field in self._typed]
        typed: list[list[Any]] = [[] for _ in names]
        texts: list[bytes | None] = []
        for item in payloads:
            written: Any = item
            if names:  # a rollout's token columns go to their typed columns (a placeholder's are null)
                written, fields = token_columns.split(item, names) if is_dict(item) else (item, [None] * len(names))
                for column, value in zip(typed, fields, strict=True):
                    column.append(value)
            texts.append(written if written is None or isinstance(written, bytes) else dump_json(written))
        columns = [string_array(texts), *token_columns.arrays(self._typed, typed)]
        return pa.Table.from_arrays(columns, names=[self._column, *names]), values

    def _flush(self) -> None:
        """Write the pending rows as one row group."""
        if not self._pending:
            return
        table = pa.concat_tables([payloads for payloads, _ in self._pending])
        values = [
            [item for _, columns in self._pending for item in columns[index]] for index in range(len(self._row_fields))
        ]
        self._pending, self._pending_rows, self._pending_bytes = [], 0, 0
        writer = self._writer
        if writer is None:
            writer = self._open(values)
        for name, column in zip(self._row_fields, values, strict=True):
            table = table.append_column(name, self._columns.array(name, column))
        writer.write_table(table.replace_schema_metadata(self._metadata), row_group_size=len(table))

    def _open(self, values: Sequence[list[Any]]) -> Any:
        """Open the writer, the row fields' types read from the first row group."""
        row_fields = [self._columns.settle(name, column) for name, column in zip(self._row_fields, values, strict=True)]
        fields = [*self._payload_fields(), *row_fields]
        if self._form is not None:
            self._metadata = dict(arrow_schema(self._form).metadata)
        else:
            self._metadata = {PAYLOAD_COLUMN_KEY: self._column.encode(), FORMAT_KEY: self._target.encode()}
            if self._typed:
                listed = json.dumps([field.name for field in self._typed]).encode()
                self._metadata[token_columns.PAYLOAD_FIELDS_KEY] = listed
        if self._columns.json:
            self._metadata[JSON_COLUMNS_KEY] = self._columns.json_listed(self._row_fields)
        schema = pa.schema(fields, metadata=self._metadata)
        self._writer = parquet().ParquetWriter(self._path, schema, compression=COMPRESSION)
        return self._writer


def _scalar_type(present: set[type[Any]]) -> DataType | None:
    """The Arrow type of a field whose values (of these Python types) share one scalar JSON
    type; ``None`` (JSON text) for objects, lists, ``null`` and mixed types."""
    if present == {bool}:
        return pa.bool_()
    if present == {int}:
        return pa.int64()
    if present <= {int, float}:
        return pa.float64()
    if present == {str}:
        return pa.string()
    return None
