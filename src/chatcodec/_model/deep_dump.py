"""Writing a canonical model whose values are nested near pydantic-core's depth limit.

pydantic-core's validator takes a JSON value nested up to its recursion limit, but its
JSON writer counts more levels for the same value (pydantic-core 2.50: one more for a
``JsonValue`` field, three inside an opaque part), so a request validated a level or three
under the limit raised pydantic's "Maximum serialization depth exceeded" from
``model_dump_json`` and ``model_dump(mode="json")`` (issue 87). Its Python-mode writer
counts as the validator does, and a canonical model's Python-mode data is JSON data
(strings, finite numbers, booleans, None, lists and string-keyed dicts: the models refuse
anything else, NaN and infinities included), so the JSON form is written from it by the
standard library's encoder, whose limit is the interpreter's recursion limit. Whatever
validates serializes. Asked only once pydantic-core has refused: the common path pays
nothing.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

_TOO_DEEP = "Maximum serialization depth exceeded"
"""pydantic-core's message for a value its writer counts as too deep."""


def too_deep_to_dump(error: ValueError) -> bool:
    """Whether ``error`` is pydantic-core's JSON writer refusing a value for its depth
    (a ``PydanticSerializationError``, a ``ValueError``, from ``model_dump_json``; a
    ``ValueError`` from ``model_dump(mode="json")``)."""
    return _TOO_DEEP in str(error)


def json_data(model: BaseModel, options: dict[str, Any]) -> Any:
    """``model.model_dump(mode="json", **options)`` for a model pydantic-core's JSON writer
    refused for its depth: its Python-mode data, which for a canonical model is the same."""
    return model.model_dump(mode="python", **options)


def json_text(model: BaseModel, options: dict[str, Any]) -> str:
    """``model.model_dump_json(**options)`` for a model pydantic-core's JSON writer refused
    for its depth: the same text for the same data (pydantic's separators without an
    indent, ``": "`` and one line per item with one)."""
    indent = options.pop("indent", None)
    ensure_ascii = bool(options.pop("ensure_ascii", False))
    separators = (",", ":") if indent is None else (",", ": ")
    data = json_data(model, options)
    return json.dumps(data, indent=indent, ensure_ascii=ensure_ascii, separators=separators, allow_nan=False)
