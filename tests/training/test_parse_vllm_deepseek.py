"""vLLM's DeepSeek tool-parser and reasoning-parser tests, their cases restated as data against
``parse_completion``.

Sources (vLLM, Apache-2.0): ``tests/tool_parsers/test_deepseekv3_tool_parser.py`` (its
``ToolParserTestConfig``: the outputs ``tests/tool_parsers/common_tests.py`` runs),
``tests/tool_parsers/test_deepseekv31_tool_parser.py`` and
``tests/reasoning/test_deepseekr1_reasoning_parser.py`` (the non-streaming cases). The raw
outputs and vLLM's expected values are theirs, the code is not. Where chatcodec differs, the case
says so and docs/training.md says why.
"""

from __future__ import annotations

from typing import Any

import pytest

from chatcodec import Loss, parse_completion
from training.parse_fixtures import D, S
from training.parse_helpers import calls, opaque, reasoning, texts

SECTION = (f"<{D}tool{S}calls{S}begin{D}>", f"<{D}tool{S}calls{S}end{D}>")
CALL = (f"<{D}tool{S}call{S}begin{D}>", f"<{D}tool{S}call{S}end{D}>")
SEP = f"<{D}tool{S}sep{D}>"


def _v3(*calls: tuple[str, str]) -> str:
    """A V3 tool-calls section: each call ``function<sep>NAME`` and its fenced JSON."""
    inner = "".join(f"{CALL[0]}function{SEP}{name}\n```json\n{arguments}\n```{CALL[1]}" for name, arguments in calls)
    return SECTION[0] + inner + SECTION[1]


def _v31(*calls: tuple[str, str]) -> str:
    inner = "".join(f"{CALL[0]}{name}{SEP}{arguments}{CALL[1]}" for name, arguments in calls)
    return SECTION[0] + inner + SECTION[1]


# (raw, calls, texts): no_tool_calls, single, parallel, various_data_types, empty_arguments,
# surrounding_text and escaped_strings outputs of vLLM's DeepSeek V3 test config
DEEPSEEK_V3_CASES: list[tuple[str, list[tuple[str, Any]], list[str]]] = [
    (
        "How can I help you today? I can check weather for you.",
        [],
        ["How can I help you today? I can check weather for you."],
    ),
    (
        _v3(("get_weather", '{"city": "Tokyo", "unit": "celsius"}')),
        [("get_weather", {"city": "Tokyo", "unit": "celsius"})],
        [],
    ),
    (
        _v3(
            ("get_weather", '{"city": "Tokyo", "unit": "celsius"}'),
            ("search_hotels", '{"location": "Tokyo", "check_in": "2025-01-15"}'),
        ),
        [
            ("get_weather", {"city": "Tokyo", "unit": "celsius"}),
            ("search_hotels", {"location": "Tokyo", "check_in": "2025-01-15"}),
        ],
        [],
    ),
    (
        _v3(
            (
                "test_function",
                '{"string_field": "hello", "int_field": 42, "float_field": 3.14, "bool_field": true, '
                '"null_field": null, "array_field": ["a", "b", "c"], "object_field": {"nested": "value"}, '
                '"empty_array": [], "empty_object": {}}',
            )
        ),
        [
            (
                "test_function",
                {
                    "string_field": "hello",
                    "int_field": 42,
                    "float_field": 3.14,
                    "bool_field": True,
                    "null_field": None,
                    "array_field": ["a", "b", "c"],
                    "object_field": {"nested": "value"},
                    "empty_array": [],
                    "empty_object": {},
                },
            )
        ],
        [],
    ),
    (_v3(("get_current_time", "{}")), [("get_current_time", {})], []),
    (
        "Let me check the weather for you." + _v3(("get_weather", '{"city": "Paris"}')),
        [("get_weather", {"city": "Paris"})],
        ["Let me check the weather for you."],
    ),
    (
        _v3(
            (
                "send_message",
                '{"text": "He said \\"hello\\"", "path": "C:\\\\Users\\\\file", "newline": "line1\\nline2"}',
            )
        ),
        [("send_message", {"text": 'He said "hello"', "path": "C:\\Users\\file", "newline": "line1\nline2"})],
        [],
    ),
]


@pytest.mark.parametrize(("raw", "expected_calls", "expected_texts"), DEEPSEEK_V3_CASES)
def test_vllm_deepseek_v3_outputs(raw: str, expected_calls: list[object], expected_texts: list[str]) -> None:
    message = parse_completion(raw, parser="deepseek_v3", on_loss="ignore")
    assert calls(message) == expected_calls
    assert texts(message) == expected_texts
    assert opaque(message) == []


def test_a_deepseek_v3_call_with_broken_json_is_kept_as_a_call() -> None:
    """vLLM's first malformed output (its non-streaming test is marked xfail: vLLM says a tool
    was called and returns none); chatcodec keeps the call, its arguments the model's text."""
    raw = _v3(("get_weather", '{"city": "Tokyo"'))
    message = parse_completion(raw, parser="deepseek_v3", on_loss="ignore")
    assert [(part["name"], part["arguments"]) for part in message.content] == [("get_weather", '{"city": "Tokyo"')]


