"""A Chat request's tools looked up before the closed front (``request._front``,
``tools.recall_unchecked``): tools whose reading the front took before are not checked again,
and what a conversion gives is what it gives with an empty memory: the same output and
losses, the same error at the same path, and canonical schemas that are copies (neither the
caller's objects nor the memory's). The situation is a dataset's rows or a new tenant's
requests: the same tools in bodies the process has never seen."""

from __future__ import annotations

import contextlib
import copy
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec import Loss
from chatcodec._direct.table import canonical_only
from chatcodec._direct.top_levels import openai_chat_usual_remembered
from chatcodec._providers.kit import closed_schema, remembered_tools
from chatcodec._providers.openai_chat import common_shapes
from chatcodec._providers.openai_responses import wire as responses_wire
from providers.readings_for_writers import AnswersFromMemory

_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a file.",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}, "limit": {"type": "integer", "minimum": 1}},
                "required": ["path"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "edit",
            "strict": True,  # strict mode rewrites it: every property required
            "parameters": {"type": "object", "properties": {"old": {"type": "string"}, "scale": {"default": 0.5}}},
        },
    },
    {"type": "function", "function": {"name": "gemini_spelled", "parameters": {"type": "OBJECT"}}},
    {"type": "function", "function": {"name": "no_parameters"}},
]
_TARGETS = ["openai-chat", "anthropic", "gemini", "bedrock-converse", "openai-responses", "canonical"]


def _body(text: str, tools: list[dict[str, Any]] | None = None, **fields: Any) -> dict[str, Any]:
    """A new body, as a row parsed anew: nothing shared with another (its tools a copy)."""
    messages = [{"role": "user", "content": text}]
    return {"model": "gpt-5", "messages": messages, "tools": copy.deepcopy(tools or _TOOLS), **fields}


def _convert(body: dict[str, Any], target: str, source: str = "openai-chat") -> tuple[Any, list[Loss]]:
    losses: list[Loss] = []
    out = chatcodec.convert_request(body, source=source, target=target, on_loss="ignore", losses=losses)
    return out, losses


def _tools_left_out(payload: object) -> bool:
    """Whether the front is asked about a body whose recalled tools were left out (an empty
    list in their place: every body here sends tools)."""
    return isinstance(payload, dict) and payload.get("tools") == []


class _Checks:
    """How many closed-front validations checked the tools, and how many left them unchecked."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.checked = 0
        self.unchecked = 0
        validate = closed_schema.LazyValidator.validate

        def counted(front: closed_schema.LazyValidator, payload: object) -> Any:
            if front is common_shapes.COMMON_REQUEST:
                if _tools_left_out(payload):
                    self.unchecked += 1
                else:
                    self.checked += 1
            return validate(front, payload)

        monkeypatch.setattr(closed_schema.LazyValidator, "validate", counted)


@pytest.mark.parametrize("target", _TARGETS)
def test_a_new_body_with_tools_read_before_is_converted_as_with_an_empty_memory(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = AnswersFromMemory(monkeypatch)
    checks = _Checks(monkeypatch)
    first = _convert(_body("first row"), target)
    second = _convert(_body("second row"), target)
    # into Anthropic and Responses the direct top level proves the usual request's other fields
    # itself, and takes the tools as its writer wrote them (what that reported reported again):
    # the front is asked about the tools alone, once, and the second reads nothing of them
    direct = target in {"anthropic", "openai-responses"}
    assert (answers.count, checks.checked, checks.unchecked) == ((0, 1, 0) if direct else (1, 1, 1))
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    assert second == _convert(_body("second row"), target)
    assert first[0] != second[0]


@pytest.mark.parametrize("direct", [False, True], ids=["canonical path", "direct path (taken as written)"])
def test_the_schemas_of_a_recalled_reading_are_copies(direct: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    answers = AnswersFromMemory(monkeypatch)
    with contextlib.nullcontext() if direct else canonical_only():
        _convert(_body("first"), "anthropic")
        body = _body("second")
        out, _ = _convert(body, "anthropic")
        assert answers.count == (0 if direct else 1)
        schema = out["tools"][0]["input_schema"]
        assert schema == body["tools"][0]["function"]["parameters"]
        assert schema is not body["tools"][0]["function"]["parameters"]
        schema["properties"].clear()  # the caller changes what it was given: the next row is not changed
        again, _ = _convert(_body("second"), "anthropic")
        assert again == _convert(_body("second"), "anthropic")[0] != out
        assert again["tools"][0]["input_schema"]["properties"]


@pytest.mark.parametrize(
    ("fields", "direct"),
    [
        # the full wire shapes read it (null), the closed front refuses it; into Anthropic and
        # Responses the direct top level reads it so, and takes the tools as written
        ({"temperature": None}, 2),
        ({"n": 2, "stop": None}, 0),  # a field kept in the bag beside one the front refuses
    ],
)
def test_a_body_the_front_refuses_for_another_field_is_read_as_before(
    fields: dict[str, Any], direct: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = []
    for target in _TARGETS:
        remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
        fresh.append(_convert(_body("row", **fields), target))
    openai_chat_usual_remembered._forget()  # pyright: ignore[reportPrivateUsage] - "seen" reads its tools whole
    _convert(_body("seen"), "anthropic")  # (an earlier test's top level of these keys would be taken from memory)
    checks = _Checks(monkeypatch)
    recalled = [_convert(_body("row", **fields), target) for target in _TARGETS]
    assert checks.unchecked == len(_TARGETS) - direct  # recalled, then refused for the other field
    assert recalled == fresh


@pytest.mark.parametrize(
    "message",
    [
        {"role": "user", "content": 5},
        {"role": "user"},
        {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "x"}}]},
    ],
)
def test_an_invalid_body_with_tools_read_before_fails_as_before(message: dict[str, Any]) -> None:
    def error() -> str:
        body = _body("row")
        body["messages"].append(message)
        with pytest.raises(chatcodec.ChatcodecError) as raised:
            _convert(body, "anthropic")
        return f"{type(raised.value).__name__}: {raised.value}"

    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    fresh = error()
    _convert(_body("seen"), "anthropic")
    assert error() == fresh
    assert "messages" in fresh


def test_tools_the_front_refused_are_not_left_unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tools read after the full wire validation (here a ``null`` the front refuses) are
    remembered by the copy that validation made: a later body's tools are still checked."""
    tools = copy.deepcopy(_TOOLS)
    tools[0]["function"]["strict"] = None
    checks = _Checks(monkeypatch)
    outs = [_convert(_body("row", tools), "anthropic") for _ in range(3)]
    assert checks.unchecked == 0
    assert outs[0] == outs[1] == outs[2]


