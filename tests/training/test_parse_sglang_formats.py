"""SGLang's function-call parser tests, their cases restated as data against ``parse_completion``.

Source (SGLang, Apache-2.0): ``test/srt/test_function_call_parser.py``, the detectors of
``python/sglang/srt/function_call/`` (``pythonic_detector.py``, ``mistral_detector.py``,
``llama32_detector.py``, ``kimik2_detector.py``, ``deepseekv3_detector.py``,
``qwen3_coder_detector.py``, ``glm4_moe_detector.py``, ``qwen25_detector.py`` and
``base_format_detector.py``), each under the name vLLM registers its format by. The outputs
and SGLang's expected calls are theirs (a streamed case's chunks joined into the completion),
the code is not. Where chatcodec differs, the case says so and docs/training.md says why: the
prose between calls is kept as the model wrote it, a call to a tool not offered is kept, and a
parameter keeps the spaces around it as vLLM's parsers keep them.
"""

from __future__ import annotations

from typing import Any

import pytest

from chatcodec import Loss, parse_completion
from training.parse_fixtures import D, S
from training.parse_helpers import calls, opaque, texts

# TestPythonicDetector: (raw, calls, texts)
PYTHONIC_CASES: list[tuple[str, list[tuple[str, Any]], list[str]]] = [
    (
        "This is just normal text without any tool calls.",
        [],
        ["This is just normal text without any tool calls."],
    ),
    (
        "Here's a tool call: [get_weather(location='New York', unit='celsius')]",
        [("get_weather", {"location": "New York", "unit": "celsius"})],
        ["Here's a tool call:"],
    ),
    (
        "This is some text before [get_weather(location='London')]",
        [("get_weather", {"location": "London"})],
        ["This is some text before"],
    ),
    ("[search(query='python programming')]", [("search", {"query": "python programming"})], []),
    (
        "[get_weather(location='Tokyo')] Here's the forecast:",
        [("get_weather", {"location": "Tokyo"})],
        ["Here's the forecast:"],
    ),
    (
        "[get_weather(location='Berlin')] and [search(query='restaurants')]",
        [("get_weather", {"location": "Berlin"}), ("search", {"query": "restaurants"})],
        ["and"],
    ),
    (
        "[get_weather(location='New York', unit='celsius', data=[1, 2, 3])]",
        [("get_weather", {"location": "New York", "unit": "celsius", "data": [1, 2, 3]})],
        [],
    ),
    (
        "[search(query='test', config={'options': [1, 2], 'nested': {'key': 'value'}})]",
        [("search", {"query": "test", "config": {"options": [1, 2], "nested": {"key": "value"}}})],
        [],
    ),
    (
        "[get_weather(location='Paris', data=[10, 20]), search(query='test', filters=['a', 'b'])]",
        [
            ("get_weather", {"location": "Paris", "data": [10, 20]}),
            ("search", {"query": "test", "filters": ["a", "b"]}),
        ],
        [],
    ),
    (
        "Here's a call: <|python_start|>[get_weather(location='Tokyo', data=[1, 2, 3])]<|python_end|>",
        [("get_weather", {"location": "Tokyo", "data": [1, 2, 3]})],
        ["Here's a call:"],
    ),
    # SGLang's normal text is the two sentences joined ("Mars.  In"); here each is a text part
    (
        "User wants to get the weather in Mars. <|python_start|>[get_weather(location='Mars', unit='celsius')]"
        "<|python_end|> In this way we will get the weather in Mars.",
        [("get_weather", {"location": "Mars", "unit": "celsius"})],
        ["User wants to get the weather in Mars.", "In this way we will get the weather in Mars."],
    ),
    # not SGLang's: beside a list of calls, a list holding none is prose that mentions a call
    ("Use [f(x)] to call it. [g(y=1)]", [("g", {"y": 1})], ["Use [f(x)] to call it."]),
    # cut off inside the list: SGLang holds it back waiting for more; a whole completion ends
    # there, and the text is kept as the model wrote it
    ("Let's try this: [", [], ["Let's try this: ["]),
    ("Let me check the weather: [get_weather(location=", [], ["Let me check the weather: [get_weather(location="]),
]


