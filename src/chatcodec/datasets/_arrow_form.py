"""The columnar form's :class:`pyarrow.Schema`, and tables of canonical data.

The schema is :mod:`chatcodec.datasets._layout` spelled in Arrow types; its metadata
``chatcodec.form`` (``request`` or ``response``) tells a reader which form a Parquet file
holds. This module imports pyarrow (the ``arrow`` extra): nothing else in chatcodec does
at import time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any, cast

from chatcodec._public_label import shown_as
from chatcodec.datasets._arrow import DataType, Field, RecordBatch, Schema, Table, pa
from chatcodec.datasets._columnar import from_columnar, to_columnar
from chatcodec.datasets._layout import (
    TEXT_FLAG,
    ColumnarKind,
    Content,
    JsonText,
    ListOf,
    Scalar,
    Shape,
    Struct,
    columnar_layout,
)

FORM_KEY = b"chatcodec.form"
"""The schema metadata key naming the form a table holds (``request`` or ``response``)."""

_SCALAR_TYPES: dict[str, DataType] = {
    "string": pa.string(),
    "int64": pa.int64(),
    "float64": pa.float64(),
    "bool": pa.bool_(),
}


@cache
def arrow_schema(kind: ColumnarKind = "request") -> Schema:
    """The Arrow schema of a table of canonical ``kind`` data, one per row."""
    return pa.schema(_fields(columnar_layout(kind)), metadata={FORM_KEY: kind.encode()})


def _fields(struct: Struct) -> list[Field]:
    fields: list[Field] = []
    for name, shape in struct.fields:
        fields.append(pa.field(name, _arrow_type(shape)))
        if isinstance(shape, Content):
            fields.append(pa.field(name + TEXT_FLAG, pa.bool_()))
    return fields


def _arrow_type(shape: Shape) -> DataType:
    match shape:
        case Scalar():
            return _SCALAR_TYPES[shape.type]
        case JsonText():
            return pa.string()
        case ListOf() | Content():
            return pa.list_(_arrow_type(shape.item))
        case Struct():
            return pa.struct(_fields(shape))


def form_of(schema: Schema) -> ColumnarKind | None:
    """The canonical form a table with ``schema`` holds, or ``None`` for any other table."""
    metadata: dict[bytes, bytes] = schema.metadata or {}
    form = metadata.get(FORM_KEY)
    if form == b"request":
        return "request"
    if form == b"response":
        return "response"
    return None


def to_table(rows: Iterable[Mapping[str, Any] | None], kind: ColumnarKind = "request") -> Table:
    """Canonical ``kind`` dicts as an Arrow table of the columnar form (``None``: a row of nulls)."""
    listed = list(rows)
    present = to_columnar((row for row in listed if row is not None), kind)
    columnar = iter(present)
    return pa.Table.from_pylist([{} if row is None else next(columnar) for row in listed], schema=arrow_schema(kind))


def from_table(table: Table | RecordBatch, kind: ColumnarKind | None = None) -> list[dict[str, Any] | None]:
    """The canonical dicts of a columnar table (``None`` for a row of nulls); ``kind``
    defaults to the form the table's schema names."""
    form = kind or form_of(table.schema)
    if form is None:
        raise ValueError("the table's schema names no chatcodec form (metadata 'chatcodec.form'); pass kind=")
    names = [field.name for field in arrow_schema(form)]
    selected = table.select([name for name in names if name in table.schema.names])
    return from_columnar(cast("list[dict[str, Any]]", selected.to_pylist()), form)


shown_as("chatcodec.datasets", arrow_schema, form_of, from_table, to_table)
