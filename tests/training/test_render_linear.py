"""render in one template run against its prefix renders: the same text, ids, masks and losses.

On a prefix-stable template ``render`` reads where each message ends from the one run that
renders the conversation (``_training/message_ends.py``). The renders of every shorter
conversation it replaces stay in the code (templates whose run does not show the ends take
them), so they are the oracle here: ``_loop_starts`` answering None sends a render down that
path, and both must give the same rendering, or the same error, on every family, the
check-render corpus, long agent loops and Hypothesis' conversations.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chatcodec import ChatRequest, Loss, PayloadError, TemplateError, render
from chatcodec._training import families, message_ends, tokens
from chatcodec._training.check import corpus
from chatcodec._training.render import SampledSpan
from chatcodec._training.token_marks import piece_marks
from training.qwen3_tokenizer import qwen3_encoding

STABLE = [family for family in families.family_names() if families.stored_profile(family).prefix_stable]
"""The families whose renders take the one-run path (the others render their prefixes)."""

TOOLS = [{"type": "function", "function": {"name": "bash", "description": "Run a command.", "parameters": {}}}]


def test_the_one_run_families_are_the_training_template_and_llama(monkeypatch: pytest.MonkeyPatch) -> None:
    # the differential below is only as wide as this list: a family that leaves it, or whose
    # run stops showing where its messages start, is no longer compared
    assert set(STABLE) >= {"qwen3-training", "llama3.1", "llama3.2"}
    found: list[bool] = []
    read = message_ends._loop_starts

    def noted(passes: Any, count: int) -> list[int | None] | None:
        starts = read(passes, count)
        found.append(starts is not None and starts[-1] is not None)
        return starts

    monkeypatch.setattr(message_ends, "_loop_starts", noted)
    for family in STABLE:
        found.clear()
        outcome(agent_loop(4, 2), family, source="openai-chat")
        assert found == [True], family


def outcome(request: object, template: str, **options: Any) -> tuple[object, ...]:
    losses: list[Loss] = []
    try:
        rendering = render(
            request, template=template, tokenizer=qwen3_encoding(), on_loss="ignore", losses=losses, **options
        )
    except TemplateError as error:
        return ("error", str(error), error.path)
    return (
        rendering.text,
        rendering.sampled,
        rendering.token_ids,
        rendering.trainable,
        rendering.message_indices,
        [(loss.path, loss.what, loss.why, loss.kind) for loss in rendering.losses],
    )


def by_prefix_renders(
    request: object, template: str, monkeypatch: pytest.MonkeyPatch, **options: Any
) -> tuple[object, ...]:
    with monkeypatch.context() as patched:
        patched.setattr(message_ends, "_loop_starts", lambda passes, count: None)
        return outcome(request, template, **options)


def agent_loop(steps: int, parallel: int = 1) -> dict[str, Any]:
    """An OpenAI Chat agent loop: a question, then ``steps`` calling turns and their results, an answer."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You fix tests."},
        {"role": "user", "content": "Make the suite pass."},
    ]
    for step in range(steps):
        calls = [
            {
                "id": f"call_{step}_{index}",
                "type": "function",
                "function": {"name": "bash", "arguments": json.dumps({"cmd": f"pytest -k t{step}"})},
            }
            for index in range(parallel)
        ]
        messages.append(
            {"role": "assistant", "content": f"Step {step}.", "reasoning_content": "Run it.", "tool_calls": calls}
        )
        messages += [
            {"role": "tool", "tool_call_id": call["id"], "content": f"{step} failed\n  assert x == {step}"}
            for call in calls
        ]
    messages.append({"role": "assistant", "content": "Done: the suite passes.", "reasoning_content": "All green."})
    return {"messages": messages, "tools": TOOLS}


def cases() -> Iterator[tuple[str, object, dict[str, Any]]]:
    for family in STABLE:
        for _, request in corpus(seed=3, count=14):
            yield family, request, {}
        for steps, parallel in ((0, 1), (1, 1), (6, 1), (3, 3)):
            yield family, ChatRequest.model_validate(_canonical(agent_loop(steps, parallel))), {}


