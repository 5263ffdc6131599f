"""What OpenAI Chat -> Anthropic's direct path proves once and keeps for the process (issue 107): a
text part with a gateway's cache marker (its writing by the reader's and writer's rules, proved
on the first part of each marker and replayed for later ones with the losses repeated), and the
verdict on litellm's signed ``thinking_blocks`` (proved on a request's first signed turn, kept by
the target model, whether a request is written and the ``unsigned_thinking`` option), and the report
of dropping its unsigned block (kept by the same). Each body
is written as the canonical path writes it (output, losses, warnings) on the first request and on
later ones; the later ones are counted to ask the rules no more, and a request the verdict was
not proved for asks them again."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec import contract
from chatcodec._direct import openai_chat_to_anthropic, openai_chat_to_anthropic_signed, openai_chat_to_openai_responses
from chatcodec._direct.table import direct_path
from chatcodec._losses import LossRecorder
from direct_outcomes import equal_to_canonical

_MARK = {"type": "ephemeral"}
_HOUR = {"type": "ephemeral", "ttl": "1h"}


def _text(text: str, marker: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": "text", "text": text} if marker is None else {"type": "text", "text": text, "cache_control": marker}


def _marked_body(system: list[dict[str, Any]], user: list[dict[str, Any]], result: Any) -> dict[str, Any]:
    call = {"id": "call_1", "type": "function", "function": {"name": "open", "arguments": '{"a": 1}'}}
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1000,
        "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": result},
            {"role": "user", "content": "Go on."},
        ],
    }


_MARKED_BODIES = {
    "a marked system part": _marked_body([_text("You fix bugs.", _MARK), _text("Be terse.")], [_text("Look.")], "ok"),
    "two markers, two ttls": _marked_body(
        [_text("You fix bugs.", _HOUR)], [_text("Look.", _MARK), _text("Here.", _HOUR)], "ok"
    ),
    "a marked result part": _marked_body([_text("You fix bugs.")], [_text("Look.")], [_text("ok", _MARK)]),
    "five breakpoints (Anthropic takes four)": _marked_body(
        [_text("A", _MARK), _text("B", _MARK)], [_text("C", _MARK), _text("D", _HOUR)], [_text("E", _MARK)]
    ),
}


@pytest.mark.parametrize("case", sorted(_MARKED_BODIES))
def test_marked_texts_equal_to_canonical_first_and_later(case: str) -> None:
    body = _MARKED_BODIES[case]
    openai_chat_to_anthropic._MARKED_TEXTS.clear()  # first: the rules, then the kept verdicts
    equal_to_canonical(body, "openai-chat", "anthropic")
    assert openai_chat_to_anthropic._MARKED_TEXTS
    equal_to_canonical(body, "openai-chat", "anthropic")


def test_a_kept_marker_asks_the_rules_no_more(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(openai_chat_to_anthropic, "_MARKED_TEXTS", {})
    asked: list[object] = []
    rule = openai_chat_to_anthropic.encode_part

    def counted(part: dict[str, Any], *arguments: Any) -> Any:
        asked.append(part.get("cache_control"))
        return rule(part, *arguments)

    monkeypatch.setattr(openai_chat_to_anthropic, "encode_part", counted)
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    body = _MARKED_BODIES["two markers, two ttls"]
    first = LossRecorder()
    assert convert(copy.deepcopy(body), first, chatcodec.get_codec("anthropic")) is not None
    assert len(asked) == 2  # one part of each marker: the other is the kept verdict's
    again = LossRecorder()
    assert convert(copy.deepcopy(body), again, chatcodec.get_codec("anthropic")) is not None
    assert len(asked) == 2
    assert [loss.path for loss in again.losses] == [loss.path for loss in first.losses]
    assert len(again.losses) == 3  # each marker's spelling reported at its own part


def _signed_turn(step: int) -> dict[str, Any]:
    thought = f"Step {step}: read the file."
    call = {"id": f"call_{step}", "type": "function", "function": {"name": "open", "arguments": '{"a": 1}'}}
    return {
        "role": "assistant",
        "content": None,
        "reasoning_content": thought,
        "thinking_blocks": [{"type": "thinking", "thinking": thought, "signature": f"sig{step}"}],
        "tool_calls": [call],
    }


def _signed_body(model: str, steps: int = 3) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You fix bugs."},
        {"role": "user", "content": "Go."},
    ]
    for step in range(steps):
        messages += [_signed_turn(step), {"role": "tool", "tool_call_id": f"call_{step}", "content": "ok"}]
    messages.append({"role": "user", "content": "Go on."})
    return {"model": model, "max_tokens": 1000, "messages": messages}


def _unsigned_body(model: str, steps: int = 3) -> dict[str, Any]:
    """A session whose turns carry litellm's thinking block of a text alone (no signature)."""
    body = _signed_body(model, steps)
    for message in body["messages"]:
        for block in message.get("thinking_blocks", ()):
            del block["signature"]
    return body


