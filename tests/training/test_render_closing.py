"""render on stock DeepSeek-V3, whose last message is closed otherwise, against its prefix renders.

Stock DeepSeek-V3 writes the token ending the tool outputs after a last tool result and a generation
prompt that depends on the last message, so it is not prefix-stable and ``render`` once rendered
every prefix of the conversation and every answer's prompt. It now reads them from its one run
(``_training/closing_ends.py``). The prefix renders stay in the code (``closing_ends.applies``
answering False sends a render down them), so they are the oracle here: both must give the same
text, ids, masks, message indices and losses, or the same error, on the check-render corpus,
agent loops (parallel calls, several questions, reasoning the template drops), the shapes the
template writes otherwise (results last, questions after results, calls without text, several
system messages, one after the others) and Hypothesis' conversations.
"""

from __future__ import annotations

import functools
import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chatcodec import ChatRequest, Loss, TemplateError, decode_request, render
from chatcodec._training import closing_ends, families, jinja
from chatcodec._training.check import corpus
from training.test_render_segments import SHAPES, TOOLS, agent_loop

FAMILY = "deepseek-v3"


@functools.lru_cache(maxsize=1)
def _tokenizer() -> object:
    from training.test_episodes import _with_markers_of

    return _with_markers_of(FAMILY)  # Qwen's ranks with DeepSeek's markers as single tokens


def outcome(request: object, **options: Any) -> tuple[object, ...]:
    losses: list[Loss] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rendering = render(
                request, template=FAMILY, tokenizer=_tokenizer(), on_loss="ignore", losses=losses, **options
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


def by_prefix_renders(request: object, monkeypatch: pytest.MonkeyPatch, **options: Any) -> tuple[object, ...]:
    with monkeypatch.context() as patched:
        patched.setattr(closing_ends, "applies", lambda *_: False)
        return outcome(request, **options)


def _call(name: str, arguments: str = "{}") -> dict[str, Any]:
    return {"id": name, "type": "function", "function": {"name": "bash", "arguments": arguments}}


CLOSED: dict[str, list[dict[str, Any]]] = {
    "a result last, a question after results": [
        {"role": "user", "content": "Q1"},
        {"role": "assistant", "content": None, "tool_calls": [_call("c1"), _call("c2")]},
        {"role": "tool", "tool_call_id": "c1", "content": "one"},
        {"role": "tool", "tool_call_id": "c2", "content": "two"},
        {"role": "user", "content": "Q2"},
        {"role": "assistant", "content": "Look.", "tool_calls": [_call("c3")]},
        {"role": "tool", "tool_call_id": "c3", "content": "three"},
    ],
    "calls after results, answers after answers": [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "Q"},
        {"role": "assistant", "content": "First.", "tool_calls": [_call("c1")]},
        {"role": "tool", "tool_call_id": "c1", "content": "one"},
        {"role": "assistant", "content": "Second.", "tool_calls": [_call("c2")]},
        {"role": "tool", "tool_call_id": "c2", "content": "two"},
        {"role": "assistant", "content": "<think>\nr\n</think>\n\nDone."},
        {"role": "assistant", "content": "Also."},
        {"role": "user", "content": "Q2"},
        {"role": "user", "content": "Q3"},
        {"role": "assistant", "content": "A3"},
    ],
    "two system messages first": [
        {"role": "system", "content": "S1"},
        {"role": "system", "content": "S2"},
        {"role": "user", "content": "Q"},
        {"role": "assistant", "content": "A", "tool_calls": [_call("c1")]},
        {"role": "tool", "tool_call_id": "c1", "content": "one"},
        {"role": "assistant", "content": "B"},
    ],
    "a system message after the others": [
        {"role": "user", "content": "Q"},
        {"role": "assistant", "content": "A"},
        {"role": "system", "content": "S"},
        {"role": "user", "content": "Q2"},
        {"role": "assistant", "content": "B"},
    ],
    "an answer first": [
        {"role": "assistant", "content": "Hello."},
        {"role": "user", "content": "Q"},
        {"role": "assistant", "content": "A"},
    ],
}
"""Shapes DeepSeek-V3 writes otherwise as the last, or before its loop (a system message
after the others takes the prefix renders: it changes the header every earlier message follows)."""


def _canonical(body: dict[str, Any]) -> ChatRequest:
    return ChatRequest.model_validate(decode_request("openai-chat", body).model_dump(exclude_none=True))


def cases() -> Iterator[ChatRequest]:
    for _, request in corpus(seed=5, count=10):
        yield request
    for steps, parallel, reasoning, questions in (
        (0, 1, True, 1),
        (3, 1, True, 1),
        (3, 1, False, 1),
        (2, 3, True, 2),
        (2, 1, False, 3),
        (1, 2, True, 3),
    ):
        yield _canonical(agent_loop(steps, parallel, reasoning=reasoning, questions=questions))
    for messages in (*SHAPES.values(), *CLOSED.values()):
        yield _canonical({"messages": messages, "tools": TOOLS})


