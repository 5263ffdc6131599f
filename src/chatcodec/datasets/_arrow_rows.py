"""Wire payloads as Arrow wrote them: a ``null`` for every key another row had.

Arrow (and Hugging Face ``datasets``, Ray Data, pandas over Arrow) stores a list of JSON
objects as structs with the union of every row's keys: a row that had no ``name`` gets
``name: null``, and a tool whose schema has properties ``a`` gets ``b: null`` for the
property another tool had (927 of 967 rows of a recorded dataset were so changed).
Read back, those ``null``\\ s are not the payload that was stored: wire formats take a
``null`` field as absent, but in a free-form JSON value (a tool's JSON Schema, a response
schema, metadata) ``null`` can be meant (``"default": null``), and a ``null`` property
schema is not a schema at all.

:func:`without_arrow_nulls` treats every Arrow-made ``null`` object value as absent. In
the free-form values (keys in :data:`FREE_FORM_KEYS`), where it is ambiguous, each one it
drops is reported as a content :class:`~chatcodec.Loss` naming its JSON path, so a tool
schema with ``null`` properties is reported, and refused under ``strict``, rather than
sent changed in silence. A ``null`` item of a list is Arrow's own record of a ``null``
and is kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._errors import json_path
from chatcodec._losses import Loss
from chatcodec._narrow import is_dict, is_list
from chatcodec._public_label import shown_as

FREE_FORM_KEYS = frozenset(
    {"parameters", "input_schema", "inputSchema", "json_schema", "schema", "responseSchema", "metadata"}
)
"""Keys whose value is free-form JSON in some wire format (OpenAI's tool ``parameters``
and ``response_format.json_schema``, Anthropic's ``input_schema``, Bedrock's
``inputSchema.json``, Gemini's ``responseSchema``, request ``metadata``): a ``null``
under one may be the payload's own."""

_WHY = "Arrow writes null for a key another row has; dropped as absent, but a null here may be meant"


def without_arrow_nulls(row: Mapping[str, Any]) -> tuple[dict[str, Any], list[Loss]]:
    """``row`` with every ``null`` object value dropped, and the ones dropped from a
    free-form value reported (see the module docstring)."""
    dropped: list[tuple[int | str, ...]] = []
    payload = _stripped(row, (), False, dropped)
    losses = [Loss(json_path(steps), "null value", _WHY) for steps in dropped]
    return payload, losses


def _stripped(
    value: Mapping[str, Any], steps: tuple[int | str, ...], free: bool, dropped: list[tuple[int | str, ...]]
) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for key, item in value.items():
        if item is None:
            if free:
                dropped.append((*steps, key))
            continue
        kept[key] = _value(item, (*steps, key), free or key in FREE_FORM_KEYS, dropped)
    return kept


def _value(item: Any, steps: tuple[int | str, ...], free: bool, dropped: list[tuple[int | str, ...]]) -> Any:
    if is_dict(item):
        return _stripped(item, steps, free, dropped)
    if is_list(item):
        return [_value(element, (*steps, index), free, dropped) for index, element in enumerate(item)]
    return item


shown_as("chatcodec.datasets", without_arrow_nulls)