def test_a_reading_not_remembered_whole_is_no_answer_for_the_callers_own_list() -> None:
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    tools = [{"type": "function", "function": {"name": "a", "parameters": {"type": "object"}}}]
    canonical = [{"type": "function", "name": "a", "parameters": tools[0]["function"]["parameters"]}]
    found, text, _ = remembered_tools.recall(tools, "key", [], {}, "function")
    assert found is None
    remembered_tools.remember(text, "key", tools, canonical, owned=[], texts={}, start=0, nested="function")
    assert remembered_tools.recall(tools, "key", [], {}, "function", unchecked=True)[0] is None
    assert remembered_tools.recall(tools, "key", [], {}, "function")[0] == canonical


def test_json_text_and_dicts_give_the_same_conversion() -> None:
    import json

    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    body = _body("row")
    from_text = chatcodec.convert_request(json.dumps(body), source="openai-chat", target="anthropic", on_loss="ignore")
    from_dicts = [_convert(_body("row"), "anthropic")[0] for _ in range(2)]
    assert from_text == from_dicts[0] == from_dicts[1]


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from([0.5, 1.0, -0.0, math.nan])
    | st.sampled_from(["", "a", "B"]),
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.sampled_from(["type", "a", "nullable"]), inner, max_size=2)
    ),
    max_leaves=6,
)


_FUNCTION = st.fixed_dictionaries(
    {"name": st.sampled_from(["a", "", "read_file"])},
    optional={
        "parameters": st.none() | st.dictionaries(st.sampled_from(["type", "properties", "x"]), _JSON, max_size=3),
        "strict": st.none() | st.booleans(),
        "description": st.just("d"),
    },
)
_TOOL = st.fixed_dictionaries({"type": st.just("function"), "function": _FUNCTION}) | st.just(
    {"type": "custom", "custom": {"name": "grammar"}}
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_TOOL, min_size=1, max_size=3), st.sampled_from(["openai-chat", "anthropic", "gemini"]))
def test_any_tools_convert_the_same_when_read_before(tools: list[dict[str, Any]], target: str) -> None:
    """By ``repr``: a ``NaN`` is unequal to itself."""

    def outcome() -> str:
        try:
            return repr(_convert(_body("row", tools), target))
        except chatcodec.ChatcodecError as error:
            return f"{type(error).__name__}: {error}"

    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    fresh = outcome()
    assert [outcome(), outcome()] == [fresh, fresh]


# --- the Responses reader's front, the same way ---------------------------------------------

_RESPONSES_TOOLS = [
    {"type": "function", "name": tool["function"]["name"], **tool["function"], "strict": None} for tool in _TOOLS
]


def _responses_body(text: str, **fields: Any) -> dict[str, Any]:
    return {"model": "gpt-5", "input": text, "tools": copy.deepcopy(_RESPONSES_TOOLS), **fields}


class _ResponsesChecks:
    """How many Responses front validations left the tools unchecked."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.unchecked = 0
        validate = closed_schema.LazyValidator.validate

        def counted(front: closed_schema.LazyValidator, payload: object) -> Any:
            if front is responses_wire.REQUEST_FRONT and _tools_left_out(payload):
                self.unchecked += 1
            return validate(front, payload)

        monkeypatch.setattr(closed_schema.LazyValidator, "validate", counted)


@pytest.mark.parametrize("target", _TARGETS)
@pytest.mark.parametrize("fields", [{}, {"temperature": None, "truncation": "auto"}])
def test_a_responses_body_with_tools_read_before_is_converted_as_with_an_empty_memory(
    target: str, fields: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``fields`` the front refuses (a ``null``), read by the wire shapes as before."""
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    fresh = _convert(_responses_body("row", **fields), target, "openai-responses")
    _convert(_responses_body("seen"), target, "openai-responses")
    checks = _ResponsesChecks(monkeypatch)
    body = _responses_body("row", **fields)
    recalled = _convert(body, target, "openai-responses")
    assert recalled == fresh
    assert checks.unchecked == 1
    if target == "anthropic":  # the schemas written are copies, not the caller's
        written = recalled[0]["tools"][0]["input_schema"]
        assert written == body["tools"][0]["parameters"]
        assert written is not body["tools"][0]["parameters"]
