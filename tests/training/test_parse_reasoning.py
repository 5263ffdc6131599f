"""Where the reasoning ends: decided by the prompt, never leaking into the answer."""

from __future__ import annotations

import pytest

from chatcodec import TextPart, parse_completion
from training.parse_helpers import calls, reasoning, texts


def test_opened_and_closed_reasoning_with_the_template_s_newlines_stripped() -> None:
    message = parse_completion("<think>\nStep 1.\nStep 2.\n</think>\n\nThe answer.", parser="hermes")
    assert reasoning(message) == ["Step 1.\nStep 2."]
    assert texts(message) == ["The answer."]


def test_a_bare_closer_ends_the_reasoning_the_prompt_opened() -> None:
    """The prompt wrote ``<think>``; the completion starts inside it. Reading it for an opener
    would leak the reasoning into the answer."""
    message = parse_completion("I should greet.\n</think>\n\nHello!", parser="hermes")
    assert reasoning(message) == ["I should greet."]
    assert texts(message) == ["Hello!"]


def test_a_completion_cut_off_inside_prefilled_reasoning_is_all_reasoning() -> None:
    raw = "Still thinking about"
    assert reasoning(parse_completion(raw, parser="hermes", reasoning_started=True)) == [raw]
    assert texts(parse_completion(raw, parser="hermes")) == [raw]  # no opener, no closer, not started: the answer
    assert reasoning(parse_completion(raw, template="deepseek-v3")) == [raw]  # its generation prompt opens it
    assert texts(parse_completion(raw, template="deepseek-v3", reasoning_started=False)) == [raw]
    assert texts(parse_completion(raw, template="qwen3")) == [raw]  # Qwen3's prompt leaves the opener to the model


def test_an_unclosed_opener_is_reasoning() -> None:
    assert reasoning(parse_completion("<think>\nhalf a thought", parser="hermes")) == ["half a thought"]


def test_magistral_think_tokens() -> None:
    message = parse_completion("[THINK]Reason.[/THINK]Answer.", parser="mistral")
    assert (reasoning(message), texts(message)) == (["Reason."], ["Answer."])


@pytest.mark.parametrize("parser", ["llama3_json", "pythonic"])
def test_families_without_reasoning_leave_think_tags_in_the_text(parser: str) -> None:
    assert texts(parse_completion("a </think> b", parser=parser)) == ["a </think> b"]


def test_a_reasoning_parser_named_for_a_family_without_one() -> None:
    message = parse_completion("<think>r</think>text", parser="llama3_json", reasoning_parser="deepseek_r1")
    assert (reasoning(message), texts(message)) == (["r"], ["text"])


@pytest.mark.parametrize(
    "end", ["<|im_end|>", "<|eot_id|>", "</s>", "<\uff5cend\u2581of\u2581sentence\uff5c>", "<|im_end|>\n"]
)
def test_the_end_of_turn_token_is_no_text(end: str) -> None:
    assert texts(parse_completion(f"<think>r</think>Answer.{end}", parser="hermes")) == ["Answer."]
    assert texts(parse_completion(f"Answer <|im_end|> mid-text.{end}", parser="hermes")) == [
        "Answer <|im_end|> mid-text."
    ]


def test_a_template_given_as_its_text_is_its_family() -> None:
    """``template=`` takes what ``render`` takes: Qwen3.5's Jinja text is the qwen3.5 family, whose
    generation prompt opens the reasoning and whose calls are XML."""
    from chatcodec._training.families import template_text

    raw = (
        "Paris, then.\n</think>\n\n<tool_call>\n<function=f>\n<parameter=a>\nx\n</parameter>\n</function>\n</tool_call>"
    )
    message = parse_completion(raw, template=template_text("qwen3.5"), on_loss="ignore")
    assert reasoning(message) == ["Paris, then."]
    assert message.content[1]["name"] == "f"


D = "\uff5c"
TOOLS = [{"name": "f", "parameters": {"properties": {"a": {"type": "integer"}}}}]
CALL_IN_OPEN_REASONING = {
    "qwen3": '<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>',
    "qwen3.5": "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>",
    "nemotron-3": "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>",
    "glm-4.5": "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n</tool_call>",
    "kimi-k2": "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>"
    '{"a": 1}<|tool_call_end|><|tool_calls_section_end|>',
}
"""A whole call written inside reasoning the completion opened, never closed: for these families
vLLM's parsers take the call's opener as the reasoning's end (``vllm/frontend/processing/parser/
qwen3.py``, ``glm47_moe.py``, ``vllm/reasoning/kimi_k2_reasoning_parser.py``)."""


@pytest.mark.parametrize("family", sorted(CALL_IN_OPEN_REASONING))
def test_a_call_opener_ends_open_reasoning(family: str) -> None:
    raw = "<think>I need f.\n\n" + CALL_IN_OPEN_REASONING[family]
    message = parse_completion(raw, template=family, tools=TOOLS, on_loss="ignore")
    assert reasoning(message) == ["I need f."]
    assert calls(message) == [("f", {"a": 1})]


@pytest.mark.parametrize(
    ("parser", "call"),
    [
        ("minimax_m2", '<minimax:tool_call>\n<invoke name="f">\n<parameter name="a">1</parameter>\n</invoke>\n'),
        (
            "deepseek_v4",
            f'<{D}DSML{D}tool_calls>\n<{D}DSML{D}invoke name="f">\n'
            f'<{D}DSML{D}parameter name="a" string="false">1</{D}DSML{D}parameter>\n</{D}DSML{D}invoke>\n',
        ),
    ],
)
def test_a_call_opener_ends_reasoning_the_prompt_opened(parser: str, call: str) -> None:
    """MiniMax M2 and DeepSeek V4 (vLLM's ``minimax_m2.py`` engine, ``deepseek_v4_reasoning_parser.py``'s
    implicit end markers): the prompt opened the reasoning, the model wrote a call without ``</think>``."""
    message = parse_completion(
        "Calling f.\n" + call, parser=parser, reasoning_started=True, tools=TOOLS, on_loss="ignore"
    )
    assert reasoning(message) == ["Calling f."]
    assert calls(message) == [("f", {"a": 1})]


