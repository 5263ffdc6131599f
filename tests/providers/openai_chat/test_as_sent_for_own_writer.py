"""Whether a tool's schema goes back as it came (``AS_SENT``) is read by OpenAI Chat's own
writer alone: every other writer reads its own bag, and rewrites a schema as its target
needs. The reading marks it whatever writer follows (a reading is a function of its input),
and every other writer writes exactly what it writes for the tools without the marker."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec._conversion import read_request_data
from chatcodec._providers.contract.context import Reading
from chatcodec._providers.families.schema_writing import AS_SENT
from providers.readings_for_writers import AnswersFromMemory, assert_written_as_marked

_GEMINI_SPELLED = {"type": "OBJECT", "properties": {"city": {"type": "STRING", "nullable": True}}}
_NOT_STRICT_YET = {"type": "object", "properties": {"a": {"type": "string"}}}  # strict mode closes it
_REQUEST: dict[str, Any] = {
    "model": "gpt-5",
    "messages": [{"role": "user", "content": "weather?"}],
    "tools": [
        {"type": "function", "function": {"name": "gemini_spelled", "parameters": _GEMINI_SPELLED}},
        {"type": "function", "function": {"name": "strict_one", "parameters": _NOT_STRICT_YET, "strict": True}},
        {"type": "function", "function": {"name": "plain", "parameters": {"type": "object", "properties": {}}}},
    ],
}
TARGETS = ["anthropic", "openai-responses", "gemini", "bedrock-converse", "ollama", "bedrock-nova"]


def _marks(canonical: dict[str, Any]) -> list[bool]:
    return [bool(tool.get("provider_metadata", {}).get("openai-chat", {}).get(AS_SENT)) for tool in canonical["tools"]]


def test_the_marker_is_read_whatever_writer_follows() -> None:
    assert _marks(read_request_data(copy.deepcopy(_REQUEST), "openai-chat")) == [True, True, False]
    noted = read_request_data(copy.deepcopy(_REQUEST), "openai-chat", noted=Reading())
    assert noted == read_request_data(copy.deepcopy(_REQUEST), "openai-chat")
    back = chatcodec.convert_request(copy.deepcopy(_REQUEST), source="openai-chat", target="openai-chat")
    assert [tool["function"]["parameters"] for tool in back["tools"]] == [
        _GEMINI_SPELLED,
        _NOT_STRICT_YET,
        {"type": "object", "properties": {}},
    ]


@pytest.mark.parametrize("target", TARGETS)
def test_another_writer_writes_the_unmarked_reading_as_the_marked_one(target: str) -> None:
    marked = read_request_data(copy.deepcopy(_REQUEST), "openai-chat")
    assert any(_marks(marked))
    assert_written_as_marked(_REQUEST, "openai-chat", target, marked)


def test_the_tools_asked_for_this_formats_writer_are_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Back to OpenAI Chat (a proxy's usual pair), the as-sent answers are remembered by the
    tools' value: the second request's tools come from memory and write the same body."""
    answers = AnswersFromMemory(monkeypatch)
    first = chatcodec.convert_request(copy.deepcopy(_REQUEST), source="openai-chat", target="openai-chat")
    second = chatcodec.convert_request(copy.deepcopy(_REQUEST), source="openai-chat", target="openai-chat")
    assert answers.count == 1
    assert second == first
    assert second["tools"] == _REQUEST["tools"]
    canonical = [
        chatcodec.convert_request(copy.deepcopy(_REQUEST), source="openai-chat", target="canonical") for _ in range(2)
    ]
    assert canonical[0] == canonical[1]
    assert _marks(canonical[1]) == [True, True, False]
    assert canonical[0]["tools"][0]["provider_metadata"] is not canonical[1]["tools"][0]["provider_metadata"]
