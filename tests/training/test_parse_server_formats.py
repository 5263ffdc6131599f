"""The parsers' formats as their servers read them (issue 97): each case from vLLM's own parser
tests or parser engines (vLLM, Apache-2.0; the modules named above each case), with vLLM's
expected calls; where chatcodec keeps what vLLM drops (the
prose beside a call, a call with no arguments), the docs (docs/training.md) say so and why."""

from __future__ import annotations

import pytest

from chatcodec import Loss, parse_completion
from training.parse_fixtures import D
from training.parse_helpers import calls, opaque, texts


def test_a_bare_qwen3_coder_function_block_is_a_call() -> None:
    """vLLM's Qwen3 parser engine (``vllm/frontend/processing/parser/qwen3.py``): ``<function=``
    in content, with no ``<tool_call>`` before it, starts a call."""
    raw = "Checking.\n<function=get_weather>\n<parameter=city>\nSF\n</parameter>\n</function>"
    message = parse_completion(raw, parser="qwen3_coder", on_loss="ignore")
    assert calls(message) == [("get_weather", {"city": "SF"})]
    assert texts(message) == ["Checking."]


# tests/tool_parsers/test_llama3_json_tool_parser.py, with vLLM's calls; vLLM drops the prose
LLAMA3_CASES = [
    (
        'Here is the result: {"name": "getOpenIncidentsTool", "parameters": {}} Would you like to know more?',
        [("getOpenIncidentsTool", {})],
        ["Here is the result:", "Would you like to know more?"],
    ),
    (
        'Here are the results: {"name": "searchTool", "parameters": {"query": "test1"}}; '
        '{"name": "getOpenIncidentsTool", "parameters": {}}; '
        '{"name": "searchTool", "parameters": {"query": "test2"}} Would you like to know more?',
        [("searchTool", {"query": "test1"}), ("getOpenIncidentsTool", {}), ("searchTool", {"query": "test2"})],
        ["Here are the results:", "Would you like to know more?"],
    ),
    (
        '{"name": "searchTool", "parameters": {"query": "test"}} I used {searchTool} for this.',
        [("searchTool", {"query": "test"})],
        ["I used {searchTool} for this."],
    ),
    (
        '{"name": "searchTool", "parameters": {"query": "test"}} The arguments I passed were {"query": "test"}',
        [("searchTool", {"query": "test"})],
        ['The arguments I passed were {"query": "test"}'],
    ),
    (
        '{"name": "searchTool", "parameters": {"query": "test1"}} ; {"name": "getOpenIncidentsTool", "parameters": {}}',
        [("searchTool", {"query": "test1"}), ("getOpenIncidentsTool", {})],
        [],
    ),
    ('Sure.<|python_tag|>{"name": "f", "parameters": {"a": 1}}', [("f", {"a": 1})], ["Sure."]),
    ("This is just some text without any tool calls", [], ["This is just some text without any tool calls"]),
]


@pytest.mark.parametrize(("raw", "expected_calls", "expected_texts"), LLAMA3_CASES)
def test_llama3_json_calls_after_prose(raw: str, expected_calls: list[object], expected_texts: list[str]) -> None:
    message = parse_completion(raw, parser="llama3_json", on_loss="ignore")
    assert calls(message) == expected_calls
    assert texts(message) == expected_texts


@pytest.mark.parametrize(
    ("raw", "expected_texts"),
    [
        ('{"name": "f", "parameters": {}};', [";"]),
        ('{"name": "f", "parameters": {}} ;  ', [";"]),
        ('<|python_tag|>{"name": "f", "parameters": {}}; done', ["; done"]),
    ],
)
def test_a_llama3_separator_with_no_call_after_it_stays_text(raw: str, expected_texts: list[str]) -> None:
    """A ``;`` separates two calls; after the last call nothing follows it, so it is the
    model's text, kept (it was dropped as a separator)."""
    message = parse_completion(raw, parser="llama3_json", on_loss="ignore")
    assert calls(message) == [("f", {})]
    assert texts(message) == expected_texts


