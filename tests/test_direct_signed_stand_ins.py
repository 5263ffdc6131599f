"""litellm's signed ``thinking_blocks`` written to Responses once a shape (issue 107): the first
signed turn of a shape (how many blocks, which texts and signatures are empty) is read by the
reader's ``decode_reasoning`` and tried with its texts changed; later turns of that shape, in
the request and the next, are written from the changed parts, which hold none of the caller's
texts. Each body is written as the canonical path writes it: the output, the losses and the
warnings."""

from __future__ import annotations

import copy
import json
import warnings
from typing import Any, Literal

import pytest

import chatcodec
from chatcodec._direct import openai_chat_to_openai_responses
from chatcodec._direct.table import canonical_only, direct_path
from chatcodec._losses import LossRecorder


def _outcome(body: dict[str, Any], on_loss: Literal["ignore", "warn"]) -> str:
    losses: list[Any] = []
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        output = chatcodec.convert_request(
            copy.deepcopy(body), source="openai-chat", target="openai-responses", on_loss=on_loss, losses=losses
        )
    said = [(warning.category.__name__, str(warning.message)) for warning in shown]
    return json.dumps([output, [repr(loss) for loss in losses], said], default=repr)


def _equal_to_canonical(body: dict[str, Any]) -> None:
    convert = direct_path("openai-chat", "openai-responses")
    assert convert is not None
    assert convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec("openai-responses")) is not None  # taken
    on_losses: tuple[Literal["ignore", "warn"], ...] = ("ignore", "warn")
    for on_loss in on_losses:
        direct = _outcome(body, on_loss)
        with canonical_only():
            assert direct == _outcome(body, on_loss), on_loss


def _blocks(*texts: tuple[str, str]) -> list[dict[str, Any]]:
    return [{"type": "thinking", "thinking": text, "signature": signature} for text, signature in texts]


def _turn(step: int, blocks: list[dict[str, Any]] | None = None, content: str | None = None) -> dict[str, Any]:
    """A litellm assistant turn as litellm's client sends it back: the blocks, their text
    joined as ``reasoning_content``, a call."""
    blocks = _blocks((f"I look at step {step}.", f"sig-{step}")) if blocks is None else blocks
    call = {"id": f"toolu_{step}", "type": "function", "function": {"name": "bash", "arguments": '{"a": 1}'}}
    return {
        "role": "assistant",
        "content": content,
        "reasoning_content": "".join(block["thinking"] for block in blocks),
        "thinking_blocks": blocks,
        "tool_calls": [call],
    }


def _body(turns: list[dict[str, Any]]) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You fix bugs."},
        {"role": "user", "content": "Go."},
    ]
    for turn in turns:
        messages.append(turn)
        messages += [{"role": "tool", "tool_call_id": call["id"], "content": "ok"} for call in turn["tool_calls"]]
    messages.append({"role": "user", "content": "Go on."})
    return {"model": "gpt-5.1", "messages": messages, "max_completion_tokens": 1000}


_SIGNED_TURNS: dict[str, list[dict[str, Any]]] = {
    "one shape": [_turn(step) for step in range(4)],
    "a text beside later": [_turn(0), _turn(1, content="Done."), _turn(2)],
    "an empty thinking text later": [_turn(0), _turn(1, _blocks(("", "sig"))), _turn(2)],
    "an empty signature later": [_turn(0), _turn(1, _blocks(("thought", ""))), _turn(2)],
    "two blocks later": [
        _turn(0),
        _turn(1, _blocks(("a", "s1"), ("b", "s2"))),
        _turn(2),
        _turn(3, _blocks(("c", "s3"), ("", "s4"))),
    ],
}


@pytest.mark.parametrize("case", sorted(_SIGNED_TURNS))
def test_signed_turns_equal_to_canonical(case: str) -> None:
    _equal_to_canonical(_body(_SIGNED_TURNS[case]))


def test_a_signed_shape_stands_in_for_later_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    # the blocks of the first turn of each shape read once, later turns of it not at all, in
    # this request and the next; the stand-ins keep none of the caller's texts or signatures
    stand_ins: dict[Any, Any] = {}
    monkeypatch.setattr(openai_chat_to_openai_responses, "_STAND_INS", stand_ins)
    read: list[str] = []
    reading = openai_chat_to_openai_responses.decode_reasoning

    def counted(message: Any) -> Any:
        read.append(message["reasoning_content"])
        return reading(message)

    monkeypatch.setattr(openai_chat_to_openai_responses, "decode_reasoning", counted)
    turns = [_turn(step) for step in range(5)]
    turns.insert(2, _turn(9, _blocks(("", "sig-9"))))
    convert = direct_path("openai-chat", "openai-responses")
    assert convert is not None
    for body in (_body(turns), _body(turns[::-1])):
        recorder = LossRecorder()
        assert convert(copy.deepcopy(body), recorder, chatcodec.get_codec("openai-responses")) is not None
        assert [loss.what for loss in recorder.losses].count("reasoning from anthropic") == 6
        _equal_to_canonical(body)
    assert read == ["I look at step 0.", ""]
    kept = list(stand_ins.values())
    assert len(kept) == 2
    parts = [part for stand_ins in kept for part in stand_ins]
    assert {part["text"] for part in parts} == {"\x00", ""}  # an empty text stays empty, none of the caller's kept
    assert {part["signature"] for part in parts} == {"\x00"}


def test_a_signed_shape_is_apart_from_a_reasoning_shape() -> None:
    from chatcodec._providers.openai_chat.reasoning import reasoning_shape

    signed = getattr(openai_chat_to_openai_responses, "_signed_shape")  # noqa: B009 - the module's own key
    one, two = signed(_turn(0)), signed(_turn(1, _blocks(("a", "s1"), ("b", "s2"))))
    assert one == signed(_turn(7)) != two  # the texts alone differ, or the blocks' count
    assert signed(_turn(1, _blocks(("", "s")))) != one != signed(_turn(1, _blocks(("a", ""))))
    details = {"role": "assistant", "content": "", "reasoning_details": [{"type": "reasoning.text", "text": "x"}]}
    assert reasoning_shape(details) != one
