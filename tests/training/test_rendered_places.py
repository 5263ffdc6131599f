"""A kept text the template drops is a loss even when the same words are another message's.

The check that every kept text is in the rendering (``_training/rendered_check.py``) looked for
a text anywhere, so an answer the template dropped counted as shown when a later message
repeated it or quoted it: a silent difference between what was sent and what is trained on.
A text found only outside its own message's rendering now counts as shown only where one of
its places is no other message's own text (a template that moves a text leaves it there).
"""

from __future__ import annotations

from typing import Any

import chatcodec
from chatcodec import render

# a ChatML template that drops the text of the answer at index 1 when it reports a count of tests
DROPS_FIRST_ANSWER = (
    "{%- for message in messages %}{{- '<|im_start|>' + message.role + '\\n' }}"
    "{%- if not (message.role == 'assistant' and loop.index0 == 1 and '42' in message.content) %}"
    "{{- message.content }}{%- endif %}"
    "{{- '<|im_end|>\\n' }}{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"
)
PLAIN = (
    "{%- for message in messages %}{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}"
    "{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"
)
# a ChatML template that writes the system prompt into the last user message, not in its place
MOVES_SYSTEM = (
    "{%- set system = messages[0].content if messages[0].role == 'system' else '' %}"
    "{%- for message in messages %}{%- if message.role != 'system' %}{{- '<|im_start|>' + message.role + '\\n' }}"
    "{%- if loop.last and message.role == 'user' %}{{- system + '\\n\\n' }}{%- endif %}"
    "{{- message.content + '<|im_end|>\\n' }}{%- endif %}{%- endfor %}"
)


def _losses(template: str, messages: list[dict[str, Any]]) -> list[chatcodec.Loss]:
    losses: list[chatcodec.Loss] = []
    render(messages, template=template, on_loss="ignore", losses=losses)
    return [loss for loss in losses if "does not render it" in loss.why]


def test_a_dropped_answer_is_a_loss_though_a_later_answer_repeats_it() -> None:
    messages = [
        {"role": "user", "content": "Run the tests."},
        {"role": "assistant", "content": "All 42 tests pass."},
        {"role": "user", "content": "Run them again."},
        {"role": "assistant", "content": "All 42 tests pass."},
    ]
    assert [loss.path for loss in _losses(DROPS_FIRST_ANSWER, messages)] == ["$.messages[1]"]


def test_a_dropped_answer_is_a_loss_though_a_later_question_quotes_it() -> None:
    messages = [
        {"role": "user", "content": "Run the tests."},
        {"role": "assistant", "content": "All 42 tests pass."},
        {"role": "user", "content": "You said: All 42 tests pass. Show the log."},
    ]
    assert [loss.path for loss in _losses(DROPS_FIRST_ANSWER, messages)] == ["$.messages[1]"]


def test_a_dropped_answer_found_nowhere_else_is_a_loss_as_before() -> None:
    messages = [
        {"role": "user", "content": "Run the tests."},
        {"role": "assistant", "content": "All 42 tests pass."},
        {"role": "user", "content": "Thanks."},
    ]
    assert [loss.path for loss in _losses(DROPS_FIRST_ANSWER, messages)] == ["$.messages[1]"]


def test_a_text_the_template_moves_elsewhere_is_no_loss() -> None:
    messages = [
        {"role": "system", "content": "Answer in French."},
        {"role": "user", "content": "Hello."},
        {"role": "assistant", "content": "Bonjour."},
        {"role": "user", "content": "How are you?"},
    ]
    assert _losses(MOVES_SYSTEM, messages) == []


def test_an_answer_rendered_in_its_place_is_no_loss_when_repeated() -> None:
    messages = [
        {"role": "user", "content": "Run the tests."},
        {"role": "assistant", "content": "Done."},
        {"role": "user", "content": "Again."},
        {"role": "assistant", "content": "Done."},
        {"role": "user", "content": "Done."},
    ]
    assert _losses(PLAIN, messages) == []
