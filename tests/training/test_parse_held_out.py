"""Held-out parser cases of issue 108, ported from the references' own tests: each read as the
reference reads it, or pinned where chatcodec's convention differs on purpose (the line of
docs/training.md that says so is named).

Sources: vLLM's ``tests/tool_parsers/test_deepseekv32_tool_parser.py``
(``test_null_coerced_back_to_string_by_schema``, ``test_multi_typed_null_value``,
``test_streaming_matches_non_streaming_conversion_fallbacks``),
``tests/reasoning/test_mistral_reasoning_parser.py`` (``NO_CONTENT``),
``tests/tool_parsers/test_llama3_json_tool_parser.py`` (``test_extract_tool_calls_simple``,
``test_extract_tool_calls_missing_parameters_and_arguments_key``), and TRL's
``tests/test_chat_template_utils.py`` (``TestParseResponse.test_parse_response`` on Qwen3: an
answer rendered with Qwen3's empty think block reads back as the answer alone).
"""

from __future__ import annotations

import json
from typing import Any

from chatcodec import Loss, parse_completion

BAR = "\uff5c"
CALLS, CALLS_END = f"<{BAR}DSML{BAR}function_calls>", f"</{BAR}DSML{BAR}function_calls>"
INVOKE, INVOKE_END = f'<{BAR}DSML{BAR}invoke name="', f"</{BAR}DSML{BAR}invoke>"
PARAMETER, PARAMETER_END = f'<{BAR}DSML{BAR}parameter name="', f"</{BAR}DSML{BAR}parameter>"


def _tool(name: str, properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "parameters": {"type": "object", "properties": properties}}}


def _dsml(name: str, values: dict[str, str]) -> str:
    body = "".join(f'{PARAMETER}{key}" string="false">{value}{PARAMETER_END}\n' for key, value in values.items())
    return f'{CALLS}\n{INVOKE}{name}">\n{body}{INVOKE_END}\n{CALLS_END}'


def _arguments(completion: str, **options: Any) -> dict[str, Any]:
    message = parse_completion(completion, on_loss="ignore", **options)
    (call,) = message.tool_calls
    arguments: dict[str, Any] = json.loads(call.arguments)
    return arguments


def test_deepseek_v32_null_for_a_string_parameter_is_the_text_null() -> None:
    """``string="false"`` ``null`` is JSON null, but a parameter the schema types as a string
    alone gets the text back, as vLLM's schema fixer coerces it; a nullable one keeps null."""
    tools = [
        _tool("echo", {"text": {"type": "string"}}),
        _tool("clear", {"value": {"type": ["integer", "null"]}}),
        _tool(
            "coerce",
            {
                "union_value": {"type": ["null", "string"]},
                "bad_int": {"type": "integer"},
                "nullable_string": {"type": ["null", "string"]},
                "null_string": {"type": "string"},
            },
        ),
    ]
    assert _arguments(_dsml("echo", {"text": "null"}), parser="deepseek_v32", tools=tools) == {"text": "null"}
    assert _arguments(_dsml("clear", {"value": "null"}), parser="deepseek_v32", tools=tools) == {"value": None}
    values = {"union_value": "hello", "bad_int": "abc", "nullable_string": "null", "null_string": "null"}
    assert _arguments(_dsml("coerce", values), parser="deepseek_v32", tools=tools) == {
        "union_value": "hello",
        "bad_int": "abc",
        "nullable_string": None,
        "null_string": "null",
    }


def test_mistral_reasoning_named_alone_reads_a_completion_with_neither_token_as_reasoning() -> None:
    """vLLM's Mistral reasoning parser (Magistral) reads ``This is content``, with no
    ``[THINK]`` and no ``[/THINK]``, as all reasoning (``NO_CONTENT``); chatcodec reads it so when
    the parser is named alone. The Mistral tool parser's own default (no reasoning parser
    named) still reads it as text, as does a template whose prompt opens no reasoning."""
    named = parse_completion("This is content", parser="mistral", reasoning_parser="mistral", on_loss="ignore")
    assert [(part.type, part.text) for part in named.content] == [("thinking", "This is content")]  # type: ignore[union-attr]
    plain = parse_completion("This is content", parser="mistral", on_loss="ignore")
    assert [(part.type, part.text) for part in plain.content] == [("text", "This is content")]  # type: ignore[union-attr]
    closed = parse_completion(
        "This is a reasoning section[/THINK]This is the rest", parser="mistral", reasoning_parser="mistral"
    )
    assert [part.type for part in closed.content] == ["thinking", "text"]  # type: ignore[union-attr]


def test_llama3_json_prose_beside_a_call_is_text_where_vllm_drops_it() -> None:
    """vLLM returns no content beside Llama 3 JSON calls (``test_extract_tool_calls_simple``:
    ``content is None``). chatcodec keeps the prose as the message's text, in order, on purpose:
    docs/training.md, "Nothing is dropped" ("Prose beside calls ... is text of the message ...
    where servers drop it (vLLM returns no content beside Llama 3 or pythonic calls)")."""
    raw = 'Here is the result: {"name": "getOpenIncidentsTool", "parameters": {}} Would you like to know more?'
    losses: list[Loss] = []
    message = parse_completion(raw, parser="llama3_json", on_loss="ignore", losses=losses)
    assert [(part.type, getattr(part, "text", None) or getattr(part, "name", None)) for part in message.content] == [  # type: ignore[union-attr]
        ("text", "Here is the result:"),
        ("tool_use", "getOpenIncidentsTool"),
        ("text", "Would you like to know more?"),
    ]
    assert message.tool_calls[0].arguments == "{}"
    assert [loss.what for loss in losses] == ["tool call id"]  # the made id; no character of the text lost


