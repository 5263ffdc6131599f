"""Held-out cases of SkyRL's, slime's and vLLM's own tests of multi-turn token records, re-expressed
as data and asked of chatcodec's next-prompt rule (:func:`chatcodec.next_prompt`, and the
gateway's :func:`~chatcodec._training.next_prompt.prompt_after` where a case needs a session of
several sampled points), :func:`chatcodec.trainer_samples` and :func:`chatcodec.parse_completion`,
under stock Qwen3 with real Qwen ids (:mod:`training.qwen3_tokenizer`).

Each test names the peer's repository, file and test. Where chatcodec's rule differs from the
peer's on purpose, the test says so: chatcodec names every fresh rendering in ``prompt_break``
where slime re-renders silently; it keeps a cut turn's mask and never merges past it where SkyRL
zeroes the mask; it tells two sampled points apart by the reasoning the harness sends back where
slime calls them ambiguous. renderers' bridge cases are in ``test_next_prompt_bridges.py``.
"""

from __future__ import annotations

from array import array
from typing import Any

import pytest

import chatcodec
from chatcodec import NextPrompt, SampledTurn
from chatcodec._training.call_ids import held_calls
from chatcodec._training.next_prompt import Point, Renderer, cut_reason, digests, prompt_after, sampled_text
from training.qwen3_tokenizer import qwen3_encoding

IM_END = 151645
"""``<|im_end|>``: Qwen3's end of turn, the eos SkyRL's overlong filter looks for."""


def _ids(text: str) -> list[int]:
    encoded: list[int] = qwen3_encoding().encode(text, allowed_special="all")
    return encoded


def _decode(ids: list[int]) -> str:
    decoded: str = qwen3_encoding().decode(ids)
    return decoded


def _prompt(conversation: object, source: str | None = None, template: str = "qwen3") -> tuple[list[int], str]:
    rendered = chatcodec.render(
        conversation,
        source=source,
        template=template,
        tokenizer=qwen3_encoding(),
        add_generation_prompt=True,
        on_loss="ignore",
    )
    assert rendered.token_ids is not None
    return list(rendered.token_ids), rendered.text


def _turn(before: list[Any], completion: str | list[int], **fields: Any) -> SampledTurn:
    """The turn sampled after the canonical ``before``: render's prompt (ids and text) and
    ``completion``'s ids."""
    prompt, text = _prompt(before)
    completion_ids = _ids(completion) if isinstance(completion, str) else completion
    return SampledTurn(
        message_index=len(before), prompt_ids=prompt, completion_ids=completion_ids, prompt_text=text, **fields
    )


def _next(
    turn: SampledTurn,
    conversation: object,
    source: str | None = None,
    finish: str | None = None,
    template: str = "qwen3",
) -> NextPrompt:
    return chatcodec.next_prompt(
        turn,
        conversation,
        source=source,
        template=template,
        tokenizer=qwen3_encoding(),
        finish_reason=finish,
        on_loss="ignore",
    )


def _then(turn: SampledTurn, found: NextPrompt, completion: str, at: int) -> SampledTurn:
    """The turn sampled after ``found``'s prompt (the answer at canonical message ``at``),
    carrying its text and the break the prompt was recorded with, as a record does."""
    return SampledTurn(
        message_index=at,
        prompt_ids=found.prompt_ids,
        completion_ids=_ids(completion),
        prompt_text=found.text,
        prompt_break=found.prompt_break,
    )


def _extends(found: NextPrompt, turn: SampledTurn) -> bool:
    sampled = [*turn.prompt_ids, *turn.completion_ids]
    return found.prompt_ids[: len(sampled)] == sampled