@pytest.mark.parametrize(("raw", "expected_calls", "expected_texts"), PYTHONIC_CASES)
def test_sglang_pythonic_outputs(raw: str, expected_calls: list[object], expected_texts: list[str]) -> None:
    message = parse_completion(raw, parser="pythonic", on_loss="ignore")
    assert calls(message) == expected_calls
    assert texts(message) == expected_texts
    assert opaque(message) == []


DECISION = "```\nTOOL: Access a weather API or service\nANSWER: [City Name] - [Weather Conditions] - [Temperature]\n```"

# TestMistralDetector: (raw, calls, texts)
MISTRAL_CASES: list[tuple[str, list[tuple[str, Any]], list[str]]] = [
    (
        '[TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"","content":"```\\nTOOL: Access a '
        'weather API or service\\nANSWER: [City Name] - [Weather Conditions] - [Temperature]\\n```"}}]',
        [("make_next_step_decision", {"decision": "", "content": DECISION})],
        [],
    ),
    (
        '[TOOL_CALLS] [{"name":"make_next_step_decision", '
        '"arguments":{"decision":"TOOL", "content":"Use weather API"}}]',
        [("make_next_step_decision", {"decision": "TOOL", "content": "Use weather API"})],
        [],
    ),
    ("This is just normal text without any tool calls.", [], ["This is just normal text without any tool calls."]),
    (
        'Here is some text before the tool call: [TOOL_CALLS] [{"name":"make_next_step_decision", '
        '"arguments":{"decision":"ANSWER", "content":"The answer is 42"}}]',
        [("make_next_step_decision", {"decision": "ANSWER", "content": "The answer is 42"})],
        ["Here is some text before the tool call:"],
    ),
]


@pytest.mark.parametrize(("raw", "expected_calls", "expected_texts"), MISTRAL_CASES)
def test_sglang_mistral_outputs(raw: str, expected_calls: list[object], expected_texts: list[str]) -> None:
    message = parse_completion(raw, parser="mistral", on_loss="ignore")
    assert calls(message) == expected_calls
    assert texts(message) == expected_texts


WEATHER_PARIS = ("get_weather", {"city": "Paris"})

# TestLlama32Detector: (raw, calls, texts)
LLAMA32_CASES: list[tuple[str, list[tuple[str, Any]], list[str]]] = [
    ('{"name": "get_weather", "parameters": {"city": "Paris"}}', [WEATHER_PARIS], []),
    (
        '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}};'
        '{"name": "get_tourist_attractions", "parameters": {"city": "Paris"}}',
        [WEATHER_PARIS, ("get_tourist_attractions", {"city": "Paris"})],
        [],
    ),
    (
        '<|python_tag|>{"name": "get_weather", "parameters": {}}'
        '<|python_tag|>{"name": "get_tourist_attractions", "parameters": {}}',
        [("get_weather", {}), ("get_tourist_attractions", {})],
        [],
    ),
    ('{"name": "get_weather", "parameters": {}} Some follow-up text', [("get_weather", {})], ["Some follow-up text"]),
    ("This is just plain explanation text.", [], ["This is just plain explanation text."]),
    ('Some intro. <|python_tag|>{"name": "get_weather", "parameters": {}}', [("get_weather", {})], ["Some intro."]),
]


@pytest.mark.parametrize(("raw", "expected_calls", "expected_texts"), LLAMA32_CASES)
def test_sglang_llama32_outputs(raw: str, expected_calls: list[object], expected_texts: list[str]) -> None:
    message = parse_completion(raw, parser="llama3_json", on_loss="ignore")
    assert calls(message) == expected_calls
    assert texts(message) == expected_texts
    assert opaque(message) == []


def test_a_broken_llama32_call_before_a_good_one() -> None:
    """SGLang's ``test_invalid_then_valid_json``: one call, ``get_weather``. SGLang's arguments are
    the second object's; here they are the text the model wrote after ``"parameters":`` (the
    broken object and the good one in it), reported as invalid JSON by the message."""
    raw = '{"name": "get_weather", "parameters": {{"name": "get_weather", "parameters": {}}'
    message = parse_completion(raw, parser="llama3_json", on_loss="ignore")
    assert [(part["name"], part["arguments"]) for part in message.content] == [
        ("get_weather", '{{"name": "get_weather", "parameters": {}}')
    ]


