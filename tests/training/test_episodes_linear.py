"""render_turns in one template run against its per-turn renders: the same turns and losses.

On a prefix-stable template ``render_turns`` takes every turn from the rendering through the
last answer (``_training/episode_run.py``). The two renders per answer it replaces stay in
the code (every other template takes them, and so does an episode the one run cannot place),
so they are the oracle here: ``one_run_turns`` answering None sends an episode down that
path, and both must give the same turns (ids, texts, logprobs, ``is_content``), the same
losses in the same order, or the same error, on every family, the check-render corpus, long
agent loops and Hypothesis' conversations.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chatcodec import ChatRequest, Loss, PayloadError, TemplateError, render_turns
from chatcodec._training import episode_run, families, segment_ends
from chatcodec._training.check import corpus
from training.qwen3_tokenizer import qwen3_encoding
from training.test_episodes import _with_markers_of
from training.test_render import ANTHROPIC_SESSION
from training.test_render_linear import STABLE, _canonical, agent_loop, conversations

FAMILIES = families.family_names()


def outcome(conversation: object, template: str, tokenizer: object = None, **options: Any) -> tuple[object, ...]:
    losses: list[Loss] = []
    try:
        turns = render_turns(
            conversation,
            template=template,
            tokenizer=tokenizer or qwen3_encoding(),
            on_loss="ignore",
            losses=losses,
            **options,
        )
    except (TemplateError, PayloadError) as error:
        return ("error", type(error).__name__, str(error))
    return (turns, [(loss.path, loss.what, loss.why, loss.kind) for loss in losses])


def by_turn_renders(
    conversation: object, template: str, monkeypatch: pytest.MonkeyPatch, **options: Any
) -> tuple[object, ...]:
    with monkeypatch.context() as patched:
        patched.setattr(episode_run, "one_run_turns", lambda *_, **__: None)
        return outcome(conversation, template, **options)


def taken(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each render_turns from now on took the one run (a list the calls append to)."""
    found: list[bool] = []
    one_run = episode_run.one_run_turns

    def noted(*arguments: Any, **options: Any) -> Any:
        answer = one_run(*arguments, **options)
        found.append(answer is not None)
        return answer

    monkeypatch.setattr(episode_run, "one_run_turns", noted)
    return found


def test_the_one_run_serves_the_stable_and_segmented_families_and_no_other(monkeypatch: pytest.MonkeyPatch) -> None:
    # the differentials below are only as wide as this: a family whose episodes stop taking
    # the one run, or one that is not prefix-stable and takes it, fails here
    found = taken(monkeypatch)
    for family in FAMILIES:
        found.clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = outcome(_canonical(agent_loop(3, 2)), family, _with_markers_of(family))
        assert result[0] != "error", (family, result)
        one_run = family in STABLE and not families.starts_checked(family)  # Qwen2.5-VL's starts show late
        one_run = one_run and "one_run_prompts" not in families.families()[family]  # DeepSeek's after tool outputs
        # a segment family groups its turns by question (gpt-oss cuts at final answers: each turn rendered)
        by_question = families.stored_profile(family).earlier_reasoning == "after_last_user"
        assert found == [one_run or (family in segment_ends.held_families() and by_question)], family
    assert {"qwen3-training", "llama3.1", "llama3.2"} <= set(STABLE)


def cases() -> list[tuple[str, object]]:
    """The corpus and agent loops under each prefix-stable family (the others take the turn
    renders whole, as the first test holds)."""
    found: list[tuple[str, object]] = []
    for family in STABLE:
        found += [(family, request) for _, request in corpus(seed=5, count=10)]
        for steps, parallel in ((0, 1), (1, 1), (5, 1), (3, 3)):
            found.append((family, ChatRequest.model_validate(_canonical(agent_loop(steps, parallel)))))
    return found


def test_one_run_equals_the_turn_renders_on_every_family_and_the_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    compared = 0
    for family, request in cases():
        encoding = _with_markers_of(family)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            one_run = outcome(request, family, encoding)
            oracle = by_turn_renders(request, family, monkeypatch, tokenizer=encoding)
        assert one_run == oracle, (family, request)
        compared += one_run[0] != "error"
    assert compared > 20


