"""Completions written in each format from random calls parse back to those calls.

Each writer below is the format as its family's template writes a turn (the layout of the
vLLM fixtures in test_parse_formats.py); text and values avoid the format's own markup, which
no parser can tell from a model's text.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from keyword import iskeyword
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from chatcodec import parse_completion
from training.parse_helpers import calls, reasoning, texts

Call = tuple[str, dict[str, Any]]

_PLAIN = st.characters(blacklist_categories=("Cs",), blacklist_characters="<>[]|\uff5c\r")
TEXT = st.text(_PLAIN, min_size=1, max_size=30).map(str.strip).filter(bool)
NAMES = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,11}", fullmatch=True).filter(lambda name: not iskeyword(name))
KEYS = st.from_regex(r"[a-z_][a-z0-9_]{0,7}", fullmatch=True).filter(lambda key: not iskeyword(key))
"""Names and keys as Python writes them too (pythonic calls): no keyword is a function's name."""
SCALARS = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(_PLAIN, max_size=12)
VALUES = st.recursive(
    SCALARS | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=6,
)
CALLS = st.lists(st.tuples(NAMES, st.dictionaries(KEYS, VALUES, max_size=4)), min_size=1, max_size=3)


def _parsed(raw: str, parser: str, tools: list[dict[str, Any]] | None = None) -> Any:
    return parse_completion(raw, parser=parser, tools=tools, on_loss="ignore")


def _schema_type(value: Any) -> str:
    kinds = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}
    return "null" if value is None else kinds[type(value)]


def _tools(drawn: list[Call]) -> list[dict[str, Any]]:
    """A schema per call typing each value as the call holds it (one call per name: the first)."""
    tools: dict[str, dict[str, Any]] = {}
    for name, arguments in drawn:
        properties = {key: {"type": _schema_type(value)} for key, value in arguments.items()}
        tools.setdefault(name, {"name": name, "parameters": {"type": "object", "properties": properties}})
    return list(tools.values())


def _first_schema_wins(drawn: list[Call]) -> list[Call]:
    """Calls whose values all have the type the first call of their name gave the schema."""
    types: dict[str, dict[str, str]] = {}
    for name, arguments in drawn:
        types.setdefault(name, {key: _schema_type(value) for key, value in arguments.items()})
    return [
        (name, arguments)
        for name, arguments in drawn
        if all(types[name].get(key) == _schema_type(value) for key, value in arguments.items())
    ]


def _xml_value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


@given(TEXT, TEXT, CALLS)
def test_hermes(thought: str, text: str, drawn: list[Call]) -> None:
    blocks = "".join(
        f"\n<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}\n</tool_call>"
        for name, arguments in drawn
    )
    message = _parsed(f"<think>\n{thought}\n</think>\n\n{text}{blocks}", "hermes")
    assert (reasoning(message), texts(message), calls(message)) == ([thought], [text], drawn)


def _qwen3_xml(drawn: list[Call]) -> str:
    return "".join(
        f"\n<tool_call>\n<function={name}>\n"
        + "".join(f"<parameter={key}>\n{_xml_value(value)}\n</parameter>\n" for key, value in arguments.items())
        + "</function>\n</tool_call>"
        for name, arguments in drawn
    )


def _minimax(drawn: list[Call]) -> str:
    invokes = "".join(
        f'<invoke name="{name}">\n'
        + "".join(f'<parameter name="{key}">{_xml_value(value)}</parameter>\n' for key, value in arguments.items())
        + "</invoke>\n"
        for name, arguments in drawn
    )
    return f"\n<minimax:tool_call>\n{invokes}</minimax:tool_call>"


def _glm(drawn: list[Call]) -> str:
    return "".join(
        f"<tool_call>{name}\n"
        + "".join(
            f"<arg_key>{key}</arg_key>\n<arg_value>{_xml_value(value)}</arg_value>\n"
            for key, value in arguments.items()
        )
        + "</tool_call>"
        for name, arguments in drawn
    )