def _kimi(*calls: tuple[str, str]) -> str:
    inner = "".join(
        f"<|tool_call_begin|>{call_id}<|tool_call_argument_begin|>{args}<|tool_call_end|>" for call_id, args in calls
    )
    return f"<|tool_calls_section_begin|>{inner}<|tool_calls_section_end|>"


# TestKimiK2Detector: (raw, [(id, name, arguments)], texts); the arguments are the model's text
KIMI_CASES: list[tuple[str, list[tuple[str, str, str]], list[str]]] = [
    (
        _kimi(("functions.get_weather:0", '{"city": "Paris"}')),
        [("functions.get_weather:0", "get_weather", '{"city": "Paris"}')],
        [],
    ),
    (
        _kimi(
            ("functions.get_weather:0", '{"city": "Paris"}'),
            ("functions.get_tourist_attractions:1", '{"city": "London"}'),
        ),
        [
            ("functions.get_weather:0", "get_weather", '{"city": "Paris"}'),
            ("functions.get_tourist_attractions:1", "get_tourist_attractions", '{"city": "London"}'),
        ],
        [],
    ),
    # no section opener: SGLang's normal text is the whole output, and so is this text
    (
        'invalid_tool:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
        [],
        ['invalid_tool:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>'],
    ),
    # test_partial_tool_call: cut off inside the arguments, SGLang's streamed parameters so far
    (
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0"
        '<|tool_call_argument_begin|>{"city": "Paris"',
        [("functions.get_weather:0", "get_weather", '{"city": "Paris"')],
        [],
    ),
]


@pytest.mark.parametrize(("raw", "expected", "expected_texts"), KIMI_CASES)
def test_sglang_kimi_k2_outputs(raw: str, expected: list[tuple[str, str, str]], expected_texts: list[str]) -> None:
    message = parse_completion(raw, parser="kimi_k2", on_loss="ignore")
    found = [(part["id"], part["name"], part["arguments"]) for part in message.content if part["type"] == "tool_use"]
    assert found == expected
    assert texts(message) == expected_texts


def test_sglang_deepseek_v3_calls_with_a_newline_between() -> None:
    """TestDeepSeekV3Detector's multi-token stream, joined: a newline between two calls."""
    call = (f"<{D}tool{S}call{S}begin{D}>", f"<{D}tool{S}call{S}end{D}>")
    raw = (
        f"<{D}tool{S}calls{S}begin{D}>{call[0]}function<{D}tool{S}sep{D}>get_weather\n```json\n"
        f'{{"city":"Shanghai"}}\n```{call[1]}\n{call[0]}function<{D}tool{S}sep{D}>get_tourist_attractions\n'
        f'```json\n{{"city": "Beijing"}}\n```{call[1]}<{D}tool{S}calls{S}end{D}>'
    )
    message = parse_completion(raw, parser="deepseek_v3", on_loss="ignore")
    assert calls(message) == [("get_weather", {"city": "Shanghai"}), ("get_tourist_attractions", {"city": "Beijing"})]
    assert opaque(message) == []


WEATHER_TOOL = {
    "name": "get_current_weather",
    "parameters": {
        "properties": {
            "city": {"type": "string"},
            "state": {"type": "string"},
            "unit": {"type": "string", "enum": ["fahrenheit", "celsius"]},
        }
    },
}
AREA_TOOL = {
    "name": "calculate_area",
    "parameters": {
        "properties": {"shape": {"type": "string"}, "dimensions": {"type": "object"}, "precision": {"type": "integer"}}
    },
}
TYPES_TOOL = {
    "name": "test_types",
    "parameters": {
        "type": "object",
        "properties": {
            "int_param": {"type": "integer"},
            "float_param": {"type": "float"},
            "bool_param": {"type": "boolean"},
            "str_param": {"type": "string"},
            "obj_param": {"type": "object"},
        },
    },
}


def _coder(name: str, **values: str) -> str:
    parameters = "".join(f"<parameter={key}>\n{value}\n</parameter>\n" for key, value in values.items())
    return f"<tool_call>\n<function={name}>\n{parameters}</function>\n</tool_call>"


