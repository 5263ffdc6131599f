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