def _canonical(body: dict[str, Any]) -> dict[str, Any]:
    from chatcodec import decode_request

    return decode_request("openai-chat", body).model_dump(exclude_none=True)


@pytest.mark.parametrize("train_on", ["last_assistant_message", "all_assistant_messages"])
@pytest.mark.parametrize("add_generation_prompt", [False, True])
def test_one_run_equals_the_prefix_renders_on_every_family_and_the_corpus(
    train_on: str, add_generation_prompt: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    compared = 0
    for family, request, options in cases():
        settings_ = {"train_on": train_on, "add_generation_prompt": add_generation_prompt, **options}
        one_run = outcome(request, family, **settings_)
        assert one_run == by_prefix_renders(request, family, monkeypatch, **settings_), (family, request)
        compared += one_run[0] != "error"
    assert compared > 0


def test_a_template_chatcodec_does_not_know_is_checked_and_renders_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    text = families.template_text("qwen3-training") + "{#- an edit: no longer the family's text -#}"
    request = ChatRequest.model_validate(_canonical(agent_loop(5, 2)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one_run = outcome(request, text, train_on="all_assistant_messages")
        oracle = by_prefix_renders(request, text, monkeypatch, train_on="all_assistant_messages")
    assert one_run[0] != "error"
    assert one_run == oracle


def test_a_template_writing_before_it_reads_a_message_fails_the_check_and_renders_its_prefixes() -> None:
    # the turn's opener is written before the message is read: the one run would end each
    # message after the next one's opener; the check on an unknown template catches it
    text = (
        "{%- for message in messages %}{{- '<|im_start|>' }}{{- message.role + '\\n' + message.content + "
        "'<|im_end|>\\n' }}{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"
    )
    request = {"messages": [{"role": "user", "content": "Hi."}, {"role": "assistant", "content": "Hello."}] * 3}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rendering = render(request, template=text, tokenizer=qwen3_encoding(), train_on="all_assistant_messages")
    assert rendering.message_indices is not None
    assert rendering.token_ids is not None
    opener = qwen3_encoding().encode("<|im_start|>", allowed_special="all")[0]
    # each turn's opener belongs to its own message, as the prefix renders place it
    openers = [rendering.message_indices[index] for index, token in enumerate(rendering.token_ids) if token == opener]
    assert openers == [0, 1, 2, 3, 4, 5]


conversation_texts = st.text(alphabet="ab \n<>/think_|", min_size=0, max_size=12)


@st.composite
def conversations(draw: st.DrawFn) -> dict[str, Any]:
    messages: list[dict[str, Any]] = []
    if draw(st.booleans()):
        messages.append({"role": "system", "content": draw(conversation_texts)})
    for turn in range(draw(st.integers(1, 4))):
        messages.append({"role": "user", "content": draw(conversation_texts)})
        for step in range(draw(st.integers(0, 2))):
            calls = [
                {"id": f"c{turn}{step}{index}", "type": "function", "function": {"name": "bash", "arguments": "{}"}}
                for index in range(draw(st.integers(1, 2)))
            ]
            answer: dict[str, Any] = {"role": "assistant", "content": draw(conversation_texts), "tool_calls": calls}
            if draw(st.booleans()):
                answer["reasoning_content"] = draw(conversation_texts)
            messages.append(answer)
            messages += [
                {"role": "tool", "tool_call_id": call["id"], "content": draw(conversation_texts)} for call in calls
            ]
        messages.append({"role": "assistant", "content": draw(conversation_texts)})
    return {"messages": messages, "tools": TOOLS if draw(st.booleans()) else []}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=conversations(),
    family=st.sampled_from(STABLE),
    train_on=st.sampled_from(["last_assistant_message", "all_assistant_messages"]),
)
def test_one_run_equals_the_prefix_renders_on_any_conversation(
    body: dict[str, Any], family: str, train_on: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = ChatRequest.model_validate(_canonical(body))
    assert outcome(request, family, train_on=train_on) == by_prefix_renders(
        request, family, monkeypatch, train_on=train_on
    )


@st.composite
def marked_texts(draw: st.DrawFn) -> tuple[list[int], list[tuple[int, int]], list[SampledSpan], list[SampledSpan]]:
    length = draw(st.integers(1, 40))
    offsets = st.integers(0, length)
    known = [(draw(offsets), draw(st.integers(0, 5))) for _ in range(draw(st.integers(0, 6)))]
    sampled = []
    for _ in range(draw(st.integers(0, 4))):
        start, end = sorted((draw(offsets), draw(offsets)))
        sampled.append(SampledSpan(draw(st.integers(0, 5)), start, end))
    trained = [span for span in sampled if draw(st.booleans())]
    cuts = {0, *(end for end, _ in known), *(bound for span in sampled for bound in (span.start, span.end))}
    return sorted(cut for cut in cuts if cut < length), known, sampled, trained


@given(marked_texts())
def test_the_one_pass_mask_marks_each_piece_as_a_scan_of_every_span_would(
    case: tuple[list[int], list[tuple[int, int]], list[SampledSpan], list[SampledSpan]],
) -> None:
    starts, known, sampled, trained = case
    expected = []
    for start in starts:
        owner = next((message for end, message in known if start < end), -1)
        sampled_owner = next((span.message for span in sampled if span.start <= start < span.end), None)
        expected.append(
            (any(span.start <= start < span.end for span in trained), owner if sampled_owner is None else sampled_owner)
        )
    assert piece_marks(starts, known, sampled, trained) == expected


def test_a_tokenizer_path_is_read_once_and_again_once_the_file_changes(tmp_path: Path) -> None:
    import tokenizers

    def save(words: dict[str, int]) -> None:
        tokenizer = tokenizers.Tokenizer(tokenizers.models.WordLevel({"[UNK]": 0, **words}, unk_token="[UNK]"))
        tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
        tokenizer.add_special_tokens(["<|im_start|>", "<|im_end|>", "<think>", "</think>"])  # the markers Qwen3 writes
        tokenizer.save(str(path))

    path = tmp_path / "tokenizer.json"
    save({"hi": 1, "yo": 2})
    first = tokens.loaded(str(path))
    assert tokens.loaded(path) is first  # a str and a Path name the same file
    conversation = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]
    rendered = render(conversation, template="qwen3", tokenizer=str(path), on_loss="ignore")
    assert tokens.loaded(str(path)) is first
    assert rendered.token_ids is not None
    assert 2 in rendered.token_ids
    save({"hi": 1, "yo": 7, "user": 8})  # written again: another size, so read again
    assert tokens.loaded(str(path)) is not first
    assert 7 in (render(conversation, template="qwen3", tokenizer=str(path), on_loss="ignore").token_ids or [])
    with pytest.raises(PayloadError, match=r"is no tokenizer\.json") as raised:
        tokens.loaded(str(tmp_path / "missing.json"))
    assert raised.value.path == "$.tokenizer"


def test_a_family_given_the_callers_variables_is_checked_as_an_unknown_template_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A family's stored profile (``prefix_stable`` among it) was read without the caller's
    variables, which may change how earlier turns are written; so with variables the one run's
    starts are checked against a prefix render, as for a template chatcodec does not know."""
    from chatcodec._training import render as rendering

    asked: list[bool] = []
    check = rendering._starts_hold

    def noted(*arguments: Any) -> bool:
        asked.append(True)
        return check(*arguments)

    monkeypatch.setattr(rendering, "_starts_hold", noted)
    request = ChatRequest.model_validate(_canonical(agent_loop(4, 2)))
    plain = outcome(request, "qwen3-training", train_on="all_assistant_messages")
    assert asked == []
    options = {"train_on": "all_assistant_messages", "template_variables": {"enable_thinking": False}}
    with_variables = outcome(request, "qwen3-training", **options)
    assert asked == [True]
    assert with_variables[0] != "error"
    assert with_variables == by_prefix_renders(request, "qwen3-training", monkeypatch, **options)
    assert plain[0] != "error"