@pytest.mark.parametrize(
    ("parser", "raw"),
    [
        ("llama3_json", '{"name": "toolWithoutParams"}'),
        ("hermes", '<tool_call>\n{"name": "toolWithoutParams"}\n</tool_call>'),
        ("mistral", '[TOOL_CALLS][{"name": "toolWithoutParams"}]'),
    ],
)
def test_a_call_with_a_name_alone_has_no_arguments(parser: str, raw: str) -> None:
    """vLLM reads ``{"name": "x"}`` as text (it looks the arguments up and fails); SGLang's JSON
    detectors make it a call with ``{}``, as here: the model called a tool that takes nothing."""
    message = parse_completion(raw, parser=parser, on_loss="ignore")
    assert [(part["name"], part["arguments"]) for part in message.content] == [("toolWithoutParams", "{}")]


def test_a_call_object_s_other_members_are_reported() -> None:
    losses: list[Loss] = []
    raw = '<tool_call>{"name": "f", "arguments": {}, "id": "abc"}</tool_call>'
    message = parse_completion(raw, parser="hermes", on_loss="ignore", losses=losses)
    assert calls(message) == [("f", {})]
    assert any("'id': \"abc\"" in loss.why for loss in losses)


DSML_TOOLS = [{"name": "f", "parameters": {"properties": {"n": {"type": "integer"}, "s": {"type": "string"}}}}]


def test_dsml_string_true_values_are_typed_by_the_tool_s_schema() -> None:
    raw = (
        f'<{D}DSML{D}tool_calls><{D}DSML{D}invoke name="f">'
        f'<{D}DSML{D}parameter name="n" string="true">3</{D}DSML{D}parameter>'
        f'<{D}DSML{D}parameter name="s" string="true">007</{D}DSML{D}parameter>'
        f'<{D}DSML{D}parameter name="x" string="true">4</{D}DSML{D}parameter>'
        f"</{D}DSML{D}invoke></{D}DSML{D}tool_calls>"
    )
    message = parse_completion(raw, parser="deepseek_v4", tools=DSML_TOOLS, on_loss="ignore")
    assert calls(message) == [("f", {"n": 3, "s": "007", "x": "4"})]


def test_a_dsml_invoke_whose_body_is_a_json_object() -> None:
    raw = f'<{D}DSML{D}tool_calls><{D}DSML{D}invoke name="f">\n{{"n": 3}}\n</{D}DSML{D}invoke></{D}DSML{D}tool_calls>'
    message = parse_completion(raw, parser="deepseek_v4", on_loss="ignore")
    assert [(part["name"], part["arguments"]) for part in message.content] == [("f", '{"n": 3}')]


@pytest.mark.parametrize(("alias", "raw", "value"), [("float", "2.5", 2.5), ("int", "7", 7), ("bool", "true", True)])
def test_schema_type_aliases_type_values(alias: str, raw: str, value: object) -> None:
    """vLLM's Qwen3-Coder parser reads ``int``, ``float``, ``bool`` (hand-written schemas) as their
    JSON types (``qwen3coder_tool_parser.py``, ``_convert_param_value``)."""
    tools = [{"name": "f", "parameters": {"properties": {"v": {"type": alias}}}}]
    raw_call = f"<tool_call>\n<function=f>\n<parameter=v>\n{raw}\n</parameter>\n</function>\n</tool_call>"
    assert calls(parse_completion(raw_call, parser="qwen3_coder", tools=tools, on_loss="ignore")) == [
        ("f", {"v": value})
    ]


@pytest.mark.parametrize(
    ("raw", "expected_texts"),
    [
        ('Let me check. [get_weather(city="SF")]', ["Let me check."]),
        ('[get_weather(city="SF")] Checking now.', ["Checking now."]),
        ('<|python_start|>[get_weather(city="SF")]<|python_end|> Checking.', ["Checking."]),
    ],
)
def test_prose_beside_pythonic_calls_is_text(raw: str, expected_texts: list[str]) -> None:
    message = parse_completion(raw, parser="pythonic", on_loss="ignore")
    assert calls(message) == [("get_weather", {"city": "SF"})]
    assert texts(message) == expected_texts
    assert opaque(message) == []


def test_prose_mentioning_a_python_call_is_text() -> None:
    assert texts(parse_completion("Use [f(x)] to call it.", parser="pythonic")) == ["Use [f(x)] to call it."]


def test_a_minimax_parameter_holding_its_own_closing_tag() -> None:
    raw = (
        '<minimax:tool_call>\n<invoke name="write">\n<parameter name="code">print("</parameter>")</parameter>\n'
        '<parameter name="path">a.py</parameter>\n</invoke>\n</minimax:tool_call>'
    )
    message = parse_completion(raw, parser="minimax_m2", on_loss="ignore")
    assert calls(message) == [("write", {"code": 'print("</parameter>")', "path": "a.py"})]


