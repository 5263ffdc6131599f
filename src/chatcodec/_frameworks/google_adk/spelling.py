"""An event's two spellings: ADK's models are pydantic with camelCase aliases, so an event
dumped ``by_alias=True`` (ADK's web server, ``adk api_server``) reads ``invocationId`` and
``functionCall``, and one dumped without (``model_dump(mode="json")``, what ADK's database
session service stores) reads ``invocation_id`` and ``function_call``; ADK reads both
(``populate_by_name=True``). The ``gemini`` codec reads both too and writes camelCase, so a
content read from a snake_case event is written back snake_case (the ``_snake`` marker).

An ``Event`` object given as it is dumps the fields its code set, ``None`` included
(google-genai's ``FunctionResponse`` sets ``parts=None``), where ADK's session services dump
with ``exclude_none=True``: a ``null`` in a content is no field (:func:`without_nulls`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from chatcodec.codec_kit import as_dict, as_list

FREE_FORM = frozenset({"args", "response", "partialArgs", "partial_args"})
"""Keys whose values are the caller's data (a call's arguments, a tool's result): never respelled."""

_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")


def is_snake(event: Mapping[str, Any]) -> bool:
    """Whether ``event`` was dumped snake_case: one of its keys, or of its content's parts', is."""
    if any("_" in key for key in event):
        return True
    content = as_dict(event.get("content")) or {}
    return any("_" in key for part in as_list(content.get("parts")) or () for key in as_dict(part) or {})


def snake_cased(value: Any) -> Any:
    """``value`` with every camelCase key snake_case, the values under :data:`FREE_FORM` kept."""
    fields = as_dict(value)
    if fields is not None:
        return {_snake(key): item if key in FREE_FORM else snake_cased(item) for key, item in fields.items()}
    items = as_list(value)
    if items is not None:
        return [snake_cased(item) for item in items]
    return value


def _snake(key: str) -> str:
    return _CAMEL.sub(r"_\1", key).lower()


def without_nulls(value: Any) -> Any:
    """``value`` without its ``null`` fields, the values under :data:`FREE_FORM` kept as they are."""
    fields = as_dict(value)
    if fields is not None:
        return {
            key: item if key in FREE_FORM else without_nulls(item) for key, item in fields.items() if item is not None
        }
    items = as_list(value)
    if items is not None:
        return [without_nulls(item) for item in items]
    return value
