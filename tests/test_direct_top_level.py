"""The direct paths' top level for the usual agent request from OpenAI Chat, into Anthropic and into
Responses (``_direct/top_levels/openai_chat_to_*.py``, the proof shared:
``_direct/top_levels/openai_chat_usual.py``): a model, function tools, a ``tool_choice``, a limit,
``stream``, a ``temperature`` or ``top_p``, the client settings beside them (``stream_options``,
``user``, ``seed``, ``stop``, ...: ``_providers/openai_chat/top_level_reading.py``), written by each field's
rules with the tools from one ``marshal`` text once written. What it gives is what the canonical
path (the oracle) gives, row after row of the same tools (the first reads them, the next take them
as written); any other top level goes the general one."""

from __future__ import annotations

import copy
import marshal
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec import Loss
from chatcodec._direct import openai_chat_to_anthropic, openai_chat_to_openai_responses
from chatcodec._direct.table import canonical_only
from chatcodec._direct.top_levels import openai_chat_usual_remembered
from chatcodec._direct.top_levels.openai_chat_to_anthropic import write_tools
from chatcodec._providers.kit import remembered_tools
from chatcodec._providers.openai_chat import request_fields, top_level_reading
from chatcodec._providers.openai_chat.common_shapes import COMMON_REQUEST
from chatcodec._providers.openai_chat.tools import FRONT_KEY
from chatcodec.contract import DecodeContext

_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a file.",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        },
    },
    {"type": "function", "function": {"name": "no_parameters"}},
]
_LOSSY: list[dict[str, Any]] = [
    {"type": "function", "function": {"name": "gemini_spelled", "parameters": {"type": "OBJECT"}}},
    {"type": "function", "function": {"name": "a name with spaces", "parameters": {"type": "object"}}},
]
_MESSAGES: list[dict[str, Any]] = [
    {"role": "system", "content": "You are terse."},
    {"role": "user", "content": "Read it."},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "a"}'}}
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "text"},
    {"role": "user", "content": "Thanks."},
]


def _body(tools: list[dict[str, Any]] | None = _TOOLS, **fields: Any) -> dict[str, Any]:
    """A new body, as a row parsed anew: nothing shared with another (its tools a copy)."""
    body: dict[str, Any] = {"model": "claude-sonnet-4-5", "messages": copy.deepcopy(_MESSAGES)}
    if tools is not None:
        body["tools"] = copy.deepcopy(tools)
    return {**body, **fields}


def _convert(body: dict[str, Any], target: str = "anthropic") -> tuple[dict[str, Any], list[Loss]]:
    losses: list[Loss] = []
    out = chatcodec.convert_request(body, source="openai-chat", target=target, on_loss="ignore", losses=losses)
    return out, losses


def _canonical(body: dict[str, Any], target: str = "anthropic") -> tuple[dict[str, Any], list[Loss]]:
    with canonical_only():
        return _convert(body, target)


_PAIRS = {"anthropic": openai_chat_to_anthropic, "openai-responses": openai_chat_to_openai_responses}
"""Each target with a direct top level from OpenAI Chat, and its pair's messages module."""