def test_deepseek_r1_and_gpt_oss_keep_a_drafted_call_as_reasoning() -> None:
    d, s = "\uff5c", "\u2581"
    drafted = (
        f"<{d}tool{s}calls{s}begin{d}><{d}tool{s}call{s}begin{d}>function<{d}tool{s}sep{d}>f\n"
        f'```json\n{{"a": 1}}\n```<{d}tool{s}call{s}end{d}><{d}tool{s}calls{s}end{d}>'
    )
    message = parse_completion("<think>maybe " + drafted, template="deepseek-v3", on_loss="ignore")
    assert reasoning(message) == ["maybe " + drafted]
    assert calls(message) == []
    harmony = '<|channel|>analysis<|message|>draft: to=functions.f {"a": 1}<|end|>'
    assert calls(parse_completion(harmony, parser="openai", on_loss="ignore")) == []


def test_reasoning_the_model_closes_keeps_a_call_it_mentions() -> None:
    """The opener ends only reasoning that is never closed: a model thinking about its own markup
    (``<tool_call>`` in its reasoning, then ``</think>``) wrote reasoning, not a call."""
    raw = '<think>I could write <tool_call>{"name": "f"}</tool_call> here.</think>No call needed.'
    message = parse_completion(raw, parser="hermes", on_loss="error")
    assert reasoning(message) == ['I could write <tool_call>{"name": "f"}</tool_call> here.']
    assert texts(message) == ["No call needed."]
    assert calls(message) == []


@pytest.mark.parametrize(("name", "all_reasoning"), [("qwen3", True), ("deepseek_r1", True), ("deepseek_v3", False)])
def test_a_reasoning_parser_named_alone_reads_an_unclosed_completion_as_its_server(
    name: str, all_reasoning: bool
) -> None:
    """vLLM's qwen3 and deepseek_r1 parsers read a completion with no ``</think>`` as all
    reasoning (thinking on by default); deepseek_v3's thinking is off by default."""
    message = parse_completion("cut off mid-thought", parser="hermes", reasoning_parser=name)
    assert reasoning(message) == (["cut off mid-thought"] if all_reasoning else [])
    assert texts(message) == ([] if all_reasoning else ["cut off mid-thought"])


def test_an_emitted_empty_think_is_no_part() -> None:
    for raw in ("<think></think>Hi", "<think>\n\n</think>\n\nHi"):
        message = parse_completion(raw, parser="hermes", on_loss="error")
        assert message.content == [TextPart(text="Hi")]
    assert parse_completion("<think></think>Hi", template="qwen3.5").content == [TextPart(text="Hi")]


# tests/reasoning/test_qwen3_reasoning_parser.py (vLLM): its outputs and its reasoning and content, the
# parser named alone (thinking on, as vLLM's default); the newlines around reasoning are the template's
# (stripped here) and vLLM's content is then read by the tool-call parser, as a server's is
BASH = "<tool_call>\n<function=bash>\n<parameter=command>\ncat /etc/hosts\n</parameter>\n</function>\n</tool_call>"
VLLM_QWEN3_REASONING = [
    ("This is a reasoning section</think>This is the rest", ["This is a reasoning section"], ["This is the rest"]),
    ("This is a reasoning section</think>", ["This is a reasoning section"], []),
    (
        "<think>This is a reasoning section</think>This is the rest",
        ["This is a reasoning section"],
        ["This is the rest"],
    ),
    ("This is the rest", ["This is the rest"], []),
    ("<think>This is a reasoning section</think>", ["This is a reasoning section"], []),
    (
        "<think>This is a reasoning\nsection</think>This is the rest\nThat",
        ["This is a reasoning\nsection"],
        ["This is the rest\nThat"],
    ),
    ("<think>This is a reasoning section", ["This is a reasoning section"], []),
    ("I need to read the file.\n\n" + BASH, ["I need to read the file."], []),
    ("<think>I need to read the file.\n\n" + BASH, ["I need to read the file."], []),
]


@pytest.mark.parametrize(("raw", "expected_reasoning", "expected_texts"), VLLM_QWEN3_REASONING)
def test_vllm_qwen3_reasoning_outputs(raw: str, expected_reasoning: list[str], expected_texts: list[str]) -> None:
    message = parse_completion(raw, parser="qwen3_coder", reasoning_parser="qwen3", on_loss="ignore")
    assert reasoning(message) == expected_reasoning
    assert texts(message) == expected_texts
    assert calls(message) == ([("bash", {"command": "cat /etc/hosts"})] if BASH in raw else [])


@pytest.mark.parametrize("raw", ["This is plain content", "I need to read the file.\n\n" + BASH])
def test_vllm_qwen3_thinking_disabled(raw: str) -> None:
    """vLLM's ``enable_thinking=False``: what the prompt did not open is content (``reasoning_started=False``)."""
    message = parse_completion(
        raw, parser="qwen3_coder", reasoning_parser="qwen3", reasoning_started=False, on_loss="ignore"
    )
    assert reasoning(message) == []
    assert texts(message) == [raw.split("\n\n", maxsplit=1)[0]]
