"""The closed fronts' memory of tool schemas (``families/seen_schemas.py``): a tool sent again
as the same object is not checked again, and what a caller changes in place is."""

from __future__ import annotations

import json
from typing import Any

import pytest

from chatcodec._conversion import read_request_data
from chatcodec._errors import ChatcodecError


def _schema() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"edits": {"type": "array", "items": {"type": "object", "minimum": 1}}},
        "required": ["edits"],
    }


def _openai_chat(schema: dict[str, Any]) -> dict[str, Any]:
    function = {"name": "edit_file", "description": "Edit a file.", "parameters": schema}
    return {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": function}],
    }


def _anthropic(schema: dict[str, Any]) -> dict[str, Any]:
    tool = {"name": "edit_file", "description": "Edit a file.", "input_schema": schema}
    return {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}], "tools": [tool]}


def _responses(schema: dict[str, Any]) -> dict[str, Any]:
    tool = {"type": "function", "name": "edit_file", "parameters": schema}
    return {"model": "m", "input": "hi", "tools": [tool]}


BODIES = {"openai-chat": _openai_chat, "anthropic": _anthropic, "openai-responses": _responses}


def _parameters(canonical: dict[str, Any]) -> Any:
    return canonical["tools"][0]["parameters"]


@pytest.mark.parametrize("source", list(BODIES))
def test_the_same_schema_object_sent_again_is_read_from_the_copy_checked_before(source: str) -> None:
    body = BODIES[source](_schema())
    first = _parameters(read_request_data(body, source))
    again = _parameters(read_request_data(body, source))
    assert again is first  # the checked copy taken again, not a new check's copy
    assert first == _schema()
    assert first is not body["tools"][0].get("parameters", body["tools"][0].get("input_schema"))


@pytest.mark.parametrize("source", list(BODIES))
def test_a_schema_changed_in_place_is_checked_again(source: str) -> None:
    schema = _schema()
    body = BODIES[source](schema)
    first = _parameters(read_request_data(body, source))
    schema["properties"]["edits"]["items"]["maximum"] = 3
    changed = _parameters(read_request_data(body, source))
    assert changed is not first
    assert changed == schema
    schema["properties"]["edits"]["items"]["maximum"] = float("nan")  # no JSON value: refused as a new body's is
    fresh = json.loads(json.dumps(body))
    fresh_error = _error(lambda: read_request_data(fresh, source))
    assert fresh_error != "no error"
    assert _error(lambda: read_request_data(body, source)) == fresh_error


@pytest.mark.parametrize("source", list(BODIES))
def test_a_copy_the_caller_changed_is_not_taken_again(source: str) -> None:
    body = BODIES[source](_schema())
    first = _parameters(read_request_data(body, source))
    first["required"] = []
    again = _parameters(read_request_data(body, source))
    assert again == _schema()
    assert again is not first


@pytest.mark.parametrize("source", list(BODIES))
def test_json_text_is_checked_as_before(source: str) -> None:
    text = json.dumps(BODIES[source](_schema()))
    first = _parameters(read_request_data(text, source))
    again = _parameters(read_request_data(text, source))
    assert first == again == _schema()
    assert again is not first


def _error(read: Any) -> str:
    try:
        read()
    except (ChatcodecError, ValueError) as error:
        return f"{type(error).__name__}: {error}"
    return "no error"
