"""render on a template that shows reasoning only after the last question, against its prefix renders.

Stock Qwen3 (and the other families whose profile says ``earlier_reasoning ==
"after_last_user"``) is not prefix-stable, so ``render`` once rendered every prefix of the
conversation and every answer's prompt. It now reads them from one run per segment
(``_training/segment_ends.py``). The prefix renders stay in the code (``segment_ends.applies``
answering False sends a render down them), so they are the oracle here: both must give the
same text, ids, masks, message indices and losses, or the same error, on every such family, the
check-render corpus, agent loops with and without reasoning, parallel calls, several questions,
the shapes Qwen3.5 and 3.6 write otherwise (an empty reasoning block in every answer after the
last question, a refusal before the first question, images in questions and in tool results, a
tool result sent as a user turn) and Hypothesis' conversations.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chatcodec import ChatRequest, Loss, PayloadError, TemplateError, decode_request, render, render_turns
from chatcodec._training import episode_run, families, jinja, segment_ends
from chatcodec._training.check import corpus
from training.qwen3_tokenizer import qwen3_encoding
from training.test_images import png_base64

SEGMENTED = sorted(segment_ends.held_families())
"""The families whose renders take the segment path."""

TOOLS = [{"type": "function", "function": {"name": "bash", "description": "Run a command.", "parameters": {}}}]


OTHER_VOCABULARY = {"glm-4.5", "gpt-oss"}
"""Families whose markers Qwen3's ids do not hold: compared on text, spans and losses alone."""


def outcome(request: object, template: str, **options: Any) -> tuple[object, ...]:
    losses: list[Loss] = []
    tokenizer = None if template in OTHER_VOCABULARY else qwen3_encoding()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rendering = render(
                request, template=template, tokenizer=tokenizer, on_loss="ignore", losses=losses, **options
            )
    except TemplateError as error:
        return ("error", str(error), error.path)
    marks = (rendering.token_ids, rendering.trainable, rendering.message_indices) if tokenizer is not None else ()
    return (
        rendering.text,
        rendering.sampled,
        *marks,
        [(loss.path, loss.what, loss.why, loss.kind) for loss in rendering.losses],
    )


def by_prefix_renders(
    request: object, template: str, monkeypatch: pytest.MonkeyPatch, **options: Any
) -> tuple[object, ...]:
    with monkeypatch.context() as patched:
        patched.setattr(segment_ends, "applies", lambda *_: False)
        return outcome(request, template, **options)


