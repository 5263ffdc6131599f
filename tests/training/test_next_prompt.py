"""The training room's rules for a session's next prompt, as the gateway and a library loop
use them: call ids continuing a conversation's, the next prompt compared with what was
sampled, a cut turn never bridged, and trainer samples one per branch, never across a break.
Real Qwen3 ids (:mod:`training.qwen3_tokenizer`)."""

from __future__ import annotations

import json
from array import array
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec import PayloadError, SampledTurn
from chatcodec._training.call_ids import held_calls
from chatcodec._training.next_prompt import Point, Renderer, cut_reason, digests, prompt_after, sampled_text
from chatcodec._training.records import record_line
from training.qwen3_tokenizer import qwen3_encoding

CALL = '<tool_call>\n{"name":"f","arguments":{"x":1}}\n</tool_call><|im_end|>'


def _ids(text: str) -> list[int]:
    encoded: list[int] = qwen3_encoding().encode(text, allowed_special="all")
    return encoded


def test_a_parse_completion_loop_numbered_by_the_calls_held_repeats_no_id() -> None:
    """Each turn parsed alone made ``call_0``; numbered from the calls held, and skipping an id
    the harness chose itself, the ids are distinct."""
    messages: list[Any] = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "call_1", "name": "f", "arguments": "{}"}]},
        {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "call_1", "content": "ok"}]},
    ]
    seen = ["call_1"]
    for _ in range(3):
        held = held_calls(messages)
        answer = chatcodec.parse_completion(
            CALL, template="qwen3", first_call_index=held.made, held_call_ids=held.ids, on_loss="ignore"
        )
        call = answer.model_dump(mode="json", exclude_none=True)["content"][0]
        seen.append(call["id"])
        messages += [
            {"role": "assistant", "content": [call]},
            {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": call["id"], "content": "ok"}]},
        ]
    assert seen == ["call_1", "call_2", "call_3", "call_4"]  # call_1 made would have repeated the harness's


@pytest.mark.parametrize("given", ["call_0", [1], {"call_0": 1}, 3])
def test_held_call_ids_that_are_no_strings_are_refused_at_their_path(given: object) -> None:
    with pytest.raises(PayloadError) as caught:
        chatcodec.parse_completion(CALL, template="qwen3", held_call_ids=given, on_loss="ignore")  # type: ignore[arg-type]
    assert caught.value.path == "$.held_call_ids"


def test_a_cut_completion_is_told_from_a_closed_one() -> None:
    """renderers' ``trim_to_turn_close``: a completion holding no close token was cut at
    max_tokens; a finish 'stop' without the end token (a stop string) is no closed turn either."""
    encoding = qwen3_encoding()
    done, cut = sampled_text(_ids("Done.<|im_end|>"), encoding), sampled_text(_ids("Hello, I was"), encoding)
    assert cut_reason(done, "stop", "<|im_end|>") is None
    assert "max_tokens" in str(cut_reason(cut, "length", "<|im_end|>"))
    assert "without its end token" in str(cut_reason(cut, "stop", "<|im_end|>"))


def _point(messages: list[Any], completion: str, finish: str = "stop") -> Point:
    renderer = Renderer("qwen3", qwen3_encoding(), [])
    ids, text = renderer.fresh(messages, [])
    completion_ids = _ids(completion)
    answer = chatcodec.parse_completion(completion_ids, template="qwen3", tokenizer=qwen3_encoding(), on_loss="ignore")
    return Point(
        seen=digests(messages),
        prompt_text=text,
        prompt_ids=array("q", ids),
        completion_ids=array("q", completion_ids),
        completion_text=sampled_text(completion_ids, qwen3_encoding()),
        answer=answer.model_dump(mode="json", exclude_none=True),
        cut=cut_reason(sampled_text(completion_ids, qwen3_encoding()), finish, renderer.turn_end),
        request_id="r1",
    )


QUESTION: list[Any] = [{"role": "user", "content": "Hi"}]
THOUGHT = "<think>\nGreet back.\n</think>\n\nHello!<|im_end|>"
SAMPLED: dict[str, Any] = {
    "role": "assistant",
    "content": [{"type": "thinking", "text": "Greet back."}, {"type": "text", "text": "Hello!"}],
}


def test_the_next_prompt_extends_the_sampled_ids_where_the_answer_comes_back_as_sampled() -> None:
    point = _point(QUESTION, THOUGHT)
    messages = [
        *QUESTION,
        SAMPLED,
        {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "x", "content": "1"}]},
    ]
    found = prompt_after([point], messages, Renderer("qwen3", qwen3_encoding(), []), [])
    assert found.prompt_break is None
    assert found.ids[: len(point.prompt_ids) + len(point.completion_ids)] == [*point.prompt_ids, *point.completion_ids]


