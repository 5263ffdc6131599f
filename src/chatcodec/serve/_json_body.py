"""The JSON bodies serve writes (the upstream request, the caller's answer): the bytes of
``json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()``, written by
pydantic-core's writer where it gives those very bytes, faster.

It does for a value of objects with string keys, lists, strings, booleans, ``null`` and
integers within 64 bits: every code point is escaped alike (``kit.closed_schema.json_text``
relies on the same). A float is spelt differently (``1e-05`` by Python, ``0.00001`` by
pydantic-core), an integer past 64 bits may pass Python's digit limit, and a lone surrogate
is refused by pydantic-core: a value holding any of them is written by ``json`` as before,
so every body is byte for byte what ``json`` writes (its errors included)."""

from __future__ import annotations

import json
from functools import cache

from pydantic_core import PydanticSerializationError, SchemaValidator, to_json
from pydantic_core import core_schema as cs

_PLAIN = "serve-plain-json"


def _plain_schema() -> cs.CoreSchema:
    reference = cs.definition_reference_schema(_PLAIN)
    integer = cs.int_schema(strict=True, ge=-(2**63), le=2**63 - 1)
    value = cs.union_schema(
        [  # the same values in any order; an integer, then a list of them, tried first: a
            # token upstream's body is a long list of ids, each one tried against every choice before
            integer,
            cs.str_schema(strict=True),
            cs.dict_schema(cs.str_schema(strict=True), reference, strict=True),
            cs.list_schema(integer, strict=True),
            cs.list_schema(reference, strict=True),
            cs.bool_schema(strict=True),
            cs.none_schema(),
        ],
        mode="left_to_right",
        custom_error_type="serve_plain_json",
        custom_error_message="not plain JSON",
        ref=_PLAIN,
    )
    return cs.definitions_schema(reference, [value])


@cache
def _validator() -> SchemaValidator:
    """Built on first use: ``chatcodec serve --help`` builds no validator."""
    return SchemaValidator(_plain_schema())


def json_body(value: object) -> bytes:
    """``value`` as compact JSON bytes, non-ASCII kept, as ``json.dumps`` writes it."""
    try:
        _validator().validate_python(value)
        return to_json(value)
    except (ValueError, RecursionError, PydanticSerializationError):  # a float, a big integer, a lone surrogate
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