DALLAS = {"city": "Dallas", "state": "TX", "unit": "fahrenheit"}

# TestQwen3CoderDetector: (raw, tools, calls, texts)
QWEN3_CODER_CASES: list[tuple[str, list[object], list[tuple[str, Any]], list[str]]] = [
    ("This is a test response without any tool calls", [], [], ["This is a test response without any tool calls"]),
    (_coder("get_current_weather", **DALLAS), [WEATHER_TOOL, AREA_TOOL], [("get_current_weather", DALLAS)], []),
    (
        "Sure! Let me check the weather for you." + _coder("get_current_weather", **DALLAS),
        [WEATHER_TOOL, AREA_TOOL],
        [("get_current_weather", DALLAS)],
        ["Sure! Let me check the weather for you."],
    ),
    (
        _coder("calculate_area", shape="rectangle", dimensions='{"width": 10,\n "height": 20}', precision="2"),
        [WEATHER_TOOL, AREA_TOOL],
        [("calculate_area", {"shape": "rectangle", "dimensions": {"width": 10, "height": 20}, "precision": 2})],
        [],
    ),
    # SGLang's normal text is the newline between the calls; here it is no text
    (
        _coder("get_current_weather", **DALLAS)
        + "\n"
        + _coder("get_current_weather", city="Orlando", state="FL", unit="fahrenheit"),
        [WEATHER_TOOL, AREA_TOOL],
        [
            ("get_current_weather", DALLAS),
            ("get_current_weather", {"city": "Orlando", "state": "FL", "unit": "fahrenheit"}),
        ],
        [],
    ),
    (
        "<tool_call>\n<function=get_current_weather>\n</function>\n</tool_call>",
        [WEATHER_TOOL],
        [("get_current_weather", {})],
        [],
    ),
    (
        _coder("get_current_weather", city="Dallas->TX"),
        [WEATHER_TOOL],
        [("get_current_weather", {"city": "Dallas->TX"})],
        [],
    ),
    # no <tool_call> around the function block (SGLang only asserts a result; vLLM's engine reads a call)
    (
        "<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n"
        "</function>",
        [WEATHER_TOOL],
        [("get_current_weather", {"city": "Dallas", "state": "TX"})],
        [],
    ),
    (
        _coder(
            "test_types",
            int_param="42",
            float_param="3.14",
            bool_param="true",
            str_param="hello world",
            obj_param='{"key": "value"}',
        ),
        [TYPES_TOOL],
        [
            (
                "test_types",
                {
                    "int_param": 42,
                    "float_param": 3.14,
                    "bool_param": True,
                    "str_param": "hello world",
                    "obj_param": {"key": "value"},
                },
            )
        ],
        [],
    ),
    # test_parse_streaming_incomplete: cut off after a value, before its </parameter>
    (
        "<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX",
        [WEATHER_TOOL],
        [("get_current_weather", {"city": "Dallas", "state": "TX"})],
        [],
    ),
]


@pytest.mark.parametrize(("raw", "tools", "expected_calls", "expected_texts"), QWEN3_CODER_CASES)
def test_sglang_qwen3_coder_outputs(
    raw: str, tools: list[object], expected_calls: list[object], expected_texts: list[str]
) -> None:
    message = parse_completion(raw, parser="qwen3_coder", tools=tools, on_loss="ignore")
    assert calls(message) == expected_calls
    assert texts(message) == expected_texts


def test_qwen3_coder_values_keep_the_spaces_the_model_wrote() -> None:
    """SGLang's ``test_parse_streaming_multiple_tools`` (its output indented as the test's source
    is): SGLang strips each value; vLLM's parser takes off one newline on each side and keeps
    the rest, as here. The prose between the calls is text in both."""
    indent = "\n        "
    raw = indent.join(
        [
            "<tool_call>",
            "<function=get_current_weather>",
            "<parameter=city>",
            "Dallas",
            "</parameter>",
            "</function>",
            "</tool_call>",
            "Some text in between.",
            "<tool_call>",
            "<function=calculate_area>",
            "<parameter=dimensions>",
            '{"radius": 5}',
            "</parameter>",
            "</function>",
            "</tool_call>",
        ]
    )
    message = parse_completion(raw, parser="qwen3_coder", tools=[WEATHER_TOOL, AREA_TOOL], on_loss="ignore")
    assert calls(message) == [
        ("get_current_weather", {"city": "        Dallas\n        "}),
        ("calculate_area", {"dimensions": {"radius": 5}}),
    ]
    assert texts(message) == ["Some text in between."]