class _General:
    """How many bodies went the pair's general top level (the canonical reader's and writer's)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, target: str = "anthropic") -> None:
        self.count = 0
        pair = _PAIRS[target]
        general = pair.write_directly

        def counted(*arguments: Any, **keywords: Any) -> dict[str, Any] | None:
            self.count += 1
            return general(*arguments, **keywords)

        monkeypatch.setattr(pair, "write_directly", counted)


@pytest.fixture(autouse=True)
def _empty_memory() -> None:
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    openai_chat_usual_remembered._BEGUN.clear()  # pyright: ignore[reportPrivateUsage]


_CLOSED: dict[str, Any] = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
    "additionalProperties": False,
}
"""A structured output's schema OpenAI's strict mode takes as it is."""
_OPEN: dict[str, Any] = {"type": "object", "properties": {"city": {"type": "string"}, "n": {"type": "integer"}}}
"""One the strict writers close and require in full (and report)."""
_USUAL: dict[str, dict[str, Any]] = {
    "auto and a limit": {"tool_choice": "auto", "max_completion_tokens": 1000},
    "required": {"tool_choice": "required", "max_completion_tokens": 1000},
    "none": {"tool_choice": "none", "max_tokens": 20},
    "a named tool": {"tool_choice": {"type": "function", "function": {"name": "read_file"}}, "max_tokens": 9},
    "a named tool renamed": {"tool_choice": {"type": "function", "function": {"name": "a b"}}, "max_tokens": 9},
    "no limit (the model's, reported)": {"tool_choice": "auto"},
    "no limit, streamed": {"stream": True},
    "not streamed": {"stream": False, "max_completion_tokens": 5},
    "no choice": {"max_completion_tokens": 64},
    "no parallel calls, no choice": {"parallel_tool_calls": False, "max_tokens": 9},
    "parallel calls on auto": {"parallel_tool_calls": True, "tool_choice": "auto", "max_tokens": 9},
    "no parallel calls on none (reported)": {"parallel_tool_calls": False, "tool_choice": "none", "max_tokens": 9},
    "a temperature": {"temperature": 0.5, "max_tokens": 9},
    "a top_p and a temperature, streamed": {"top_p": 0.9, "temperature": 1.0, "stream": True},
    "a temperature for a reasoning model (a target rule)": {"model": "gpt-5", "temperature": 0.2, "max_tokens": 9},
    "a temperature as an integer (JavaScript's 1.0)": {"temperature": 1, "max_tokens": 9},
    "a top_p of 0": {"top_p": 0, "max_tokens": 9},
    "streamed with its usage asked": {"stream": True, "stream_options": {"include_usage": True}},
    "a user": {"user": "u-1", "max_tokens": 9},
    "a user and metadata (Anthropic's user_id; a key reported)": {"user": "u-1", "metadata": {"run": "7"}},
    "a seed (reported where there is none)": {"seed": 7, "max_tokens": 9},
    "stop sequences": {"stop": ["\n\nHuman:"], "max_tokens": 9},
    "a stop string": {"stop": "END", "max_tokens": 9},
    "the SDK's n and store": {"n": 1, "store": False, "max_tokens": 9},
    "a service tier": {"service_tier": "flex", "max_tokens": 9},
    "penalties": {"frequency_penalty": 0, "presence_penalty": 0.5, "max_tokens": 9},
    "a reasoning effort (thinking into Anthropic, within the limit)": {"reasoning_effort": "high", "max_tokens": 9},
    "a reasoning effort, no limit (the budget fills it)": {"reasoning_effort": "medium"},
    "a reasoning effort of none": {"reasoning_effort": "none", "max_tokens": 9},
    "a minimal reasoning effort": {"model": "gpt-5", "reasoning_effort": "minimal", "max_tokens": 9},
    "a JSON response format (a loss into Anthropic)": {"response_format": {"type": "json_object"}, "max_tokens": 9},
    "a strict JSON schema format, closed": {
        "response_format": {"type": "json_schema", "json_schema": {"name": "answer", "schema": _CLOSED, "strict": True}}
    },
    "a strict JSON schema format, open (rewritten and reported)": {
        "response_format": {"type": "json_schema", "json_schema": {"name": "answer", "schema": _OPEN, "strict": True}}
    },
    "a JSON schema format, not strict": {
        "response_format": {"type": "json_schema", "json_schema": {"name": "answer", "schema": _OPEN, "strict": False}}
    },
    "a JSON schema format with a description": {
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "answer", "description": "the city", "schema": _OPEN},
        }
    },
    "a text response format": {"response_format": {"type": "text"}},
    "a null limit (an SDK dump)": {"max_completion_tokens": None},
    "a null temperature": {"temperature": None},
    "a null stream": {"stream": None},
    "a null max_tokens": {"max_tokens": None},
    "null parallel calls": {"parallel_tool_calls": None},
    "an SDK dump's nulls (the front's and the full shapes')": {
        "user": None,
        "max_completion_tokens": None,
        "n": None,
        "seed": None,
        "temperature": None,
        "stop": None,
        "stream_options": None,
        "reasoning_effort": None,
        "response_format": None,
    },
    "nulls beside an integer temperature and settings": {
        "temperature": 1,
        "top_p": None,
        "seed": None,
        "user": "u-1",
        "stream": True,
        "stream_options": {"include_usage": True},
    },
    "a prompt cache key (2025's SDK; kept as data, reported)": {"prompt_cache_key": "session-7", "max_tokens": 9},
    "a safety identifier": {"safety_identifier": "user-hash", "stream": True},
    "text modalities": {"modalities": ["text"], "max_tokens": 9},
    "a predicted output": {"prediction": {"type": "content", "content": "x = 1"}, "max_tokens": 9},
    "web search options": {"web_search_options": {"search_context_size": "low"}, "max_tokens": 9},
    "vLLM's top_k beside a temperature": {"top_k": 40, "temperature": 0.6, "max_tokens": 9},
    "litellm's thinking passed through for Claude": {"thinking": {"type": "enabled", "budget_tokens": 1024}},
    "a prompt cache key of a number (kept as it came)": {"prompt_cache_key": 7},
    "a null prompt cache key (an SDK dump)": {"prompt_cache_key": None, "max_tokens": None},
    "a prompt cache key beside a client's settings": {
        "prompt_cache_key": "k",
        "stream": True,
        "stream_options": {"include_usage": True},
        "user": "u-1",
        "reasoning_effort": "low",
    },
    "a streaming client's settings": {
        "stream": True,
        "stream_options": {"include_usage": True},
        "temperature": 0,
        "user": "u-1",
        "seed": 3,
        "max_completion_tokens": 100,
    },
}


@pytest.mark.parametrize("target", list(_PAIRS))
@pytest.mark.parametrize("fields", list(_USUAL.values()), ids=list(_USUAL))
@pytest.mark.parametrize("tools", [_TOOLS, _LOSSY, None], ids=["tools", "lossy tools", "no tools"])
def test_a_usual_request_is_written_directly_as_the_canonical_path_writes_it(
    fields: dict[str, Any], tools: list[dict[str, Any]] | None, target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    general = _General(monkeypatch, target)
    rows = [_convert(_body(tools, **fields), target) for _ in range(3)]  # read, then as written (or anew: lossy)
    assert general.count == 0
    expected = _canonical(_body(tools, **fields), target)
    assert all(row == expected for row in rows)
    assert list(rows[2][0]) == list(expected[0])  # the writer's order of fields too


def test_a_limit_default_and_a_renamed_tool_are_reported() -> None:
    out, losses = _convert(_body(_LOSSY, tool_choice={"type": "function", "function": {"name": "a b"}}))
    assert out["max_tokens"] > 0
    assert out["tool_choice"]["type"] == "tool"
    assert out["tool_choice"]["name"].startswith("a_b")
    assert {loss.path for loss in losses} >= {"$.max_tokens", "$.tool_choice.name", "$.tools[1].name"}


_UNUSUAL: dict[str, dict[str, Any]] = {
    "a temperature of true": {"temperature": True},
    "a temperature of NaN": {"temperature": float("nan")},
    "a top_p of infinity": {"top_p": float("inf")},
    "a seed as text": {"seed": "7"},
    "usage not asked": {"stream": True, "stream_options": {"include_usage": False}},
    "stream options without a stream": {"stream_options": {"include_usage": True}},
    "metadata of a number": {"metadata": {"run": 7}},
    "empty stop sequences": {"stop": []},
    "two answers": {"n": 2},
    "stored": {"store": True},
    "a tier of another name": {"service_tier": "odd"},
    "a penalty outside OpenAI's range": {"presence_penalty": 3.0},
    "a logit bias": {"logit_bias": {"1": 2}},
    "a temperature outside OpenAI's range (the caller's, sent as it came)": {"temperature": 5.0},
    "a top_p outside OpenAI's range": {"top_p": 1.5},
    "a limit of 0": {"max_completion_tokens": 0},
    "both limits": {"max_completion_tokens": 10, "max_tokens": 10},
    "a limit of true": {"max_tokens": True},
    "a limit as a float": {"max_tokens": 10.0},
    "a stream of 1": {"stream": 1},
    "a choice beyond the front's": {"tool_choice": "any"},
    "a named choice with more": {"tool_choice": {"type": "function", "function": {"name": "x"}, "extra": 1}},
    "empty tools": {"tools": []},
    "null tools": {"tools": None},
    "a tool the front refuses": {"tools": [{"type": "function", "function": {"name": ""}}]},
    "a tool of another kind": {"tools": [{"type": "custom", "custom": {"name": "grammar"}}]},
    "a null model": {"model": None},
    "a null limit beside one": {"max_completion_tokens": None, "max_tokens": 7},
    "a null choice": {"tool_choice": None},
    "a response format with more fields": {"response_format": {"type": "json_object", "x": "y"}},
    "an effort this library does not know (kept as it came)": {"reasoning_effort": "extreme"},
    "a JSON schema response format beside a null (maybe not the front's copy)": {
        "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": {"type": "object"}}},
        "max_tokens": None,
    },
    "a null model beside a null limit": {"model": None, "max_tokens": None},
    "null tools beside a null limit": {"tools": None, "max_tokens": None},
    "a null beside a field the usual request does not hold": {"max_tokens": None, "logit_bias": {"1": 2}},
    "parallel calls of 1": {"parallel_tool_calls": 1},
    "two fields kept as data (their order in the bag is the front copy's)": {
        "modalities": ["text"],
        "web_search_options": {},
    },
    "litellm's thinking beside OpenRouter's reasoning (the reader keeps the thinking)": {
        "thinking": {"type": "adaptive"},
        "reasoning": {"effort": "low"},
    },
}


@pytest.mark.parametrize("target", list(_PAIRS))
@pytest.mark.parametrize("fields", list(_UNUSUAL.values()), ids=list(_UNUSUAL))
def test_any_other_top_level_goes_the_general_one(
    fields: dict[str, Any], target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    general = _General(monkeypatch, target)
    body = {**_body(), **fields}

    assert _outcome(body, _convert, target) == _outcome(body, _canonical, target)
    assert general.count == 1


def test_the_tools_written_from_memory_are_the_callers_to_change() -> None:
    first, _ = _convert(_body())
    second, _ = _convert(_body())
    assert second == first
    expected = copy.deepcopy(second)
    second["tools"][0]["name"] = "changed"
    second["tools"][0]["input_schema"]["properties"].clear()
    again, _ = _convert(_body())
    assert again == expected
    assert again["tools"][0]["input_schema"] is not second["tools"][0]["input_schema"]


def test_the_tools_are_remembered_as_written_only_beside_their_reading_with_their_report() -> None:
    tools = _body()["tools"]
    _convert(_body())
    found, text, report, _ = remembered_tools.written_whole(tools, FRONT_KEY, write_tools)
    assert found == _convert(_body())[0]["tools"]
    assert text is not None
    assert not report
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]
    openai_chat_usual_remembered._BEGUN.clear()  # pyright: ignore[reportPrivateUsage]
    assert remembered_tools.written_whole(tools, FRONT_KEY, write_tools)[0] is None
    first = _convert(_body(_LOSSY))
    found, _, report, _ = remembered_tools.written_whole(_body(_LOSSY)["tools"], FRONT_KEY, write_tools)
    assert found == first[0]["tools"]
    assert [place[:3] for place, _, _, _ in report] == [("tools", 0, "parameters"), ("tools", 1, "name")]


_STRICT_OPEN: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "run",
            "strict": True,
            "parameters": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
        },
    }
]
"""A strict tool whose schema leaves its object open: each writer closes it, reported (the Agents
SDK closes its own; a hand-written one often does not)."""


@pytest.mark.parametrize("target", list(_PAIRS))
@pytest.mark.parametrize("tools", [_STRICT_OPEN, _LOSSY], ids=["strict, open", "lossy"])
def test_tools_written_with_a_report_are_written_once_and_reported_every_time(
    tools: list[dict[str, Any]], target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chatcodec._direct.top_levels import openai_chat_to_anthropic, openai_chat_to_openai_responses

    module = openai_chat_to_anthropic if target == "anthropic" else openai_chat_to_openai_responses
    name = "encode_tool" if target == "anthropic" else "encode_functions"
    writings: list[object] = []
    writer = getattr(module, name)

    def counted(*arguments: Any) -> Any:
        writings.append(arguments[0])
        return writer(*arguments)

    monkeypatch.setattr(module, name, counted)
    rows = [_convert(_body(tools, stream=True), target) for _ in range(3)]
    assert len(writings) == (len(tools) if target == "anthropic" else 1)  # the first request's writing alone
    expected = _canonical(_body(tools, stream=True), target)
    assert rows == [expected] * 3
    assert any(loss.path.startswith("$.tools[0]") for loss in expected[1])


def test_tools_changed_in_type_are_not_taken_as_written() -> None:
    _convert(_body())
    changed = _body()
    changed["tools"][0]["function"]["parameters"]["properties"]["path"]["maxLength"] = 1.0
    same_value = _body()
    same_value["tools"][0]["function"]["parameters"]["properties"]["path"]["maxLength"] = 1
    assert _convert(changed)[0]["tools"][0]["input_schema"]["properties"]["path"]["maxLength"].__class__ is float
    assert _convert(same_value)[0]["tools"][0]["input_schema"]["properties"]["path"]["maxLength"].__class__ is int


_TOOLSETS: list[list[dict[str, Any]]] = [
    _TOOLS,
    _LOSSY,
    [{"type": "function", "function": {"name": "s", "strict": True, "parameters": {"type": "object"}}}],
    [{"type": "function", "function": {"name": "d", "description": None, "parameters": {"type": "object"}}}],
    [{"type": "function", "function": {"name": "p", "parameters": None}}],
    [{"type": "function", "function": {"name": "x", "parameters": {"properties": {"n": {"minimum": 1.0}}}}}],
    [{"type": "function", "function": {"name": "e", "parameters": {"type": "object"}}, "extra": 1}],
    [{"type": "function", "function": {"name": "dup"}}, {"type": "function", "function": {"name": "dup"}}],
]
_VALUES: dict[str, list[Any]] = {
    "model": ["claude-sonnet-4-5", "", "claude-3-haiku-20240307", 5],
    "max_completion_tokens": [1, 100, 2**40, 0, -3, 10**30, 200_000],
    "max_tokens": [1, 128_000],
    "stream": [True, False, None],
    "parallel_tool_calls": [True, False, None, 0],
    "tool_choice": ["auto", "none", "required", {"type": "function", "function": {"name": ""}}],
}


def _outcome(body: dict[str, Any], convert: Any, target: str = "anthropic") -> Any:
    """What converting a copy of ``body`` gives: its output and losses, or its error."""
    try:
        return convert(copy.deepcopy(body), target)
    except chatcodec.ChatcodecError as error:
        return type(error), str(error)


@pytest.mark.parametrize("seed", range(60))
def test_random_top_levels_give_what_the_canonical_path_gives(seed: int) -> None:
    rng = random.Random(seed)
    body: dict[str, Any] = {"messages": copy.deepcopy(_MESSAGES)}
    for key, values in _VALUES.items():
        if rng.random() < 0.6:
            body[key] = rng.choice(values)
    if rng.random() < 0.8:
        body["tools"] = copy.deepcopy(rng.choice(_TOOLSETS))
    expected = _outcome(body, _canonical)
    assert [_outcome(body, _convert) for _ in range(2)] == [expected, expected]  # read, then as written


_FIELD_VALUES: dict[str, Any] = {
    "max_tokens": st.one_of(st.integers(-2, 2**64), st.booleans(), st.floats(allow_nan=False), st.none()),
    "max_completion_tokens": st.one_of(st.integers(-2, 200_000), st.floats(0, 10), st.none()),
    "temperature": st.one_of(st.floats(-1, 4), st.floats(), st.integers(-1, 3), st.booleans(), st.none()),
    "top_p": st.one_of(st.floats(-1, 2), st.integers(0, 1), st.none()),
    "stream": st.one_of(st.booleans(), st.integers(0, 1), st.none()),
    "parallel_tool_calls": st.one_of(st.booleans(), st.none(), st.just("yes")),
    "tool_choice": st.one_of(
        st.sampled_from(["auto", "none", "required", "any", ""]),
        st.fixed_dictionaries(
            {"type": st.just("function"), "function": st.fixed_dictionaries({"name": st.text(max_size=4)})}
        ),
        st.none(),
    ),
    "model": st.one_of(st.text(max_size=12), st.none(), st.integers()),
    "seed": st.one_of(st.integers(0, 9), st.text(max_size=2), st.none()),
    "user": st.one_of(st.text(max_size=4), st.integers(), st.none()),
    "stream_options": st.one_of(
        st.fixed_dictionaries({"include_usage": st.one_of(st.booleans(), st.integers(0, 1))}), st.just({}), st.none()
    ),
    "stop": st.one_of(st.text(max_size=3), st.lists(st.text(max_size=3), max_size=3), st.none()),
    "metadata": st.dictionaries(st.text(max_size=3), st.one_of(st.text(max_size=3), st.integers()), max_size=2),
    "n": st.one_of(st.integers(0, 2), st.none()),
    "reasoning_effort": st.one_of(
        st.sampled_from(["none", "minimal", "low", "medium", "high", "max", "odd"]), st.none()
    ),
    "response_format": st.one_of(
        st.fixed_dictionaries({"type": st.sampled_from(["text", "json_object", "json_schema", "odd"])}),
        st.just({"type": "json_schema", "json_schema": {"name": "r", "schema": {"type": "object"}}}),
        st.none(),
    ),
    "store": st.booleans(),
    "service_tier": st.sampled_from(["auto", "default", "flex", "priority", "odd"]),
    "frequency_penalty": st.one_of(st.floats(-3, 3), st.integers(-3, 3)),
    "prompt_cache_key": st.one_of(st.text(max_size=3), st.none(), st.integers(0, 2)),
    "top_k": st.one_of(st.integers(-1, 50), st.none(), st.floats(0, 2)),
    "thinking": st.one_of(st.just({"type": "enabled", "budget_tokens": 1024}), st.just({"type": "disabled"})),
}


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    fields=st.dictionaries(st.sampled_from(sorted(_FIELD_VALUES)), st.none(), max_size=4).flatmap(
        lambda keys: st.fixed_dictionaries({key: _FIELD_VALUES[key] for key in keys})
    ),
    target=st.sampled_from(sorted(_PAIRS)),
    tools=st.sampled_from([_TOOLS, _LOSSY, None]),
)
def test_any_top_level_converts_as_the_canonical_path_converts_it(
    fields: dict[str, Any], target: str, tools: list[dict[str, Any]] | None
) -> None:
    """Generated top levels, usual and not, in and out of the ranges and types the front and the
    reader take: the direct path's outcome (output, losses, or error) is the canonical path's."""
    body = _body(tools, **fields)

    assert _outcome(body, _convert, target) == _outcome(body, _canonical, target)


_SETTINGS_BODY: dict[str, Any] = {
    "stream": True,
    "stream_options": {"include_usage": True},
    "temperature": 1,
    "top_p": 1,
    "user": "u-1",
    "seed": 3,
    "metadata": {"run": "7"},
    "service_tier": "flex",
    "stop": "END",
    "n": 1,
    "store": False,
    "frequency_penalty": 0,
    "presence_penalty": 1,
    "reasoning_effort": "high",
    "response_format": {"type": "json_object"},
}
"""Every setting the usual request's top level reads, and the integer sampling numbers."""


