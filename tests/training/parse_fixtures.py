"""vLLM's documented raw outputs, one per tool-call parser: the completion parsers' tests and
the fuzz run (``tests/fuzz``) start from them.

From vLLM's ``tests/tool_parsers/test_format_conformance.py`` (its ``FIXTURES``: "authored from
each parser's own source, not guessed; raw_output is byte-faithful to the documented format"),
each calling ``get_weather`` with ``{"city": "SF"}`` (pythonic: and ``"units": "metric"``).
"""

from __future__ import annotations

D = "\uff5c"  # DeepSeek's fullwidth bar
S = "\u2581"  # DeepSeek's space in its markers

VLLM_CONFORMANCE: list[tuple[str, str]] = [
    ("hermes", '<tool_call>\n{"name": "get_weather", "arguments": {"city": "SF"}}\n</tool_call>'),
    ("pythonic", '[get_weather(city="SF", units="metric")]'),
    ("mistral", '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "SF"}}]'),
    ("mistral", '[TOOL_CALLS]get_weather{"city": "SF"}'),
    ("qwen3_xml", "<tool_call>\n<function=get_weather>\n<parameter=city>\nSF\n</parameter>\n</function>\n</tool_call>"),
    (
        "qwen3_coder",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nSF\n</parameter>\n</function>\n</tool_call>",
    ),
    (
        "kimi_k2",
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0\n"
        '<|tool_call_argument_begin|>{"city": "SF"}<|tool_call_end|><|tool_calls_section_end|>',
    ),
    (
        "deepseek_v3",
        f"<{D}tool{S}calls{S}begin{D}><{D}tool{S}call{S}begin{D}>function<{D}tool{S}sep{D}>get_weather\n"
        f'```json\n{{"city": "SF"}}\n```<{D}tool{S}call{S}end{D}><{D}tool{S}calls{S}end{D}>',
    ),
    (
        "minimax_m2",
        '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">SF</parameter>\n</invoke>\n'
        "</minimax:tool_call>",
    ),
    ("glm45", "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>SF</arg_value>\n</tool_call>"),
    (
        "deepseek_v4",
        f'<{D}DSML{D}tool_calls>\n<{D}DSML{D}invoke name="get_weather">\n'
        f'<{D}DSML{D}parameter name="city" string="true">SF</{D}DSML{D}parameter>\n'
        f"</{D}DSML{D}invoke>\n</{D}DSML{D}tool_calls>",
    ),
]

