"""Canonical data to the columnar form's rows and back, exactly (no pyarrow here).

:func:`to_columnar` turns canonical request or response dicts (what
:meth:`Codec.read_request <chatcodec._codec_protocols.Codec.read_request>` gives, or
``model_dump()``) into rows Arrow takes as they are (``pyarrow.Table.from_pylist`` with
:func:`~chatcodec.datasets._arrow_form.arrow_schema`); :func:`from_columnar` turns the rows
Arrow gives back (``Table.to_pylist()``: every field present, ``null`` where the row had
none) into the same canonical dicts. The walk over each row is compiled once per kind from
the layout (:mod:`chatcodec.datasets._layout`), so converting a row is a few dict passes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any

from chatcodec._errors import PayloadError
from chatcodec._public_label import shown_as
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

Converter = Callable[[Any], Any]
"""One value of a field to its other form."""


def to_columnar(rows: Iterable[Mapping[str, Any]], kind: ColumnarKind = "request") -> list[dict[str, Any]]:
    """Canonical ``kind`` dicts as columnar rows (content as parts, free-form values as JSON
    text); a key the canonical form does not have raises :class:`~chatcodec.PayloadError`."""
    encode = _encoder(kind)
    return [encode(row) for row in rows]


def from_columnar(
    rows: Iterable[Mapping[str, Any] | None], kind: ColumnarKind = "request"
) -> list[dict[str, Any] | None]:
    """Columnar rows (as ``Table.to_pylist()`` gives them) as canonical ``kind`` dicts; a
    row that is ``None``, or whose columns are all ``null`` (a placeholder the CLI's
    ``--keep-lines`` wrote for a rejected row), is ``None``."""
    decode = _decoder(kind)
    return [None if row is None or all(value is None for value in row.values()) else decode(row) for row in rows]


def to_columnar_row(row: Mapping[str, Any], kind: ColumnarKind = "request") -> dict[str, Any]:
    """One canonical dict as a columnar row (see :func:`to_columnar`)."""
    encoded: dict[str, Any] = _encoder(kind)(row)
    return encoded


def from_columnar_row(row: Mapping[str, Any], kind: ColumnarKind = "request") -> dict[str, Any]:
    """One columnar row as a canonical dict (see :func:`from_columnar`)."""
    decoded: dict[str, Any] = _decoder(kind)(row)
    return decoded


@cache
def _encoder(kind: ColumnarKind) -> Converter:
    return _struct_encoder(columnar_layout(kind), "$")


@cache
def _decoder(kind: ColumnarKind) -> Converter:
    return _struct_decoder(columnar_layout(kind))


def _same(value: Any) -> Any:
    return value


def _json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _float(value: Any) -> Any:
    """A float field's value; an integer a double cannot hold exactly (canonical keeps
    ``2**53 + 1`` as an exact ``int``, :func:`chatcodec._narrow.as_sampling_number`) is refused."""
    if type(value) is not int:
        return value
    try:
        exact = float(value) == value
    except OverflowError:
        exact = False
    if not exact:
        raise PayloadError(f"{value} has no exact float64 form for a float column")
    return value


def _encoder_of(shape: Shape, path: str) -> Converter:
    match shape:
        case Scalar("float64"):
            return _float
        case Scalar():
            return _same
        case JsonText():
            return _json_text
        case ListOf():
            item = _encoder_of(shape.item, path + "[]")
            return _same if item is _same else lambda items: [item(value) for value in items]
        case Content():
            part = _struct_encoder(shape.item, path + "[]")
            return lambda parts: [part(value) for value in parts]
        case Struct():
            return _struct_encoder(shape, path)


def _struct_encoder(struct: Struct, path: str) -> Converter:
    plan = {name: (_encoder_of(shape, f"{path}.{name}"), isinstance(shape, Content)) for name, shape in struct.fields}

    def encode(value: Mapping[str, Any]) -> dict[str, Any]:
        row: dict[str, Any] = {}
        for name, item in value.items():
            step = plan.get(name)
            if step is None:
                raise PayloadError(f"{name!r} is not a field of the canonical form", path)
            convert, is_content = step
            if is_content and isinstance(item, str):
                row[name] = [{"type": "text", "text": item}]
                row[name + TEXT_FLAG] = True
            elif item is not None:
                row[name] = convert(item)
        return row

    return encode


def _decoder_of(shape: Shape) -> Converter:
    match shape:
        case Scalar():
            return _same
        case JsonText():
            return json.loads
        case ListOf():
            item = _decoder_of(shape.item)
            return _same if item is _same else lambda items: [item(value) for value in items]
        case Content():
            part = _struct_decoder(shape.item)
            return lambda parts: [part(value) for value in parts]
        case Struct():
            return _struct_decoder(shape)


def _struct_decoder(struct: Struct) -> Converter:
    """Keeps a row's non-null fields, then converts the few that are not scalars: a struct
    of the form is wide and mostly null (every part has every part type's fields), so one
    comprehension over it and a pass over its known non-scalar fields beat a step per field."""
    nested = tuple(
        (name, _decoder_of(shape))
        for name, shape in struct.fields
        if not isinstance(shape, Scalar | Content) and not _is_plain_list(shape)
    )
    contents = tuple(
        (name, name + TEXT_FLAG, _decoder_of(shape)) for name, shape in struct.fields if isinstance(shape, Content)
    )

    def decode(row: Mapping[str, Any]) -> dict[str, Any]:
        value = {name: item for name, item in row.items() if item is not None}
        for name, convert in nested:
            item = value.get(name)
            if item is not None:
                value[name] = convert(item)
        for name, flag, convert in contents:
            if value.pop(flag, False):
                value[name] = value[name][0]["text"]
            elif name in value:
                value[name] = convert(value[name])
        return value

    return decode


def _is_plain_list(shape: Shape) -> bool:
    """A list of scalars (``stop``), which Arrow gives back as it is."""
    return isinstance(shape, ListOf) and isinstance(shape.item, Scalar)


shown_as("chatcodec.datasets", from_columnar, to_columnar)
