"""A Responses function tool's spelling markers (its ``null`` fields, a ``parameters`` or
``strict`` left out) and its as-sent mark are read by this format's own writer alone: a
conversion's reading keeps them in its record (``Reading.own``, whatever writer follows)
and puts them in place for that writer, so every other writer gets the tools without them
(an agent's every tool says ``"strict": null``) and writes exactly what it writes for the
marked reading."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec._conversion import read_request_data
from chatcodec._providers.contract.context import Reading
from providers.readings_for_writers import assert_written_as_marked

_REQUEST: dict[str, Any] = {
    "model": "gpt-5",
    "input": "weather?",
    "tools": [
        {
            "type": "function",
            "name": "sdk_default",
            "description": None,
            "strict": None,
            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}},
        },
        {"type": "function", "name": "left_out"},
        {
            "type": "function",
            "name": "gemini_spelled",
            "strict": False,
            "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}},
        },
        {
            "type": "function",
            "name": "with_extra",
            "strict": True,
            "x_extra": 1,
            "parameters": {"type": "object", "properties": {"a": {"type": "string"}}},
        },
    ],
}
TARGETS = ["openai-chat", "anthropic", "gemini", "bedrock-converse", "ollama", "bedrock-nova"]


def _bags(canonical: dict[str, Any]) -> list[dict[str, Any]]:
    return [tool.get("provider_metadata", {}).get("openai-responses", {}) for tool in canonical["tools"]]


def test_a_conversions_reading_keeps_the_spellings_for_its_own_writer() -> None:
    marked = _bags(read_request_data(copy.deepcopy(_REQUEST), "openai-responses"))
    assert marked[0]["_nulls"] == ["description", "strict"]
    assert marked[1] == {"_no_parameters": True, "_no_strict": True}
    noted = Reading()
    read = read_request_data(copy.deepcopy(_REQUEST), "openai-responses", noted=noted)
    assert _bags(read) == [{}, {}, {}, {"x_extra": 1}]  # the markers in the record, for this format's writer
    noted.put_own()
    assert _bags(read) == marked
    back = chatcodec.convert_request(copy.deepcopy(_REQUEST), source="openai-responses", target="openai-responses")
    assert back["tools"] == _REQUEST["tools"]


@pytest.mark.parametrize("target", TARGETS)
def test_another_writer_writes_the_unmarked_reading_as_the_marked_one(target: str) -> None:
    marked = read_request_data(copy.deepcopy(_REQUEST), "openai-responses")
    assert_written_as_marked(_REQUEST, "openai-responses", target, marked)
