"""Where the reasoning ends: decided by the prompt, never leaking into the answer."""

from __future__ import annotations

import pytest

from chatcodec import parse_completion
from training.parse_helpers import reasoning, texts


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