def test_the_settings_decoders_leave_the_context_they_are_given_as_made() -> None:
    """The settings are read with one context made once (``top_level_reading._UNREAD``): each
    decoder they plan maps fields alone, reading and recording nothing there."""
    assert set(_SETTINGS_BODY) <= top_level_reading.SETTINGS | {"stream", "temperature", "top_p"}
    view = {"messages": [], **_SETTINGS_BODY}
    context = DecodeContext("openai-chat")
    made = {name: getattr(context, name) for name in DecodeContext.__dataclass_fields__}
    data: dict[str, Any] = {}
    bag: dict[str, Any] = {}
    mapped = ["messages"]
    for decoder in request_fields.decoders_for(view):
        mapped += decoder(view, data, bag, context)
    assert set(mapped) == set(view)
    assert {name: getattr(context, name) for name in DecodeContext.__dataclass_fields__} == made
    assert context.losses.count() == 0


_SETTING_VALUES = st.one_of(
    st.text(max_size=3),
    st.sampled_from(["\ud800", "é", "u-1"]),
    st.integers(-(2**70), 2**70),
    st.sampled_from([0, 1, -(2**63), 2**63 - 1, 2**63]),
    st.booleans(),
    st.floats(allow_nan=True),
    st.none(),
    st.fixed_dictionaries({"include_usage": st.one_of(st.booleans(), st.integers(0, 1), st.none())}),
    st.just({"include_usage": True, "extra": 1}),
    st.just({}),
    st.lists(st.text(max_size=2), max_size=2),
)


