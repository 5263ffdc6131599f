"""What cannot be read is kept and reported; invalid JSON arguments are the model's text; errors
name the argument at fault."""

from __future__ import annotations

import pytest

from chatcodec import Loss, LossError, LossWarning, OptionError, PayloadError, ToolUsePart, parse_completion
from training.parse_helpers import calls, opaque, texts


@pytest.mark.parametrize(
    ("parser", "raw", "arguments"),
    [
        ("hermes", '<tool_call>\n{"name": "f", "arguments": {"a": 1,}}\n</tool_call>', '{"a": 1,}'),
        ("hermes", '<tool_call>\n{"name": "f", "arguments": {"path": "C:\\dir"}}\n</tool_call>', '{"path": "C:\\dir"}'),
        ("hermes", '<tool_call>\n{"name": "f", "arguments": {"a": "unterminated\n</tool_call>', '{"a": "unterminated'),
        (
            "kimi_k2",
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>"
            '{"a": }<|tool_call_end|><|tool_calls_section_end|>',
            '{"a": }',
        ),
        ("mistral", '[TOOL_CALLS]f[ARGS]{"a": 1', '{"a": 1'),
        ("llama3_json", '{"name": "f", "parameters": {"a": 1,}}', '{"a": 1,}'),
        ("openai", "<|channel|>commentary to=functions.f <|constrain|>json<|message|>{not json<|call|>", "{not json"),
    ],
)
def test_a_call_with_invalid_json_arguments_is_kept_with_the_model_s_text(
    parser: str, raw: str, arguments: str
) -> None:
    message = parse_completion(raw, parser=parser, on_loss="ignore")
    (call,) = [part for part in message.content if isinstance(part, ToolUsePart)]
    assert call.name == "f"
    assert call.arguments == arguments
    assert not call.arguments_are_valid_json
    assert opaque(message) == []


@pytest.mark.parametrize(
    ("parser", "raw"),
    [
        ("hermes", "Before.<tool_call>\nnot a call at all\n</tool_call>"),
        ("qwen3_coder", 'Before.<tool_call>\n{"name": "f"}\n</tool_call>'),
        ("minimax_m2", "Before.<minimax:tool_call>\n<call f/>\n</minimax:tool_call>"),
        ("glm45", "Before.<tool_call><arg_key>a</arg_key><arg_value>1</arg_value></tool_call>"),
        ("pythonic", "[get_weather(city=undefined_name)]"),
        ("openai", '<|channel|>commentary to=browser.search <|constrain|>json<|message|>{"q": "x"}<|call|>'),
        ("openai", "<|channel|>mystery<|message|>what is this<|end|>"),
        (
            "kimi_k2",
            "<|tool_calls_section_begin|><|tool_call_begin|>no arguments marker<|tool_call_end|>"
            "<|tool_calls_section_end|>",
        ),
    ],
)
def test_an_unreadable_block_is_kept_opaque_with_a_content_loss(parser: str, raw: str) -> None:
    losses: list[Loss] = []
    message = parse_completion(raw, parser=parser, losses=losses, on_loss="ignore")
    (kept,) = opaque(message)
    assert kept.provider == "completion"
    assert kept.data["parser"] == parser
    assert isinstance(kept.data["text"], str)
    assert kept.data["text"].strip() in raw  # the span itself, not a summary of it
    index = message.content.index(kept)
    assert [(loss.path, loss.kind) for loss in losses] == [(f"$.content[{index}]", "content")]
    assert "kept as an opaque part" in losses[0].why


def test_made_ids_are_reported_as_metadata_and_warn_by_default() -> None:
    raw = '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>'
    with pytest.warns(LossWarning, match=r"\$\.content\[0\]\.id.*hermes format writes no call id"):
        message = parse_completion(raw, parser="hermes")
    assert message.content[0]["id"] == "call_0"
    with pytest.raises(LossError, match="call_0"):
        parse_completion(raw, parser="hermes", on_loss={"metadata": "error", "*": "warn"})


def test_no_call_no_loss() -> None:
    losses: list[Loss] = []
    message = parse_completion("<think>a</think>Just text.", parser="hermes", losses=losses, on_loss="error")
    assert texts(message) == ["Just text."]
    assert losses == []
    assert calls(message) == []


def test_an_empty_completion_is_an_empty_message() -> None:
    assert parse_completion("", parser="hermes").content == []


def test_unknown_names_are_option_errors_naming_the_argument() -> None:
    with pytest.raises(OptionError, match=r"at \$\.parser: unknown tool-call parser 'hermez'") as raised:
        parse_completion("x", parser="hermez")
    assert "hermes" in raised.value.valid
    with pytest.raises(OptionError, match=r"at \$\.template: .*'qwen9'"):
        parse_completion("x", template="qwen9")
    with pytest.raises(OptionError, match=r"at \$\.reasoning_parser: unknown reasoning parser"):
        parse_completion("x", parser="hermes", reasoning_parser="nope")
    with pytest.raises(OptionError, match=r"at \$\.parser: name a tool-call parser"):
        parse_completion("x")


