"""Gemini's two spellings of every key: camelCase (REST) and snake_case (SDK dumps, Vertex).

The Gemini REST API is proto JSON, which accepts a field under its JSON name
(``functionCall``) and under its proto name (``function_call``). The google-genai SDK
sends some keys snake_case (``parameters_json_schema``, ``include_thoughts``,
``file_uri`` inside ``fileData``) and Vertex clients even the part keys
(``function_call``, ``thought_signature``), next to camelCase keys in the same body (see
``tests/fixtures/gemini/request/vertex_snake_case_function_error_responses.json``).

Decoding reads one spelling: :func:`camel_cased` renames every snake_case key to camelCase
(values under :data:`FREE_FORM` keys are user data and are not walked: a schema's
``user_id`` property stays as it is) and returns where it renamed, as wire paths. Those
paths ride in the request's (or response's) bag as the ``_snake`` marker, and
:func:`snake_cased` renames the same keys back after encoding, so a same-provider round
trip is exact; a body with no marker is written camelCase.

A path names a place in the wire body; when a conversation is edited between decoding
and encoding, a path may no longer lead to the key it named and is then skipped (either
spelling means the same to the API).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import pydantic_core

from chatcodec import ValidationError
from chatcodec.codec_kit import Problem, as_dict, as_list, is_dict, is_list, problems_error

FREE_FORM = frozenset(
    {
        "args",
        "response",
        "parameters",
        "parametersJsonSchema",
        "responseSchema",
        "responseJsonSchema",
        "labels",
        "structValue",
        "listValue",
    }
)
"""Keys whose values are the caller's data (arguments, results, JSON Schemas, labels)."""

_SNAKE_KEY = re.compile(r"\A[a-z][a-z0-9]*(?:_[a-z0-9]+)+\Z")

Path = tuple[str | int, ...]
"""Steps from the body down to one key, as the payload spelled them."""


def to_camel(key: str) -> str:
    """``function_call`` -> ``functionCall``; any other key as it is."""
    if not _SNAKE_KEY.match(key):
        return key
    first, *rest = key.split("_")
    return first + "".join(word[:1].upper() + word[1:] for word in rest)


def camel_cased(payload: object) -> tuple[Any, list[Path]]:
    """``payload`` with every snake_case key renamed to camelCase, and the wire paths of
    the renamed keys (as spelled in ``payload``). A payload with none (every REST
    response, most requests) is returned as it is, after one walk that copies nothing."""
    if not has_snake_key(payload):
        return payload, []
    renamed: list[Path] = []
    return _camel(payload, (), renamed), renamed


_CONTAINERS: tuple[type, ...] = (dict, list)
"""What the walk goes into (as a plain tuple of types, the values it finds stay untyped)."""


def has_snake_key(value: object) -> bool:
    """Whether ``value`` holds a snake_case key outside :data:`FREE_FORM` values. It runs
    on every stream chunk and response, so the walk makes no call but the recursion."""
    if is_dict(value):
        for key, item in value.items():
            if "_" in key and _SNAKE_KEY.match(key):
                return True
            if isinstance(item, _CONTAINERS) and key not in FREE_FORM and has_snake_key(item):
                return True
        return False
    if is_list(value):
        for item in value:
            if isinstance(item, _CONTAINERS) and has_snake_key(item):
                return True
    return False


def _camel(value: object, at: Path, renamed: list[Path]) -> Any:
    fields = as_dict(value)
    if fields is not None:
        result: dict[str, Any] = {}
        for key, item in fields.items():
            camel = to_camel(key)
            if camel != key:
                if camel in fields:  # both spellings: keep both, the wire check reports it
                    result[key] = item
                    continue
                renamed.append((*at, key))
            result[camel] = item if camel in FREE_FORM else _camel(item, (*at, key), renamed)
        return result
    items = as_list(value)
    if items is not None:
        return [_camel(item, (*at, index), renamed) for index, item in enumerate(items)]
    return value


def snake_cased(wire: dict[str, Any], paths: object) -> dict[str, Any]:
    """``wire`` (camelCase, changed in place) with the keys at ``paths`` spelled back in
    snake_case; a path that leads nowhere is skipped."""
    listed = as_list(paths)
    if not listed:
        return wire
    steps = [path for path in (as_list(item) for item in listed) if path]
    for path in sorted(steps, key=len, reverse=True):  # children before their parents
        _rename(wire, path)
    return wire


def _rename(wire: dict[str, Any], path: list[Any]) -> None:
    parent: object = wire
    for step in path[:-1]:
        parent = _step(parent, step)
        if parent is None:
            return
    fields = as_dict(parent)
    last = path[-1]
    if fields is None or not isinstance(last, str):
        return
    camel = to_camel(last)
    if camel != last and camel in fields and last not in fields:
        fields[last] = fields.pop(camel)


def _step(parent: object, step: object) -> object:
    fields = as_dict(parent)
    if fields is not None and isinstance(step, str):
        return fields.get(to_camel(step), fields.get(step))
    items = as_list(parent)
    if items is not None and isinstance(step, int) and 0 <= step < len(items):
        return items[step]
    return None


def as_marker(renamed: Iterable[Path]) -> list[list[str | int]]:
    """The ``_snake`` marker value (JSON lists) for renamed paths."""
    return [list(path) for path in renamed]


def respelled_error(error: pydantic_core.ValidationError, renamed: list[Path], title: str) -> ValidationError:
    """``error`` (found in the camelCase copy) with its locations spelled as the payload
    spelled them, so every path in the message exists in the caller's input."""
    by_camel: Mapping[Path, str] = {_camel_path(path): str(path[-1]) for path in renamed}
    problems: list[Problem] = []
    for detail in error.errors(include_url=False):
        camel_location = tuple(detail["loc"])
        location = list(camel_location)
        for index in range(len(location)):
            # Looked up in the camelCase location: a renamed key under a renamed key
            # (``inline_data.mime_type``) is known by its camelCase path.
            original = by_camel.get(camel_location[: index + 1])
            if original is not None:
                location[index] = original
        problems.append(Problem(tuple(location), detail["type"], detail["msg"], detail["input"]))
    return problems_error(title, problems)


def _camel_path(path: Path) -> Path:
    return tuple(to_camel(step) if isinstance(step, str) else step for step in path)
