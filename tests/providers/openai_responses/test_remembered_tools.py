"""A Responses request's function tools read from memory (``kit/remembered_tools.py``)
give what a first reading gives: every target's output and losses, and canonical data that
is the caller's own (changing it changes nothing the next request reads)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec import Loss
from chatcodec._providers.families import schema_writing
from chatcodec._providers.kit import remembered_tools
from providers.readings_for_writers import AnswersFromMemory

_SHAPES: list[dict[str, Any]] = [
    {
        "type": "function",
        "name": "bash",
        "description": "Run a command.",
        "strict": None,
        "parameters": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
    },
    {
        "type": "function",
        "name": "strict_one",
        "strict": True,  # strict mode rewrites it: every property required
        "parameters": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}},
    },
    {
        "type": "function",
        "name": "gemini_spelled",
        "strict": False,  # Gemini's spelling: sent back as it came
        "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING", "nullable": True}}},
    },
    {"type": "function", "name": "no_parameters"},  # parameters and strict left out: marked
    {"type": "function", "name": "odd name", "parameters": None, "strict": None, "x_extra": {"kept": [1, 1.0, True]}},
]
_TARGETS = ["openai-chat", "anthropic", "gemini", "bedrock-converse", "openai-responses", "canonical"]


def _request(tools: list[dict[str, Any]]) -> dict[str, Any]:
    return {"model": "gpt-5", "input": "hello", "tools": tools}


def _convert(body: dict[str, Any], target: str) -> tuple[Any, list[Loss]]:
    losses: list[Loss] = []
    out = chatcodec.convert_request(body, source="openai-responses", target=target, on_loss="ignore", losses=losses)
    return out, losses


@pytest.mark.parametrize("target", _TARGETS)
def test_a_second_reading_gives_the_first_ones_output_and_losses(target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    answers = AnswersFromMemory(monkeypatch)
    first = _convert(_request(copy.deepcopy(_SHAPES)), target)
    assert answers.count == 0
    second = _convert(_request(copy.deepcopy(_SHAPES)), target)
    assert answers.count == 1
    assert second == first
    assert first[1] or target in ("openai-responses", "canonical")  # the odd name, the Gemini spelling


@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "bedrock-converse"])
def test_a_writer_takes_no_look_at_a_remembered_schema(target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The look at whether a schema is spelled as Gemini's is taken by the first reading
    and given back with each later one: the writer looks at none the caller gave (only at
    the default a tool without ``parameters`` is given anew)."""
    answers = AnswersFromMemory(monkeypatch)
    first = _convert(_request(copy.deepcopy(_SHAPES)), target)
    looked: list[object] = []
    look = schema_writing.looks_openapi

    def counted(schema: object) -> bool:
        looked.append(schema)
        return look(schema)

    monkeypatch.setattr(schema_writing, "looks_openapi", counted)
    second = _convert(_request(copy.deepcopy(_SHAPES)), target)
    assert answers.count == 1
    assert second == first
    assert looked == [{"type": "object", "properties": {}}] * 2


def test_canonical_tools_from_memory_are_the_callers_own(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = AnswersFromMemory(monkeypatch)
    first, _ = _convert(_request(copy.deepcopy(_SHAPES)), "canonical")
    for tool in first["tools"]:  # a caller changes what it was given, bags included
        tool["name"] = "changed"
        for bag in tool.get("provider_metadata", {}).values():
            bag.clear()
    second, _ = _convert(_request(copy.deepcopy(_SHAPES)), "canonical")
    third, _ = _convert(_request(copy.deepcopy(_SHAPES)), "canonical")
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    fresh, _ = _convert(_request(copy.deepcopy(_SHAPES)), "canonical")
    assert answers.count == 2
    assert second == third == fresh
    assert second["tools"][0]["parameters"] is not third["tools"][0]["parameters"]


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from([0.5, 1.0, -0.0])
    | st.sampled_from(["", "a", "B"]),
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.sampled_from(["type", "a", "nullable"]), inner, max_size=2)
    ),
    max_leaves=6,
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.fixed_dictionaries(
            {"type": st.just("function"), "name": st.sampled_from(["a", "b c", "read_file"])},
            optional={
                "parameters": st.none()
                | st.dictionaries(st.sampled_from(["type", "properties", "x"]), _JSON, max_size=3),
                "strict": st.none() | st.booleans(),
                "description": st.none() | st.just("d"),
            },
        ),
        min_size=1,
        max_size=3,
    ),
    st.sampled_from(["openai-chat", "anthropic", "gemini"]),
)
def test_any_tools_read_from_memory_convert_as_read_afresh(tools: list[dict[str, Any]], target: str) -> None:
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    try:
        first = _convert(_request(copy.deepcopy(tools)), target)
    except chatcodec.ChatcodecError as error:
        with pytest.raises(type(error)):
            _convert(_request(copy.deepcopy(tools)), target)
        return
    assert len(remembered_tools._READINGS) == 1  # pyright: ignore[reportPrivateUsage]
    assert _convert(_request(copy.deepcopy(tools)), target) == first


def test_the_tool_memory_is_bounded_by_the_text_it_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its bytes of ``marshal`` and JSON text (not only past 64 readings), the memory of
    tool readings is forgotten whole: one request of a thousand tools cannot keep more alive
    than the bound the docs state (``docs/performance.md``, "Memories")."""
    from chatcodec._text_memory import Held

    monkeypatch.setattr(remembered_tools, "_READINGS", {})
    monkeypatch.setattr(remembered_tools, "_HELD", Held(1 << 30))
    _convert(_request(_SHAPES[:1]), "anthropic")
    one = remembered_tools._HELD.size  # pyright: ignore[reportPrivateUsage]
    assert one > 0
    monkeypatch.setattr(remembered_tools, "_HELD", Held(one + one // 2))
    remembered_tools._HELD.size = one  # pyright: ignore[reportPrivateUsage]
    renamed = [{**_SHAPES[0], "name": "bash2"}]
    _convert(_request(renamed), "anthropic")
    assert len(remembered_tools._READINGS) == 1  # pyright: ignore[reportPrivateUsage]  # the first forgotten
    assert remembered_tools._HELD.size < one + one // 2  # pyright: ignore[reportPrivateUsage]
