"""Each tool-call parser against its family's documented raw output.

The first table is vLLM's conformance fixtures (``tests/tool_parsers/test_format_conformance.py``:
one documented raw output per family, "authored from each parser's own source"), the same
bytes and the same calls; the cases after it take their shapes from each parser's own vLLM
test module (parallel calls, text around calls, reasoning) and the models' documented formats.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from chatcodec import parse_completion
from training.parse_fixtures import VLLM_CONFORMANCE, D, S
from training.parse_helpers import calls, reasoning, texts

SF = [("get_weather", {"city": "SF"})]


@pytest.mark.parametrize(
    ("parser", "raw"), VLLM_CONFORMANCE, ids=[f"{p}-{i}" for i, (p, _) in enumerate(VLLM_CONFORMANCE)]
)
def test_vllm_conformance_fixture_parses_to_its_calls(parser: str, raw: str) -> None:
    message = parse_completion(raw, parser=parser, on_loss="ignore")
    expected: list[tuple[str, Any]] = SF
    if parser == "pythonic":
        expected = [("get_weather", {"city": "SF", "units": "metric"})]
    assert calls(message) == expected
    assert texts(message) == []
    assert reasoning(message) == []


def test_hermes_keeps_the_arguments_text_as_the_model_wrote_it() -> None:
    raw = '<tool_call>\n{"name": "f", "arguments": {"b":2,  "a": 1.0, "s": "\\u00e9"}}\n</tool_call>'
    (part,) = parse_completion(raw, parser="hermes", on_loss="ignore").content
    assert part["arguments"] == '{"b":2,  "a": 1.0, "s": "\\u00e9"}'


def test_hermes_with_qwen3_reasoning_text_and_parallel_calls() -> None:
    raw = (
        "<think>\nThe user wants two cities.\n</think>\n\nLet me check both.\n"
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "SF"}}\n</tool_call>\n'
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "NYC"}}\n</tool_call>'
    )
    message = parse_completion(raw, parser="hermes", on_loss="ignore")
    assert reasoning(message) == ["The user wants two cities."]
    assert texts(message) == ["Let me check both."]
    assert calls(message) == [*SF, ("get_weather", {"city": "NYC"})]
    assert [part["type"] for part in message.content] == ["thinking", "text", "tool_use", "tool_use"]
    assert [part["id"] for part in message.content[2:]] == ["call_0", "call_1"]


def test_qwen3_coder_types_values_by_the_tool_schema() -> None:
    """vLLM's qwen3_coder test: ``<parameter=...>`` values are text, typed by the tool's schema."""
    tools = [
        {
            "type": "function",
            "function": {
                "name": "search",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "query": {"type": "string"},
                        "limit": {"type": "integer"},
                        "exact": {"type": "boolean"},
                        "filters": {"type": "object"},
                        "zip": {"type": "string"},
                    },
                },
            },
        }
    ]
    raw = (
        "I'll search.\n\n<tool_call>\n<function=search>\n<parameter=query>\nline one\nline two\n</parameter>\n"
        "<parameter=limit>\n5\n</parameter>\n<parameter=exact>\ntrue\n</parameter>\n"
        '<parameter=filters>\n{"lang": "en"}\n</parameter>\n<parameter=zip>\n02134\n</parameter>\n'
        "<parameter=unknown>\n7\n</parameter>\n</function>\n</tool_call>"
    )
    message = parse_completion(raw, parser="qwen3_coder", tools=tools, on_loss="ignore")
    assert texts(message) == ["I'll search."]
    assert calls(message) == [
        (
            "search",
            {
                "query": "line one\nline two",
                "limit": 5,
                "exact": True,
                "filters": {"lang": "en"},
                "zip": "02134",
                "unknown": "7",
            },
        )
    ]


def test_a_value_that_does_not_read_as_its_type_is_kept_as_text() -> None:
    tools = [{"name": "f", "parameters": {"properties": {"n": {"type": "integer"}}}}]
    raw = "<tool_call>\n<function=f>\n<parameter=n>\nmany\n</parameter>\n</function>\n</tool_call>"
    assert calls(parse_completion(raw, parser="qwen3_xml", tools=tools, on_loss="ignore")) == [("f", {"n": "many"})]


def test_minimax_m2_parallel_invokes_typed_by_schema() -> None:
    tools = [{"name": "get_weather", "parameters": {"properties": {"days": {"type": "integer"}}}}]
    raw = (
        "<think>Two cities.</think>\n\n<minimax:tool_call>\n"
        '<invoke name="get_weather">\n<parameter name="city">SF</parameter>\n<parameter name="days">3</parameter>\n'
        '</invoke>\n<invoke name="get_weather">\n<parameter name="city">NYC</parameter>\n</invoke>\n'
        "</minimax:tool_call>"
    )
    message = parse_completion(raw, parser="minimax_m2", tools=tools, on_loss="ignore")
    assert reasoning(message) == ["Two cities."]
    assert calls(message) == [("get_weather", {"city": "SF", "days": 3}), ("get_weather", {"city": "NYC"})]


def test_glm45_reads_untyped_values_as_json_and_glm47_without_the_newline() -> None:
    tools = [{"name": "f", "parameters": {"properties": {"s": {"type": "string"}}}}]
    raw = (
        "<think>ok</think>Answering.<tool_call>f\n<arg_key>s</arg_key>\n<arg_value>123</arg_value>\n"
        "<arg_key>n</arg_key>\n<arg_value>123</arg_value>\n<arg_key>l</arg_key>\n<arg_value>[1, 2]</arg_value>\n"
        "</tool_call><tool_call>g<arg_key>x</arg_key><arg_value>y</arg_value></tool_call>"
    )
    message = parse_completion(raw, parser="glm45", tools=tools, on_loss="ignore")
    assert reasoning(message) == ["ok"]
    assert texts(message) == ["Answering."]
    assert calls(message) == [("f", {"s": "123", "n": 123, "l": [1, 2]}), ("g", {"x": "y"})]


def test_kimi_k2_keeps_the_model_s_call_ids() -> None:
    raw = (
        "<think>two calls</think>Checking.<|tool_calls_section_begin|>"
        '<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "SF"}<|tool_call_end|>'
        '<|tool_call_begin|>functions.get_time:1<|tool_call_argument_begin|>{"tz": "PST"}<|tool_call_end|>'
        "<|tool_calls_section_end|>"
    )
    losses: list[Any] = []
    message = parse_completion(raw, parser="kimi_k2", losses=losses, on_loss="ignore")
    assert calls(message) == [*SF, ("get_time", {"tz": "PST"})]
    assert [part["id"] for part in message.content if part["type"] == "tool_use"] == [
        "functions.get_weather:0",
        "functions.get_time:1",
    ]
    assert texts(message) == ["Checking."]
    assert losses == []  # the model wrote its ids: nothing made


def test_deepseek_v31_and_v32_formats() -> None:
    v31 = (
        f"normal text<{D}tool{S}calls{S}begin{D}><{D}tool{S}call{S}begin{D}>foo<{D}tool{S}sep{D}>"
        f'{{"x":1}}<{D}tool{S}call{S}end{D}><{D}tool{S}calls{S}end{D}>'
    )
    message = parse_completion(v31, parser="deepseek_v31", on_loss="ignore")
    assert texts(message) == ["normal text"]
    assert message.content[1]["arguments"] == '{"x":1}'
    v32 = (
        f'<{D}DSML{D}function_calls>\n<{D}DSML{D}invoke name="get_weather">\n'
        f'<{D}DSML{D}parameter name="location" string="true">Hangzhou</{D}DSML{D}parameter>\n'
        f'<{D}DSML{D}parameter name="days" string="false">3</{D}DSML{D}parameter>\n'
        f"</{D}DSML{D}invoke>\n</{D}DSML{D}function_calls>"
    )
    assert calls(parse_completion(v32, parser="deepseek_v32", on_loss="ignore")) == [
        ("get_weather", {"location": "Hangzhou", "days": 3})
    ]


def test_deepseek_v3_with_r1_reasoning() -> None:
    raw = (
        f"<think>\nneed weather\n</think>\n\n<{D}tool{S}calls{S}begin{D}><{D}tool{S}call{S}begin{D}>function"
        f'<{D}tool{S}sep{D}>get_weather\n```json\n{{"city": "SF"}}\n```<{D}tool{S}call{S}end{D}>'
        f"<{D}tool{S}calls{S}end{D}>"
    )
    message = parse_completion(raw, parser="deepseek_v3", on_loss="ignore")
    assert reasoning(message) == ["need weather"]
    assert calls(message) == SF


@pytest.mark.parametrize(
    "raw",
    [
        '<|python_tag|>{"name": "get_weather", "parameters": {"city": "SF"}}',
        '{"name": "get_weather", "parameters": {"city": "SF"}}; {"name": "get_time", "parameters": {}}',
        '{"name": "get_weather", "arguments": {"city": "SF"}}',
    ],
)
def test_llama3_json(raw: str) -> None:
    found = calls(parse_completion(raw, parser="llama3_json", on_loss="ignore"))
    assert found[0] == SF[0]
    assert len(found) == raw.count('"name"')


def test_llama3_json_text_is_text() -> None:
    message = parse_completion("The weather is sunny.", parser="llama3_json")
    assert texts(message) == ["The weather is sunny."]


def test_pythonic_parallel_calls_with_literals_and_the_llama4_wrapper() -> None:
    raw = (
        "<|python_start|>[get_weather(city='SF', days=3, metric=True), get_time(tz=None, list=[1, (2, 3)])]"
        "<|python_end|>"
    )
    found = calls(parse_completion(raw, parser="llama4_pythonic", on_loss="ignore"))
    assert found == [
        ("get_weather", {"city": "SF", "days": 3, "metric": True}),
        ("get_time", {"tz": None, "list": [1, [2, 3]]}),
    ]
    assert texts(parse_completion("[1] is a citation", parser="pythonic")) == ["[1] is a citation"]


def test_mistral_v11_parallel_calls_with_call_ids_and_reasoning() -> None:
    raw = (
        '[THINK]Need two.[/THINK]Sure.[TOOL_CALLS]get_weather[ARGS]{"city": "SF"}'
        '[TOOL_CALLS]get_time[CALL_ID]abc123XYZ[ARGS]{"tz": "PST"}'
    )
    losses: list[Any] = []
    message = parse_completion(raw, parser="mistral", losses=losses, on_loss="ignore")
    assert reasoning(message) == ["Need two."]
    assert texts(message) == ["Sure."]
    assert calls(message) == [*SF, ("get_time", {"tz": "PST"})]
    ids = [part["id"] for part in message.content if part["type"] == "tool_use"]
    assert ids == ["call00000", "abc123XYZ"]  # a made id has the nine characters Mistral's API takes
    assert [loss.path for loss in losses] == ["$.content[2].id"]


HARMONY_CALL = (
    '<|channel|>analysis<|message|>User asks: "What is the weather in Tokyo?" We need to use get_current_weather.'
    "<|end|><|start|>assistant<|channel|>commentary to=functions.get_current_weather <|constrain|>json"
    '<|message|>{"location": "Tokyo"}<|call|>'
)


def test_harmony_analysis_is_reasoning_and_a_commentary_recipient_is_a_call() -> None:
    """The shape of vLLM's test_openai_tool_parser (rendered by openai-harmony): analysis, then a call."""
    message = parse_completion(HARMONY_CALL, parser="openai", on_loss="ignore")
    assert reasoning(message) == ['User asks: "What is the weather in Tokyo?" We need to use get_current_weather.']
    assert calls(message) == [("get_current_weather", {"location": "Tokyo"})]
    assert texts(message) == []


