"""``chatcodec validate --format`` takes the framework history formats, as ``convert --from``
does (issue 76: ``validate``'s choices lacked them): a history as its framework stores it,
a bare message list (LangChain's ``messages_to_dict``, pydantic-ai's
``ModelMessagesTypeAdapter.dump_json``) or an object holding it under ``messages`` (a
LangGraph state), is validated at the boundary the format is for. The histories are written
by the frameworks' own code (langchain-core 1.7.2, pydantic-ai-slim 2.68.0) and by the AI SDK
(``tests/fixtures/ai_sdk``, recorded with ``ai`` 6.0.325)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage, messages_to_dict
from pydantic_ai.messages import (
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)

from chatcodec.cli import main

AI_SDK = Path(__file__).parent / "fixtures" / "ai_sdk"


def _langchain() -> list[dict[str, Any]]:
    return messages_to_dict(
        [
            HumanMessage("Weather in Paris?"),
            AIMessage("", tool_calls=[{"name": "get_weather", "args": {"city": "Paris"}, "id": "call_1"}]),
            ToolMessage("sunny", tool_call_id="call_1"),
            AIMessage("Sunny."),
        ]
    )


def _pydantic_ai() -> bytes:
    return ModelMessagesTypeAdapter.dump_json(
        [
            ModelRequest(parts=[UserPromptPart("Weather in Paris?")]),
            ModelResponse(parts=[ToolCallPart("get_weather", {"city": "Paris"}, tool_call_id="call_1")]),
            ModelRequest(parts=[ToolReturnPart("get_weather", "sunny", tool_call_id="call_1")]),
            ModelResponse(parts=[TextPart("Sunny.")]),
        ]
    )


def _first_line(name: str) -> bytes:
    return (AI_SDK / name).read_bytes().splitlines()[0]


CASES = [
    ("langchain", "a messages_to_dict list", lambda: json.dumps(_langchain(), indent=1).encode()),
    ("langchain", "a LangGraph state", lambda: json.dumps({"messages": _langchain()}).encode()),
    ("pydantic-ai", "a ModelMessagesTypeAdapter dump", _pydantic_ai),
    ("ai-sdk-model", "a ModelMessage[] history", lambda: _first_line("model_messages.jsonl")),
    ("ai-sdk-ui", "a UIMessage[] history", lambda: _first_line("ui_messages.jsonl")),
]


@pytest.mark.parametrize(("fmt", "form", "make"), CASES, ids=[f"{fmt}: {form}" for fmt, form, _ in CASES])
def test_validate_takes_a_framework_history_format(
    fmt: str, form: str, make: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "history.json"
    path.write_bytes(make())
    code = main(["validate", "--format", fmt, str(path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert ": ok, " in out, form
    assert "1 user" in out, out
    assert "0 unanswered" in out, out


def test_a_history_in_another_framework_format_is_refused_at_its_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "history.json"
    path.write_bytes(_pydantic_ai())
    assert main(["validate", "--format", "langchain", str(path)]) == 1
    err = capsys.readouterr().err
    assert "is langchain, invalid at $[0]" in err


def test_strict_says_a_framework_history_cannot_be_read_strictly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A framework history has no published field set (its capabilities say
    ``strict_reading=False``): ``--strict`` is refused as ``decode_request(strict=True)``
    refuses it, not ignored."""
    path = tmp_path / "history.json"
    path.write_bytes(_pydantic_ai())
    assert main(["validate", "--strict", "--format", "pydantic-ai", str(path)]) == 1
    assert "cannot read strictly" in capsys.readouterr().err


HISTORY_OBJECTS = [
    ("a LangGraph state", lambda: json.dumps({"messages": _langchain()}).encode()),
    ("a pydantic-ai history object", lambda: b'{"messages": ' + _pydantic_ai() + b"}"),
    ("an AI SDK ModelMessage[] history object", lambda: _first_line("model_messages.jsonl")),
]


@pytest.mark.parametrize(("form", "make"), HISTORY_OBJECTS, ids=[form for form, _ in HISTORY_OBJECTS])
def test_validate_without_a_format_reads_a_history_object(
    form: str, make: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 87: ``{"messages": [...]}`` was read as a canonical request, and refused."""
    path = tmp_path / "history.json"
    path.write_bytes(make())
    code = main(["validate", str(path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert ": ok, " in out, form
    assert "1 user" in out, out


OTEL = Path(__file__).parent / "fixtures" / "otel_genai"


@pytest.mark.parametrize("name", ["pydantic_ai_spans.jsonl", "pydantic_ai_trace.json"])
def test_validate_without_a_format_reads_a_span_file_and_skips_its_agent_and_tool_spans(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 87: a pydantic-ai trace (a span a line, or an OTLP export) validates without
    --format: its model calls read as otel-genai, its agent and tool spans skipped and counted."""
    code = main(["validate", str(OTEL / name)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.count(": ok, ") == 2, out
    assert "5 messages (1 system, 1 user, 2 assistant, 1 tool)" in out
    assert "2 span(s) skipped (no model call" in err