def test_token_ids_without_a_tokenizer_and_a_tool_in_no_known_shape_are_payload_errors() -> None:
    with pytest.raises(PayloadError, match=r"at \$\.tokenizer: token ids need a tokenizer"):
        parse_completion([1, 2, 3], parser="hermes")
    with pytest.raises(PayloadError, match=r"at \$\.tools\[1\]"):
        parse_completion("x", parser="qwen3_xml", tools=[{"name": "ok"}, {"description": "no name"}])


def test_a_reasoning_parser_name_is_checked_even_where_the_format_carries_its_own() -> None:
    with pytest.raises(OptionError, match=r"at \$\.reasoning_parser"):
        parse_completion("<|channel|>final<|message|>hi<|return|>", parser="openai", reasoning_parser="qwen4")


def test_values_json_cannot_hold_stay_the_model_s_text() -> None:
    """Python's JSON reader takes ``NaN`` and ``Infinity`` and its writer writes them back, as no
    JSON: arguments built from a format's values are JSON, so such a value stays text."""
    tools = [{"name": "f", "parameters": {"properties": {"n": {"type": "number"}, "o": {"type": "object"}}}}]
    raw = (
        "<tool_call>\n<function=f>\n<parameter=n>\nNaN\n</parameter>\n<parameter=o>\n"
        '{"a": Infinity}\n</parameter>\n</function>\n</tool_call>'
    )
    (call,) = parse_completion(raw, parser="qwen3_xml", tools=tools, on_loss="ignore").content
    assert call["arguments"] == '{"n": "NaN", "o": "{\\"a\\": Infinity}"}'
    glm = "<tool_call>f<arg_key>x</arg_key><arg_value>-Infinity</arg_value></tool_call>"
    assert calls(parse_completion(glm, parser="glm45", on_loss="ignore")) == [("f", {"x": "-Infinity"})]
    losses: list[Loss] = []
    message = parse_completion("[f(x=1e999)]", parser="pythonic", losses=losses, on_loss="ignore")
    assert opaque(message)
    assert [loss.kind for loss in losses] == ["content"]


_BAR = "\uff5c"


@pytest.mark.parametrize(
    ("parser", "raw"),
    [
        (
            "qwen3_coder",
            "<tool_call>\n<function=f>\n<parameter=city>\nSF\n</parameter>\n<parameter=city>\nLA\n</parameter>\n"
            "</function>\n</tool_call>",
        ),
        (
            "qwen3_xml",
            "<tool_call>\n<function=f>\n<parameter=city>\nSF\n</parameter>\n<parameter=city>\nLA\n</parameter>\n"
            "</function>\n</tool_call>",
        ),
        (
            "minimax_m2",
            '<minimax:tool_call>\n<invoke name="f">\n<parameter name="city">SF</parameter>\n'
            '<parameter name="city">LA</parameter>\n</invoke>\n</minimax:tool_call>',
        ),
        (
            "glm45",
            "<tool_call>f\n<arg_key>city</arg_key>\n<arg_value>SF</arg_value>\n"
            "<arg_key>city</arg_key>\n<arg_value>LA</arg_value>\n</tool_call>",
        ),
        (
            "deepseek_v32",
            f'<{_BAR}DSML{_BAR}function_calls>\n<{_BAR}DSML{_BAR}invoke name="f">\n'
            f'<{_BAR}DSML{_BAR}parameter name="city" string="true">SF</{_BAR}DSML{_BAR}parameter>\n'
            f'<{_BAR}DSML{_BAR}parameter name="city" string="true">LA</{_BAR}DSML{_BAR}parameter>\n'
            f"</{_BAR}DSML{_BAR}invoke>\n</{_BAR}DSML{_BAR}function_calls>",
        ),
    ],
)
def test_a_parameter_named_twice_keeps_the_last_value_and_reports_the_first(parser: str, raw: str) -> None:
    """Issue 108: the first value was dropped with no loss (the arguments keep the last, as vLLM's
    parsers do); the dropped value is named by its text."""
    losses: list[Loss] = []
    message = parse_completion(raw, parser=parser, losses=losses, on_loss="ignore")
    assert calls(message) == [("f", {"city": "LA"})]
    repeated = [loss for loss in losses if "more than once" in loss.why]
    assert [(loss.what, loss.path) for loss in repeated] == [("tool call arguments", "$.content[0].arguments")]
    assert "city='SF'" in repeated[0].why


def test_a_call_naming_each_parameter_once_reports_nothing_repeated() -> None:
    losses: list[Loss] = []
    raw = "<tool_call>\n<function=f>\n<parameter=city>\nSF\n</parameter>\n</function>\n</tool_call>"
    parse_completion(raw, parser="qwen3_coder", losses=losses, on_loss="ignore")
    assert not [loss for loss in losses if "more than once" in loss.why]
