"""A rollout row's token columns in Parquet: typed lists beside the row's JSON text.

A ``rollout`` row written to Parquet keeps its conversation as JSON text (the payload
column, read exactly) and its token columns (:mod:`chatcodec._row_dialects.rollout_columns`) as
Arrow lists of their own type: ``token_ids`` and ``message_indices`` ``list<int64>``,
``sampled_mask`` ``list<bool>``, ``logprobs`` ``list<double>``, the types a trainer loads
without parsing. The schema metadata ``chatcodec.payload_fields`` names them, so reading the
file puts each back into its row, equal to what was written: in its place, since the JSON text
keeps each token field the row held as a ``null`` where it stood (a Parquet round trip that
moved the tokens to the end would not give back the row a JSONL one gives back).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from chatcodec._narrow import as_dict
from chatcodec._row_dialects.rollout_columns import TOKEN_COLUMNS, TokenType
from chatcodec._row_dialects.trajectory_turns import TURN_FIELDS
from chatcodec.datasets._arrow import Array, DataType, Field, pa

PAYLOAD_FIELDS_KEY: Final = b"chatcodec.payload_fields"
"""Schema metadata listing (as a JSON array) the payload's fields written as columns of
their own beside its JSON text."""


def _arrow_type(kind: TokenType) -> DataType:
    value = {"int": pa.int64(), "bool": pa.bool_(), "float": pa.float64()}[kind]
    return pa.list_(value)


def payload_fields(target: str) -> list[Field]:
    """The fields of ``target``'s payloads written as typed columns (a rollout's token columns,
    a trajectory's turns as a list of structs of typed lists)."""
    if target == "trajectory":
        return [pa.field("turns", pa.list_(_turn_type()))]
    if target != "rollout":
        return []
    return [pa.field(name, _arrow_type(kind)) for name, kind in TOKEN_COLUMNS.items()]


def _turn_type() -> DataType:
    """A trajectory turn's struct, its fields in :data:`.trajectory_turns.TURN_FIELDS`' order."""
    types = {
        "message_index": pa.int64(),
        "prompt_ids": pa.list_(pa.int64()),
        "completion_ids": pa.list_(pa.int64()),
        "logprobs": pa.list_(pa.float64()),
    }
    return pa.struct([pa.field(name, types[name]) for name in TURN_FIELDS])


def split(payload: Mapping[str, Any], names: Sequence[str]) -> tuple[dict[str, Any], list[Any]]:
    """``payload`` with the fields ``names`` emptied to ``None`` in their places (the columns
    hold them), and their values (``None`` where absent)."""
    kept = {key: None if key in names else value for key, value in payload.items()}
    return kept, [payload.get(name) for name in names]


def arrays(fields: Sequence[Field], values: Sequence[list[Any]]) -> list[Array]:
    """One row group's typed columns."""
    return [pa.array(column, field.type) for field, column in zip(fields, values, strict=True)]


def listed(metadata: Mapping[bytes, bytes]) -> tuple[str, ...]:
    """The payload fields a file's schema says are columns of their own."""
    names: list[str] = json.loads(metadata.get(PAYLOAD_FIELDS_KEY, b"[]"))
    return tuple(names)


def joined(text: object, row: Mapping[str, Any], names: Sequence[str]) -> object:
    """A payload's JSON text with its typed columns put back where the text holds their places
    (a ``null`` column there is the row's own ``null``); a text without the place (a file Arrow
    wrote from a list of rows) gets the column's value at its end, unless it is ``null``."""
    if not names or not isinstance(text, str | bytes):
        return text
    payload = as_dict(json.loads(text))
    if payload is None:
        return text
    back = dict(payload)
    for name in names:
        if name in back or row.get(name) is not None:
            back[name] = row.get(name)
    return back
