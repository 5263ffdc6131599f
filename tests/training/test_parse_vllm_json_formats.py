"""vLLM's hermes and Mistral tool-parser tests, their cases restated as data against
``parse_completion``.

Sources (vLLM, Apache-2.0): ``tests/tool_parsers/test_hermes_tool_parser.py`` and
``tests/tool_parsers/test_mistral_tool_parser.py``; the raw outputs and vLLM's expected calls
and content are theirs, the code is not. Where chatcodec's result differs from vLLM's, the case
says so and docs/training.md says why: chatcodec keeps the prose after a call, the text of a
call it cannot read (as an opaque part, reported), and arguments a completion cut off.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from chatcodec import Loss, parse_completion
from training.parse_helpers import calls, opaque, texts

# test_hermes_parser_non_streaming_* and the streaming cases' texts: (raw, calls, texts)
HERMES_CASES: list[tuple[str, list[tuple[str, Any]], list[str]]] = [
    ("This is not a tool call.", [], ["This is not a tool call."]),
    (
        "This is some prior text that has nothing to do with tool calling.",
        [],
        ["This is some prior text that has nothing to do with tool calling."],
    ),
    (
        '<tool_call>\n{"name": "final_answer", "arguments": {"trigger": true}}\n</tool_call>',
        [("final_answer", {"trigger": True})],
        [],
    ),
    # until EOS: no </tool_call>, vLLM reads the call all the same
    (
        '<tool_call>\n{"name": "final_answer", "arguments": {"trigger": true}}',
        [("final_answer", {"trigger": True})],
        [],
    ),
    # invalid JSON (the object's closing brace missing): vLLM returns the whole text as content;
    # chatcodec keeps the call, its arguments the model's text (docs/training.md)
    ('<tool_call>\n{"name": "final_answer", "arguments": {"trigger": true}', [("final_answer", {"trigger": True})], []),
    (
        '<tool_call>{"name": "get_current_temperature","arguments": {"location":'
        '"San Francisco, California, United States", "unit": "celsius"}}</tool_call>',
        [("get_current_temperature", {"location": "San Francisco, California, United States", "unit": "celsius"})],
        [],
    ),
    (
        'Sure, let me check the weather.<tool_call>{"name": "get_weather", "arguments": {"city": "NYC"}}</tool_call>',
        [("get_weather", {"city": "NYC"})],
        ["Sure, let me check the weather."],
    ),
    (
        '<tool_call>{"name": "search", "arguments": {"q": "cats"}}</tool_call>'
        '<tool_call>{"name": "search", "arguments": {"q": "dogs"}}</tool_call>',
        [("search", {"q": "cats"}), ("search", {"q": "dogs"})],
        [],
    ),
    ('Hi!<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>', [("f", {"x": 1})], ["Hi!"]),
]


@pytest.mark.parametrize(("raw", "expected_calls", "expected_texts"), HERMES_CASES)
def test_vllm_hermes_outputs(raw: str, expected_calls: list[object], expected_texts: list[str]) -> None:
    message = parse_completion(raw, parser="hermes", on_loss="ignore")
    assert calls(message) == expected_calls
    assert texts(message) == expected_texts
    assert opaque(message) == []


def test_hermes_arguments_keep_the_model_s_text() -> None:
    """vLLM's ``arguments == '{"trigger": true}'``: the text, not a re-serialization."""
    raw = '<tool_call>\n{"name": "final_answer", "arguments": {"trigger": true}}\n</tool_call>'
    assert parse_completion(raw, parser="hermes", on_loss="ignore").content[0]["arguments"] == '{"trigger": true}'


# test_hermes_parser_non_streaming_serialized_arguments, ..._bare_string_arguments and
# test_hermes_streaming_string_arguments_match_non_streaming: a string holding one whole JSON
# object is that object (Granite 4 writes its arguments so); any other string stays a string
STRING_ARGUMENTS = [
    ('{"param": "max_connections"}', {"param": "max_connections"}),
    ("hello", "hello"),
    ("{hello world}", "{hello world}"),
    ("[oops", "[oops"),
    ('{"a": 1} tail text', '{"a": 1} tail text'),
]


@pytest.mark.parametrize(("written", "read"), STRING_ARGUMENTS)
def test_hermes_arguments_written_as_a_string(written: str, read: object) -> None:
    losses: list[Loss] = []
    raw = "<tool_call>\n" + json.dumps({"name": "f", "arguments": written}) + "\n</tool_call>"
    message = parse_completion(raw, parser="hermes", on_loss="ignore", losses=losses)
    assert calls(message) == [("f", read)]
    respelled = [loss for loss in losses if loss.kind == "spelling"]
    assert [loss.path for loss in respelled] == (["$.content[0].arguments"] if isinstance(read, dict) else [])


def _mistral(raw: str) -> tuple[list[tuple[str, Any]], list[str], list[str]]:
    message = parse_completion(raw, parser="mistral", on_loss="ignore")
    ids = [part["id"] for part in message.content if part["type"] == "tool_use"]
    return calls(message), texts(message), ids


ADD = ("add", {"a": 3.5, "b": 4})
WEATHER_SF = ("get_current_weather", {"city": "San Francisco", "state": "CA", "unit": "celsius"})

