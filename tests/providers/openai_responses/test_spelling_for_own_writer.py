"""A Responses function tool's spelling markers (its ``null`` fields, a ``parameters`` or
``strict`` left out) and its as-sent mark are read only for this format's own writer: a
conversion to another format reads the tools without them (an agent's every tool says
``"strict": null``), and writes exactly what writing the marked reading gives."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec._conversion import foreign_writer, read_request_data
from chatcodec._providers.contract.context import close_conversion, open_conversion
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


def test_another_formats_writer_gets_the_tools_data_without_the_spellings() -> None:
    marked = _bags(read_request_data(copy.deepcopy(_REQUEST), "openai-responses"))
    assert marked[0]["_nulls"] == ["description", "strict"]
    assert marked[1] == {"_no_parameters": True, "_no_strict": True}
    span = open_conversion(foreign_writer("openai-responses", "anthropic"))
    try:
        read = _bags(read_request_data(copy.deepcopy(_REQUEST), "openai-responses"))
    finally:
        close_conversion(span)
    assert read == [{}, {}, {}, {"x_extra": 1}]
    back = chatcodec.convert_request(copy.deepcopy(_REQUEST), source="openai-responses", target="openai-responses")
    assert back["tools"] == _REQUEST["tools"]


@pytest.mark.parametrize("target", TARGETS)
def test_another_writer_writes_the_unmarked_reading_as_the_marked_one(target: str) -> None:
    marked = read_request_data(copy.deepcopy(_REQUEST), "openai-responses")
    assert_written_as_marked(_REQUEST, "openai-responses", target, marked)