def _tool(text: str, call: str = "call_0") -> dict[str, Any]:
    return {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": call, "content": text}]}


def _said(text: str, reasoning: str | None = None) -> dict[str, Any]:
    content: list[Any] = [{"type": "text", "text": text}]
    if reasoning is not None:
        content.insert(0, {"type": "thinking", "text": reasoning})
    return {"role": "assistant", "content": content}


# SkyRL (NovaSky-AI/SkyRL, skyrl-train/tests/cpu/generators/test_utils.py)


def test_the_newline_after_the_end_token_opens_the_next_message_and_is_prompt_not_sample() -> None:
    """SkyRL ``test_encode_messages_qwen``: the ``\\n`` Qwen's template writes after ``<|im_end|>``
    belongs to the next message's tokens (the sampled answer stops at its eos), so a 3-turn
    session's response holds each answer as sampled (mask 1) and each observation, from that
    newline, as prompt (mask 0), as SkyRL's generator masks an observation."""
    question = {"role": "user", "content": "What is 2+2?"}
    first = _turn([question], "4<|im_end|>")
    history: list[Any] = [question, _said("4"), _tool("checked: 4")]
    found = _next(first, history)
    assert found.prompt_break is None
    assert _extends(found, first)
    observation = found.prompt_ids[len(first.prompt_ids) + len(first.completion_ids) :]
    assert first.completion_ids[-1] == IM_END
    assert _decode(observation) == (
        "\n<|im_start|>user\n<tool_response>\nchecked: 4\n</tool_response><|im_end|>\n<|im_start|>assistant\n"
    )
    second = _then(first, found, "It is 4.<|im_end|>", len(history))
    history += [_said("It is 4."), {"role": "user", "content": "Times 3?"}]
    after = _next(second, history)
    assert after.prompt_break is None
    assert _extends(after, second)
    assert _decode(after.prompt_ids[len(second.prompt_ids) + len(second.completion_ids) :]).startswith(
        "\n<|im_start|>user\nTimes 3?"
    )
    third = _then(second, after, "12<|im_end|>", len(history))
    (sample,) = chatcodec.trainer_samples([first, second, third], on_loss="ignore")
    gaps = [len(found.prompt_ids) - len(first.prompt_ids) - len(first.completion_ids)]
    gaps.append(len(after.prompt_ids) - len(second.prompt_ids) - len(second.completion_ids))
    assert sample["prompt_ids"] == first.prompt_ids
    assert sample["response_mask"] == (
        [1] * len(first.completion_ids)
        + [0] * gaps[0]
        + [1] * len(second.completion_ids)
        + [0] * gaps[1]
        + [1] * len(third.completion_ids)
    )
    assert [*sample["prompt_ids"], *sample["response_ids"]] == [*after.prompt_ids, *third.completion_ids]


@pytest.mark.parametrize("finish", ["length", "stop"])
def test_a_response_without_its_eos_is_never_extended_nor_merged(finish: str) -> None:
    """SkyRL ``test_apply_overlong_filtering`` (cases 2 and 3: a response whose last id is not the
    eos is truncated, whatever its finish reason). SkyRL zeroes such a response's mask; chatcodec
    keeps the sampled ids as sampled (mask 1, ending without eos, so a trainer applying DAPO's
    filter still finds them) and never trains across the cut: the next prompt is a fresh
    rendering naming why, and the turn after it starts a sample of its own."""
    question = {"role": "user", "content": "Tell me a story."}
    closed = _turn([question], "Once upon a time.<|im_end|>")
    cut = SampledTurn(message_index=1, prompt_ids=closed.prompt_ids, completion_ids=_ids("Hello, I was"))
    history: list[Any] = [question, _said("Hello, I was"), {"role": "user", "content": "Go on."}]
    assert _next(closed, [question, _said("Once upon a time."), history[2]]).prompt_break is None  # case 1
    found = _next(cut, history, finish=finish)
    assert found.prompt_break is not None
    assert "$.messages[1] was sampled unclosed" in found.prompt_break
    assert found.prompt_ids == _prompt(history)[0]
    assert "Hello, I was<|im_end|>" in found.text  # the template closes it in the fresh prompt, not sampled
    after = _then(cut, found, "and then.<|im_end|>", 3)
    losses: list[chatcodec.Loss] = []
    samples = chatcodec.trainer_samples([cut, after], on_loss="ignore", losses=losses)
    assert [sample["response_ids"] for sample in samples] == [cut.completion_ids, after.completion_ids]
    assert samples[0]["response_ids"][-1] != IM_END
    assert samples[1]["response_ids"][-1] == IM_END
    assert samples[0]["response_mask"] == [1] * len(cut.completion_ids)
    assert "sampled unclosed" in losses[0].why


MOCK = "<think>\nmock thinking\n</think>\n\nb<|im_end|>"
"""SkyRL's mocked Qwen3 response, sampled at every turn."""


@pytest.mark.parametrize("template", ["qwen3-training", "qwen3"])
def test_a_three_turn_token_in_token_out_session_against_the_template_s_rendering(template: str) -> None:
    """SkyRL ``test_skyrl_gym_generator_chat_templating.py::test_skyrl_gym_generator_chat_templating_exact``
    (Qwen3, its ``tito`` and chat-template paths): the user says ``a``, the environment ``1`` then
    ``2``, the model answers ``MOCK`` each time. Under a template that keeps every turn's
    reasoning (``qwen3-training``, SkyRL's ``qwen3_with_thinking``), each prompt extends the last,
    the session is one sample and its ids decode to the whole history as the template renders it
    (SkyRL's ``QWEN3_TITO_EXPECTED_STR``). Stock Qwen3 drops an earlier answer's reasoning at a
    new question, so there each next prompt is a fresh rendering naming that (SkyRL's
    ``QWEN3_WITHOUT_THINKING_EXPECTED_STR`` for the earlier turns) and no sample runs across it."""
    history: list[Any] = [{"role": "user", "content": "a"}]
    prompt, text = _prompt(history, template=template)
    turns = [SampledTurn(message_index=1, prompt_ids=prompt, completion_ids=_ids(MOCK), prompt_text=text)]
    breaks: list[str | None] = []
    for said in ("1", "2"):
        history += [_said("b", "mock thinking"), {"role": "user", "content": said}]
        found = _next(turns[-1], history, template=template)
        breaks.append(found.prompt_break)
        turns.append(_then(turns[-1], found, MOCK, len(history)))
    history.append(_said("b", "mock thinking"))
    samples = chatcodec.trainer_samples(turns, on_loss="ignore")
    whole = chatcodec.render(history, template=template, on_loss="ignore").text.rstrip("\n")
    if template == "qwen3-training":
        assert breaks == [None, None]
        (sample,) = samples
        assert _decode([*sample["prompt_ids"], *sample["response_ids"]]) == whole
        assert whole.count("<think>\nmock thinking\n</think>") == 3
    else:
        assert all(why is not None and "renders the earlier answer differently" in why for why in breaks)
        assert len(samples) == 3
        last = turns[-1]
        assert _decode([*last.prompt_ids, *last.completion_ids]) == whole
        assert whole.count("<think>") == 1  # only the last answer keeps its reasoning


# slime (THUDM/slime, tests/test_agent/test_prompt_continuity.py)

REASONED = "<think>\nKeep this exact reasoning.\n</think>\n\nReading. <|im_end|>"
"""slime's ``completed_prefix`` output: the space before the end token is no canonical spelling."""
READ = {"role": "user", "content": "Read the files."}
READING = _said("Reading.", "Keep this exact reasoning.")


def test_reasoning_and_non_canonical_whitespace_are_reused_before_sampling() -> None:
    """slime ``test_reasoning_and_noncanonical_whitespace_are_reused_before_sampling``: the
    harness holds ``Reading.`` where the model wrote ``Reading. ``; a canonical rendering of the
    history differs from the sampled ids, the next prompt extends them, the extension is exactly
    the tool message and the generation prompt, and a third turn extends the second."""
    first = _turn([READ], REASONED)
    history: list[Any] = [READ, READING, _tool("file contents")]
    original = [*first.prompt_ids, *first.completion_ids]
    assert _prompt(history)[0][: len(original)] != original
    found = _next(first, history)
    assert found.prompt_break is None
    assert found.prompt_ids[: len(original)] == original
    assert _decode(found.prompt_ids[len(original) :]) == (
        "\n<|im_start|>user\n<tool_response>\nfile contents\n</tool_response><|im_end|>\n<|im_start|>assistant\n"
    )
    second = _then(first, found, REASONED, len(history))
    history += [READING, _tool("more files")]
    third = _next(second, history)
    assert third.prompt_break is None
    assert _extends(third, second)


TOOLS: list[Any] = [{"type": "function", "function": {"name": "read", "parameters": {"type": "object"}}}]


@pytest.mark.parametrize("change", ["user", "assistant", "tools", "unfinished", "no_boundary"])
def test_a_changed_or_unfinished_history_is_rendered_fresh_with_its_reason(change: str) -> None:
    """slime ``test_changed_or_unfinished_history_is_not_spliced``: an earlier message edited, the
    answer edited, the tools changed, a turn cut at max_tokens or one missing its end token each
    give the prompt a fresh rendering of the same body gives. slime re-renders silently; chatcodec
    also names why in ``prompt_break``. An edit before the answer (``user``, ``tools``) shows
    against the turn's ``prompt_text`` (the text render and a record give), or without it against
    the text its ``prompt_ids`` decode to (test_next_prompt.py pins that case)."""
    body: dict[str, Any] = {"model": "qwen3", "messages": [{"role": "user", "content": "Read the files."}]}
    body["tools"] = TOOLS
    prompt, text = _prompt(body, "openai-chat")
    completion = _ids(REASONED)
    finish = "stop"
    if change == "unfinished":
        finish = "length"
    elif change == "no_boundary":
        completion = completion[:-1]
    turn = SampledTurn(message_index=1, prompt_ids=prompt, completion_ids=completion, prompt_text=text)
    answer = {"role": "assistant", "content": "Reading.", "reasoning_content": "Keep this exact reasoning."}
    history: list[Any] = [*body["messages"], answer, {"role": "tool", "tool_call_id": "x", "content": "file contents"}]
    if change == "user":
        history[0] = {"role": "user", "content": "Changed."}
    elif change == "assistant":
        history[1] = {**answer, "content": "Changed."}
    tools = [{"type": "function", "function": {"name": "write", "parameters": {"type": "object"}}}]
    sent = {**body, "messages": history, "tools": tools if change == "tools" else TOOLS}
    if change in ("user", "assistant", "tools"):  # the same turn, sent back unchanged, extends
        unchanged = {**body, "messages": [*body["messages"], answer, history[2]]}
        assert _next(turn, unchanged, "openai-chat").prompt_break is None
    found = _next(turn, sent, "openai-chat", finish=finish)
    assert found.prompt_break is not None
    assert found.prompt_ids == _prompt(sent, "openai-chat")[0]
    expected = {
        "user": "render otherwise than its prompt",
        "assistant": "its text changed ($.messages[1].content)",
        "tools": "render otherwise than its prompt",
        "unfinished": "cut at max_tokens",
        "no_boundary": "without its end token",
    }
    assert expected[change] in found.prompt_break


def _point(before: list[Any], completion: str, request_id: str) -> Point:
    """A sampled point of a gateway session: render's prompt of ``before`` and ``completion``."""
    ids, text = _prompt(before)
    completion_ids = _ids(completion)
    answer = chatcodec.parse_completion(completion_ids, template="qwen3", tokenizer=qwen3_encoding(), on_loss="ignore")
    completed = sampled_text(completion_ids, qwen3_encoding())
    return Point(
        seen=digests(before),
        prompt_text=text,
        prompt_ids=array("q", ids),
        completion_ids=array("q", completion_ids),
        completion_text=completed,
        answer=answer.model_dump(mode="json", exclude_none=True),
        cut=cut_reason(completed, "stop", "<|im_end|>"),
        request_id=request_id,
    )


def test_a_sibling_tool_result_branches_from_the_original_point() -> None:
    """slime ``test_sibling_tool_results_branch_from_the_original_prefix``: after a left branch
    was answered, a right tool result sent with the root's history extends the root's sampled
    ids, holds the right result and nothing of the left; the gateway names the root as parent."""
    root = _point([READ], REASONED, "root")
    left: list[Any] = [READ, READING, _tool("left branch")]
    points = [root, _point(left, REASONED, "left")]
    right: list[Any] = [READ, READING, _tool("right branch")]
    found = prompt_after(points, right, Renderer("qwen3", qwen3_encoding(), []), [])
    assert (found.prompt_break, found.parent) == (None, root)
    assert found.ids[: len(root.prompt_ids) + len(root.completion_ids)] == [*root.prompt_ids, *root.completion_ids]
    assert "right branch" in _decode(found.ids)
    assert "left branch" not in _decode(found.ids)


def test_siblings_with_one_visible_reply_are_told_apart_by_the_reasoning_sent_back() -> None:
    """slime ``test_identical_visible_replies_with_different_reasoning_are_ambiguous``: two
    samples of one question answer ``Reading.`` with different reasoning. A history holding the
    reply without reasoning stands for neither: a fresh rendering, as slime's, naming the dropped
    reasoning. Where slime refuses both as ambiguous, chatcodec extends the one whose reasoning
    the harness sends back."""
    first = _point([READ], REASONED, "first")
    other = _point([READ], "<think>\nDifferent reasoning.\n</think>\n\nReading.<|im_end|>", "other")
    renderer = Renderer("qwen3", qwen3_encoding(), [])
    bare: list[Any] = [READ, _said("Reading."), _tool("file contents")]
    found = prompt_after([first, other], bare, renderer, [])
    assert found.prompt_break is not None
    assert "its reasoning dropped ($.messages[1])" in found.prompt_break
    assert (found.ids, found.parent) == (_prompt(bare)[0], None)
    for point, reasoning in ((other, "Different reasoning."), (first, "Keep this exact reasoning.")):
        held: list[Any] = [READ, _said("Reading.", reasoning), _tool("file contents")]
        chosen = prompt_after([first, other], held, renderer, [])
        assert (chosen.prompt_break, chosen.parent) == (None, point)
        assert chosen.ids[: len(point.prompt_ids) + len(point.completion_ids)] == [
            *point.prompt_ids,
            *point.completion_ids,
        ]


ANTHROPIC_TOOLS: list[Any] = [
    {"name": "read", "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}
]


def test_an_anthropic_round_trip_of_thinking_and_a_tool_result_trains_as_one_sample() -> None:
    """slime ``test_anthropic_http_roundtrip_merges_thinking_and_tool_results``: the answer's
    thinking and ``tool_use`` sent back with a ``tool_result``; the second prompt extends the
    first turn's prompt and sampled ids, and the session is one sample holding every sampled token
    once. (slime's model writes qwen3_coder's XML calls; stock Qwen3 writes Hermes JSON ones.)"""
    raw = (
        "<think>\nInspect the file.\n</think>\n\nReading.\n\n"
        '<tool_call>\n{"name": "read", "arguments": {"path": "a"}}\n</tool_call><|im_end|>'
    )
    body: dict[str, Any] = {"model": "qwen3", "max_tokens": 64, "tools": ANTHROPIC_TOOLS}
    body["messages"] = [{"role": "user", "content": "Read the file."}]
    prompt, _ = _prompt(body, "anthropic")
    first = SampledTurn(message_index=1, prompt_ids=prompt, completion_ids=_ids(raw))
    answer = chatcodec.parse_completion(
        first.completion_ids, template="qwen3", tokenizer=qwen3_encoding(), tools=ANTHROPIC_TOOLS, on_loss="ignore"
    )
    call = answer.model_dump(mode="json", exclude_none=True)["content"][-1]
    assert (call["type"], call["name"]) == ("tool_use", "read")
    blocks = [
        {"type": "thinking", "thinking": "Inspect the file.", "signature": ""},
        {"type": "text", "text": "Reading."},
        {"type": "tool_use", "id": call["id"], "name": "read", "input": {"path": "a"}},
    ]
    result = {"type": "tool_result", "tool_use_id": call["id"], "content": "file contents"}
    body["messages"] += [{"role": "assistant", "content": blocks}, {"role": "user", "content": [result]}]
    found = _next(first, body, "anthropic")
    assert found.prompt_break is None
    assert _extends(found, first)
    second = _then(first, found, "<think>\nFinished checking.\n</think>\n\nDone.<|im_end|>", 3)
    (sample,) = chatcodec.trainer_samples([first, second], on_loss="ignore")
    sampled = [token for token, mask in zip(sample["response_ids"], sample["response_mask"], strict=True) if mask]
    assert sampled == [*first.completion_ids, *second.completion_ids]  # every sampled token, once


# vLLM (vllm-project/vllm, tests/entrypoints/openai/)

WEATHER: list[Any] = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the current weather in a given location",
            "parameters": {
                "type": "object",
                "properties": {"location": {"type": "string"}, "unit": {"type": "string"}},
                "required": ["location"],
            },
        },
    }
]