def _dsml(drawn: list[Call]) -> str:
    bar = "\uff5c"
    invokes = "".join(
        f'<{bar}DSML{bar}invoke name="{name}">\n'
        + "".join(
            f'<{bar}DSML{bar}parameter name="{key}" string="{str(isinstance(value, str)).lower()}">'
            f"{_xml_value(value)}</{bar}DSML{bar}parameter>\n"
            for key, value in arguments.items()
        )
        + f"</{bar}DSML{bar}invoke>\n"
        for name, arguments in drawn
    )
    return f"\n\n<{bar}DSML{bar}tool_calls>\n{invokes}</{bar}DSML{bar}tool_calls>"


XML_FORMATS: dict[str, Callable[[list[Call]], str]] = {
    "qwen3_xml": _qwen3_xml,
    "qwen3_coder": _qwen3_xml,
    "minimax_m2": _minimax,
    "glm45": _glm,
    "deepseek_v4": _dsml,
}


@given(st.sampled_from(sorted(XML_FORMATS)), TEXT, TEXT, CALLS)
def test_xml_parameter_formats_typed_by_the_schema(parser: str, thought: str, text: str, drawn: list[Call]) -> None:
    drawn = _first_schema_wins(drawn)
    raw = f"<think>\n{thought}\n</think>\n\n{text}{XML_FORMATS[parser](drawn)}"
    message = _parsed(raw, parser, _tools(drawn))
    assert (reasoning(message), texts(message), calls(message)) == ([thought], [text], drawn)


@given(TEXT, CALLS)
def test_kimi_k2(text: str, drawn: list[Call]) -> None:
    inner = "".join(
        f"<|tool_call_begin|>functions.{name}:{index}<|tool_call_argument_begin|>{json.dumps(arguments)}<|tool_call_end|>"
        for index, (name, arguments) in enumerate(drawn)
    )
    message = _parsed(f"{text}<|tool_calls_section_begin|>{inner}<|tool_calls_section_end|>", "kimi_k2")
    assert (texts(message), calls(message)) == ([text], drawn)
    assert [part["id"] for part in message.content[1:]] == [
        f"functions.{name}:{i}" for i, (name, _) in enumerate(drawn)
    ]


@given(TEXT, CALLS)
def test_deepseek_v3(text: str, drawn: list[Call]) -> None:
    d, s = "\uff5c", "\u2581"
    inner = "".join(
        f"<{d}tool{s}call{s}begin{d}>function<{d}tool{s}sep{d}>{name}\n```json\n{json.dumps(arguments)}\n```"
        f"<{d}tool{s}call{s}end{d}>"
        for name, arguments in drawn
    )
    message = _parsed(f"{text}<{d}tool{s}calls{s}begin{d}>{inner}<{d}tool{s}calls{s}end{d}>", "deepseek_v3")
    assert (texts(message), calls(message)) == ([text], drawn)


@given(TEXT, CALLS, st.booleans())
def test_mistral_both_formats(text: str, drawn: list[Call], v11: bool) -> None:
    if v11:
        body = "".join(f"[TOOL_CALLS]{name}[ARGS]{json.dumps(arguments)}" for name, arguments in drawn)
    else:
        body = "[TOOL_CALLS]" + json.dumps([{"name": name, "arguments": arguments} for name, arguments in drawn])
    message = _parsed(f"{text}{body}", "mistral")
    assert (texts(message), calls(message)) == ([text], drawn)


@given(CALLS)
def test_pythonic(drawn: list[Call]) -> None:
    raw = (
        "["
        + ", ".join(f"{name}({', '.join(f'{k}={v!r}' for k, v in arguments.items())})" for name, arguments in drawn)
        + "]"
    )
    assert calls(_parsed(raw, "pythonic")) == drawn


@given(TEXT, TEXT, CALLS)
def test_harmony(thought: str, text: str, drawn: list[Call]) -> None:
    raw = (
        f"<|channel|>analysis<|message|>{thought}<|end|>"
        + "".join(
            f"<|start|>assistant<|channel|>commentary to=functions.{name} <|constrain|>json<|message|>"
            f"{json.dumps(arguments)}<|call|>"
            for name, arguments in drawn
        )
        + f"<|start|>assistant<|channel|>final<|message|>{text}<|return|>"
    )
    message = _parsed(raw, "openai")
    assert (reasoning(message), texts(message), calls(message)) == ([thought], [text], drawn)
