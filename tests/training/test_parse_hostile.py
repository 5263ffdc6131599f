"""Hostile completions: every parser reads in linear time, and arguments nested past Python's
recursion limit are kept (or reported), never a ``RecursionError``."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from chatcodec import Loss, OpaquePart, ToolUsePart, parse_completion

D, S = "\uff5c", "\u2581"
HOSTILE: list[tuple[str, Callable[[int], str]]] = [
    # issue 97's W10 reproducer: a DeepSeek V3 call repeating an unclosed json fence
    (
        "deepseek_v3",
        lambda n: (
            f"<{D}tool{S}calls{S}begin{D}><{D}tool{S}call{S}begin{D}>function<{D}tool{S}sep{D}>f" + "\n```json\n" * n
        ),
    ),
    ("openai", lambda n: "<|channel|>final<|message|>x" * n + "<|return|>"),
    ("openai", lambda n: "<|channel|>final<|message|>x<|end|>" * n),
    ("openai", lambda n: "<|channel|>final<|message|>x<|end|><|start|>assistant" * n),
    ("llama3_json", lambda n: '{"name": "f", "parameters": {' + ";" * n),
    ("llama3_json", lambda n: '{"name": "f", "parameters": {}}; ' * n),
    ("mistral", lambda n: '[TOOL_CALLS][{"name": "f", "arguments": ' + "[" * n),
    ("minimax_m2", lambda n: "<minimax:tool_call>" + '<invoke name="' * n),
    ("qwen3_coder", lambda n: "<tool_call>" + "<function=" * n),
    ("qwen3_coder", lambda n: "<tool_call><function=f>" + "<parameter=a>x</parameter>" * n),
    ("hermes", lambda n: "<tool_call>" * n),
    ("hermes", lambda n: '<tool_call>{"name": "f", "arguments": ' + '"name": "x", ' * n),
    ("glm45", lambda n: "<tool_call>f" + "<arg_value>" * n),
    ("kimi_k2", lambda n: "<|tool_calls_section_begin|>" + "<|tool_call_begin|>" * n),
    ("deepseek_v4", lambda n: f"<{D}DSML{D}tool_calls>" + f'<{D}DSML{D}invoke name="' * n),
    ("pythonic", lambda n: "[f(" * n),
    ("hermes", lambda n: "<think>" + "<tool_call" * n),
    ("hermes", lambda n: '<tool_call>{"name": "f", "arguments": {}}' + ', {"name": "f", "arguments": {}}' * n),
    ("llama3_json", lambda n: '<|python_tag|>{"name": "f", "parameters": {}}' * n),
    ("mistral", lambda n: "[TOOL_CALLS] x [{" * n),
    ("pythonic", lambda n: "[f(x=1)] and " * n),
    ("pythonic", lambda n: "[f(x=1)] [f(x='" + "[" * n),
    ("glm45", lambda n: "<tool_call>f\\n" + "<arg_key>k</arg_key>\\n<arg_value>v</arg_value>\\n" * n),
    ("deepseek_v31", lambda n: f"<{D}tool{S}calls{S}begin{D}>" + "x" * n),
]


def _seconds(parser: str, raw: str) -> float:
    """The parse's CPU time, the best of three: a busy machine's waits for a core are not the
    parser's (wall time failed this bound with other suites running beside it)."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        parse_completion(raw, parser=parser, reasoning_started=True, on_loss="ignore")
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.parametrize(("parser", "make"), HOSTILE, ids=[f"{parser}-{n}" for n, (parser, _) in enumerate(HOSTILE)])
def test_a_megabyte_costs_about_ten_times_a_hundred_kilobytes(parser: str, make: Callable[[int], str]) -> None:
    """Linear: 1 MB within a generous multiple of 100 KB (a quadratic parse is a hundred times
    slower; the slack absorbs a busy machine's noise on sub-millisecond reads)."""
    unit = max(1, len(make(100)) // 100)
    small, large = make(100_000 // unit), make(1_000_000 // unit)
    _seconds(parser, make(10))  # warm
    small_time, large_time = _seconds(parser, small), _seconds(parser, large)
    assert large_time < 30 * small_time + 0.3, (small_time, large_time)


DEPTH = 2000
DEEP = "{" + '"a": {' * DEPTH + "}" * DEPTH + "}"
DEEP_CALLS = [
    ("hermes", f'<tool_call>{{"name": "f", "arguments": {DEEP}}}</tool_call>'),
    ("mistral", f'[TOOL_CALLS][{{"name": "f", "arguments": {DEEP}}}]'),
    ("mistral", f"[TOOL_CALLS]f[ARGS]{DEEP}"),
    ("llama3_json", f'{{"name": "f", "parameters": {DEEP}}}'),
    ("qwen3_coder", f"<tool_call><function=f><parameter=o>{DEEP}</parameter></function></tool_call>"),
    ("glm45", f"<tool_call>f<arg_key>o</arg_key><arg_value>{DEEP}</arg_value></tool_call>"),
    (
        "deepseek_v4",
        f'<{D}DSML{D}tool_calls><{D}DSML{D}invoke name="f"><{D}DSML{D}parameter name="o" string="false">'
        f"{DEEP}</{D}DSML{D}parameter></{D}DSML{D}invoke></{D}DSML{D}tool_calls>",
    ),
    ("pythonic", "[f(o=" + "[" * DEPTH + "]" * DEPTH + ")]"),
]


@pytest.mark.parametrize(("parser", "raw"), DEEP_CALLS, ids=[f"{p}-{n}" for n, (p, _) in enumerate(DEEP_CALLS)])
def test_arguments_nested_two_thousand_deep_are_kept_not_a_recursion_error(parser: str, raw: str) -> None:
    tools = [{"name": "f", "parameters": {"properties": {"o": {"type": "object"}}}}]
    losses: list[Loss] = []
    message = parse_completion(raw, parser=parser, tools=tools, on_loss="ignore", losses=losses)
    (part,) = message.content
    if isinstance(part, ToolUsePart):  # the model's text, as invalid JSON is kept
        assert part.name == "f"
        closers = "]" if parser == "pythonic" else "}"
        assert closers * DEPTH in part.arguments  # the whole nesting, kept
        assert not part.arguments_are_valid_json or parser in ("qwen3_coder", "glm45", "deepseek_v4")
        # (the XML formats keep a value their reader cannot type as a string: valid JSON)
    else:
        assert isinstance(part, OpaquePart)
        assert [loss.kind for loss in losses] == ["content"]
