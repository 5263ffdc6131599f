"""OpenAI Chat -> Anthropic's turns of OpenRouter's reasoning (issue 107: a Claude model through
OpenRouter, its ``reasoning`` and signed ``reasoning_details`` sent back every step): the first turn
of a shape is written by the writer's general rules and by its parts, compared, and later turns of
a proved shape are their entries as they came with the thinking parts' losses repeated, their
calls by the writer's rule (``_direct/openai_chat_to_anthropic_reasoned.py``). Each body mixes
turns that repeat a proved shape with ones that differ from it and is written as the canonical
path writes it (output, losses, warnings) on a first request and on a later one; the later turns
are counted to skip the general reading, and the trial is seen to leave no note behind."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec import contract
from chatcodec._direct import openai_chat_to_anthropic, openai_chat_to_anthropic_reasoned
from chatcodec._direct.table import canonical_only, direct_path
from chatcodec._losses import LossRecorder
from direct_outcomes import equal_to_canonical

_CLAUDE = "anthropic-claude-v1"


def _call(call_id: str, name: str = "bash", index: int | None = None) -> dict[str, Any]:
    call: dict[str, Any] = {"id": call_id, "type": "function", "function": {"name": name, "arguments": '{"a": 1}'}}
    if index is not None:
        call["index"] = index
    return call


def _detail(text: str, signature: str = "sig", form: str = _CLAUDE, index: int = 0) -> dict[str, Any]:
    return {"type": "reasoning.text", "text": text, "signature": signature, "format": form, "index": index}


_GONE = object()
"""A field :func:`_turn` leaves out."""


def _turn(step: int, **fields: Any) -> dict[str, Any]:
    """An assistant turn as OpenRouter answers it (its reasoning details signed, a text, calls
    with their index), ``fields`` over it."""
    text = f"I look at step {step}."
    turn: dict[str, Any] = {
        "role": "assistant",
        "content": f"Step {step}.",
        "refusal": None,
        "reasoning": text,
        "reasoning_details": [_detail(text, f"sig{step}")],
        "tool_calls": [_call(f"toolu_{step}a", "bash", 0), _call(f"toolu_{step}b", "edit", 1)],
    }
    turn.update(fields)
    return {key: value for key, value in turn.items() if value is not _GONE}


def _body(turns: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You fix bugs."},
        {"role": "user", "content": "Go."},
    ]
    for turn in turns:
        messages.append(turn)
        calls = turn.get("tool_calls") or ()
        messages += [{"role": "tool", "tool_call_id": call["id"], "content": "ok"} for call in calls]
        if not calls:
            messages.append({"role": "user", "content": "And?"})
    messages.append({"role": "user", "content": "Go on."})
    body = {"model": "anthropic/claude-sonnet-4.5", "messages": messages, "max_tokens": 32_000}
    return {**body, "reasoning": {"effort": "high"}, "usage": {"include": True}, **fields}


_TURNS: dict[str, list[dict[str, Any]]] = {
    "one shape": [_turn(step) for step in range(5)],
    "empty and null texts": [_turn(0), _turn(1, content=""), _turn(2, content=None), _turn(3), _turn(4, content="")],
    "a turn of reasoning alone": [_turn(0), _turn(1, tool_calls=_GONE), _turn(2), _turn(3, tool_calls=_GONE)],
    "an empty text and no call": [_turn(0), _turn(1, tool_calls=_GONE, content=""), _turn(2)],
    "calls without an index": [_turn(0), _turn(1, tool_calls=[_call("toolu_1")]), _turn(2)],
    "no refusal field": [_turn(0), _turn(1, refusal=_GONE), _turn(2, refusal=_GONE)],
    "reasoning not a copy": [_turn(0), _turn(1, reasoning="Another thought."), _turn(2, reasoning=_GONE)],
    "an unsigned entry": [_turn(0), _turn(1, reasoning_details=[_detail("I look at step 1.", "")]), _turn(2)],
    "an empty entry text": [_turn(0), _turn(1, reasoning="", reasoning_details=[_detail("")]), _turn(2)],
    "another provider's entry": [
        _turn(0),
        _turn(1, reasoning_details=[_detail("I look at step 1.", form="openai-responses-v1")]),
        _turn(2),
    ],
    "two entries": [
        _turn(0),
        _turn(1, reasoning="ab", reasoning_details=[_detail("a"), _detail("b", "s2", index=1)]),
        _turn(2, reasoning="cd", reasoning_details=[_detail("c"), _detail("d", "s3", index=1)]),
    ],
    "an encrypted entry": [
        _turn(0),
        _turn(
            1,
            reasoning=_GONE,
            reasoning_details=[
                _detail("a"),
                {"type": "reasoning.encrypted", "data": "opaque", "format": _CLAUDE, "index": 1},
            ],
        ),
        _turn(2),
    ],
    "a repeated call id": [_turn(0), _turn(1, tool_calls=[_call("toolu_0a", "bash", 0)]), _turn(2)],
    "a call id Anthropic refuses": [_turn(0), _turn(1, tool_calls=[_call("call 1/x", "bash", 0)]), _turn(2)],
    "a tool name Anthropic refuses": [_turn(0), _turn(1, tool_calls=[_call("toolu_1", "my tool!", 0)]), _turn(2)],
    "a reasoning text alone": [_turn(step, reasoning_details=_GONE) for step in range(4)],
    "a reasoning text alone, then entries": [
        _turn(0, reasoning_details=_GONE),
        _turn(1),
        _turn(2, reasoning_details=_GONE),
    ],
    "an empty reasoning text alone": [
        _turn(0, reasoning_details=_GONE),
        _turn(1, reasoning="", reasoning_details=_GONE),
    ],
    "a reasoning text and no text": [_turn(step, reasoning_details=_GONE, content=None) for step in range(3)],
    "indexed calls alone": [_turn(step, reasoning=_GONE, reasoning_details=_GONE) for step in range(4)],
    "indexed calls alone, an empty text": [
        _turn(step, reasoning=_GONE, reasoning_details=_GONE, content="") for step in range(3)
    ],
    "a reasoning text alone, a call id Anthropic refuses later": [
        _turn(0, reasoning_details=_GONE),
        _turn(1, reasoning_details=_GONE, tool_calls=[_call("call 1/x", "bash", 0)]),
    ],
    "indexed calls alone, a tool name Anthropic refuses later": [
        _turn(0, reasoning=_GONE, reasoning_details=_GONE),
        _turn(1, reasoning=_GONE, reasoning_details=_GONE, tool_calls=[_call("toolu_1", "my tool!", 0)]),
    ],
    "arguments of no object": [
        _turn(0),
        _turn(1, tool_calls=[{"id": "toolu_1", "type": "function", "function": {"name": "b", "arguments": "[1]"}}]),
        _turn(2),
    ],
}


@pytest.mark.parametrize("case", sorted(_TURNS))
def test_reasoned_turns_equal_to_canonical(case: str) -> None:
    body = _body(_TURNS[case])
    equal_to_canonical(body, "openai-chat", "anthropic")
    equal_to_canonical(body, "openai-chat", "anthropic")  # the shapes proved now: written as their parts


_REQUESTS: dict[str, dict[str, Any]] = {
    "no reasoning effort": {"reasoning": _GONE},
    "a model that verifies only its own": {"model": "claude-opus-5-5"},
    "another model": {"model": "claude-3-7-sonnet-latest"},
    "a gateway's general top level": {"provider": {"order": ["anthropic"]}},
}


@pytest.mark.parametrize("case", sorted(_REQUESTS))
def test_reasoned_turns_of_other_requests_equal_to_canonical(case: str) -> None:
    fields = _REQUESTS[case]
    body = _body([_turn(step) for step in range(3)])
    body = {key: value for key, value in {**body, **fields}.items() if value is not _GONE}
    equal_to_canonical(body, "openai-chat", "anthropic")
    equal_to_canonical(body, "openai-chat", "anthropic")


def test_an_option_given_writes_every_turn_by_the_general_rules() -> None:
    body = _body([_turn(step) for step in range(3)])
    for _ in range(2):
        direct = chatcodec.convert_request(
            copy.deepcopy(body),
            source="openai-chat",
            target="anthropic",
            on_loss="ignore",
            options={"unsigned_thinking": "text"},
        )
        with canonical_only():
            canonical = chatcodec.convert_request(
                copy.deepcopy(body),
                source="openai-chat",
                target="anthropic",
                on_loss="ignore",
                options={"unsigned_thinking": "text"},
            )
        assert direct == canonical


class _Read:
    """How many reasoned turns the pass and the proof read by the reader's ``decode_assistant``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.by_pass: list[int] = []
        self.by_proof: list[int] = []
        for module, into in (
            (openai_chat_to_anthropic, self.by_pass),
            (openai_chat_to_anthropic_reasoned, self.by_proof),
        ):
            reading = module.decode_assistant

            def counted(
                message: Any, *rest: Any, _into: list[int] = into, _reading: Any = reading, **options: Any
            ) -> Any:
                _into.append(len(message.get("tool_calls") or ()))
                return _reading(message, *rest, **options)

            monkeypatch.setattr(module, "decode_assistant", counted)


