"""The Anthropic -> OpenAI Chat direct path's top level for the usual Claude agent request
(``_direct/top_levels/anthropic_to_openai_chat.py``): a model, ``max_tokens``, a system prompt
(a string, or text blocks with a cache marker), client tools, a ``tool_choice``, ``stream``, and
a client's settings beside them (Claude Code's ``metadata`` and ``thinking``, sampling,
``stop_sequences``), read by the reader's own functions and written by the writer's field by
field. What it gives is what the canonical path (the oracle) gives, row after row of the same
tools; any other top level goes the general one (the canonical reader run on the body without
its turns)."""

from __future__ import annotations

import copy
import json
import marshal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec import Loss
from chatcodec._direct import anthropic_to_openai_chat
from chatcodec._direct.table import canonical_only, direct_path
from chatcodec._losses import LossRecorder
from chatcodec._providers.kit import remembered_tools

_TOOLS: list[dict[str, Any]] = [
    {
        "name": "read_file",
        "description": "Read a file.",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    },
    {"name": "no_parameters", "input_schema": {"type": "object"}},
]
_LOSSY: list[dict[str, Any]] = [
    {"name": "a name with spaces", "input_schema": {"type": "object"}},
    {"name": "marked", "input_schema": {"type": "object"}, "cache_control": {"type": "ephemeral"}},
]
_MESSAGES: list[dict[str, Any]] = [
    {"role": "user", "content": "Read it."},
    {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "a"}}],
    },
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "text"}]},
]
_BLOCKS = [
    {"type": "text", "text": "You are terse.", "cache_control": {"type": "ephemeral"}},
    {"type": "text", "text": "Today's task follows."},
]