@settings(max_examples=400, deadline=None)
@given(view=st.dictionaries(st.sampled_from(sorted(top_level_reading._AS_THEY_ARE)), _SETTING_VALUES, max_size=5))  # pyright: ignore[reportPrivateUsage]
def test_settings_of_a_shape_are_what_the_front_copies_as_they_are(view: dict[str, Any]) -> None:
    """The settings the usual top level reads with no front copy made (those of a shape:
    ``top_level_reading.settings_shape``) are ones the closed front takes, and its copy of them
    holds the same values of the same types."""
    if top_level_reading.settings_shape(view) is None:
        return
    copied = COMMON_REQUEST.validate({"messages": [], **view})
    assert copied is not None
    assert _typed(copied) == _typed({"messages": [], **view})  # (in its order: the decoders ask by key)


def _typed(fields: dict[str, Any]) -> dict[str, bytes]:
    """Each field's value as ``marshal`` writes it (its exact types too; version 2 writes no sharing)."""
    return {key: marshal.dumps(value, 2) for key, value in fields.items()}


class _Decodings:
    """How many times the settings' decoders were planned (a reading of a view by them)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        planned = top_level_reading.decoders_for

        def counted(wire: dict[str, Any]) -> Any:
            self.count += 1
            return planned(wire)

        monkeypatch.setattr(top_level_reading, "decoders_for", counted)


_STREAMING_CLIENT: dict[str, Any] = {
    "stream": True,
    "stream_options": {"include_usage": True},
    "temperature": 1,
    "max_completion_tokens": 100,
}


@pytest.mark.parametrize("target", list(_PAIRS))
def test_a_settings_shape_is_read_once_each_session_its_own_user_and_seed(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client's settings of one shape (its own user and seed each session) are read by the
    decoders once, and a trial (the decoders again with other values there): later sessions take
    that reading with their own values, as the canonical path reads them."""
    top_level_reading._BY_SHAPE.clear()  # pyright: ignore[reportPrivateUsage]
    decodings = _Decodings(monkeypatch)
    sessions = [{**_STREAMING_CLIENT, "user": f"agent-{seed}", "seed": seed} for seed in (901, 902, 107, 2**63 - 1)]
    rows = [_convert(_body(**fields), target) for fields in sessions]
    assert decodings.count == 2
    assert rows == [_canonical(_body(**fields), target) for fields in sessions]
    assert all(fields["user"] not in repr(top_level_reading._BY_SHAPE) for fields in sessions)  # pyright: ignore[reportPrivateUsage]


