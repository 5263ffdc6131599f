"""The training templates (issue 109): prefix-preserving templates beside a family's stock one,
each giving one trainer sample for a multi-question tool episode, every answer as the model
sampled it under the stock template, and every prompt of the first question as the stock
template renders it."""

from __future__ import annotations

import re
from typing import Any

import pytest

import chatcodec
from chatcodec import Loss, render_turns, template_profile, trainer_samples
from chatcodec._training.check import check_render
from training.test_episodes import _with_markers_of
from training.test_render import WEATHER_TOOL


def _call(call_id: str, city: str, thinking: str) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": None,
        "reasoning_content": thinking,
        "tool_calls": [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": "get_weather", "arguments": f'{{"city": "{city}"}}'},
            }
        ],
    }


# Two questions, each answered after one call: the shape on which a stock template that drops
# earlier reasoning (or ends an earlier answer otherwise) splits an episode.
EPISODE = {
    "model": "m",
    "tools": [WEATHER_TOOL],
    "messages": [
        {"role": "system", "content": "You are a weather assistant."},
        {"role": "user", "content": "Weather in Paris?"},
        _call("call_0", "Paris", "The user wants Paris. I call the tool."),
        {"role": "tool", "tool_call_id": "call_0", "content": "Rain, 12 C"},
        {"role": "assistant", "content": "It is raining in Paris (12 C).", "reasoning_content": "Rain, say so."},
        {"role": "user", "content": "And in Rome?"},
        _call("call_1", "Rome", "Now Rome. Same tool."),
        {"role": "tool", "tool_call_id": "call_1", "content": "Sun, 21 C"},
        {"role": "assistant", "content": "It is sunny in Rome (21 C).", "reasoning_content": "Sun, say so."},
    ],
}
FIRST_QUESTION_TURNS = 2  # the answers before the second question

TRAINING_TEMPLATES = {
    "qwen3-training": "qwen3",
    "qwen3.5-training": "qwen3.5",
    "qwen3.6-training": "qwen3.6",
    "gpt-oss-training": "gpt-oss",
    "glm-4.5-training": "glm-4.5",
    "deepseek-v3-training": "deepseek-v3",
    "nemotron-3-training": "nemotron-3",
    "nemotron-3-super-training": "nemotron-3-super",
}

# GLM has no end-of-turn token: the model ends an answer by sampling the role of what comes
# next (its generation config's end tokens), which the stock template writes as the next
# message's opening and TRL's training template, as chatcodec's, inside the answer
SAMPLED_CLOSING = {"glm-4.5-training": ("<|observation|>", "<|user|>")}

# DeepSeek V3's generation prompt opens <think>, and its template writes an answer without the
# reasoning and the </think> the model samples after it (nor the prompt's <think>), so under it no
# prompt after the first answer holds what was sampled: only the first prompt is the stock one
REASONING_LEFT_OUT = {"deepseek-v3-training"}
PROMPTS_KEPT = {"deepseek-v3-training": 1}


def _turns(template: str, tokenizer: object, messages: list[Any] | None = None) -> list[chatcodec.SampledTurn]:
    # the training template's own vocabulary is its stock family's; given messages, the episode's
    # system prompt before them
    episode = (
        EPISODE
        if messages is None
        else {**EPISODE, "messages": [EPISODE["messages"][0], *messages[messages[0]["role"] == "system" :]]}
    )
    return render_turns(episode, source="openai-chat", template=template, tokenizer=tokenizer, on_loss="ignore")


@pytest.mark.parametrize(("training", "stock"), TRAINING_TEMPLATES.items())
def test_a_training_template_keeps_the_episode_one_sample(training: str, stock: str) -> None:
    profile = template_profile(training)
    assert (profile.prefix_stable, profile.generation_tags, profile.earlier_reasoning) == (True, True, "kept")
    tokenizer = _with_markers_of(stock)
    turns = _turns(training, tokenizer)
    assert [turn.message_index for turn in turns] == [2, 4, 6, 8]
    losses: list[Loss] = []
    [sample] = trainer_samples(turns, on_loss="ignore", losses=losses)
    assert losses == []
    assert sample["prompt_ids"] == turns[0].prompt_ids
    assert sample["prompt_ids"] + sample["response_ids"] == turns[-1].prompt_ids + turns[-1].completion_ids
    assert sum(sample["response_mask"]) == sum(len(turn.completion_ids) for turn in turns)