@pytest.mark.parametrize(
    ("sent", "said"),
    [
        ({"role": "assistant", "content": "Hello!"}, "its reasoning dropped ($.messages[1])"),
        ({**SAMPLED, "content": [SAMPLED["content"][0], {"type": "text", "text": "Hi!"}]}, "its text changed"),
    ],
)
def test_a_dropped_reasoning_is_named_as_the_harness_s_not_the_template_s(sent: dict[str, Any], said: str) -> None:
    """Under stock Qwen3 a new question drops old reasoning anyway; a harness that dropped it
    (a client leaving out ``reasoning_content``) is named as the cause, before the template."""
    point = _point(QUESTION, THOUGHT)
    messages = [*QUESTION, sent, {"role": "user", "content": "And you?"}]
    renderer = Renderer("qwen3", qwen3_encoding(), [])
    found = prompt_after([point], messages, renderer, [])
    assert found.prompt_break is not None
    assert said in found.prompt_break
    assert found.ids == renderer.fresh(messages, [])[0]


def test_a_cut_turn_is_rendered_fresh_with_the_reason() -> None:
    point = _point(QUESTION, "Hello, I was", "length")
    messages = [*QUESTION, {"role": "assistant", "content": "Hello, I was"}, {"role": "user", "content": "Go on."}]
    found = prompt_after([point], messages, Renderer("qwen3", qwen3_encoding(), []), [])
    assert found.prompt_break is not None
    assert "cut at max_tokens" in found.prompt_break
    assert "Hello, I was<|im_end|>" in found.text


def test_a_retry_reuses_the_point_s_ids() -> None:
    point = _point(QUESTION, THOUGHT)
    found = prompt_after([point], QUESTION, Renderer("qwen3", qwen3_encoding(), []), [])
    assert (found.ids, found.prompt_break, found.parent) == (list(point.prompt_ids), None, point)


def _turn(prompt: list[int], completion: list[int], **fields: Any) -> SampledTurn:
    return SampledTurn(message_index=len(prompt), prompt_ids=prompt, completion_ids=completion, **fields)


def test_trainer_samples_give_one_sample_per_branch() -> None:
    """Best-of-n then a continuation of the first sibling (verl's and SkyRL's multi-turn
    samples are one per trajectory): the continuation joins its own branch."""
    first = _turn([1, 2], [3])
    sibling = _turn([1, 2], [4], parent_turn="r1")
    continued = _turn([1, 2, 3, 9], [5])
    losses: list[chatcodec.Loss] = []
    samples = chatcodec.trainer_samples([first, sibling, continued], on_loss="ignore", losses=losses)
    assert [(sample["prompt_ids"], sample["response_ids"], sample["response_mask"]) for sample in samples] == [
        ([1, 2], [3, 9, 5], [1, 0, 1]),
        ([1, 2], [4], [1]),
    ]
    assert "branches from turn 'r1'" in losses[0].why


def test_trainer_samples_never_merge_across_a_break_even_where_the_ids_line_up() -> None:
    cut = _turn([1, 2], [3])
    after = _turn([1, 2, 3, 7], [8], prompt_break="the answer at messages[1] was sampled unclosed")
    losses: list[chatcodec.Loss] = []
    samples = chatcodec.trainer_samples([cut, after], on_loss="ignore", losses=losses)
    assert len(samples) == 2
    assert "sampled unclosed" in losses[0].why


def test_read_records_reads_the_break_and_the_parent_back(tmp_path: Path) -> None:
    fields: dict[str, Any] = {
        "session": "s",
        "request_id": "r2",
        "model": "m",
        "upstream": "vllm-generate",
        "status": "complete",
        "messages": [{"role": "user", "content": "Hi"}],
        "tools": [],
        "prompt_ids": [1],
        "completion_ids": [2],
        "logprobs": None,
        "finish_reason": "stop",
    }
    path = tmp_path / "turns.jsonl"
    path.write_bytes(record_line(turn=0, prompt_break="why", parent_turn="r1", **fields))
    ((turn,),) = chatcodec.read_records(path).values()
    assert (turn.prompt_break, turn.parent_turn) == ("why", "r1")
    line = json.loads(path.read_text())
    path.write_text(json.dumps({**line, "parent_turn": 3}) + "\n")
    losses: list[chatcodec.Loss] = []
    assert chatcodec.read_records(path, on_loss="ignore", losses=losses) == {"s": []}  # the line is a loss, not a turn
    (loss,) = losses
    assert "'parent_turn' is a string" in loss.why