def test_a_proved_shape_skips_the_general_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    # six turns of one shape and one of another: each shape's first turn read once (the proof),
    # then every turn written as its parts; the next request reads none (the verdicts are the process's)
    monkeypatch.setattr(openai_chat_to_anthropic_reasoned, "_PROVED", {})
    read = _Read(monkeypatch)
    turns = [_turn(step) for step in range(6)]
    turns.insert(3, _turn(9, tool_calls=[_call("toolu_9")]))  # a call without its index: another shape
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    recorder = LossRecorder()
    written = convert(_body(turns), recorder, chatcodec.get_codec("anthropic"))
    assert written is not None
    assert (read.by_proof, read.by_pass) == ([2, 1], [])
    reported = [loss.path for loss in recorder.losses if loss.path.endswith(".reasoning")]
    assert len(reported) == 7  # each turn's entry bag reported (format, index, type), proved or not
    assert written["messages"][1]["content"][0] == {
        "type": "thinking",
        "thinking": "I look at step 0.",
        "signature": "sig0",
    }
    again = LossRecorder()
    assert convert(_body(turns[::-1]), again, chatcodec.get_codec("anthropic")) is not None
    assert (read.by_proof, read.by_pass) == ([2, 1], [])
    assert [loss.path for loss in again.losses if loss.path.endswith(".reasoning")] != []
    equal_to_canonical(_body(turns[::-1]), "openai-chat", "anthropic")