def test_harmony_final_text_recipient_in_the_role_header_and_arguments_as_written() -> None:
    raw = (
        "<|channel|>analysis<|message|>Think.<|end|>"
        "<|start|>assistant to=functions.lookup<|channel|>commentary json<|message|>foo<|call|>"
        "<|start|>assistant<|channel|>commentary to=functions.no_args <|constrain|>json<|message|><|call|>"
        "<|start|>assistant<|channel|>commentary<|message|>Working on it.<|end|>"
        "<|start|>assistant<|channel|>final<|message|>This tool call will get the weather.<|return|>"
    )
    message = parse_completion(raw, template="gpt-oss", on_loss="ignore")
    tool_uses = [part for part in message.content if part["type"] == "tool_use"]
    assert [(part["name"], part["arguments"]) for part in tool_uses] == [("lookup", "foo"), ("no_args", "")]
    assert texts(message) == ["Working on it.", "This tool call will get the weather."]
    assert reasoning(message) == ["Think."]


def test_harmony_completion_decoded_without_special_tokens_is_text() -> None:
    assert texts(parse_completion("plain answer", parser="openai")) == ["plain answer"]


@pytest.mark.parametrize(
    ("template", "raw", "expected"),
    [
        (
            "qwen3",
            '<think>x</think><tool_call>\n{"name": "get_weather", "arguments": {"city": "SF"}}\n</tool_call>',
            SF,
        ),
        (
            "qwen3.5",
            "x</think>\n<tool_call>\n<function=get_weather>\n<parameter=city>\nSF\n</parameter>\n</function>\n</tool_call>",
            SF,
        ),
        (
            "nemotron-3",
            "x</think><tool_call><function=get_weather><parameter=city>SF</parameter></function></tool_call>",
            SF,
        ),
        ("llama3.1", '{"name": "get_weather", "parameters": {"city": "SF"}}', SF),
        (
            "glm-4.5",
            "<think>x</think><tool_call>get_weather<arg_key>city</arg_key><arg_value>SF</arg_value></tool_call>",
            SF,
        ),
        (
            "kimi-k2",
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
            '{"city": "SF"}<|tool_call_end|><|tool_calls_section_end|>',
            SF,
        ),
        ("mistral", '[TOOL_CALLS]get_weather[ARGS]{"city": "SF"}', SF),
        (
            "gpt-oss",
            '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "SF"}<|call|>',
            SF,
        ),
    ],
)
def test_a_template_family_picks_its_parsers(template: str, raw: str, expected: list[tuple[str, Any]]) -> None:
    message = parse_completion(raw, template=template, on_loss="ignore")
    assert calls(message) == expected
    assert texts(message) == []
    assert json.dumps(reasoning(message)) in ('["x"]', "[]")