@pytest.mark.parametrize(
    ("parser", "raw"),
    [
        (
            "qwen3_coder",
            "<tool_call>\n<function=a>\n</function>\nmiddle\n<function=b>\n<parameter=x>\n1\n</parameter>\n"
            "inside\n</function>\n</tool_call>",
        ),
        (
            "minimax_m2",
            '<minimax:tool_call><invoke name="a"></invoke>middle<invoke name="b">'
            '<parameter name="x">1</parameter>inside</invoke></minimax:tool_call>',
        ),
        (
            "glm45",
            "<tool_call>a</tool_call>middle<tool_call>b<arg_key>x</arg_key><arg_value>1</arg_value>inside</tool_call>",
        ),
        (
            "hermes",
            '<tool_call>{"name": "a"}</tool_call>middle<tool_call>{"name": "b", "arguments": {}} inside</tool_call>',
        ),
    ],
)
def test_text_between_and_inside_calls_is_kept_in_order(parser: str, raw: str) -> None:
    message = parse_completion(raw, parser=parser, on_loss="ignore")
    kinds = [(part["type"], part.get("name") or part.get("text")) for part in message.content]
    assert kinds == [("tool_use", "a"), ("text", "middle"), ("tool_use", "b"), ("text", "inside")]


def test_text_between_harmony_messages_is_text() -> None:
    raw = "<|channel|>analysis<|message|>Think.<|end|>stray<|start|>assistant<|channel|>final<|message|>Hi.<|return|>"
    losses: list[Loss] = []
    message = parse_completion(raw, parser="openai", on_loss="ignore", losses=losses)
    assert [(part["type"], part["text"]) for part in message.content] == [
        ("thinking", "Think."),
        ("text", "stray"),
        ("text", "Hi."),
    ]
    assert losses == []


# tests/tool_parsers/test_pythonic_tool_parser.py: its outputs and vLLM's expected arguments, byte for byte
SIMPLE = (
    "get_weather(city='San Francisco', metric='celsius')",
    "get_weather",
    '{"city": "San Francisco", "metric": "celsius"}',
)
MORE_TYPES = (
    "register_user(name='John Doe', age=37, address={'city': 'San Francisco', 'state': 'CA'}, role=None, "
    "passed_test=True, aliases=['John', 'Johnny'])",
    "register_user",
    '{"name": "John Doe", "age": 37, "address": {"city": "San Francisco", "state": "CA"}, "role": null, '
    '"passed_test": true, "aliases": ["John", "Johnny"]}',
)
PYTHONIC_CASES = [
    [SIMPLE],
    [MORE_TYPES],
    [("get_weather()", "get_weather", "{}")],
    [("do_something_cool(additional_data={})", "do_something_cool", '{"additional_data": {}}')],
    [("do_something_cool(steps=[])", "do_something_cool", '{"steps": []}')],
    [
        (
            r"get_weather(city='Martha\'s Vineyard', metric='\"cool units\"')",
            "get_weather",
            '{"city": "Martha\'s Vineyard", "metric": "\\"cool units\\""}',
        )
    ],
    [SIMPLE, MORE_TYPES],
]


@pytest.mark.parametrize("items", PYTHONIC_CASES)
def test_vllm_pythonic_outputs_give_its_arguments(items: list[tuple[str, str, str]]) -> None:
    raw = "[" + ", ".join(output for output, _, _ in items) + "]"
    message = parse_completion(raw, parser="pythonic", on_loss="ignore")
    assert [(part["name"], part["arguments"]) for part in message.content] == [(n, a) for _, n, a in items]


@pytest.mark.parametrize("bad", ["bad(x=b'z')", "calc(x=1e999)"])
def test_a_bad_pythonic_call_is_kept_beside_its_good_sibling(bad: str) -> None:
    """vLLM keeps the good call and drops the bad one; here the bad one stays, unparsed and reported."""
    losses: list[Loss] = []
    message = parse_completion(f"[{bad}, {SIMPLE[0]}]", parser="pythonic", on_loss="ignore", losses=losses)
    (kept,) = opaque(message)
    assert kept.data["text"] == bad
    assert calls(message) == [("get_weather", {"city": "San Francisco", "metric": "celsius"})]
    assert [loss.kind for loss in losses if loss.kind == "content"] == ["content"]