def test_a_tool_session_s_token_ids_decode_to_its_messages_with_distinct_call_ids() -> None:
    """vLLM ``basic/test_return_token_ids.py::test_chat_completion_with_tool_use``, carried over
    three turns: the prompt ids decode to a text holding the system message and the question, the
    sampled ids parse to a ``get_weather`` call, and each next prompt extends the turn's ids and
    holds the tool's answer. vLLM's Qwen3 parser gives each call a random id; a chatcodec loop
    numbers them from the calls the conversation holds, so no id repeats."""
    messages: list[Any] = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "What's the weather like in Paris?"},
    ]
    body: dict[str, Any] = {"model": "qwen3", "messages": messages, "tools": WEATHER}
    prompt, text = _prompt(body, "openai-chat")
    assert "You are a helpful assistant" in _decode(prompt)
    assert "What's the weather like in Paris?" in _decode(prompt)
    assert _decode(prompt) == text
    ids: list[str] = []
    for city in ("Paris", "Lyon", "Nice"):
        raw = f'<tool_call>\n{{"name": "get_weather", "arguments": {{"location": "{city}"}}}}\n</tool_call><|im_end|>'
        turn = SampledTurn(message_index=len(messages), prompt_ids=prompt, completion_ids=_ids(raw))
        canonical = [
            m.model_dump(mode="json", exclude_none=True) for m in chatcodec.decode_request("openai-chat", body).messages
        ]
        held = held_calls(canonical)
        answer = chatcodec.parse_completion(
            turn.completion_ids,
            template="qwen3",
            tokenizer=qwen3_encoding(),
            tools=WEATHER,
            first_call_index=held.made,
            held_call_ids=held.ids,
            on_loss="ignore",
        )
        (call,) = [part for part in answer.model_dump(mode="json", exclude_none=True)["content"]]
        assert call["name"] == "get_weather"
        ids.append(call["id"])
        arguments = f'{{"location": "{city}"}}'
        function = {"name": "get_weather", "arguments": arguments}
        messages += [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": call["id"], "type": "function", "function": function}],
            },
            {"role": "tool", "tool_call_id": call["id"], "content": f"{city}: sunny"},
        ]
        found = _next(turn, body, "openai-chat")
        assert found.prompt_break is None
        assert _extends(found, turn)
        assert f"{city}: sunny" in _decode(found.prompt_ids[len(prompt) :])
        prompt = found.prompt_ids
    assert len(set(ids)) == 3