VLLM_PARSER_SAMPLES: list[tuple[str, str]] = [
    *VLLM_CONFORMANCE,
    # tests/tool_parsers/test_hermes_tool_parser.py: text before a call, two calls
    (
        "hermes",
        'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Dallas"}}\n</tool_call>\n'
        '<tool_call>\n{"name": "get_time", "arguments": {"tz": "CST"}}\n</tool_call>',
    ),
    # tests/tool_parsers/test_qwen3coder_tool_parser.py: several parameters, text before, two functions
    (
        "qwen3_coder",
        "Sure.\n<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n"
        "<parameter=state>\nTX\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_time>\n"
        "<parameter=tz>\nCST\n</parameter>\n</function>\n</tool_call>",
    ),
    # tests/tool_parsers/test_minimax_m2_tool_parser.py: two invokes in one block
    (
        "minimax_m2",
        'I will check.<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Dallas</parameter>\n'
        '<parameter name="unit">F</parameter>\n</invoke>\n<invoke name="get_time">\n'
        '<parameter name="tz">CST</parameter>\n</invoke>\n</minimax:tool_call>',
    ),
    # tests/tool_parsers/test_glm4_moe_tool_parser.py: two pairs, two calls
    (
        "glm45",
        "Checking.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Dallas</arg_value>\n"
        "<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call><tool_call>get_time\n"
        "<arg_key>tz</arg_key>\n<arg_value>CST</arg_value>\n</tool_call>",
    ),
    # tests/tool_parsers/test_openai_tool_parser.py: analysis, a call, then the final answer
    (
        "openai",
        "<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary "
        'to=functions.get_weather <|constrain|>json<|message|>{"city": "SF"}<|call|>',
    ),
    (
        "openai",
        "<|channel|>analysis<|message|>Easy.<|end|><|start|>assistant<|channel|>final<|message|>Hi there.<|return|>",
    ),
    # tests/tool_parsers/test_llama3_json_tool_parser.py: two calls separated by ';'
    (
        "llama3_json",
        '{"name": "get_weather", "parameters": {"city": "SF"}}; {"name": "get_time", "parameters": {"tz": "PST"}}',
    ),
    ("llama3_json", '<|python_tag|>{"name": "get_weather", "parameters": {"city": "SF"}}'),
    # tests/tool_parsers/test_kimi_k2_tool_parser.py: two calls in one section, text before
    (
        "kimi_k2",
        "Checking.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0"
        '<|tool_call_argument_begin|>{"city": "SF"}<|tool_call_end|><|tool_call_begin|>functions.get_time:1'
        '<|tool_call_argument_begin|>{"tz": "PST"}<|tool_call_end|><|tool_calls_section_end|>',
    ),
    # tests/tool_parsers/test_deepseekv31_tool_parser.py
    (
        "deepseek_v31",
        f"<{D}tool{S}calls{S}begin{D}><{D}tool{S}call{S}begin{D}>get_weather<{D}tool{S}sep{D}>"
        f'{{"city": "SF"}}<{D}tool{S}call{S}end{D}><{D}tool{S}calls{S}end{D}>',
    ),
    # tests/tool_parsers/test_deepseekv32_tool_parser.py
    (
        "deepseek_v32",
        f'<{D}DSML{D}function_calls>\n<{D}DSML{D}invoke name="get_weather">\n'
        f'<{D}DSML{D}parameter name="city" string="true">SF</{D}DSML{D}parameter>\n'
        f'<{D}DSML{D}parameter name="days" string="false">3</{D}DSML{D}parameter>\n'
        f"</{D}DSML{D}invoke>\n</{D}DSML{D}function_calls>",
    ),
    ("mistral", 'Sure.[TOOL_CALLS]get_weather[ARGS]{"city": "SF"}[TOOL_CALLS]get_time[ARGS]{"tz": "PST"}'),
    ("pythonic", '[get_weather(city="SF"), get_time(tz="PST")]'),
    # tests/tool_parsers/test_hermes_tool_parser.py: arguments written as a string of JSON (Granite 4)
    (
        "hermes",
        '<tool_call>\n{"name": "get_db_config", "arguments": "{\\"param\\": \\"max_connections\\"}"}\n</tool_call>',
    ),
    # tests/tool_parsers/test_mistral_tool_parser.py: the array after other text
    ("mistral", '[TOOL_CALLS]  junk [{"name": "add", "arguments":{"a": 1, "b": 2}}] trail'),
    # tests/tool_parsers/test_deepseekv31_tool_parser.py: a section cut off before its first call
    ("deepseek_v31", f"Let me look that up.<{D}tool{S}calls{S}begin{D}>get_weather"),
    # SGLang's test/srt/test_function_call_parser.py (Apache-2.0): two objects in one block, the
    # Llama tag before each call, lists with prose between, the Llama 4 wrapper after prose, and
    # GLM-4.6's escaped call
    (
        "hermes",
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}, '
        '{"name": "get_time", "arguments": {"tz": "CET"}}</tool_call>',
    ),
    (
        "llama3_json",
        '<|python_tag|>{"name": "get_weather", "parameters": {}}<|python_tag|>{"name": "get_time", "parameters": {}}',
    ),
    ("pythonic", "[get_weather(location='Berlin')] and [search(query='restaurants')]"),
    ("pythonic", "Mars. <|python_start|>[get_weather(location='Mars')]<|python_end|> In this way."),
    (
        "glm45",
        '<tool_call>todo_write\\n<arg_key>todos</arg_key>\\n<arg_value>[{\\"id\\": \\"1\\"}]</arg_value>\n</tool_call>',
    ),
]
"""More of vLLM's (and SGLang's) parser tests' raw outputs (their shapes: text beside calls,
several calls, several parameters), each from the test module named above it: the sentinel test
plants a string at every position of each and finds it in the message or in a loss."""