# tests/tool_parsers/test_qwen3coder_tool_parser.py (test_extract_tool_calls, ..._type_conversion): its
# tools, outputs, calls and content; vLLM's content None is no text part here
QWEN3_CODER_TOOLS = [
    {
        "name": "get_current_weather",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "state": {"type": "string"},
                "unit": {"type": "string", "enum": ["fahrenheit", "celsius"]},
            },
        },
    },
    {
        "name": "calculate_area",
        "parameters": {
            "type": "object",
            "properties": {
                "shape": {"type": "string"},
                "dimensions": {"type": "object"},
                "precision": {"type": "integer"},
            },
        },
    },
    {
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
    },
]
DALLAS = (
    "<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n"
    "</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>"
)
DALLAS_CALL = ("get_current_weather", {"city": "Dallas", "state": "TX", "unit": "fahrenheit"})
QWEN3_CODER_CASES = [
    (DALLAS, [DALLAS_CALL], []),
    ("Sure! Let me check the weather for you." + DALLAS, [DALLAS_CALL], ["Sure! Let me check the weather for you."]),
    (
        "<tool_call>\n<function=calculate_area>\n<parameter=shape>\nrectangle\n</parameter>\n<parameter=dimensions>\n"
        '{"width": 10, \n "height": 20}\n</parameter>\n<parameter=precision>\n2\n</parameter>\n</function>\n'
        "</tool_call>",
        [("calculate_area", {"shape": "rectangle", "dimensions": {"width": 10, "height": 20}, "precision": 2})],
        [],
    ),
    (
        DALLAS + "\n" + DALLAS.replace("Dallas", "Orlando").replace("TX", "FL"),
        [DALLAS_CALL, ("get_current_weather", {"city": "Orlando", "state": "FL", "unit": "fahrenheit"})],
        [],
    ),
    (
        "<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n</function>",
        [("get_current_weather", {"city": "Dallas", "state": "TX"})],
        [],
    ),
    (
        "<tool_call>\n<function=test_types>\n<parameter=int_param>\n42\n</parameter>\n<parameter=float_param>\n3.14\n"
        "</parameter>\n<parameter=bool_param>\ntrue\n</parameter>\n<parameter=str_param>\nhello world\n</parameter>\n"
        '<parameter=obj_param>\n{"key": "value"}\n</parameter>\n</function>\n</tool_call>',
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
]


@pytest.mark.parametrize(("raw", "expected_calls", "expected_texts"), QWEN3_CODER_CASES)
def test_vllm_qwen3_coder_outputs(raw: str, expected_calls: list[object], expected_texts: list[str]) -> None:
    message = parse_completion(raw, parser="qwen3_coder", tools=QWEN3_CODER_TOOLS, on_loss="ignore")
    assert calls(message) == expected_calls
    assert texts(message) == expected_texts


# tests/tool_parsers/test_glm4_moe_tool_parser.py: its outputs, calls and content (vLLM drops the text between
# calls, kept here; an unclosed last call is a call here, where vLLM returns the text)
def _glm(name: str, pairs: dict[str, str], indent: str = "") -> str:
    body = "".join(f"\n{indent}<arg_key>{k}</arg_key>\n{indent}<arg_value>{v}</arg_value>" for k, v in pairs.items())
    return f"<tool_call>{name}{body}\n{indent}</tool_call>"


DALLAS_GLM = {"city": "Dallas", "state": "TX", "unit": "fahrenheit"}
BEIJING = {"city": "Beijing", "date": "2025-08-01"}
GLM_CASES = [
    (_glm("get_current_weather", DALLAS_GLM, "    "), [("get_current_weather", DALLAS_GLM)], []),
    (
        _glm("get_current_weather", DALLAS_GLM, "    ")
        + "\n    "
        + _glm("get_current_weather", {"city": "Orlando", "state": "FL", "unit": "fahrenheit"}, "    "),
        [
            ("get_current_weather", DALLAS_GLM),
            ("get_current_weather", {"city": "Orlando", "state": "FL", "unit": "fahrenheit"}),
        ],
        [],
    ),
    (
        "I will help you get the weather." + _glm("get_weather", BEIJING, "    "),
        [("get_weather", BEIJING)],
        ["I will help you get the weather."],
    ),
    ("<tool_call>get_current_time\n</tool_call>", [("get_current_time", {})], []),
    (
        "I will help you get the weather info.\n\n"
        + _glm("get_weather", BEIJING)
        + "\n\nmeaningwhile, I will also check the weather in Shanghai.\n\n"
        + _glm("get_weather", {"city": "Shanghai", "date": "2025-08-01"}),
        [("get_weather", BEIJING), ("get_weather", {"city": "Shanghai", "date": "2025-08-01"})],
        ["I will help you get the weather info.", "meaningwhile, I will also check the weather in Shanghai."],
    ),
    (
        "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Seattle</arg_value>\n<arg_key>incomplete_arg\n"
        "<arg_value>value</arg_value>\n</tool_call>",
        [("get_weather", {"city": "Seattle"})],
        ["<arg_key>incomplete_arg\n<arg_value>value"],
    ),
    (_glm("get_weather", BEIJING).removesuffix("\n</tool_call>"), [("get_weather", BEIJING)], []),
]


@pytest.mark.parametrize(("raw", "expected_calls", "expected_texts"), GLM_CASES)
def test_vllm_glm45_outputs(raw: str, expected_calls: list[object], expected_texts: list[str]) -> None:
    tools = [{"name": "get_weather", "parameters": {"properties": {"city": {"type": "string"}}}}]
    message = parse_completion(raw, parser="glm45", tools=tools, on_loss="ignore")
    assert calls(message) == expected_calls
    assert texts(message) == expected_texts


# tests/tool_parsers/test_kimi_k2_tool_parser.py: its outputs, names, arguments and ids
def _kimi(*calls: tuple[str, str]) -> str:
    inner = "".join(
        f"<|tool_call_begin|>{call_id} <|tool_call_argument_begin|>{args}<|tool_call_end|>" for call_id, args in calls
    )
    return f"<|tool_calls_section_begin|>{inner}<|tool_calls_section_end|>"


WEATHER = {
    "name": "get_weather",
    "parameters": {"properties": {"city": {"type": "string"}, "unit": {"type": "string"}}},
}
READ_FILE = {"name": "read_file", "parameters": {"properties": {"path": {"type": "string"}}}}
BOOK_FLIGHT = {"name": "book_flight", "parameters": {"properties": {"city": {"type": "string"}}}}
KIMI_CASES = [
    (
        "I'll check. " + _kimi(("functions.get_weather:0", '{"city": "Beijing"}')),
        [],
        [("functions.get_weather:0", "get_weather")],
    ),
    (
        "Compare. "
        + _kimi(
            ("functions.get_weather:0", '{"city": "Beijing"}'), ("functions.get_weather:1", '{"city": "Shanghai"}')
        ),
        [],
        [("functions.get_weather:0", "get_weather"), ("functions.get_weather:1", "get_weather")],
    ),
    ("No prefix. " + _kimi(("get_weather:0", '{"city": "Tokyo"}')), [], [("get_weather:0", "get_weather")]),
    ("Let me check. " + _kimi(("0", '{"city": "Tokyo", "unit": "celsius"}')), [WEATHER], [("0", "get_weather")]),
    (
        "Let me check. " + _kimi(("0", '{"city": "Tokyo", "unit": "celsius"}')),
        [READ_FILE, WEATHER],
        [("0", "get_weather")],
    ),
    ("Let me check. " + _kimi(("0", '{"city": "Tokyo"}')), [WEATHER, BOOK_FLIGHT], []),
    (
        "Help. " + _kimi(("functions.invalid.0", '{"city": "Beijing"}'), ("functions.valid:1", "{}")),
        [],
        [("functions.valid:1", "valid")],
    ),
]


@pytest.mark.parametrize(("raw", "tools", "expected"), KIMI_CASES)
def test_vllm_kimi_k2_outputs(raw: str, tools: list[object], expected: list[tuple[str, str]]) -> None:
    """vLLM skips a call whose tool cannot be told, or whose id has no ``:INDEX``; here it is kept unparsed."""
    losses: list[Loss] = []
    message = parse_completion(raw, parser="kimi_k2", tools=tools, on_loss="ignore", losses=losses)
    assert [(part["id"], part["name"]) for part in message.content if part["type"] == "tool_use"] == expected
    assert len(opaque(message)) == sum(loss.kind == "content" for loss in losses)