def test_sampled_ids_splitting_an_emoji_are_carried_into_the_next_prompt_unchanged() -> None:
    """vLLM ``basic/test_return_token_ids.py::test_chat_completion_with_emoji_and_token_ids`` (its
    single turn is ported in ``tests/serve/test_token_options.py``), carried to a second turn:
    the model sampled the cat emoji byte by byte (ids no encoder gives for it); the answer decodes
    to ``I love cats 🐱``, the next prompt extends the sampled ids unchanged, and its ids decode
    to its text."""
    system = {"role": "system", "content": "You like to use emojis in your responses."}
    question = {"role": "user", "content": "Repeat after me: I love cats 🐱"}
    encoding = qwen3_encoding()
    by_byte = [encoding.encode_single_token(bytes([byte])) for byte in "🐱".encode()]
    completion = [*_ids("I love cats "), *by_byte, IM_END]
    assert by_byte != _ids("🐱")  # no canonical spelling of the emoji
    turn = _turn([system, question], completion)
    found = _next(turn, [system, question, _said("I love cats 🐱"), {"role": "user", "content": "Again?"}])
    assert found.prompt_break is None
    assert _extends(found, turn)
    assert "I love cats 🐱" in _decode(found.prompt_ids)
    assert _decode(found.prompt_ids) == found.text


def test_an_extended_prompt_of_canonical_ids_is_the_prompt_the_messages_tokenize_to() -> None:
    """vLLM ``chat_completion/test_token_in_token_out.py::test_chat_token_in_matches_messages``
    (pre-tokenized ``prompt_token_ids`` drive generation as the templated messages do): where the
    model sampled the canonical ids, the extended next prompt is the prompt ``render`` (vLLM's
    ``/tokenize`` of the messages) gives, so either one drives the next turn the same."""
    question = {"role": "user", "content": "Hello, how are you today?"}
    turn = _turn([question], "I am well, thank you.<|im_end|>")
    history: list[Any] = [question, _said("I am well, thank you."), {"role": "user", "content": "Good."}]
    found = _next(turn, history)
    assert found.prompt_break is None
    assert _extends(found, turn)
    assert (found.prompt_ids, found.text) == _prompt(history)