@pytest.mark.parametrize(("training", "stock"), TRAINING_TEMPLATES.items())
def test_every_answer_is_the_stock_templates_and_so_is_every_prompt_of_the_first_question(
    training: str, stock: str
) -> None:
    tokenizer = _with_markers_of(stock)
    trained, served = _turns(training, tokenizer), _turns(stock, tokenizer)
    # what the model sampled: the stock template's rendering of each answer as the last message
    # of its question's own conversation (DeepSeek V3's writes a second call message as if it
    # continued the first), with the reasoning and the closing token the model samples where
    # the stock template leaves them out
    alone = _turns(stock, tokenizer, EPISODE["messages"][:5]) + _turns(stock, tokenizer, EPISODE["messages"][5:])
    for turn, seen in zip(trained, alone, strict=True):
        head, tail = _around(turn.completion_ids, seen.completion_ids, tokenizer)
        sampled_first = (turn.prompt_text or "").endswith("<think>\n")
        message = EPISODE["messages"][turn.message_index]
        assert head == (
            message["reasoning_content"] + "</think>" if training in REASONING_LEFT_OUT and sampled_first else ""
        )
        assert tail in SAMPLED_CLOSING.get(training, ("",))
    prompts_kept = PROMPTS_KEPT.get(training, FIRST_QUESTION_TURNS)
    for turn, seen in list(zip(trained, served, strict=True))[:prompts_kept]:
        assert turn.prompt_ids == seen.prompt_ids
    # after the second question the stock template drops what was sampled before it; the
    # training template keeps it, which is why its episode stays one sample
    assert "The user wants Paris." in (trained[2].prompt_text or "")
    assert "The user wants Paris." not in (served[2].prompt_text or "")
    assert len(trainer_samples(served, on_loss="ignore")) > 1


def _around(ids: list[int], inner: list[int], tokenizer: Any) -> tuple[str, str]:
    """The text of ``ids`` before and after the one place ``inner`` is in it."""
    places = [at for at in range(len(ids) - len(inner) + 1) if ids[at : at + len(inner)] == inner]
    assert places, (ids, inner)
    at = places[0]
    return tokenizer.decode(ids[:at]), tokenizer.decode(ids[at + len(inner) :])


def test_gpt_oss_training_ends_every_final_answer_as_the_model_samples_it() -> None:
    tokenizer = _with_markers_of("gpt-oss")
    turns = _turns("gpt-oss-training", tokenizer)
    assert [(turn.completion_text or "").endswith(("<|call|>", "<|return|>")) for turn in turns] == [True] * 4
    assert (turns[1].completion_text or "").endswith("<|return|>")
    whole = chatcodec.render(EPISODE, source="openai-chat", template="gpt-oss-training", on_loss="ignore").text
    # the first answer, followed by a question, still ends as it was sampled and keeps its analysis
    assert "<|channel|>analysis<|message|>Rain, say so.<|end|>" in whole
    assert "It is raining in Paris (12 C).<|return|><|start|>user" in whole


@pytest.mark.parametrize("training", [name for name in TRAINING_TEMPLATES if name != "qwen3-training"])
def test_check_render_finds_nothing_in_a_training_template(training: str) -> None:
    check = check_render(training, count=7)
    assert check.findings == ()


@pytest.mark.parametrize("template", ["qwen3.5", "qwen3.6", "qwen3.5-training", "qwen3.6-training"])
def test_each_message_holds_its_own_tokens_on_qwen3_5_given_tools(template: str) -> None:
    # issue 108: given tools, Qwen3.5's template writes them in the system turn, and the system
    # message's tokens carried the next message's index (message 0 had none); a tool result's
    # closing token went to the answer after it (the template closes it once it reads the next role)
    tokenizer = _with_markers_of("qwen3.5")
    rendering = chatcodec.render(
        EPISODE, source="openai-chat", template=template, tokenizer=tokenizer, on_loss="ignore"
    )
    assert rendering.token_ids is not None
    assert rendering.message_indices is not None
    owners = [
        index for token, index in zip(rendering.token_ids, rendering.message_indices, strict=True) if token == 151645
    ]
    assert owners[:2] == [0, 1]  # the system prompt's <|im_end|>, the question's
    if template.endswith("-training"):  # one run: every message closes its own turn
        assert owners == list(range(9))


