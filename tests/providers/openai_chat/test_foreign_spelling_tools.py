"""A tool whose only bag is another format's spelling (a Responses tool's ``"strict": null``)
is written by OpenAI Chat as a tool without a bag is: the same function, no loss."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec import Loss

_SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


@pytest.mark.parametrize(
    ("tool", "function"),
    [
        (
            {"type": "function", "name": "read", "description": "Read.", "parameters": _SCHEMA, "strict": None},
            {"name": "read", "description": "Read.", "parameters": _SCHEMA},
        ),
        (
            {"type": "function", "name": "read", "parameters": _SCHEMA, "strict": False},
            {"name": "read", "parameters": _SCHEMA, "strict": False},
        ),
        (  # no strict at all: a marker of its own, and the same function
            {"type": "function", "name": "read", "parameters": _SCHEMA},
            {"name": "read", "parameters": _SCHEMA},
        ),
    ],
)
def test_a_responses_tool_is_written_as_its_function(tool: dict[str, Any], function: dict[str, Any]) -> None:
    losses: list[Loss] = []
    body = {"model": "gpt-5", "input": "hi", "tools": [tool]}
    written = chatcodec.convert_request(body, source="openai-responses", target="openai-chat", losses=losses)
    assert written["tools"] == [{"type": "function", "function": function}]
    assert losses == []