ANTHROPIC_TOOLS: list[Any] = [
    {"name": "get_weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}
]
CALL_TEXT = (
    "<think>\nI call the tool.\n</think>\n\n"
    '<tool_call>\n{"name":"get_weather","arguments":{"city":"Paris"}}\n</tool_call><|im_end|>'
)
SENT_BACK: list[Any] = [
    {"type": "thinking", "thinking": "I call the tool.", "signature": ""},
    {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
]
QWEN3: dict[str, Any] = {"source": "anthropic", "template": "qwen3", "on_loss": "ignore"}


def _body(messages: list[Any], **fields: Any) -> dict[str, Any]:
    return {"model": "qwen3", "max_tokens": 100, "messages": messages, "tools": ANTHROPIC_TOOLS, **fields}


def _first(body: dict[str, Any]) -> SampledTurn:
    """The first turn of ``body``: render's prompt (the answer follows the canonical messages,
    an Anthropic ``system`` one of them) and the sampled call."""
    prompt = chatcodec.render(body, tokenizer=qwen3_encoding(), add_generation_prompt=True, **QWEN3)
    assert prompt.token_ids is not None
    at = len(body["messages"]) + ("system" in body)
    return SampledTurn(message_index=at, prompt_ids=list(prompt.token_ids), completion_ids=_ids(CALL_TEXT))


def test_next_prompt_extends_a_turn_sent_back_as_sampled_in_the_harness_s_wire() -> None:
    """The library call the gateway's rule answers: the Anthropic body with the model's compact
    arguments read back as ``input`` and the harness's own call id still extends the ids."""
    question: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
    turn = _first(_body(question))
    result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"}]}
    history = [*question, {"role": "assistant", "content": SENT_BACK}, result]
    found = chatcodec.next_prompt(turn, _body(history), tokenizer=qwen3_encoding(), **QWEN3)
    assert found.prompt_break is None
    assert found.prompt_ids[: len(turn.prompt_ids) + len(turn.completion_ids)] == turn.prompt_ids + turn.completion_ids
    assert found.text.endswith("<|im_start|>assistant\n")


def test_next_prompt_breaks_on_an_argument_changed_as_the_gateway_does() -> None:
    """Anthropic's ``system`` is canonical message 0: the break names the wire's place, and the
    prompt is render's for the same body."""
    question: list[Any] = [{"role": "user", "content": "Weather?"}]
    turn = _first(_body(question, system="Be brief."))
    edited = [SENT_BACK[0], {**SENT_BACK[1], "input": {"city": "Lyon"}}]
    result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "rain"}]}
    body = _body([*question, {"role": "assistant", "content": edited}, result], system="Be brief.")
    found = chatcodec.next_prompt(turn, body, tokenizer=qwen3_encoding(), **QWEN3)
    assert found.prompt_break is not None
    assert "the arguments of 'get_weather' changed ($.messages[1].content[1].arguments)" in found.prompt_break
    fresh = chatcodec.render(body, tokenizer=qwen3_encoding(), add_generation_prompt=True, **QWEN3)
    assert found.prompt_ids == fresh.token_ids


def test_next_prompt_refuses_a_turn_outside_the_conversation() -> None:
    turn = SampledTurn(message_index=5, prompt_ids=[1], completion_ids=[2])
    with pytest.raises(PayloadError) as caught:
        chatcodec.next_prompt(turn, QUESTION, template="qwen3", tokenizer=qwen3_encoding())
    assert caught.value.path == "$.turn.message_index"


def test_a_turn_without_its_prompt_text_still_catches_an_earlier_message_rewritten() -> None:
    """A turn read back or built by hand holds no ``prompt_text``: the messages before its answer
    are then checked against the text its ``prompt_ids`` decode to, so an edited question breaks
    (it extended the old ids silently), and an unedited one still extends."""
    encoding = qwen3_encoding()
    rendering = chatcodec.render(QUESTION, template="qwen3-training", tokenizer=encoding, add_generation_prompt=True)
    assert rendering.token_ids is not None
    turn = SampledTurn(message_index=1, prompt_ids=list(rendering.token_ids), completion_ids=_ids(THOUGHT))
    result = {"role": "user", "content": "Thanks."}
    kept = chatcodec.next_prompt(
        turn, [*QUESTION, SAMPLED, result], template="qwen3-training", tokenizer=encoding, on_loss="ignore"
    )
    assert kept.prompt_break is None
    assert kept.prompt_ids[: len(turn.prompt_ids) + len(turn.completion_ids)] == [
        *turn.prompt_ids,
        *turn.completion_ids,
    ]
    edited = [{"role": "user", "content": "Hi there"}, SAMPLED, result]
    broken = chatcodec.next_prompt(turn, edited, template="qwen3-training", tokenizer=encoding, on_loss="ignore")
    assert broken.prompt_break is not None
    assert "its prompt_ids decode to" in broken.prompt_break
    fresh = chatcodec.render(
        edited, template="qwen3-training", tokenizer=encoding, add_generation_prompt=True, on_loss="ignore"
    )
    assert broken.prompt_ids == fresh.token_ids