def test_a_shape_whose_writings_differ_is_written_by_the_general_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    # a turn of reasoning alone with an empty text: the writer drops the empty text and reports it
    # when it finishes the turns, which the parts do not: every such turn is read generally
    proved: dict[Any, Any] = {}
    monkeypatch.setattr(openai_chat_to_anthropic_reasoned, "_PROVED", proved)
    read = _Read(monkeypatch)
    turns = [_turn(step, content="", tool_calls=_GONE) for step in range(3)]
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    assert convert(_body(turns), LossRecorder(), chatcodec.get_codec("anthropic")) is not None
    assert list(proved.values()) == [None]
    assert (read.by_proof, read.by_pass) == ([0], [0, 0, 0])
    equal_to_canonical(_body(turns), "openai-chat", "anthropic")


def test_the_proof_leaves_no_note_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    # the proof writes a turn's calls three times: the call ids it notes are taken back, so the
    # turn's own writing renames none (a repeat of an earlier call's id is renamed once, reported once)
    monkeypatch.setattr(openai_chat_to_anthropic_reasoned, "_PROVED", {})
    turns = [_turn(0), _turn(1, tool_calls=[_call("toolu_0a", "bash", 0), _call("toolu_1b", "bash", 1)])]
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    recorder = LossRecorder()
    written = convert(_body(turns), recorder, chatcodec.get_codec("anthropic"))
    assert written is not None
    turns_written = [turn["content"] for turn in written["messages"] if turn["role"] == "assistant"]
    ids = [block["id"] for content in turns_written for block in content if block["type"] == "tool_use"]
    assert ids[:2] == ["toolu_0a", "toolu_0b"]
    assert ids[2:] == ["toolu_0a-2", "toolu_1b"]  # the repeat renamed, once
    renamed = [loss.path for loss in recorder.losses if "repeated tool_use id" in loss.why]
    assert renamed == ["$.messages[5].tool_calls[0].id"]
    equal_to_canonical(_body(turns), "openai-chat", "anthropic")


def test_the_proved_shapes_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    full: dict[Any, Any] = {(str(number),): None for number in range(256)}  # the bound, _MAX_PROVED
    monkeypatch.setattr(openai_chat_to_anthropic_reasoned, "_PROVED", full)
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    assert convert(_body([_turn(0)]), LossRecorder(), chatcodec.get_codec("anthropic")) is not None
    assert len(full) == 1  # forgotten whole, then the request's one shape


def test_the_proved_shapes_keep_none_of_the_callers_texts() -> None:
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    secret = "a text only this test sends"
    body = _body([_turn(0, reasoning=secret, reasoning_details=[_detail(secret, "a signature of this test")])])
    assert convert(body, LossRecorder(), chatcodec.get_codec("anthropic")) is not None
    kept = repr(getattr(openai_chat_to_anthropic_reasoned, "_PROVED"))  # noqa: B009 - the module's own memory
    assert "Step 0." not in kept
    assert secret not in kept
    assert "a signature of this test" not in kept


