"""The Anthropic writer's client tools remembered as it wrote them, beside the reading its
tools were recalled as (``kit/remembered_tools.py``, ``written``, the Responses writer's
memory with the schema under ``input_schema``): from the third row of the same tools on
(the first reads them, the second recalls and writes them) the writer's tools are new
copies of what it wrote, the canonical schemas in their place. What a row gives is what it
gives with an empty memory: the same output and losses, a copy the caller may change, and a
fresh write for tools that lost something or carry a cache marker (which counts toward the
body's breakpoints)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec import Loss
from chatcodec._direct.table import canonical_only
from chatcodec._providers.contract.context import Reading
from chatcodec._providers.kit import remembered_tools

_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a file.",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "edit",
            "strict": True,  # the structured-outputs subset takes it as it is
            "parameters": {
                "type": "object",
                "properties": {"old": {"type": "string"}},
                "required": ["old"],
                "additionalProperties": False,
            },
        },
    },
    {"type": "function", "function": {"name": "no_parameters"}},
]
_LOSSY: list[dict[str, Any]] = [
    {"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}},
    {"type": "function", "function": {"name": "gemini_spelled", "parameters": {"type": "OBJECT"}}},  # reported
]
_CACHED: list[dict[str, Any]] = [{**_TOOLS[0], "cache_control": {"type": "ephemeral"}}]


def _body(text: str, tools: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A new body, as a row parsed anew (its tools a copy), with a ``user``, converted by the
    canonical path (:func:`_convert`: the direct top level's own memory of the tools it wrote is
    ``tests/test_direct_top_level.py``'s)."""
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "user": "row",
        "messages": [{"role": "user", "content": text}],
        "tools": copy.deepcopy(tools or _TOOLS),
    }


def _convert(body: dict[str, Any]) -> tuple[Any, list[Loss]]:
    """``body`` converted by the canonical path, whose writer writes the top level."""
    losses: list[Loss] = []
    with canonical_only():
        out = chatcodec.convert_request(body, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses)
    return out, losses


class _Answers:
    """How many times the Anthropic writer's tools came from memory."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        written_tools = Reading.written_tools

        def counted(
            reading: Reading, tools: object, key: object, schema: str = "parameters"
        ) -> list[dict[str, Any]] | None:
            found = written_tools(reading, tools, key, schema)
            self.count += found is not None and schema == "input_schema"
            return found

        monkeypatch.setattr(Reading, "written_tools", counted)


@pytest.fixture(autouse=True)
def _empty_memory() -> None:
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]


def test_the_third_row_takes_the_tools_as_written_and_gives_what_an_empty_memory_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = _Answers(monkeypatch)
    rows = [_convert(_body(f"row {index}")) for index in range(4)]
    assert answers.count == 2  # the third and fourth rows
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    fresh = _convert(_body("row 3"))
    assert rows[3] == fresh
    assert [tool["name"] for tool in fresh[0]["tools"]] == ["read_file", "edit", "no_parameters"]
    assert fresh[0]["tools"][2]["input_schema"] == {"type": "object", "properties": {}}
    assert (rows[2][0]["tools"][1]["strict"], fresh[0]["tools"][1]["strict"]) == (True, True)


def test_the_tools_written_from_memory_are_the_callers_to_change(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = _Answers(monkeypatch)
    for index in range(2):
        _convert(_body(f"row {index}"))
    out, _ = _convert(_body("row 2"))
    assert answers.count == 1
    expected = copy.deepcopy(out)
    out["tools"][0]["name"] = "changed"
    out["tools"][0]["input_schema"]["properties"].clear()
    out["tools"][1]["input_schema"]["properties"].clear()
    again, _ = _convert(_body("row 2"))
    assert answers.count == 2
    assert again == expected


@pytest.mark.parametrize("tools", [_LOSSY, _CACHED], ids=["lossy", "cache marker"])
def test_tools_written_with_a_loss_or_a_marker_are_written_anew_each_time(
    monkeypatch: pytest.MonkeyPatch, tools: list[dict[str, Any]]
) -> None:
    answers = _Answers(monkeypatch)
    rows = [_convert(_body(f"row {index}", tools)) for index in range(3)]
    assert answers.count == 0
    assert rows[2][1] == rows[0][1]
    assert rows[2][0]["tools"] == rows[0][0]["tools"]
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    assert _convert(_body("row 2", tools)) == rows[2]


def test_the_lossy_tools_report_their_losses() -> None:
    assert [len(losses) for _, losses in (_convert(_body(f"row {index}", _LOSSY)) for index in range(3))] == [1, 1, 1]


def test_a_tool_cache_marker_is_sent() -> None:
    out, _ = _convert(_body("row", _CACHED))
    assert out["tools"][0]["cache_control"] == {"type": "ephemeral"}