@pytest.mark.parametrize("model", ["claude-sonnet-4-5", "claude-opus-5-5"])
def test_signed_turns_equal_to_canonical_first_and_later(model: str) -> None:
    openai_chat_to_anthropic_signed._SIGNED_VERDICTS.clear()
    equal_to_canonical(_signed_body(model), "openai-chat", "anthropic")
    assert openai_chat_to_anthropic_signed._SIGNED_VERDICTS
    equal_to_canonical(_signed_body(model, steps=4), "openai-chat", "anthropic")


def _thinking_asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The writer's ``encode_thinking``, as the signed parts' module calls it, counted: the model of each call."""
    asked: list[str] = []
    rule = openai_chat_to_anthropic_signed.encode_thinking

    def counted(part: dict[str, Any], context: Any, at: Any) -> Any:
        asked.append(context.model)
        return rule(part, context, at)

    monkeypatch.setattr(openai_chat_to_anthropic_signed, "encode_thinking", counted)
    return asked


def test_a_kept_verdict_asks_the_rules_of_no_turn_and_another_model_asks_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(openai_chat_to_anthropic_signed, "_SIGNED_VERDICTS", {})
    asked = _thinking_asked(monkeypatch)
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    anthropic = chatcodec.get_codec("anthropic")
    assert convert(_signed_body("claude-sonnet-4-5"), LossRecorder(), anthropic) is not None
    assert asked == ["claude-sonnet-4-5"]  # the first turn's block: the later turns' are proved
    assert convert(_signed_body("claude-sonnet-4-5"), LossRecorder(), anthropic) is not None
    assert asked == ["claude-sonnet-4-5"]  # kept: no turn asks
    assert convert(_signed_body("claude-opus-5-5"), LossRecorder(), anthropic) is not None
    assert asked == ["claude-sonnet-4-5", "claude-opus-5-5"]  # another model: proved again


def test_the_kept_verdicts_are_forgotten_when_a_kit_is_made() -> None:
    """A kit made later declares markers that change what the writer reports of a bag (the
    name is this test's alone)."""
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    anthropic = chatcodec.get_codec("anthropic")
    # first: the first Gemini bag a process claims loads Gemini's kit, which forgets them all
    assert convert(_gemini_body(), LossRecorder(), anthropic) is not None
    assert convert(copy.deepcopy(_MARKED_BODIES["a marked system part"]), LossRecorder(), anthropic) is not None
    assert convert(_signed_body("claude-sonnet-4-5"), LossRecorder(), anthropic) is not None
    assert convert(_unsigned_body("claude-sonnet-4-5"), LossRecorder(), anthropic) is not None
    assert convert(_gemini_body(), LossRecorder(), anthropic) is not None
    marked = openai_chat_to_anthropic._MARKED_TEXTS
    signed = openai_chat_to_anthropic_signed._SIGNED_VERDICTS
    unsigned = openai_chat_to_anthropic_signed._UNSIGNED_REPORTS
    calls = openai_chat_to_anthropic_signed._SIGNED_CALLS
    assert marked
    assert signed
    assert unsigned
    assert calls
    contract.ProviderKit("acme-kept-verdicts", meaningful_markers={"_mode": "the server reads it"})
    assert (marked, signed, unsigned, calls) == ({}, {}, {}, {})


@pytest.mark.parametrize("model", ["claude-sonnet-4-5", "claude-opus-5-5"])
def test_unsigned_turns_equal_to_canonical_first_and_later(model: str) -> None:
    openai_chat_to_anthropic_signed._UNSIGNED_REPORTS.clear()
    equal_to_canonical(_unsigned_body(model), "openai-chat", "anthropic")
    assert openai_chat_to_anthropic_signed._UNSIGNED_REPORTS
    equal_to_canonical(_unsigned_body(model, steps=4), "openai-chat", "anthropic")


def test_a_kept_report_of_an_unsigned_block_asks_the_rule_of_no_later_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first unsigned turn asks the writer's rule (which drops it and reports); later turns and
    requests to the same model repeat that report, another model asks again; an empty text asks."""
    monkeypatch.setattr(openai_chat_to_anthropic_signed, "_UNSIGNED_REPORTS", {})
    asked = _thinking_asked(monkeypatch)
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    anthropic = chatcodec.get_codec("anthropic")
    recorder = LossRecorder()
    assert convert(_unsigned_body("claude-sonnet-4-5"), recorder, anthropic) is not None
    assert asked == ["claude-sonnet-4-5"]
    assert len({loss.path for loss in recorder.losses}) == 3  # each turn's block reported, at its own place
    assert convert(_unsigned_body("claude-sonnet-4-5"), LossRecorder(), anthropic) is not None
    assert asked == ["claude-sonnet-4-5"]
    assert convert(_unsigned_body("claude-opus-5-5"), LossRecorder(), anthropic) is not None
    assert asked == ["claude-sonnet-4-5", "claude-opus-5-5"]
    empty = _unsigned_body("claude-opus-5-5", steps=1)
    empty["messages"][2].update(reasoning_content="", thinking_blocks=[{"type": "thinking", "thinking": ""}])
    assert convert(empty, LossRecorder(), anthropic) is not None
    assert asked == ["claude-sonnet-4-5", "claude-opus-5-5", "claude-opus-5-5"]


def _gemini_body(steps: int = 3) -> dict[str, Any]:
    """A session on Gemini's OpenAI compatibility: each turn's call carries its thought signature."""
    body = _signed_body("claude-sonnet-4-5", steps)
    for message in body["messages"]:
        for call in message.pop("tool_calls", None) or ():
            message["tool_calls"] = [{**call, "extra_content": {"google": {"thought_signature": "c2ln"}}}]
        message.pop("thinking_blocks", None)
        message.pop("reasoning_content", None)
    return body


def test_a_signed_calls_report_is_proved_once_and_repeated(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first call with Gemini's signature is read by the reader's ``decode_tool_call`` and its bag
    claimed by the writer's kit; later calls, of this request and the next, repeat that report (each
    at its call's place) and are written as plain calls; the outcome is the canonical path's."""
    monkeypatch.setattr(openai_chat_to_anthropic_signed, "_SIGNED_CALLS", {})
    equal_to_canonical(_gemini_body(), "openai-chat", "anthropic")
    read: list[str] = []
    decode = openai_chat_to_anthropic_signed.decode_tool_call

    def counted(call: dict[str, Any]) -> dict[str, Any]:
        read.append(call["id"])
        return decode(call)

    monkeypatch.setattr(openai_chat_to_anthropic_signed, "_SIGNED_CALLS", {})
    monkeypatch.setattr(openai_chat_to_anthropic_signed, "decode_tool_call", counted)
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    recorder = LossRecorder()
    assert convert(_gemini_body(), recorder, chatcodec.get_codec("anthropic")) is not None
    assert read == ["call_0"]
    assert [loss.path for loss in recorder.losses] == [f"$.messages[{2 * step + 2}].tool_calls[0]" for step in range(3)]
    equal_to_canonical(_gemini_body(steps=4), "openai-chat", "anthropic")
    assert read == ["call_0"]


def test_a_signed_calls_reading_into_responses_is_proved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Into Responses the reader's reading of a call with Gemini's signature is proved on the first
    (``decode_tool_call``) and later calls are the plain part with the signature attached by the
    reader's own ``attach_signature``; the outcome is the canonical path's."""
    monkeypatch.setattr(openai_chat_to_openai_responses, "_SIGNED_READ", {})
    read: list[str] = []
    decode = openai_chat_to_openai_responses.decode_tool_call

    def counted(call: dict[str, Any]) -> dict[str, Any]:
        read.append(call["id"])
        return decode(call)

    monkeypatch.setattr(openai_chat_to_openai_responses, "decode_tool_call", counted)
    equal_to_canonical(_gemini_body(), "openai-chat", "openai-responses")
    assert read == ["call_0"]
    equal_to_canonical(_gemini_body(steps=4), "openai-chat", "openai-responses")
    assert read == ["call_0"]


def test_an_empty_signature_first_proves_nothing_for_later_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process whose first signed call carries an empty signature keeps no report from it: the
    later calls (a signature each) are read and reported as the canonical path reports them."""
    monkeypatch.setattr(openai_chat_to_anthropic_signed, "_SIGNED_CALLS", {})
    body = _gemini_body(steps=3)
    body["messages"][2]["tool_calls"][0]["extra_content"]["google"]["thought_signature"] = ""
    equal_to_canonical(body, "openai-chat", "anthropic")
    equal_to_canonical(_gemini_body(steps=2), "openai-chat", "anthropic")