def test_the_proved_shapes_are_forgotten_when_a_kit_is_made() -> None:
    """A kit made later declares markers that change what the writer reports of a bag: the
    verdicts are forgotten with the kits' other plans (the name is this test's alone)."""
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    assert convert(_body([_turn(0), _turn(1)]), LossRecorder(), chatcodec.get_codec("anthropic")) is not None
    proved = getattr(openai_chat_to_anthropic_reasoned, "_PROVED")  # noqa: B009 - the module's own memory
    assert proved
    contract.ProviderKit("acme-reasoned-turns", meaningful_markers={"_mode": "the server reads it"})
    assert proved == {}


@pytest.mark.parametrize(
    "fields",
    [{"reasoning_details": _GONE}, {"reasoning_details": _GONE, "reasoning": _GONE}],
    ids=["a reasoning text alone", "indexed calls alone"],
)
def test_a_turn_without_entries_is_a_plain_one(monkeypatch: pytest.MonkeyPatch, fields: dict[str, Any]) -> None:
    # vLLM's and OpenRouter's reasoning text for a model that signs none (dropped, reported), or
    # calls with the SDK's index and no reasoning: plain turns (the index a pure marker the writer
    # drops), no general reading and no proof
    proved: dict[Any, Any] = {}
    monkeypatch.setattr(openai_chat_to_anthropic_reasoned, "_PROVED", proved)
    read = _Read(monkeypatch)
    turns = [_turn(step, **fields) for step in range(5)]
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    recorder = LossRecorder()
    written = convert(_body(turns), recorder, chatcodec.get_codec("anthropic"))
    assert written is not None
    assert (read.by_proof, read.by_pass, proved) == ([], [], {})
    dropped = [loss.path for loss in recorder.losses if loss.what == "thinking part"]
    expected = [f"$.messages[{2 + 3 * step}].reasoning" for step in range(5)]
    assert dropped == (expected if "reasoning" not in fields else [])
    equal_to_canonical(_body(turns), "openai-chat", "anthropic")


def test_a_reasoning_text_beside_an_empty_text_hands_the_body_back() -> None:
    # OpenRouter's reasoning text with an empty content and no call (no plain turn's): the general
    # rules drop the text (reported) and leave the turn empty, which is the whole writer's to report
    turns = [_turn(step, reasoning_details=_GONE, tool_calls=_GONE, content="") for step in range(3)]
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    assert convert(_body(turns), LossRecorder(), chatcodec.get_codec("anthropic")) is None


def test_named_plain_turns_are_the_pass_s_and_their_name_reported_at_each(monkeypatch: pytest.MonkeyPatch) -> None:
    # a multi-agent client's turns, each with the agent's name, of a text and calls: plain turns, the
    # writer's report of the name before each turn's parts, no general reading (no proof either)
    proved: dict[Any, Any] = {}
    monkeypatch.setattr(openai_chat_to_anthropic_reasoned, "_PROVED", proved)
    read = _Read(monkeypatch)
    turns = [
        _turn(step, reasoning=_GONE, reasoning_details=_GONE, refusal=_GONE, name=("coder", "reviewer")[step % 2])
        for step in range(5)
    ]
    turns.append({"role": "assistant", "content": "Done.", "name": "coder", "reasoning_content": "All ran."})
    for turn in turns[::2]:  # calls without the SDK's index on some turns (a pure marker, dropped): plain too
        for call in turn.get("tool_calls", ()):
            del call["index"]
    turns[1]["name"] = "name"  # a name that is a word of its report: the report is each turn's own
    convert = direct_path("openai-chat", "anthropic")
    assert convert is not None
    recorder = LossRecorder()
    assert convert(_body(turns), recorder, chatcodec.get_codec("anthropic")) is not None
    assert (read.by_proof, read.by_pass, proved) == ([], [], {})
    assert [(loss.path, loss.what) for loss in recorder.losses if loss.path.startswith("$.messages[17]")] == [
        ("$.messages[17].name", "participant name"),
        ("$.messages[17].reasoning_content", "thinking part"),
    ]
    assert [loss.path for loss in recorder.losses if loss.what == "participant name"] == [
        f"$.messages[{index}].name" for index in (2, 5, 8, 11, 14, 17)
    ]
    equal_to_canonical(_body(turns), "openai-chat", "anthropic")
