"""The Responses writer's function tools remembered as it wrote them, beside the reading its
tools were recalled as (``kit/remembered_tools.py``, ``written``): an agent's every request
sends the same tools, so from the third row on (the first reads them, the second recalls
and writes them) the writer's tools are new copies of what it wrote, with the canonical
schemas in their place. What a row gives is what it gives with an empty memory: the same
output and losses, a copy the caller may change, and a fresh write for other options or a
tool that lost something."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec import Loss
from chatcodec._direct.top_levels import openai_chat_usual, openai_chat_usual_remembered
from chatcodec._providers.contract.context import Reading
from chatcodec._providers.kit import remembered_tools
from chatcodec.options import OpenAIResponsesOptions

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
            "strict": True,  # strict mode takes it as it is
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
    {
        "type": "function",
        "function": {
            "name": "edit",
            "strict": True,  # strict mode rewrites it, reported
            "parameters": {"type": "object", "properties": {"old": {"type": "string"}}},
        },
    },
    {"type": "function", "function": {"name": "gemini_spelled", "parameters": {"type": "OBJECT"}}},  # reported
]


def _body(text: str, tools: list[dict[str, Any]] | None = None, *, usual: bool = False) -> dict[str, Any]:
    """A new body, as a row parsed anew (its tools a copy). Not ``usual``: with ``"logprobs":
    false`` (asking nothing, reported nowhere), which the direct path's top level for the usual
    request and its client settings leaves to the writer's own
    (``_direct/top_levels/openai_chat_to_openai_responses.py``), whose memory these tests count."""
    body = {"model": "gpt-5", "messages": [{"role": "user", "content": text}], "tools": copy.deepcopy(tools or _TOOLS)}
    return body if usual else {**body, "logprobs": False}


def _convert(body: dict[str, Any], options: OpenAIResponsesOptions | None = None) -> tuple[Any, list[Loss]]:
    losses: list[Loss] = []
    out = chatcodec.convert_request(
        body, source="openai-chat", target="openai-responses", on_loss="ignore", losses=losses, options=options
    )
    return out, losses


class _Answers:
    """How many times the writer's tools came from memory."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        written_tools = Reading.written_tools

        def counted(reading: Reading, tools: object, key: object) -> list[dict[str, Any]] | None:
            found = written_tools(reading, tools, key)
            self.count += found is not None
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
    assert fresh[0]["tools"][2]["parameters"] == {"type": "object", "properties": {}}
    assert (rows[2][0]["tools"][1]["strict"], fresh[0]["tools"][1]["strict"]) == (True, True)


def test_the_tools_written_from_memory_are_the_callers_to_change(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = _Answers(monkeypatch)
    for index in range(2):
        _convert(_body(f"row {index}"))
    out, _ = _convert(_body("row 2"))
    assert answers.count == 1
    expected = copy.deepcopy(out)
    out["tools"][0]["name"] = "changed"
    out["tools"][0]["parameters"]["properties"].clear()
    out["tools"][1]["parameters"]["properties"].clear()
    again, _ = _convert(_body("row 2"))
    assert answers.count == 2
    assert again == expected


def test_another_strict_schema_option_is_written_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = _Answers(monkeypatch)
    for index in range(3):
        _convert(_body(f"row {index}"))
    assert answers.count == 1
    dropped = _convert(_body("row 3"), {"strict_schema": "drop_strict"})
    assert answers.count == 1  # the default's writing is no answer for another option
    again = _convert(_body("row 3"), {"strict_schema": "drop_strict"})
    assert answers.count == 2  # its own, once written
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    assert dropped == again == _convert(_body("row 3"), {"strict_schema": "drop_strict"})


def test_tools_written_with_a_loss_are_written_anew_each_time(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = _Answers(monkeypatch)
    rows = [_convert(_body(f"row {index}", _LOSSY)) for index in range(3)]
    assert answers.count == 0
    assert [len(losses) for _, losses in rows] == [3, 3, 3]
    assert rows[2][1] == rows[0][1]
    assert rows[2][0]["tools"] == rows[0][0]["tools"]


def test_the_usual_request_takes_its_tools_written_whole_from_the_second_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """The usual agent request's top level (no setting beyond the usual ones) keeps the tools as
    written whole, one ``marshal`` text beside their reading: the second row takes them, a copy
    the caller may change, and gives what an empty memory gives."""
    hits: list[bool] = []
    written_whole = openai_chat_usual.tools_written_whole

    def counted(tools: Any, writer: object) -> Any:
        found = written_whole(tools, writer)
        hits.append(found[0] is not None)
        return found

    monkeypatch.setattr(openai_chat_usual, "tools_written_whole", counted)
    rows = []
    for index in range(3):  # each row's top level written (none taken whole from the memory of top levels)
        openai_chat_usual_remembered._forget()  # pyright: ignore[reportPrivateUsage]
        rows.append(_convert(_body(f"row {index}", usual=True)))
    assert hits == [False, True, True]
    rows[1][0]["tools"][0]["parameters"]["properties"].clear()  # the caller's own copy
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    openai_chat_usual_remembered._forget()  # pyright: ignore[reportPrivateUsage]
    fresh = _convert(_body("row 2", usual=True))
    assert rows[2] == fresh
    assert fresh[0]["tools"][0]["parameters"]["properties"] == {"path": {"type": "string"}}
    assert [tool["name"] for tool in fresh[0]["tools"]] == ["read_file", "edit", "no_parameters"]