def test_losses_and_logprobs_come_as_the_turn_renders_give_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # an Anthropic session: cache markers and signatures are losses of every render, each once
    found = taken(monkeypatch)
    one_run = outcome(ANTHROPIC_SESSION, "qwen3-training", source="anthropic", logprobs=None)
    assert found == [True]
    assert one_run == by_turn_renders(ANTHROPIC_SESSION, "qwen3-training", monkeypatch, source="anthropic")
    turns, losses = one_run
    assert losses  # the session carries what no template shows
    assert isinstance(turns, list)
    lengths = [len(turn.completion_ids) for turn in turns]
    given = [[-0.5] * length for length in lengths]
    with_logprobs = outcome(ANTHROPIC_SESSION, "qwen3-training", source="anthropic", logprobs=given)
    assert [turn.logprobs for turn in with_logprobs[0]] == given  # type: ignore[union-attr]
    wrong = [[-0.5] * lengths[0], [-0.5]]
    assert outcome(ANTHROPIC_SESSION, "qwen3-training", source="anthropic", logprobs=wrong) == by_turn_renders(
        ANTHROPIC_SESSION, "qwen3-training", monkeypatch, source="anthropic", logprobs=wrong
    )


def test_a_template_chatcodec_does_not_know_is_checked_and_gives_the_same_turns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = families.template_text("qwen3-training") + "{#- an edit: no longer the family's text -#}"
    request = ChatRequest.model_validate(_canonical(agent_loop(4, 2)))
    found = taken(monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one_run = outcome(request, text)
        oracle = by_turn_renders(request, text, monkeypatch)
    assert found == [True]
    assert one_run[0] != "error"
    assert one_run == oracle


@pytest.mark.parametrize(
    ("prompt", "one_run_taken"),
    [
        # a marker the answers' turns never write: the prompt is not a prefix of the conversation
        # through the answer, and the check on an unknown template sees it
        ("<|im_start|>assistant\\n<reasoning>\\n", False),
        # TRL's Qwen3.5 and Qwen3.6 training templates: the generation prompt writes the <think> the
        # answer's generation tag opens with; the model samples what follows it, in one run as per turn
        ("<|im_start|>assistant\\n<think>\\n", True),
    ],
)
def test_a_generation_prompt_the_rendering_holds_or_not_gives_the_per_turn_renders(
    prompt: str, one_run_taken: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = families.template_text("qwen3-training").replace(
        "{{- '<|im_start|>assistant\\n' }}", "{{- '" + prompt + "' }}", 1
    )
    assert text != families.template_text("qwen3-training")
    request = ChatRequest.model_validate(_canonical(agent_loop(2)))
    found = taken(monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one_run = outcome(request, text)
        oracle = by_turn_renders(request, text, monkeypatch)
    assert found == [one_run_taken]
    assert one_run == oracle
    assert one_run[0] != "error"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=conversations(), family=st.sampled_from(STABLE))
def test_one_run_equals_the_turn_renders_on_any_conversation(
    body: dict[str, Any], family: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = ChatRequest.model_validate(_canonical(body))
    assert outcome(request, family) == by_turn_renders(request, family, monkeypatch)


EDGES = {
    "an answer first": [
        {"role": "assistant", "content": "Hello."},
        {"role": "user", "content": "Hi."},
        {"role": "assistant", "content": "How can I help?"},
    ],
    "two answers in a row": [
        {"role": "user", "content": "Count."},
        {"role": "assistant", "content": "One."},
        {"role": "assistant", "content": "Two."},
    ],
    "a question after the last answer": [
        {"role": "user", "content": "Hi."},
        {"role": "assistant", "content": "Hello."},
        {"role": "user", "content": "Bye."},
    ],
    "an answer repeating a question's text": [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": "a"},
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": "b", "reasoning_content": "a"},
    ],
    "image and developer messages": [
        {"role": "developer", "content": "Be brief."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is this?"},
                {"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}},
            ],
        },
        {"role": "assistant", "content": "A cat."},
        {"role": "user", "content": "Sure?"},
        {"role": "assistant", "content": "Yes."},
    ],
}


@pytest.mark.parametrize("family", STABLE)
@pytest.mark.parametrize("edge", sorted(EDGES))
def test_the_edges_of_an_episode_come_as_the_turn_renders_give_them(
    edge: str, family: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = {"messages": EDGES[edge]}
    for options in ({}, {"tools": [TOOL]}, {"template_variables": {"enable_thinking": False}}):
        one_run = outcome(body, family, source="openai-chat", **options)
        assert one_run == by_turn_renders(body, family, monkeypatch, source="openai-chat", **options), options


TOOL = {"type": "function", "function": {"name": "lookup", "description": "Look it up.", "parameters": {}}}