def test_glm_training_closes_each_answer_with_the_role_the_model_samples_after_it() -> None:
    tokenizer = _with_markers_of("glm-4.5")
    turns = _turns("glm-4.5-training", tokenizer)
    ends = [re.findall(r"<\|\w+\|>$", turn.completion_text or "") for turn in turns]
    assert ends == [["<|observation|>"], ["<|user|>"], ["<|observation|>"], ["<|user|>"]]
    whole = chatcodec.render(EPISODE, source="openai-chat", template="glm-4.5-training", on_loss="ignore").text
    # the first question's reasoning stays, and the role token the answer sampled is not written twice
    assert "<think>The user wants Paris. I call the tool.</think>" in whole
    assert "It is raining in Paris (12 C).<|user|>\nAnd in Rome?<|assistant|>" in whole
    assert whole.count("<|observation|>") == 2


def test_deepseek_v3_training_writes_each_answer_after_the_prompt_it_was_sampled_after() -> None:
    tokenizer = _with_markers_of("deepseek-v3")
    losses: list[Loss] = []
    turns = render_turns(
        EPISODE,
        source="openai-chat",
        template="deepseek-v3-training",
        tokenizer=tokenizer,
        on_loss="ignore",
        losses=losses,
    )
    # each prompt is the one the model sampled after: <think> opened, or the tool outputs closed
    opened, closed = "<\uff5cAssistant\uff5c><think>\n", "<\uff5ctool\u2581outputs\u2581end\uff5c>"
    assert [(turn.prompt_text or "").endswith(opened) for turn in turns] == [True, False, True, False]
    assert [(turn.prompt_text or "").endswith(closed) for turn in turns] == [False, True, False, True]
    # the second call opens its own calls block (the stock template writes it as the first's continuation)
    assert (turns[2].completion_text or "").startswith(
        "Now Rome. Same tool.</think><\uff5ctool\u2581calls\u2581begin\uff5c>"
    )
    # after tool outputs no <think> is open: the reasoning given there is not written, and says so
    assert [loss.path for loss in losses if loss.path.endswith("reasoning_content")] == [
        "$.messages[4].reasoning_content",
        "$.messages[8].reasoning_content",
    ]


@pytest.mark.parametrize("stock", ["llama3.1", "llama3.2"])
def test_llama_needs_no_training_template_its_episode_is_one_sample(stock: str) -> None:
    # no reasoning written and prefix-stable: the stock template already keeps what was sampled
    profile = template_profile(stock)
    assert (profile.prefix_stable, profile.reasoning_key) == (True, None)
    turns = _turns(stock, _with_markers_of(stock))
    [sample] = trainer_samples(turns, on_loss="ignore")
    assert sample["prompt_ids"] + sample["response_ids"] == turns[-1].prompt_ids + turns[-1].completion_ids


@pytest.mark.parametrize(("training", "stock"), TRAINING_TEMPLATES.items())
def test_one_rendering_trains_exactly_what_each_answer_sampled(training: str, stock: str) -> None:
    # render's mask of the whole episode (the {% generation %} spans, cut to what the model
    # sampled) against the turns' completions: no prompt text trained, no sampled token left out
    tokenizer = _with_markers_of(stock)
    rendering = chatcodec.render(
        EPISODE,
        source="openai-chat",
        template=training,
        tokenizer=tokenizer,
        on_loss="ignore",
        train_on="all_assistant_messages",
    )
    assert rendering.token_ids is not None
    assert rendering.trainable is not None
    trained = [token for token, kept in zip(rendering.token_ids, rendering.trainable, strict=True) if kept]
    assert trained == [token for turn in _turns(training, tokenizer) for token in turn.completion_ids]
