"""The session's last answer sent back changed, after earlier turns the gateway still keeps.

The gateway keeps a session's last few turns (``MAX_POINTS``), so a retry or a branch can
extend the turn it starts from. An answer sent back edited, cut or without its reasoning is
no branch: the conversation diverges from what was sampled at that answer. Extending an
older kept turn there would encode the changed answer from its text inside the prompt, with
no ``prompt_break`` (only a ``parent_turn`` calling it a branch). Each edit kind is run in
process against the fake token upstream of the recording tests: the record names the answer,
the turn that sampled it and how it changed, the prompt is a fresh rendering, and the trainer
starts a new sample there.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import chatcodec
from chatcodec.serve import ServeConfig
from serve.harness import FakeUpstream, serving_config, serving_fake
from serve.test_token_upstreams import vllm_generated
from serve.test_turn_records_off_path import SESSION, _body, _lines, _result
from training.qwen3_tokenizer import qwen3_encoding


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeUpstream]:
    with serving_fake() as upstream:
        yield upstream


@pytest.fixture
def recorded(tmp_path: Path) -> Path:
    return tmp_path / "turns.jsonl"


def _serving(fake: FakeUpstream, recorded: Path, template: str = "qwen3") -> Any:
    fake.replies.clear()
    fake.received.clear()
    config = ServeConfig(
        api="anthropic",
        upstream="vllm-generate",
        upstream_url=fake.base,
        template=template,
        record=str(recorded),
        allow_anonymous=True,
    )
    return serving_config(config, tokenizer=qwen3_encoding())


def _rendered(messages: list[Any], template: str = "qwen3") -> list[int]:
    """The body's prompt as the library renders it (the prompt a break records)."""
    rendering = chatcodec.render(
        _body(messages),
        source="anthropic",
        template=template,
        tokenizer=qwen3_encoding(),
        add_generation_prompt=True,
        on_loss="ignore",
    )
    assert rendering.token_ids is not None
    return list(rendering.token_ids)


def _ids(text: str) -> list[int]:
    encoded: list[int] = qwen3_encoding().encode(text, allowed_special="all")
    return encoded


def _call(city: str, said: str, *, thought: bool = True) -> str:
    """A Qwen3 completion with text (and reasoning, where ``thought``), calling ``get_weather`` for ``city``."""
    call = json.dumps({"name": "get_weather", "arguments": {"city": city}}, separators=(",", ":"))
    reasoning = f"<think>\nI look {city} up.\n</think>\n\n" if thought else ""
    return f"{reasoning}{said}\n<tool_call>\n{call}\n</tool_call><|im_end|>"


def _posted(origin: str, body: dict[str, Any]) -> dict[str, Any]:
    reply = httpx.post(f"{origin}/v1/messages", json=body, headers=SESSION, timeout=30)
    assert reply.status_code == 200, reply.text
    answer: dict[str, Any] = reply.json()
    return answer


def _blocks(kind: str, change: Callable[[dict[str, Any]], dict[str, Any] | None]) -> Callable[[list[Any]], list[Any]]:
    """An edit of an answer's content: each block of ``kind`` changed (None: removed)."""

    def edited(content: list[Any]) -> list[Any]:
        changed = [change(block) if block["type"] == kind else block for block in content]
        return [block for block in changed if block is not None]

    return edited


EDITS: dict[str, tuple[Callable[[list[Any]], list[Any]], str]] = {
    "the text edited": (
        _blocks("text", lambda block: {**block, "text": "Checking Lyon instead."}),
        "its text changed ($.messages[3].content[1])",
    ),
    "the text cut": (
        _blocks("text", lambda block: {**block, "text": block["text"][:6]}),
        "its text cut ($.messages[3].content[1])",
    ),
    "the reasoning dropped": (_blocks("thinking", lambda block: None), "its reasoning dropped ($.messages[3])"),
    "the reasoning cut": (
        _blocks("thinking", lambda block: {**block, "thinking": block["thinking"][:5]}),
        "its reasoning cut ($.messages[3].content[0])",
    ),
    "the reasoning changed": (
        _blocks("thinking", lambda block: {**block, "thinking": "Something else."}),
        "its reasoning changed ($.messages[3].content[0])",
    ),
    "the call dropped": (_blocks("tool_use", lambda block: None), "its calls changed (1 sampled, 0 sent back)"),
    "an argument changed": (
        _blocks("tool_use", lambda block: {**block, "input": {"city": "Lyon"}}),
        "the arguments of 'get_weather' changed ($.messages[3].content[2].arguments)",
    ),
}


def _two_turns(
    origin: str, fake: FakeUpstream, second: str, finish: str = "stop", *, thought: bool = True
) -> tuple[list[Any], list[Any]]:
    """Two turns sampled and sent back as sampled: the history so far, and the second answer's
    content (the first answer's reasoning, where ``thought``: stock Qwen3 drops it at a new question)."""
    messages: list[Any] = [{"role": "user", "content": "Weather in Paris and Rome?"}]
    fake.reply(vllm_generated(_ids(_call("Paris", "Paris first.", thought=thought))))
    first = _posted(origin, _body(messages))
    messages += [{"role": "assistant", "content": first["content"]}, _result(first["content"])]
    fake.reply(vllm_generated(_ids(second), finish))
    answer = _posted(origin, _body(messages))
    return messages, answer["content"]


