"""A closed front's tool schemas remembered by the object the caller sent: an agent sends
the same tool list with every request of its loop, and checking a schema to be a JSON
value in Rust is up to 25 k instructions a tool (pydantic-core's copy costs some 600
instructions a key), the same work each request (8 tools: about 0.1 M of a 10-step
session's 1.9 M). The OpenAI Chat and Anthropic fronts remember a tool's schema; the
Responses front a whole tool (its wire leaves tools untyped JSON objects).

:func:`remembered_json_object` is the front's schema of such a value read from Python
values: the first time, it is checked and copied as :func:`~.closed_schema.json_object`
checks it; the next time the same object comes, and it still equals that copy (compared
in C, a third of the check: a schema changed in place since is checked again), the copy
is taken again. The copy is then shared by the conversions that took it, as a remembered
schema rewrite shares its value (:mod:`chatcodec._providers.families.schema_writing`); one
a caller changes no longer equals the schema sent, and the schema is checked again. What
equality cannot tell apart (``1``, ``1.0`` and ``true`` changed into one another in place,
in the object sent or in a copy returned) is the memory's one blind spot.

JSON text has no object to remember: read from text, the schema is checked as before.
"""

from __future__ import annotations

from typing import Any

from pydantic_core import core_schema as cs

from chatcodec._providers.kit.closed_schema import json_object

_LIMIT = 256
"""Schemas remembered at most; all forgotten when full (a new set of tools)."""

_SEEN: dict[int, tuple[object, object]] = {}
"""``id`` of a schema sent -> (that schema, kept alive so the ``id`` stays its own; its checked copy)."""


def _checked(value: Any, check: cs.ValidatorFunctionWrapHandler) -> Any:
    seen = _SEEN.get(id(value))
    if seen is not None and seen[0] is value and value == seen[1]:
        return seen[1]
    copy = check(value)
    if len(_SEEN) >= _LIMIT:
        _SEEN.clear()
    _SEEN[id(value)] = (value, copy)
    return copy


def remembered_json_object(*, json_input: bool) -> cs.CoreSchema:
    """A JSON object (:func:`~.closed_schema.json_object`), remembered by the object sent
    when read from Python values (see the module docstring)."""
    if json_input:
        return json_object()
    return cs.no_info_wrap_validator_function(_checked, json_object())