def _glm(name: str, *pairs: tuple[str, str]) -> str:
    inner = "".join(f"<arg_key>{key}</arg_key>\n<arg_value>{value}</arg_value>\n" for key, value in pairs)
    return f"<tool_call>{name}\n{inner}</tool_call>"


GLM_WEATHER = {
    "name": "get_weather",
    "parameters": {"properties": {"city": {"type": "string"}, "date": {"type": "string"}}},
}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (
            _glm("get_weather", ("city", "Beijing"), ("date", "2024-06-27")),
            [("get_weather", '{"city": "Beijing", "date": "2024-06-27"}')],
        ),
        (
            _glm("get_weather", ("city", "Beijing"), ("date", "2024-06-27"))
            + _glm("get_weather", ("city", "Shanghai"), ("date", "2024-06-28")),
            [
                ("get_weather", '{"city": "Beijing", "date": "2024-06-27"}'),
                ("get_weather", '{"city": "Shanghai", "date": "2024-06-28"}'),
            ],
        ),
        # test_invalid_tool_call: SGLang drops a call to a tool not offered; it is kept here
        (_glm("invalid_func", ("city", "Beijing")), [("invalid_func", '{"city": "Beijing"}')]),
    ],
)
def test_sglang_glm45_outputs(raw: str, expected: list[tuple[str, str]]) -> None:
    """TestGlm4MoeDetector: the arguments text exactly as SGLang writes it."""
    message = parse_completion(raw, parser="glm45", tools=[GLM_WEATHER], on_loss="ignore")
    assert [(part["name"], part["arguments"]) for part in message.content] == expected


TODOS = [
    {"id": "1", "task": "Check for hard-coded issues in the backend code", "status": "in_progress"},
    {"id": "2", "task": "Check for hard-coded issues in the frontend code", "status": "pending"},
]
TODO_TOOL = {"name": "todo_write", "parameters": {"properties": {"todos": {"type": "array"}}}}
TODOS_JSON = (
    '[{"id": "1", "task": "Check for hard-coded issues in the backend code", "status": "in_progress"}, '
    '{"id": "2", "task": "Check for hard-coded issues in the frontend code", "status": "pending"}]'
)


@pytest.mark.parametrize("escaped", [False, True])
def test_sglang_glm_array_argument_written_plain_or_escaped(escaped: bool) -> None:
    """``test_array_argument_with_escaped_json``: GLM-4.6 writes a call as shown, or escaped
    (``todo_write\\n<arg_key>`` with a backslash and ``n``, quotes as ``\\"``): both are the
    list, the escaped one reported as a spelling."""
    separator, value = ("\\n", TODOS_JSON.replace('"', '\\"')) if escaped else ("\n", TODOS_JSON)
    raw = (
        f"<tool_call>todo_write{separator}<arg_key>todos</arg_key>{separator}"
        f"<arg_value>{value}</arg_value>\n</tool_call>"
    )
    losses: list[Loss] = []
    message = parse_completion(raw, parser="glm45", tools=[TODO_TOOL], on_loss="ignore", losses=losses)
    assert calls(message) == [("todo_write", {"todos": TODOS})]
    assert texts(message) == []
    assert [loss.kind for loss in losses if loss.kind == "spelling"] == (["spelling"] if escaped else [])


def test_sglang_two_call_objects_in_one_hermes_block() -> None:
    """TestBaseFormatDetector's streamed block, joined: two call objects after one
    ``<tool_call>``, separated by a comma; both are calls (the comma text was the second call)."""
    raw = (
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}, '
        '{"name": "get_tourist_attractions", "arguments": {"city": "London"}}</tool_call>'
    )
    message = parse_completion(raw, parser="hermes", on_loss="ignore")
    assert calls(message) == [WEATHER_PARIS, ("get_tourist_attractions", {"city": "London"})]
    assert texts(message) == []
