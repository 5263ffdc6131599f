"""chatcodec.message_token_spans and render's train_on roles (issue 109).

renderers' ``RenderedTokens.message_token_spans`` and ``tokens_per_message`` (renderers 0.1.12,
installed in the dev environment) are the oracle for a span's and a count's meaning: given the
same ids and message indices, they must agree with chatcodec's. A role's body trained for SFT
(``train_on="tool"``) marks exactly the tokens that hold the body's text, never its scaffold, and
leaves the ids as they are.
"""

from __future__ import annotations

from typing import Any

import pytest
from renderers.base import RenderedTokens

import chatcodec
from chatcodec import TemplateError
from training.qwen3_tokenizer import qwen3_encoding
from training.test_rollout_rows import WEATHER_SESSION

TEMPLATES = ["qwen3", "qwen3-training"]


def _render(template: str, **given: Any) -> chatcodec.Rendering:
    return chatcodec.render(
        WEATHER_SESSION, source="anthropic", template=template, tokenizer=qwen3_encoding(), on_loss="ignore", **given
    )


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("prompt", [False, True])
def test_spans_and_counts_are_renderers_on_the_same_tokens(template: str, prompt: bool) -> None:
    rendering = _render(template, add_generation_prompt=prompt, train_on="all_assistant_messages")
    found = chatcodec.message_token_spans(rendering)
    assert [entry.message for entry in found] == list(range(rendering.message_count))
    roles = ["message"] * rendering.message_count
    oracle = RenderedTokens(
        token_ids=list(rendering.token_ids),
        message_indices=list(rendering.message_indices),
        sampled_mask=list(rendering.trainable),
        message_roles=roles,
    )
    assert [None if entry.start is None else (entry.start, entry.end) for entry in found] == (
        oracle.message_token_spans()
    )
    assert [entry.count for entry in found] == oracle.tokens_per_message()
    assert [entry.trained for entry in found] == oracle.tokens_per_message(sampled_only=True)
    assert sum(entry.count for entry in found) == sum(1 for owner in rendering.message_indices if owner >= 0)


def test_each_message_has_tokens_and_the_answers_hold_the_trained_ones() -> None:
    rendering = _render("qwen3-training", train_on="all_assistant_messages")
    found = chatcodec.message_token_spans(rendering)
    assert all(entry.count > 0 and entry.count == entry.end - entry.start for entry in found if entry.start is not None)
    answers = [
        index
        for index, message in enumerate(chatcodec.decode_request("anthropic", WEATHER_SESSION).messages)
        if message.role == "assistant"
    ]
    assert [entry.message for entry in found if entry.trained] == answers
    assert sum(entry.trained for entry in found) == sum(rendering.trainable)


def _trained_text(rendering: chatcodec.Rendering) -> str:
    return qwen3_encoding().decode(
        [token for token, flag in zip(rendering.token_ids, rendering.trainable, strict=True) if flag]
    )


@pytest.mark.parametrize("template", TEMPLATES)
def test_train_on_a_tool_trains_its_result_s_body_and_keeps_the_ids(template: str) -> None:
    plain = _render(template)
    tool = _render(template, train_on="tool")
    assert tool.token_ids == plain.token_ids
    assert tool.message_indices == plain.message_indices
    assert _trained_text(tool).strip() == "Rain, 12 C"
    both = _render(template, train_on=["assistant", "tool"])
    answers = _render(template, train_on="all_assistant_messages")
    assert both.trainable == [a or b for a, b in zip(answers.trainable, tool.trainable, strict=True)]


def test_train_on_user_and_system_bodies() -> None:
    users = _render("qwen3-training", train_on="user")
    assert _trained_text(users).strip() == "Is it raining in Paris?"
    system = _render("qwen3-training", train_on=("system",))
    assert _trained_text(system).strip() == "You answer with the weather."


def test_a_role_with_no_message_or_an_unknown_one_trains_nothing_and_is_refused() -> None:
    no_tool = {**WEATHER_SESSION, "messages": WEATHER_SESSION["messages"][:1]}
    with pytest.raises(TemplateError, match="nothing to train"):
        chatcodec.render(no_tool, source="anthropic", template="qwen3", tokenizer=qwen3_encoding(), train_on="tool")
    with pytest.raises(ValueError, match="roles among"):
        _render("qwen3", train_on="tools")
    with pytest.raises(ValueError, match="roles among"):
        chatcodec.RenderConverter(template="qwen3", tokenizer=qwen3_encoding(), train_on=["assistant", "model"])


def test_spans_need_the_rendering_s_tokens() -> None:
    untokenized = chatcodec.render(WEATHER_SESSION, source="anthropic", template="qwen3", on_loss="ignore")
    with pytest.raises(TemplateError, match="tokenizer"):
        chatcodec.message_token_spans(untokenized)