@pytest.mark.parametrize("add_generation_prompt", [False, True])
@pytest.mark.parametrize("train_on", ["last_assistant_message", "all_assistant_messages"])
def test_the_one_run_equals_the_prefix_renders(
    train_on: str, add_generation_prompt: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    options = {"train_on": train_on, "add_generation_prompt": add_generation_prompt}
    compared = 0
    for request in cases():
        found = outcome(request, **options)
        assert found == by_prefix_renders(request, monkeypatch, **options), request
        compared += found[0] != "error"
    assert compared > 20


def test_the_path_is_taken_where_the_system_messages_come_first(monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[bool] = []
    read = closing_ends.closing_ends

    def noted(*arguments: Any, **options: Any) -> closing_ends.ClosingEnds | None:
        found = read(*arguments, **options)
        taken.append(found is not None)
        return found

    monkeypatch.setattr(closing_ends, "closing_ends", noted)
    assert FAMILY in closing_ends.held_families()
    for request in (
        _canonical(agent_loop(4, 2, questions=2)),
        *(_canonical({"messages": messages}) for name, messages in CLOSED.items() if "after the others" not in name),
    ):
        taken.clear()
        assert outcome(request)[0] != "error"
        assert taken == [True]
    taken.clear()
    assert outcome(_canonical({"messages": CLOSED["a system message after the others"]}))[0] != "error"
    assert taken == []


@pytest.mark.parametrize("parallel", [1, 3])
def test_a_render_runs_the_template_a_bounded_number_of_times(parallel: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # one run, and an answer's prompt read from it: where the prefix renders ran the template
    # once a message and once an answer
    runs: list[int] = []
    run = jinja.run

    def counted(*arguments: Any, **options: Any) -> Any:
        runs.append(1)
        return run(*arguments, **options)

    outcome(_canonical(agent_loop(1, 1, questions=1)))  # the probe, once a process
    monkeypatch.setattr(jinja, "run", counted)
    counts = []
    for steps in (4, 16):
        runs.clear()
        request = _canonical(agent_loop(steps, parallel, questions=3))
        assert outcome(request, train_on="all_assistant_messages")[0] != "error"
        counts.append(len(runs))
    assert counts[0] == counts[1] == 1, counts


def test_the_probe_reads_the_closing_text_and_the_prompt_after_each_kind() -> None:
    variables = json.dumps(families.stored_profile(FAMILY).variables, sort_keys=True)
    closings, openers = closing_ends._probed(FAMILY, variables, families.DEFAULT_LIMITS)
    outputs_end = "<\uff5ctool\u2581outputs\u2581end\uff5c>"
    assert {pair: text for pair, text in closings.items() if text} == {
        ("tool", following): outputs_end for following in ("tool", "answer", "calling", "user")
    }
    assert openers["tool"] == ""
    assert openers["user"] == openers["answer"] == openers["calling"] == "<\uff5cAssistant\uff5c><think>\n"


@pytest.mark.parametrize("variables", [{"bos_token": ""}, {"bos_token": "<s>"}])
def test_the_callers_variables_are_checked_and_render_the_same(
    variables: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    request = _canonical(agent_loop(3, 2, questions=2))
    for train_on in ("last_assistant_message", "all_assistant_messages"):
        options = {"train_on": train_on, "template_variables": variables}
        found = outcome(request, **options)
        assert found[0] != "error"
        assert found == by_prefix_renders(request, monkeypatch, **options)


texts = st.text(alphabet="ab \n<>/think_|", min_size=0, max_size=12)


@st.composite
def conversations(draw: st.DrawFn) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": draw(texts)} for _ in range(draw(st.integers(0, 2)))
    ]
    for turn in range(draw(st.integers(1, 4))):
        messages.append({"role": "user", "content": draw(texts)})
        for step in range(draw(st.integers(0, 2))):
            calls = [_call(f"c{turn}{step}{index}") for index in range(draw(st.integers(1, 2)))]
            content = draw(st.one_of(st.none(), texts))
            answer: dict[str, Any] = {"role": "assistant", "content": content, "tool_calls": calls}
            if draw(st.booleans()):
                answer["reasoning_content"] = draw(texts)
            messages.append(answer)
            messages += [{"role": "tool", "tool_call_id": call["id"], "content": draw(texts)} for call in calls]
        if draw(st.booleans()):
            messages.append({"role": "assistant", "content": draw(texts)})
        if draw(st.booleans()):
            messages.append({"role": "assistant", "content": draw(texts)})
    if draw(st.integers(0, 4)) == 0:
        messages.insert(draw(st.integers(0, len(messages))), {"role": "system", "content": draw(texts)})
    return {"messages": messages, "tools": TOOLS if draw(st.booleans()) else []}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=conversations(),
    train_on=st.sampled_from(["last_assistant_message", "all_assistant_messages"]),
    add_generation_prompt=st.booleans(),
)
def test_the_one_run_equals_the_prefix_renders_on_any_conversation(
    body: dict[str, Any], train_on: str, add_generation_prompt: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = _canonical(body)
    options = {"train_on": train_on, "add_generation_prompt": add_generation_prompt}
    assert outcome(request, **options) == by_prefix_renders(request, monkeypatch, **options)