def test_llama3_json_a_name_alone_is_a_call_with_no_arguments_where_vllm_gives_text() -> None:
    """vLLM returns ``{"name": "toolWithoutParams"}`` as text (no ``parameters`` or
    ``arguments`` key); chatcodec reads it as SGLang does, a call with arguments ``{}``:
    docs/training.md, "Arguments are the model's text" ("A call object with a name alone ... is
    a call with arguments `{}` (SGLang's reading; vLLM returns it as text)"). An object with
    no name stays text, as vLLM's ``test_extract_tool_calls_missing_name_key`` has it."""
    assert _arguments('{"name": "toolWithoutParams"}', parser="llama3_json") == {}
    nameless = parse_completion('{"parameters": {}}', parser="llama3_json", on_loss="ignore")
    assert nameless.tool_calls == []
    assert [(part.type, part.text) for part in nameless.content] == [("text", '{"parameters": {}}')]  # type: ignore[union-attr]


def test_an_empty_qwen3_think_block_reads_back_as_the_answer_alone() -> None:
    """Qwen3's template renders an answer without reasoning after an empty think block
    (``<think>\\n\\n</think>\\n\\n12``); TRL's ``parse_response`` reads that completion back as
    ``{"role": "assistant", "content": "12"}``, no reasoning: so does chatcodec, and the block
    is the template's markup, no loss."""
    losses: list[Loss] = []
    message = parse_completion("<think>\n\n</think>\n\n12<|im_end|>", template="qwen3", on_loss="ignore", losses=losses)
    assert [(part.type, part.text) for part in message.content] == [("text", "12")]  # type: ignore[union-attr]
    assert losses == []


def test_qwen3_coder_a_union_is_typed_by_its_first_branch_that_is_not_null() -> None:
    """vLLM's Qwen3-Coder parser types a parameter of an ``anyOf`` union by its first branch that
    is not null (``test_extract_tool_calls_anyof_type_conversion``, ``multi_non_null``:
    ``anyOf: [string, integer, null]`` keeps its value a string, so ``7`` is ``"7"``); a
    nullable one's ``null`` is null, and a union led by an integer reads ``8`` as 8."""
    tools = [
        _tool(
            "f",
            {
                "multi_non_null": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
                "integer_first": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                "nullable": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                "anyof_array": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
            },
        )
    ]
    values = {"multi_non_null": "7", "integer_first": "8", "nullable": "null", "anyof_array": '["a", "b"]'}
    body = "".join(f"<parameter={key}>\n{value}\n</parameter>\n" for key, value in values.items())
    raw = f"<tool_call>\n<function=f>\n{body}</function>\n</tool_call>"
    assert _arguments(raw, parser="qwen3_coder", tools=tools) == {
        "multi_non_null": "7",
        "integer_first": 8,
        "nullable": None,
        "anyof_array": ["a", "b"],
    }


def _parts(completion: str) -> list[tuple[str, Any, Any]]:
    message = parse_completion(completion, template="qwen3", on_loss="ignore")
    return [
        (part.type, getattr(part, "text", None) or getattr(part, "name", None), getattr(part, "arguments", None))
        for part in message.content  # type: ignore[union-attr]
    ]


def test_trl_s_qwen3_responses_read_back_as_its_parse_response_reads_them() -> None:
    """TRL's ``TestParseResponse`` on Qwen3 (an answer rendered by Qwen3's template, cut after
    the generation prompt, parsed back): content beside a call, two calls, a call with no
    arguments, reasoning and an answer each come back as the message rendered."""
    empty = "<think>\n\n</think>\n\n"
    multiply = '<tool_call>\n{"name": "multiply", "arguments": {"a": 3, "b": 4}}\n</tool_call>'
    addition = '<tool_call>\n{"name": "addition", "arguments": {"a": 4, "b": 3}}\n</tool_call>'
    assert _parts(f"{empty}Let's call the tool.\n{multiply}<|im_end|>") == [
        ("text", "Let's call the tool.", None),
        ("tool_use", "multiply", '{"a": 3, "b": 4}'),
    ]
    assert _parts(f"{empty}{multiply}\n{addition}<|im_end|>") == [
        ("tool_use", "multiply", '{"a": 3, "b": 4}'),
        ("tool_use", "addition", '{"a": 4, "b": 3}'),
    ]
    ping = '<tool_call>\n{"name": "ping", "arguments": {}}\n</tool_call>'
    assert _parts(f"{empty}{ping}<|im_end|>") == [("tool_use", "ping", "{}")]
    assert _parts("<think>\nHmmm.\n</think>\n\n12<|im_end|>") == [("thinking", "Hmmm.", None), ("text", "12", None)]


def test_a_qwen3_call_missing_its_closing_brace_stays_a_call_where_trl_gives_text() -> None:
    """TRL's ``test_parse_response_malformed_tool_call`` reads a call object missing its last
    brace as the message's text; chatcodec keeps the call the model sampled, its arguments as
    written: docs/training.md, "Arguments are the model's text" (invalid JSON stays a call: "a
    training loop needs the call the model sampled, to score or to mask it")."""
    raw = '<tool_call>\n{"name": "multiply", "arguments": {"a": 3, "b": 4}\n</tool_call><|im_end|>'
    assert _parts(raw) == [("tool_use", "multiply", '{"a": 3, "b": 4}')]