def _third(origin: str, fake: FakeUpstream, history: list[Any]) -> list[int]:
    fake.reply(vllm_generated(_ids("It is sunny in both.<|im_end|>")))
    _posted(origin, _body(history))
    sent: list[int] = fake.last.body["token_ids"]
    return sent


@pytest.mark.parametrize("edit", list(EDITS))
def test_the_last_answer_sent_back_changed_is_a_named_break_not_an_older_turn_extended(
    fake: FakeUpstream, recorded: Path, edit: str
) -> None:
    change, said = EDITS[edit]
    with _serving(fake, recorded) as origin:
        messages, content = _two_turns(origin, fake, _call("Rome", "Now Rome, then done."))
        follow = {"role": "user", "content": "Thanks."} if edit == "the call dropped" else _result(content)
        history = [*messages, {"role": "assistant", "content": change(content)}, follow]
        sent = _third(origin, fake, history)
    assert sent == _rendered(history)  # what the harness sent rendered fresh: no older turn's ids extended
    first, second, third = _lines(recorded)
    assert "prompt_break" not in second
    assert third["prompt_break"] == (
        f"the answer sent back at $.messages[3] is not the one sampled: {said}; sampled at turn 1"
    )
    assert "parent_turn" not in third  # a divergence, not a branch of the first turn
    losses: list[chatcodec.Loss] = []
    turns = chatcodec.read_records(recorded)["episode-105"]
    samples = chatcodec.trainer_samples(turns, on_loss="ignore", losses=losses)
    assert [sample["prompt_ids"] for sample in samples] == [first["prompt_ids"], sent]
    assert [loss.path for loss in losses] == ["$[2].prompt_break"]
    assert "is not the one sampled" in losses[0].why
    rows = chatcodec.trainer_rows(
        turns, layout="slime", options={"rollout_id": 0}, on_loss="ignore"
    )  # a trainer's rows split there too
    assert isinstance(rows, list)
    assert [row["tokens"][: len(sample["prompt_ids"])] for row, sample in zip(rows, samples, strict=True)] == [
        sample["prompt_ids"] for sample in samples
    ]


def test_the_last_answer_sampled_cut_is_a_named_break_not_an_older_turn_extended(
    fake: FakeUpstream, recorded: Path
) -> None:
    """The second answer stopped at ``max_tokens``: the harness sends it back as it came."""
    with _serving(fake, recorded) as origin:
        messages, content = _two_turns(origin, fake, "<think>\nI look Rome", finish="length")
        history = [*messages, {"role": "assistant", "content": content}, {"role": "user", "content": "Go on."}]
        sent = _third(origin, fake, history)
    assert sent == _rendered(history)
    third = _lines(recorded)[2]
    assert third["prompt_break"].startswith(
        "the answer at $.messages[3] was sampled unclosed: it was cut at max_tokens"
    )
    assert third["prompt_break"].endswith("; sampled at turn 1")
    assert "parent_turn" not in third


def test_an_answer_left_out_continues_the_turn_before_it(fake: FakeUpstream, recorded: Path) -> None:
    """The harness drops the second answer (nothing of it in the conversation) and asks again:
    nothing sampled is spelled otherwise, so the first turn is extended, as a branch (under
    Qwen3's training template, which keeps the first answer's reasoning at the new question)."""
    with _serving(fake, recorded, "qwen3-training") as origin:
        messages, _ = _two_turns(origin, fake, _call("Rome", "Now Rome."))
        history = [*messages, {"role": "user", "content": "Skip Rome."}]
        sent = _third(origin, fake, history)
    first, _, third = _lines(recorded)
    assert "prompt_break" not in third
    assert third["parent_turn"] == first["request_id"]
    assert (
        sent[: len(first["prompt_ids"]) + len(first["completion_ids"])] == first["prompt_ids"] + first["completion_ids"]
    )
    assert sent != _rendered(history, "qwen3-training")  # the first answer's sampled spelling kept


def test_under_a_template_rendered_in_a_window_the_changed_last_answer_breaks_too(
    fake: FakeUpstream, recorded: Path
) -> None:
    """Qwen3's training template renders a next prompt in the answer's window (the messages
    before it proved by their digests): an edited last answer leaves the window, and the whole
    conversation names the break, as under stock Qwen3."""
    change, said = EDITS["the text edited"]
    with _serving(fake, recorded, "qwen3-training") as origin:
        messages, content = _two_turns(origin, fake, _call("Rome", "Now Rome, then done."))
        history = [*messages, {"role": "assistant", "content": change(content)}, _result(content)]
        sent = _third(origin, fake, history)
    assert sent == _rendered(history, "qwen3-training")
    third = _lines(recorded)[2]
    assert (
        third["prompt_break"]
        == f"the answer sent back at $.messages[3] is not the one sampled: {said}; sampled at turn 1"
    )
    assert "parent_turn" not in third
