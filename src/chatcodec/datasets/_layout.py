"""The layout of the columnar form, derived from the canonical ``TypedDict``\\ s.

Arrow cannot hold canonical JSON as it is: ``content`` is a string in one message and a
list of parts in the next, and a struct column has a field for every key any row has,
so free-form objects (a tool's JSON Schema, provider metadata, an opaque block) come back
with a ``null`` for every key another row had (927 of 967 rows of a recorded dataset
changed in a Parquet round trip). The columnar form fixes both by construction:

- a union of tagged dicts (the parts, the messages, the sources) is one struct with the
  fields of every member, a field absent from a row being ``null``;
- ``str | list[part]`` content is always a list of parts; a plain string is one text part
  and the flag ``<field>_is_text`` beside it says so, so the round trip is exact;
- every free-form value (:data:`~chatcodec._model.canonical_types.JsonValue`, a ``dict``) is
  JSON text, which keeps its keys, its ``null``\\ s and its numbers exactly.

A ``null`` is an absent key everywhere: canonical data never holds ``None`` outside JSON
text (:mod:`chatcodec._model.canonical_types`). The layout is plain data (no pyarrow), so
``chatcodec schema`` publishes it (``schemas/<kind>.arrow.json``) without Arrow installed;
:mod:`chatcodec.datasets._arrow_form` spells it as a :class:`pyarrow.Schema`.
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, TypeAlias, Union, get_args, get_origin, get_type_hints

from typing_extensions import is_typeddict

from chatcodec._model import canonical_types
from chatcodec._public_label import shown_as

ScalarType = Literal["string", "int64", "float64", "bool"]
"""The Arrow types of scalar fields."""

ColumnarKind = Literal["request", "response"]
"""What a columnar table holds: one canonical request, or one response, per row."""

COLUMNAR_KINDS: tuple[ColumnarKind, ...] = ("request", "response")

TEXT_FLAG = "_is_text"
"""Suffix of the flag beside a content list: ``True`` when the canonical content was a string."""


@dataclass(frozen=True, slots=True)
class Scalar:
    """A string, integer, float or boolean field."""

    type: ScalarType


@dataclass(frozen=True, slots=True)
class JsonText:
    """A free-form JSON value, stored as its JSON text."""


@dataclass(frozen=True, slots=True)
class ListOf:
    """A list of ``item``."""

    item: Shape


@dataclass(frozen=True, slots=True)
class Content:
    """``str | list[part]``: always a list of parts, with the string form flagged beside it."""

    item: Struct


@dataclass(frozen=True, slots=True)
class Struct:
    """A dict (or a union of tagged dicts) with named fields."""

    fields: tuple[tuple[str, Shape], ...]

    def field(self, name: str) -> Shape | None:
        """The shape of field ``name``, ``None`` when the struct has no such field."""
        return next((shape for field_name, shape in self.fields if field_name == name), None)


Shape: TypeAlias = Scalar | JsonText | ListOf | Content | Struct
"""The shape of one field of the columnar form."""

_SCALARS: dict[object, ScalarType] = {str: "string", int: "int64", float: "float64", bool: "bool"}
_ROOTS: dict[ColumnarKind, object] = {
    "request": canonical_types.ChatRequestData,
    "response": canonical_types.ChatResponseData,
}


@cache
def columnar_layout(kind: ColumnarKind) -> Struct:
    """The columns of a ``kind`` table (one canonical request or response per row)."""
    shape = _shape_of(_ROOTS[kind])
    assert isinstance(shape, Struct)
    return shape


def _shape_of(annotation: object) -> Shape:
    if annotation is canonical_types.JsonValue or get_origin(annotation) is dict:
        return JsonText()
    if get_origin(annotation) is Literal:
        return Scalar("string")  # every canonical literal is a string
    if annotation in _SCALARS:
        return Scalar(_SCALARS[annotation])
    if is_typeddict(annotation):
        return Struct(tuple((name, _shape_of(hint)) for name, hint in get_type_hints(annotation).items()))
    if get_origin(annotation) is list:
        return ListOf(_shape_of(get_args(annotation)[0]))
    if get_origin(annotation) in (Union, types.UnionType):
        members = [_shape_of(member) for member in get_args(annotation)]
        merged = members[0]
        for member in members[1:]:
            merged = _merged(merged, member)
        return merged
    raise TypeError(f"no columnar shape for {annotation!r}")


def _merged(first: Shape, second: Shape) -> Shape:
    """One shape holding both: the union of two structs' fields, text and parts as content."""
    if first == second:
        return first
    if isinstance(first, Struct) and isinstance(second, Struct):
        return _merged_structs(first, second)
    if isinstance(first, ListOf) and isinstance(second, ListOf):
        return ListOf(_merged(first.item, second.item))
    parts = [found for found in (_content_parts(first), _content_parts(second)) if found is not None]
    if parts and all(shape == Scalar("string") or _content_parts(shape) is not None for shape in (first, second)):
        return Content(parts[0] if len(parts) == 1 else _merged_structs(parts[0], parts[1]))
    raise TypeError(f"cannot hold {first} and {second} in one column")


def _content_parts(shape: Shape) -> Struct | None:
    """The parts of a shape that can be content (a content, or a list of structs)."""
    if isinstance(shape, Content):
        return shape.item
    if isinstance(shape, ListOf) and isinstance(shape.item, Struct):
        return shape.item
    return None


def _merged_structs(first: Struct, second: Struct) -> Struct:
    fields = dict(first.fields)
    for name, shape in second.fields:
        fields[name] = _merged(fields[name], shape) if name in fields else shape
    return Struct(tuple(fields.items()))


def layout_document(kind: ColumnarKind) -> dict[str, Any]:
    """The layout as a JSON document (``schemas/<kind>.arrow.json``): every column and
    nested field with its Arrow type; ``"json": true`` marks a string field holding JSON
    text. Every field is nullable: ``null`` is an absent key."""
    return {
        "title": f"chatcodec columnar {kind}",
        "description": (
            f"The Arrow schema of chatcodec's columnar form: one canonical {kind} per row. Content is always a "
            f"list of parts (a string content is one text part with <field>{TEXT_FLAG} true); free-form values "
            "(tool schemas, provider metadata, opaque blocks) are JSON text; null is an absent key."
        ),
        "metadata": {"chatcodec.form": kind},
        "fields": _fields_document(columnar_layout(kind)),
    }


def _fields_document(struct: Struct) -> list[dict[str, Any]]:
    fields: list[dict[str, Any]] = []
    for name, shape in struct.fields:
        fields.append({"name": name, **_type_document(shape)})
        if isinstance(shape, Content):
            fields.append({"name": name + TEXT_FLAG, "type": "bool"})
    return fields


def _type_document(shape: Shape) -> dict[str, Any]:
    match shape:
        case Scalar():
            return {"type": shape.type}
        case JsonText():
            return {"type": "string", "json": True}
        case ListOf():
            return {"type": "list", "item": _type_document(shape.item)}
        case Content():
            return {"type": "list", "item": _type_document(shape.item)}
        case Struct():
            return {"type": "struct", "fields": _fields_document(shape)}


shown_as("chatcodec.datasets", columnar_layout, layout_document)