# (parser, raw): a tool-calls section holding no call. vLLM (V3.1's
# test_extract_tool_calls_unparsable_block) returns the whole completion as content; chatcodec
# keeps the section whole, its markers with it, as an opaque part, and the text before it as text
SECTIONS_WITH_NO_CALL = [
    ("deepseek_v31", "Let me look that up.", SECTION[0] + "get_weather"),
    ("deepseek_v31", "", SECTION[0] + "foo" + SEP + '{"x":1}' + SECTION[1]),
    ("deepseek_v3", "", SECTION[0] + f'function{SEP}get_weather\n```json\n{{"city": "Tokyo"}}\n```' + SECTION[1]),
]


@pytest.mark.parametrize(("parser", "before", "section"), SECTIONS_WITH_NO_CALL)
def test_a_section_with_no_call_is_kept_with_its_markers(parser: str, before: str, section: str) -> None:
    losses: list[Loss] = []
    message = parse_completion(before + section, parser=parser, on_loss="ignore", losses=losses)
    assert texts(message) == ([before] if before else [])
    assert [part.data["text"] for part in opaque(message)] == [section]
    assert [loss.kind for loss in losses] == ["content"]


def test_a_kimi_k2_section_with_no_call_is_kept_with_its_markers() -> None:
    section = "<|tool_calls_section_begin|>get_weather"
    message = parse_completion("Checking." + section, parser="kimi_k2", on_loss="ignore")
    assert texts(message) == ["Checking."]
    assert [part.data["text"] for part in opaque(message)] == [section]


# test_deepseekv31_tool_parser.py: (raw, calls, texts); vLLM drops the suffix text, chatcodec keeps it
DEEPSEEK_V31_CASES: list[tuple[str, list[tuple[str, Any]], list[str]]] = [
    ("normal text" + _v31(("foo", '{"x":1}')), [("foo", {"x": 1})], ["normal text"]),
    (
        "some prefix text" + _v31(("foo", '{"x":1}'), ("bar", '{"y":2}')) + " some suffix text",
        [("foo", {"x": 1}), ("bar", {"y": 2})],
        ["some prefix text", "some suffix text"],
    ),
]


@pytest.mark.parametrize(("raw", "expected_calls", "expected_texts"), DEEPSEEK_V31_CASES)
def test_vllm_deepseek_v31_outputs(raw: str, expected_calls: list[object], expected_texts: list[str]) -> None:
    message = parse_completion(raw, parser="deepseek_v31", on_loss="ignore")
    assert calls(message) == expected_calls
    assert texts(message) == expected_texts


def test_deepseek_v31_arguments_are_the_model_s_text() -> None:
    """vLLM's ``arguments == '{"x":1}'``: the text as written, no space added."""
    message = parse_completion(DEEPSEEK_V31_CASES[0][0], parser="deepseek_v31", on_loss="ignore")
    assert message.content[1]["arguments"] == '{"x":1}'


# test_deepseekr1_reasoning_parser.py, non-streaming: (output, reasoning, content). vLLM's empty
# reasoning ("") is no thinking part here; its content "\nThis is the rest" is "This is the rest"
# (the newlines the template writes after </think> are its separator: docs/training.md)
R1_CASES: list[tuple[str, list[str], list[str]]] = [
    ("This is a reasoning section</think>This is the rest", ["This is a reasoning section"], ["This is the rest"]),
    ("This is a reasoning section</think>", ["This is a reasoning section"], []),
    ("This is content", ["This is content"], []),
    ("This\nThat</think>This is the rest\nThat", ["This\nThat"], ["This is the rest\nThat"]),
    ("</think>This is the rest", [], ["This is the rest"]),
    (
        "<think>This is a reasoning section</think>This is the rest",
        ["This is a reasoning section"],
        ["This is the rest"],
    ),
    ("<think>This is a reasoning section</think>", ["This is a reasoning section"], []),
    ("<think>This\nThat</think>This is the rest\nThat", ["This\nThat"], ["This is the rest\nThat"]),
    ("<think>This is a reasoning section", ["This is a reasoning section"], []),
    ("", [], []),
    (
        "\n<think>This is a reasoning section</think>\nThis is the rest",
        ["This is a reasoning section"],
        ["This is the rest"],
    ),
]


@pytest.mark.parametrize(("raw", "expected_reasoning", "expected_texts"), R1_CASES)
def test_vllm_deepseek_r1_reasoning(raw: str, expected_reasoning: list[str], expected_texts: list[str]) -> None:
    message = parse_completion(raw, parser="deepseek_v3", reasoning_parser="deepseek_r1", on_loss="ignore")
    assert reasoning(message) == expected_reasoning
    assert texts(message) == expected_texts


@pytest.mark.parametrize("value", ["31e400", "[1e400]"])
def test_a_dsml_value_beyond_a_float_stays_the_model_s_text(value: str) -> None:
    """Found by the fuzz run on vLLM's DeepSeek V3.2 sample: ``31e400`` read as infinity made
    arguments no JSON writer takes (a ``ValueError`` from inside); it is the model's text."""
    raw = (
        f'<{D}DSML{D}function_calls>\n<{D}DSML{D}invoke name="get_weather">\n'
        f'<{D}DSML{D}parameter name="days" string="false">{value}</{D}DSML{D}parameter>\n'
        f"</{D}DSML{D}invoke>\n</{D}DSML{D}function_calls>"
    )
    message = parse_completion(raw, parser="deepseek_v32", on_loss="ignore")
    assert calls(message) == [("get_weather", {"days": value})]