def agent_loop(steps: int, parallel: int = 1, *, reasoning: bool = True, questions: int = 1) -> dict[str, Any]:
    """An OpenAI Chat agent loop: per question, ``steps`` calling turns and their results, an answer."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You fix tests."}]
    for question in range(questions):
        messages.append({"role": "user", "content": f"Make suite {question} pass."})
        for step in range(steps):
            calls = [
                {
                    "id": f"call_{question}_{step}_{index}",
                    "type": "function",
                    "function": {"name": "bash", "arguments": json.dumps({"cmd": f"pytest -k t{step}"})},
                }
                for index in range(parallel)
            ]
            answer: dict[str, Any] = {"role": "assistant", "content": f"Step {step}.", "tool_calls": calls}
            if reasoning or step % 2:
                answer["reasoning_content"] = f"Run {step}."
            messages.append(answer)
            messages += [
                {"role": "tool", "tool_call_id": call["id"], "content": f"{step} failed\n  assert x == {step}"}
                for call in calls
            ]
        final: dict[str, Any] = {"role": "assistant", "content": "Done: the suite passes."}
        if reasoning:
            final["reasoning_content"] = "All green."
        messages.append(final)
    return {"messages": messages, "tools": TOOLS}


def _image(width: int = 64, height: int = 48) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{png_base64(width, height)}"}}


def _call(name: str) -> dict[str, Any]:
    return {"id": name, "type": "function", "function": {"name": "bash", "arguments": "{}"}}


SHAPES: dict[str, list[dict[str, Any]]] = {
    "no reasoning before the last question": [
        {"role": "user", "content": "Q1"},
        {"role": "assistant", "content": "A1"},
        {"role": "user", "content": "Q2"},
        {"role": "assistant", "content": "A2", "reasoning_content": "R2"},
        {"role": "user", "content": "Q3"},
        {"role": "assistant", "content": "A3"},
    ],
    "an answer before the first question": [
        {"role": "system", "content": "S"},
        {"role": "assistant", "content": "Hello.", "reasoning_content": "R0"},
        {"role": "user", "content": "Q"},
        {"role": "assistant", "content": "A", "reasoning_content": "R"},
    ],
    "images in the questions": [
        {"role": "user", "content": [_image(), {"type": "text", "text": "What is this?"}]},
        {"role": "assistant", "content": "A cat.", "reasoning_content": "Fur."},
        {"role": "user", "content": [{"type": "text", "text": "  "}, _image(32, 32), {"type": "text", "text": "And?"}]},
        {"role": "assistant", "content": "A dog."},
        {"role": "user", "content": [{"type": "text", "text": "Both?"}, _image(16, 80)]},
        {"role": "assistant", "content": "Yes.", "reasoning_content": "Both."},
    ],
    "an image in a tool result": [
        {"role": "user", "content": "Take a screenshot."},
        {"role": "assistant", "content": "", "reasoning_content": "Shoot.", "tool_calls": [_call("c1"), _call("c2")]},
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "shot"}, _image()]},
        {"role": "tool", "tool_call_id": "c2", "content": "done"},
        {"role": "assistant", "content": "Taken."},
        {"role": "user", "content": "Again."},
        {"role": "assistant", "content": "Done.", "reasoning_content": "Once more."},
    ],
    "reasoning in the text": [
        {"role": "user", "content": "Q1"},
        {"role": "assistant", "content": "<think>\nx\n</think>\n\nA1"},
        {"role": "user", "content": "Q2"},
        {"role": "assistant", "content": "A2"},
    ],
    "a tool result sent as a user turn": [
        {"role": "user", "content": "Q"},
        {"role": "assistant", "content": "A1", "reasoning_content": "R1"},
        {"role": "user", "content": "<tool_response>\nok\n</tool_response>"},
        {"role": "assistant", "content": "A2", "reasoning_content": "R2"},
    ],
    "answers after answers": [
        {"role": "user", "content": "Q"},
        {"role": "assistant", "content": ""},
        {"role": "assistant", "content": "A2", "reasoning_content": "R2"},
        {"role": "assistant", "content": "A3"},
    ],
    "calls with reasoning or text alone, several final answers": [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "Q1"},
        {"role": "assistant", "content": "", "reasoning_content": "Look first.", "tool_calls": [_call("c1")]},
        {"role": "tool", "tool_call_id": "c1", "content": "one"},
        {"role": "assistant", "content": "Again.", "tool_calls": [_call("c2")]},
        {"role": "tool", "tool_call_id": "c2", "content": "two"},
        {"role": "assistant", "content": "A1", "reasoning_content": "Both read."},
        {"role": "assistant", "content": "", "reasoning_content": "Once more.", "tool_calls": [_call("c3")]},
        {"role": "tool", "tool_call_id": "c3", "content": "three"},
        {"role": "assistant", "content": "A2"},
        {"role": "user", "content": "Q2"},
        {"role": "assistant", "content": "", "tool_calls": [_call("c4")]},
        {"role": "tool", "tool_call_id": "c4", "content": "four"},
        {"role": "assistant", "content": "A3", "reasoning_content": "Done."},
    ],
}
"""Shapes the agent loops do not hold, each a way a template may write a message otherwise (gpt-oss
refuses a calling answer with both reasoning and text, so its loops need the last shape)."""


def _canonical(body: dict[str, Any]) -> ChatRequest:
    return ChatRequest.model_validate(decode_request("openai-chat", body).model_dump(exclude_none=True))


def cases() -> Iterator[tuple[str, object]]:
    for family in SEGMENTED:
        for _, request in corpus(seed=5, count=10):
            yield family, request
        for steps, parallel, reasoning, questions in (
            (0, 1, True, 1),
            (3, 1, True, 1),
            (3, 1, False, 1),
            (2, 3, True, 2),
            (2, 1, False, 3),
            (1, 2, True, 3),
        ):
            yield family, _canonical(agent_loop(steps, parallel, reasoning=reasoning, questions=questions))
        for messages in SHAPES.values():
            yield family, _canonical({"messages": messages, "tools": TOOLS})


def test_the_segment_path_is_taken_by_every_family_that_rewrites_earlier_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the differential below is only as wide as the conversations that take the path
    assert {"qwen3", "qwen3.5", "qwen3.6", "glm-4.5", "nemotron-3", "gpt-oss"} <= set(SEGMENTED)
    taken: list[bool] = []
    read = segment_ends.segment_ends

    def noted(*arguments: Any, **options: Any) -> segment_ends.SegmentEnds | None:
        found = read(*arguments, **options)
        taken.append(found is not None)
        return found

    monkeypatch.setattr(segment_ends, "segment_ends", noted)
    for family in ("qwen3", "qwen3.5", "qwen3.6", "glm-4.5", "nemotron-3", "gpt-oss"):
        for request in (
            _canonical(agent_loop(4, 2, questions=2)),
            _canonical({"messages": SHAPES["images in the questions"]}),
            _canonical({"messages": SHAPES["calls with reasoning or text alone, several final answers"]}),
        ):
            taken.clear()
            assert outcome(request, family)[0] != "error"
            assert taken == [True], family


@pytest.mark.parametrize("family", SEGMENTED)
@pytest.mark.parametrize("reasoning", [True, False])
def test_a_render_runs_the_template_once_plus_once_a_question(
    family: str, reasoning: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # bounded: the runs do not grow with the answers (a question's segment, the whole, a probe's
    # renders once a process), where the prefix renders run once a message
    runs: list[int] = []
    run = jinja.run

    def counted(*arguments: Any, **options: Any) -> Any:
        runs.append(1)
        return run(*arguments, **options)

    outcome(_canonical(agent_loop(1, 1, questions=1)), family)  # the probe, once a process
    monkeypatch.setattr(jinja, "run", counted)
    counts = []
    for steps in (4, 16):
        runs.clear()
        assert outcome(_canonical(agent_loop(steps, 2, reasoning=reasoning, questions=3)), family)[0] != "error"
        counts.append(len(runs))
    assert counts[0] == counts[1] <= 3 + 1, (family, counts)


def test_the_path_is_every_family_of_the_profile() -> None:
    # every family that writes reasoning only after the last question is held to the rule (Nemotron 3
    # since its answers' leading spaces were probed, Qwen3.5 and 3.6 since their empty reasoning blocks)
    shared = {
        family
        for family in families.family_names()
        if not families.stored_profile(family).prefix_stable
        and families.stored_profile(family).earlier_reasoning == "after_last_user"
    }
    assert shared <= segment_ends.held_families()


def test_a_template_chatcodec_does_not_know_renders_its_prefixes() -> None:
    edited = families.template_text("qwen3") + "{#- an edit: no longer the family's text -#}"
    request = _canonical(agent_loop(3, 2, questions=2))
    assert not segment_ends.applies(None, families.stored_profile("qwen3"), edited, [])
    assert outcome(request, edited)[0] != "error"


@pytest.mark.parametrize("variables", [{"enable_thinking": False}, {"enable_thinking": True}])
def test_the_callers_variables_are_checked_and_render_the_same(
    variables: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    request = _canonical(agent_loop(3, 2, questions=2))
    for train_on in ("last_assistant_message", "all_assistant_messages"):
        options = {"train_on": train_on, "template_variables": variables}
        segmented = outcome(request, "qwen3", **options)
        assert segmented[0] != "error" or train_on == "all_assistant_messages"
        assert segmented == by_prefix_renders(request, "qwen3", monkeypatch, **options)


texts = st.text(alphabet="ab \n<>/think_|", min_size=0, max_size=12)


@st.composite
def conversations(draw: st.DrawFn) -> dict[str, Any]:
    messages: list[dict[str, Any]] = []
    if draw(st.booleans()):
        messages.append({"role": "system", "content": draw(texts)})
    for turn in range(draw(st.integers(1, 4))):
        question: Any = draw(texts)
        if draw(st.integers(0, 3)) == 0:  # an image before or after the text (Qwen3.5 writes its marker)
            question = [_image(), {"type": "text", "text": question}][:: draw(st.sampled_from([1, -1]))]
        messages.append({"role": "user", "content": question})
        for step in range(draw(st.integers(0, 2))):
            calls = [
                {"id": f"c{turn}{step}{index}", "type": "function", "function": {"name": "bash", "arguments": "{}"}}
                for index in range(draw(st.integers(1, 2)))
            ]
            answer: dict[str, Any] = {"role": "assistant", "content": draw(texts), "tool_calls": calls}
            if draw(st.booleans()):
                answer["reasoning_content"] = draw(texts)
            messages.append(answer)
            messages += [{"role": "tool", "tool_call_id": call["id"], "content": draw(texts)} for call in calls]
        answer = {"role": "assistant", "content": draw(texts)}
        if draw(st.booleans()):
            answer["reasoning_content"] = draw(texts)
        messages.append(answer)
        if draw(st.booleans()):
            messages.append({"role": "assistant", "content": draw(texts)})
    return {"messages": messages, "tools": TOOLS if draw(st.booleans()) else []}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=conversations(),
    family=st.sampled_from(SEGMENTED),
    train_on=st.sampled_from(["last_assistant_message", "all_assistant_messages"]),
    add_generation_prompt=st.booleans(),
)
def test_segments_equal_the_prefix_renders_on_any_conversation(
    body: dict[str, Any], family: str, train_on: str, add_generation_prompt: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = _canonical(body)
    options = {"train_on": train_on, "add_generation_prompt": add_generation_prompt}
    assert outcome(request, family, **options) == by_prefix_renders(request, family, monkeypatch, **options)


def turns_outcome(request: object, template: str, **options: Any) -> tuple[object, ...]:
    losses: list[Loss] = []
    tokenizer = _marked_tokenizer(template) if template in OTHER_VOCABULARY else qwen3_encoding()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            turns = render_turns(
                request, template=template, tokenizer=tokenizer, on_loss="ignore", losses=losses, **options
            )
    except (TemplateError, PayloadError) as error:
        return ("error", type(error).__name__, str(error))
    return (turns, [(loss.path, loss.what, loss.why, loss.kind) for loss in losses])


def _marked_tokenizer(family: str) -> object:
    from training.test_episodes import _with_markers_of

    return _with_markers_of(family)


def by_turn_renders(
    request: object, template: str, monkeypatch: pytest.MonkeyPatch, **options: Any
) -> tuple[object, ...]:
    with monkeypatch.context() as patched:
        patched.setattr(episode_run, "one_run_turns", lambda *_, **__: None)
        return turns_outcome(request, template, **options)


def test_render_turns_takes_one_run_per_question_on_stock_qwen3(monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[int] = []
    run = episode_run._run_turns

    def noted(*arguments: Any, **options: Any) -> Any:
        runs.append(len(arguments[1]))
        return run(*arguments, **options)

    monkeypatch.setattr(episode_run, "_run_turns", noted)
    turns = turns_outcome(_canonical(agent_loop(3, 2, questions=3)), "qwen3")
    assert turns[0] != "error"
    assert runs == [4, 4, 4]  # one run per question, each for its four answers


@pytest.mark.parametrize("family", SEGMENTED)
def test_render_turns_by_segments_equals_the_turn_renders(family: str, monkeypatch: pytest.MonkeyPatch) -> None:
    compared = 0
    for case_family, request in cases():
        if case_family != family:
            continue
        one_run = turns_outcome(request, family)
        assert one_run == by_turn_renders(request, family, monkeypatch), request
        compared += one_run[0] != "error"
    assert compared > 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=conversations(), family=st.sampled_from(SEGMENTED))
def test_render_turns_by_segments_equals_the_turn_renders_on_any_conversation(
    body: dict[str, Any], family: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = _canonical(body)
    assert turns_outcome(request, family) == by_turn_renders(request, family, monkeypatch)