# test_extract_tool_calls_pre_v11_tokenizer and the streaming cases: (raw, calls, texts)
MISTRAL_PRE_V11_CASES: list[tuple[str, list[tuple[str, Any]], list[str]]] = [
    ("This is a test", [], ["This is a test"]),
    ('[TOOL_CALLS][{"name": "add", "arguments":{"a": 3.5, "b": 4}}]', [ADD], []),
    (
        '[TOOL_CALLS] [{"name": "get_current_weather", "arguments":{"city": "San Francisco", "state": "CA", '
        '"unit": "celsius"}}]',
        [WEATHER_SF],
        [],
    ),
    (
        '[TOOL_CALLS] [{"arguments":{"city": "San Francisco", "state": "CA", "unit": "celsius"}, '
        '"name": "get_current_weather"}]',
        [WEATHER_SF],
        [],
    ),
    ('[TOOL_CALLS] [{"arguments":{"name": "John Doe"}, "name": "get_age"}]', [("get_age", {"name": "John Doe"})], []),
    (
        '[TOOL_CALLS] [{"name": "add", "arguments": {"a": 3.5, "b": 4}}, {"name": "get_current_weather", '
        '"arguments":{"city": "San Francisco", "state": "CA", "unit": "celsius"}}]',
        [ADD, WEATHER_SF],
        [],
    ),
    ('Hello[TOOL_CALLS] [{"name": "add", "arguments":{"a": 1, "b": 2}}]', [("add", {"a": 1, "b": 2})], ["Hello"]),
    # vLLM keeps the trailing data in streaming and drops it in a whole parse; chatcodec keeps it
    (
        '[TOOL_CALLS] [{"name": "get_current_weather", "arguments":{"city": "Dallas", "state": "TX", '
        '"unit": "fahrenheit"}}]\nextra trailing data',
        [("get_current_weather", {"city": "Dallas", "state": "TX", "unit": "fahrenheit"})],
        ["extra trailing data"],
    ),
    ('[TOOL_CALLS]  [ {"name":"add" , "arguments" : {"a": 3, "b": 4} } ]', [("add", {"a": 3, "b": 4})], []),
    ('[TOOL_CALLS] [{"name": "add", "arguments":{"a": "3", "b": "4"}}]', [("add", {"a": "3", "b": "4"})], []),
    # test_extract_tool_calls_pre_v11_regex_fallback: vLLM finds the array after leading junk and
    # drops the junk and the trail; chatcodec keeps both as text
    (
        '[TOOL_CALLS]  junk [{"name": "add", "arguments":{"a": 1, "b": 2}}] trail',
        [("add", {"a": 1, "b": 2})],
        ["junk", "trail"],
    ),
    # test_extract_tool_calls_pre_v11_multiple_bot_tokens_raises: vLLM refuses the completion
    # ("Only one BOT token"); chatcodec reads both arrays
    (
        '[TOOL_CALLS] [{"name": "add", "arguments":{"a": 1}}][TOOL_CALLS] [{"name": "sub", "arguments":{"b": 2}}]',
        [("add", {"a": 1}), ("sub", {"b": 2})],
        [],
    ),
]

# test_extract_tool_calls (v11 and later): (raw, calls, texts)
MISTRAL_V11_CASES: list[tuple[str, list[tuple[str, Any]], list[str]]] = [
    ('[TOOL_CALLS]add_this_and_that{"a": 3.5, "b": 4}', [("add_this_and_that", {"a": 3.5, "b": 4})], []),
    (
        '[TOOL_CALLS]get_current_weather{"city": "San Francisco", "state": "CA", "unit": "celsius"}',
        [WEATHER_SF],
        [],
    ),
    (
        '[TOOL_CALLS]add{"a": 3.5, "b": 4}[TOOL_CALLS]multiply{"a": 3, "b": 6}',
        [ADD, ("multiply", {"a": 3, "b": 6})],
        [],
    ),
    ('bla[TOOL_CALLS]add_this_and_that{"a": 3.5, "b": 4}', [("add_this_and_that", {"a": 3.5, "b": 4})], ["bla"]),
    (
        'hi{hi[TOOL_CALLS]bash{"command": "print(\\"hello world!\\")\\nre.compile(r\'{}\')"}',
        [("bash", {"command": "print(\"hello world!\")\nre.compile(r'{}')"})],
        ["hi{hi"],
    ),
]


@pytest.mark.parametrize(("raw", "expected_calls", "expected_texts"), MISTRAL_PRE_V11_CASES + MISTRAL_V11_CASES)
def test_vllm_mistral_outputs(raw: str, expected_calls: list[object], expected_texts: list[str]) -> None:
    """vLLM's ids are nine letters and digits, as Mistral's API takes them; so are those made here."""
    found, found_texts, ids = _mistral(raw)
    assert found == expected_calls
    assert found_texts == expected_texts
    assert all(len(call_id) == 9 and call_id.isalnum() for call_id in ids)


def test_a_mistral_call_cut_off_keeps_the_model_s_arguments() -> None:
    """vLLM's "complex" case: a v11 call cut off before its closing brace. vLLM's arguments end
    before the string's closing quote; chatcodec's are the text the model wrote, quote included."""
    written = '{"command": "print(\\"hello world!\\")\\nre.compile(r\'{}\')"'
    message = parse_completion("hi{hi[TOOL_CALLS]bash" + written, parser="mistral", on_loss="ignore")
    assert texts(message) == ["hi{hi"]
    assert [(part["name"], part["arguments"]) for part in message.content[1:]] == [("bash", written)]


@pytest.mark.parametrize(
    "raw",
    [
        # test_extract_tool_calls_pre_v11_regex_fallback_fails: vLLM gives "not json at all" as content
        "[TOOL_CALLS] not json at all",
        # test_extract_tool_calls_v11_without_args_skipped: vLLM says a tool was called and returns none
        "[TOOL_CALLS]toolname_no_args",
    ],
)
def test_a_mistral_call_that_cannot_be_read_is_kept_whole(raw: str) -> None:
    losses: list[Loss] = []
    message = parse_completion(raw, parser="mistral", on_loss="ignore", losses=losses)
    assert [part.data["text"] for part in opaque(message)] == [raw]
    assert [loss.kind for loss in losses] == ["content"]
