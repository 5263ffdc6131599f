"""Anthropic's client tools read from the memory of tool readings, and the OpenAI Chat writer's
function tools remembered as it wrote them beside that reading (``kit/remembered_tools.py``):
a Claude agent's every request sends the same tools, so from the second row on the reader's
tools are recalled, and from the third on the writer's tools are new copies of what it wrote,
each ``function`` object new, with the canonical schemas in their place. What a row gives is
what it gives with an empty memory: the same output and losses, a copy the caller may
change, and a fresh write for other options or a tool that lost something. Converted by the
canonical path: the pair's direct top level takes the usual request's tools as written whole
(``tests/test_direct_anthropic_top_level.py``)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec import Loss
from chatcodec._direct.table import canonical_only
from chatcodec._providers.contract.context import Reading
from chatcodec._providers.kit import remembered_tools
from chatcodec.options import OpenAIChatOptions

_TOOLS: list[dict[str, Any]] = [
    {
        "name": "read_file",
        "description": "Read a file.",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    },
    {
        "name": "edit",
        "strict": True,
        "input_schema": {
            "type": "object",
            "properties": {"old": {"type": "string"}},
            "required": ["old"],
            "additionalProperties": False,
        },
        "cache_control": {"type": "ephemeral"},  # OpenAI takes no breakpoint: reported
    },
    {"name": "no_schema", "input_schema": {"type": "object"}},
]
_PLAIN = [_TOOLS[0], _TOOLS[2]]


def _body(text: str, tools: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A new body, as a row parsed anew (its tools a copy)."""
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "messages": [{"role": "user", "content": text}],
        "tools": copy.deepcopy(_PLAIN if tools is None else tools),
    }


def _convert(body: dict[str, Any], options: OpenAIChatOptions | None = None) -> tuple[Any, list[tuple[str, str, str]]]:
    losses: list[Loss] = []
    with canonical_only():
        out = chatcodec.convert_request(
            body, source="anthropic", target="openai-chat", on_loss="ignore", losses=losses, options=options
        )
    return out, [(loss.path, loss.what, loss.why) for loss in losses]


class _Answers:
    """How many times the reader's tools and the writer's tools came from memory."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.read = self.written = 0
        recall_tools, written_tools = Reading.recall_tools, Reading.written_tools

        def recalled(reading: Reading, *arguments: Any, **keywords: Any) -> Any:
            found = recall_tools(reading, *arguments, **keywords)
            self.read += found[0] is not None
            return found

        def written(reading: Reading, *arguments: Any, **keywords: Any) -> list[dict[str, Any]] | None:
            found = written_tools(reading, *arguments, **keywords)
            self.written += found is not None
            return found

        monkeypatch.setattr(Reading, "recall_tools", recalled)
        monkeypatch.setattr(Reading, "written_tools", written)


@pytest.fixture(autouse=True)
def _empty_memory() -> None:
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]


def test_the_third_row_takes_the_tools_as_written_and_gives_what_an_empty_memory_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = _Answers(monkeypatch)
    rows = [_convert(_body(f"row {index}")) for index in range(4)]
    assert (answers.read, answers.written) == (3, 2)  # read from the second row on, written from the third
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    fresh = _convert(_body("row 3"))
    assert rows[3] == fresh
    assert [tool["function"]["name"] for tool in fresh[0]["tools"]] == ["read_file", "no_schema"]
    assert fresh[0]["tools"][1]["function"]["parameters"] == {"type": "object"}


def test_the_tools_written_from_memory_are_the_callers_to_change(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = _Answers(monkeypatch)
    for index in range(2):
        _convert(_body(f"row {index}"))
    out, _ = _convert(_body("row 2"))
    assert answers.written == 1
    expected = copy.deepcopy(out)
    out["tools"][0]["function"]["name"] = "changed"
    out["tools"][0]["function"]["parameters"]["properties"].clear()
    out["tools"][1]["type"] = "changed"
    again, _ = _convert(_body("row 2"))
    assert answers.written == 2
    assert again == expected


def test_tools_that_lost_something_are_written_anew_each_time_with_their_losses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = _Answers(monkeypatch)
    rows = [_convert(_body(f"row {index}", _TOOLS)) for index in range(3)]
    assert (answers.read, answers.written) == (2, 0)
    assert rows[0][1]  # the cache marker reported
    assert rows[0][1] == rows[2][1]  # on every row
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    assert _convert(_body("row 2", _TOOLS)) == rows[2]


def test_another_option_is_another_writing(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = _Answers(monkeypatch)
    for index in range(3):
        _convert(_body(f"row {index}"))
    assert answers.written == 1
    other = OpenAIChatOptions(strict_schema="drop_strict")
    rows = [_convert(_body(f"row {index}"), other) for index in range(2)]
    assert answers.written == 2  # the option's first row written anew, its second from memory
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    assert _convert(_body("row 1"), other) == rows[1]


def test_a_server_tool_beside_client_tools_is_read_tool_by_tool_in_its_order(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = _Answers(monkeypatch)
    tools = [{"type": "web_search_20250305", "name": "web_search"}, *_PLAIN]
    rows = [_convert(_body("row", tools)) for _ in range(3)]
    assert answers.read == 0
    assert rows[1] == rows[2]
    assert [path for path, _, _ in rows[2][1]] == ["$.provider_options", "$.provider_tools[0]"]  # the order too