@pytest.mark.parametrize("target", list(_PAIRS))
def test_a_sessions_own_cache_key_and_safety_identifier_beside_a_top_k_are_read_once_a_shape(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OpenAI's ``prompt_cache_key`` and ``safety_identifier`` (each session's own, canonical
    fields) and vLLM's ``top_k`` (read with its marker for the reader's writer) read once a shape,
    as the canonical path reads them, no key kept."""
    top_level_reading._BY_SHAPE.clear()  # pyright: ignore[reportPrivateUsage]
    decodings = _Decodings(monkeypatch)
    sessions = [{"prompt_cache_key": f"s-{n}", "safety_identifier": f"h{n}", "top_k": 40} for n in range(4)]
    rows = [_convert(_body(**fields), target) for fields in sessions]
    assert decodings.count == 2
    assert rows == [_canonical(_body(**fields), target) for fields in sessions]
    assert "s-1" not in repr(top_level_reading._BY_SHAPE)  # pyright: ignore[reportPrivateUsage]


def test_a_shape_whose_trial_differs_is_read_anew_each_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A setting taken as varying whose reading is not its value as it is (the SDK's ``n: 1``, a
    marker of the bag): the trial tells, and each request is read by the decoders."""
    top_level_reading._BY_SHAPE.clear()  # pyright: ignore[reportPrivateUsage]
    monkeypatch.setattr(top_level_reading, "VARYING", ("user", "seed", "n"))
    decodings = _Decodings(monkeypatch)
    rows = [_convert(_body(user="u", n=1, max_tokens=9)) for _ in range(3)]
    assert decodings.count == 6  # read and tried each time
    assert rows == [_canonical(_body(user="u", n=1, max_tokens=9))] * 3