def _body(tools: list[dict[str, Any]] | None = _TOOLS, **fields: Any) -> dict[str, Any]:
    """A new body, as a row parsed anew: nothing shared with another (its tools a copy)."""
    body: dict[str, Any] = {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": copy.deepcopy(_MESSAGES)}
    if tools is not None:
        body["tools"] = copy.deepcopy(tools)
    return {**body, **copy.deepcopy(fields)}


def _convert(body: dict[str, Any]) -> tuple[dict[str, Any], list[Loss]]:
    losses: list[Loss] = []
    out = chatcodec.convert_request(body, source="anthropic", target="openai-chat", on_loss="ignore", losses=losses)
    return out, losses


def _canonical(body: dict[str, Any]) -> tuple[dict[str, Any], list[Loss]]:
    with canonical_only():
        return _convert(body)


class _General:
    """How many bodies the pair's general top level read (the canonical reader, without the turns),
    or wrote (``write``: the canonical writer's whole request code, the turns the pass's)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, name: str = "read_request_data") -> None:
        self.count = 0
        general = getattr(anthropic_to_openai_chat, name)

        def counted(*arguments: Any, **keywords: Any) -> dict[str, Any]:
            self.count += 1
            return general(*arguments, **keywords)

        monkeypatch.setattr(anthropic_to_openai_chat, name, counted)


@pytest.fixture(autouse=True)
def _empty_memory() -> None:
    remembered_tools._READINGS.clear()  # pyright: ignore[reportPrivateUsage]


_USUAL: dict[str, dict[str, Any]] = {
    "a system string": {"system": "You are terse."},
    "system blocks with a marker": {"system": _BLOCKS},
    "no system": {},
    "auto": {"tool_choice": {"type": "auto"}},
    "any (required)": {"tool_choice": {"type": "any"}},
    "none": {"tool_choice": {"type": "none"}},
    "a named tool": {"tool_choice": {"type": "tool", "name": "read_file"}},
    "a named tool renamed": {"tool_choice": {"type": "tool", "name": "a b"}},
    "streamed": {"stream": True, "system": "s"},
    "not streamed": {"stream": False},
    "a deepseek model (its server's rules)": {"model": "deepseek-chat", "system": _BLOCKS},
    "a gpt-5.4 model (the target rules drop nothing)": {"model": "gpt-5.4", "stream": True},
    "a gpt-5.6 model (the target rules send an effort beside tools)": {"model": "gpt-5.6"},
    "Claude Code's settings": {
        "metadata": {"user_id": "user_0f_account__session_x"},
        "thinking": {"type": "enabled", "budget_tokens": 31999},
        "stream": True,
        "system": _BLOCKS,
    },
    "metadata of other keys (reported)": {"metadata": {"user_id": "u-1", "team": "a"}},
    "empty metadata": {"metadata": {}},
    "adaptive thinking (reported)": {"thinking": {"type": "adaptive"}},
    "thinking disabled": {"thinking": {"type": "disabled"}},
    "thinking enabled with no budget (kept, reported)": {"thinking": {"type": "enabled"}},
    "sampling (an integer marked, the API version shown)": {"temperature": 1, "top_p": 0.9},
    "top_k (reported)": {"top_k": 5},
    "an effort (an o-series reasoning_effort)": {"output_config": {"effort": "medium"}},
    "adaptive thinking and an effort (Claude Code to a 2026 model)": {
        "thinking": {"type": "adaptive"},
        "output_config": {"effort": "high"},
    },
    "an effort the reader does not know (kept in its bag, reported)": {"output_config": {"effort": "extreme"}},
    "an effort OpenAI has no word for": {"output_config": {"effort": "max"}, "thinking": {"type": "adaptive"}},
    "an effort to a gpt-5.6 model beside tools (the target rules)": {
        "model": "gpt-5.6",
        "output_config": {"effort": "low"},
    },
    "stop sequences": {"stop_sequences": ["END", "STOP"]},
    "no stop sequences": {"stop_sequences": []},
    "a gpt-5.4 model with thinking and a temperature (the target rules)": {
        "model": "gpt-5.4",
        "thinking": {"type": "enabled", "budget_tokens": 2048},
        "temperature": 0.5,
    },
}


@pytest.mark.parametrize("fields", list(_USUAL.values()), ids=list(_USUAL))
@pytest.mark.parametrize("tools", [_TOOLS, _LOSSY, None], ids=["tools", "lossy tools", "no tools"])
def test_a_usual_request_is_read_directly_as_the_canonical_path_reads_it(
    fields: dict[str, Any], tools: list[dict[str, Any]] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    general, written = _General(monkeypatch), _General(monkeypatch, "write_request_data")
    rows = [_convert(_body(tools, **fields)) for _ in range(3)]  # read, then recalled
    assert general.count == 0
    named = fields.get("model") == "deepseek-chat"  # a model a named server serves: the writer's whole code
    assert written.count == (3 if named else 0)
    expected = _canonical(_body(tools, **fields))
    assert all(row == expected for row in rows)
    assert list(rows[2][0]) == list(expected[0])  # the writer's order of fields too


_UNUSUAL: dict[str, dict[str, Any]] = {
    "a limit of 0": {"max_tokens": 0},
    "a limit of true": {"max_tokens": True},
    "a limit past 64 bits": {"max_tokens": 2**64},
    "a stream of 1": {"stream": 1},
    "no parallel calls": {"tool_choice": {"type": "auto", "disable_parallel_tool_use": True}},
    "a choice of another type": {"tool_choice": {"type": "required"}},
    "a named choice with no name": {"tool_choice": {"type": "tool"}},
    "a choice with a name beside auto": {"tool_choice": {"type": "auto", "name": "x"}},
    "empty tools": {"tools": []},
    "a server tool": {"tools": [{"type": "web_search_20250305", "name": "web_search"}]},
    "a tool the front refuses": {"tools": [{"name": "x", "input_schema": 3}]},
    "system blocks the front refuses": {"system": [{"type": "image", "text": "x"}]},
    "a null system": {"system": None},
    "metadata of another value": {"metadata": {"user_id": 7}},
    "metadata of a nested value": {"metadata": {"user_id": "u", "tags": ["a"]}},
    "thinking of another type": {"thinking": {"type": "sometimes"}},
    "thinking with another field": {"thinking": {"type": "adaptive", "budget_tokens": 1024}},
    "a budget of true": {"thinking": {"type": "enabled", "budget_tokens": True}},
    "a temperature of true": {"temperature": True},
    "a temperature past Anthropic's range": {"temperature": 1.5},
    "a stop sequence that is not a text": {"stop_sequences": ["a", 1]},
    "a service tier": {"service_tier": "auto"},
    "an output format": {"output_config": {"format": {"type": "json_schema", "schema": {"type": "object"}}}},
    "an effort and a format": {
        "output_config": {"effort": "low", "format": {"type": "json_schema", "schema": {"type": "object"}}}
    },
    "an effort of a number": {"output_config": {"effort": 3}},
    "a model that is not a string": {"model": 5},
}


@pytest.mark.parametrize("fields", list(_UNUSUAL.values()), ids=list(_UNUSUAL))
def test_any_other_top_level_goes_the_general_one(fields: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    body = {**_body(), **fields}

    def converted(convert: Any) -> Any:
        try:
            return convert(copy.deepcopy(body))
        except chatcodec.ChatcodecError as error:
            return type(error), str(error)

    expected = converted(_canonical)
    answers: list[object] = []
    read_usual = anthropic_to_openai_chat.read_usual

    def counted(*arguments: Any) -> Any:
        answers.append(read_usual(*arguments))
        return answers[-1]

    monkeypatch.setattr(anthropic_to_openai_chat, "read_usual", counted)
    assert converted(_convert) == expected
    assert answers in ([], [None])  # the general top level (or, for a body the pass refuses, the canonical path)


class _ToolsRead:
    """How many bodies had their tools read (the front's copy given to the reader's ``decode_tools``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from chatcodec._direct.top_levels import anthropic_to_openai_chat as top_level

        self.count = 0
        decode_tools = top_level.decode_tools

        def counted(fields: dict[str, Any], *arguments: Any) -> None:
            self.count += "tools" in fields
            decode_tools(fields, *arguments)

        monkeypatch.setattr(top_level, "decode_tools", counted)


@pytest.mark.parametrize("parsed", [False, True], ids=["built", "parsed from JSON"])
def test_tools_written_before_are_taken_as_written(parsed: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tools a request sends again are the writer's writing of them from the first request,
    found by the caller's list (a JSON parser's shares its keys, so its ``marshal`` text is not the
    front's copy's: both are remembered), with nothing read; lossy tools too (a name rewritten, a
    cache marker OpenAI has no place for: Claude Code marks its last tool), what their writing
    reported reported again."""
    reads = _ToolsRead(monkeypatch)

    def body(tools: list[dict[str, Any]]) -> dict[str, Any]:
        made = _body(tools, system="You are terse.")
        return json.loads(json.dumps(made)) if parsed else made

    rows = [_convert(body(_TOOLS)) for _ in range(3)]
    assert reads.count == 1
    assert all(row == _canonical(body(_TOOLS)) for row in rows)
    rows[1][0]["tools"][0]["function"]["parameters"]["properties"].clear()  # a new copy each request
    assert _convert(body(_TOOLS)) == rows[0]
    lossy = [_convert(body(_LOSSY)) for _ in range(3)]
    assert reads.count == 2
    assert lossy[2] == lossy[1] == lossy[0] == _canonical(body(_LOSSY))
    assert {loss.path for loss in lossy[2][1]} >= {"$.tools[0].name", "$.tools[1].cache_control"}


def test_tools_shared_otherwise_are_found_by_their_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """A JSON parser shares a key between a tool's schema and a call's input, so the same tools
    have another ``marshal`` text (its newest version) as the calls differ: found by their text
    that writes no reference, with nothing read again."""
    reads = _ToolsRead(monkeypatch)

    def parsed(key: str) -> dict[str, Any]:
        made = _body()
        made["messages"][1]["content"][0]["input"] = {key: "a"}
        return json.loads(json.dumps(made))

    first, other = parsed("path"), parsed("elsewhere")
    assert marshal.dumps(first["tools"]) != marshal.dumps(other["tools"])  # "path" shared with the schema
    assert marshal.dumps(first["tools"], 2) == marshal.dumps(other["tools"], 2)
    rows = [_convert(body) for body in (first, other)]
    assert reads.count == 1
    assert rows[1] == _canonical(parsed("elsewhere"))
    from chatcodec._direct.top_levels import anthropic_to_openai_chat as top_level

    looks: list[int] = []
    written_whole = top_level.written_whole

    def counted(*arguments: Any, **keywords: Any) -> Any:
        looks.append(keywords["version"])
        return written_whole(*arguments, **keywords)

    monkeypatch.setattr(top_level, "written_whole", counted)
    assert _convert(parsed("elsewhere")) == rows[1]
    assert looks == [marshal.version]  # its newest text remembered once the older version found it


def test_tools_written_before_go_no_further_for_a_named_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """A model a named server serves: the writer's whole request code writes the tools it read."""
    reads = _ToolsRead(monkeypatch)
    _convert(_body())
    rows = [_convert(_body(model="deepseek-chat")) for _ in range(2)]
    assert reads.count == 3
    assert rows[1] == rows[0] == _canonical(_body(model="deepseek-chat"))


def test_the_default_servers_fit_runs_where_a_turn_went_the_writers_general_function(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A plain turn's calls hold their id, type and function alone: the fit, which takes back what
    the writer placed for a server, runs only after a turn the writer's general function wrote."""
    from chatcodec._direct.top_levels import anthropic_to_openai_chat as top_level

    fits: list[bool] = []
    fit_written = top_level.fit_written

    def counted(wire: dict[str, Any], *arguments: Any) -> None:
        fits.append(True)
        fit_written(wire, *arguments)

    monkeypatch.setattr(top_level, "fit_written", counted)
    plain = _body()
    general = _body(tools=None)  # a call renamed by OpenAI's name rule: the general function's
    general["messages"][1]["content"][0]["name"] = "read file"
    for body, runs in ((plain, 0), (general, 1)):
        fits.clear()
        assert _convert(copy.deepcopy(body)) == _canonical(body)
        assert len(fits) == runs


def test_the_tools_read_directly_are_the_callers_to_change() -> None:
    first, _ = _convert(_body())
    first["tools"][0]["function"]["parameters"]["properties"].clear()
    again, _ = _convert(_body())
    assert again["tools"][0]["function"]["parameters"]["properties"] == {"path": {"type": "string"}}


def test_a_field_the_reader_keeps_in_its_bag_sends_the_body_the_canonical_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the proof (a reader that keeps more of a choice than today's): nothing is dropped, the
    body is converted by the canonical path from the start."""
    from chatcodec._direct.top_levels import anthropic_to_openai_chat as top_level

    decode_tools = top_level.decode_tools

    def keeping(fields: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: Any) -> None:
        decode_tools(fields, canonical, bag, context)
        bag["tool_choice"] = {"future": True}

    monkeypatch.setattr(top_level, "decode_tools", keeping)
    body = _body(tool_choice={"type": "auto"})
    with pytest.raises(top_level.KeptInBagError):
        top_level.read_usual(copy.deepcopy(body), anthropic_to_openai_chat.DirectReading(None, []))
    convert = direct_path("anthropic", "openai-chat")
    assert convert is not None
    assert convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec("openai-chat")) is None  # handed back
    assert _convert(body) == _canonical(body)


_FIELD_VALUES: dict[str, Any] = {
    "max_tokens": st.one_of(st.integers(-2, 2**64), st.booleans(), st.floats(0, 10), st.none()),
    "stream": st.one_of(st.booleans(), st.integers(0, 1), st.none()),
    "tool_choice": st.one_of(
        st.fixed_dictionaries({"type": st.sampled_from(["auto", "any", "none", "tool", "required"])}),
        st.fixed_dictionaries({"type": st.sampled_from(["tool", "auto"]), "name": st.text(max_size=4)}),
        st.fixed_dictionaries({"type": st.just("auto"), "disable_parallel_tool_use": st.booleans()}),
        st.none(),
    ),
    "system": st.one_of(st.text(max_size=8), st.just(_BLOCKS), st.just([]), st.none(), st.integers()),
    "model": st.one_of(st.text(max_size=12), st.none(), st.integers()),
    "temperature": st.one_of(st.floats(-1, 3), st.integers(0, 2), st.none()),
    "top_k": st.integers(0, 5),
    "top_p": st.one_of(st.floats(0, 1), st.booleans()),
    "metadata": st.one_of(
        st.fixed_dictionaries({"user_id": st.one_of(st.text(max_size=4), st.integers(), st.none())}),
        st.dictionaries(st.sampled_from(["user_id", "team"]), st.text(max_size=3), max_size=2),
        st.none(),
    ),
    "thinking": st.one_of(
        st.fixed_dictionaries({"type": st.sampled_from(["enabled", "adaptive", "disabled", "other"])}),
        st.fixed_dictionaries(
            {"type": st.sampled_from(["enabled", "adaptive"]), "budget_tokens": st.integers(-1, 2**64)}
        ),
        st.none(),
    ),
    "stop_sequences": st.one_of(st.lists(st.text(max_size=3), max_size=2), st.just([1]), st.none()),
}


@settings(max_examples=150, deadline=None)
@given(
    fields=st.dictionaries(st.sampled_from(sorted(_FIELD_VALUES)), st.none(), max_size=4).flatmap(
        lambda keys: st.fixed_dictionaries({key: _FIELD_VALUES[key] for key in keys})
    ),
    tools=st.sampled_from([_TOOLS, _LOSSY, None]),
)
def test_any_top_level_converts_as_the_canonical_path_converts_it(
    fields: dict[str, Any], tools: list[dict[str, Any]] | None
) -> None:
    """Generated top levels, usual and not, in and out of the types the front and the reader take:
    the direct path's outcome (output, losses, or error) is the canonical path's."""
    body = _body(tools, **fields)

    def converted(convert: Any) -> Any:
        try:
            return convert(copy.deepcopy(body))
        except chatcodec.ChatcodecError as error:
            return type(error), str(error)

    assert converted(_convert) == converted(_canonical)
