"""The OpenAI Chat reader learns, as it reads each message, whether the history holds anything the
shared history rules act on (``history/turns.py``: ``content: []``, an opaque part or a custom call
in a turn, a message right after an assistant's calls other than their results), and says so in
the conversion's record (``Reading.plain_history``); the Anthropic, Gemini, Bedrock and OpenAI Chat
writers then do not survey the list again. What the reader says must be what the survey finds, and
a conversion with the record must give the body and the losses of the same conversion without it.
The reader also says whether a thinking part carries encrypted reasoning (``Reading.unsealed_history``):
with both, the Responses writer does not survey the turns for what it sends whole or asks for."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from chatcodec._conversion import read_request_data, write_request_data
from chatcodec._losses import LossRecorder
from chatcodec._providers.anthropic.capabilities import CAPABILITIES as ANTHROPIC
from chatcodec._providers.bedrock_converse.capabilities import CAPABILITIES as BEDROCK
from chatcodec._providers.contract.context import Reading
from chatcodec._providers.gemini.capabilities import CAPABILITIES as GEMINI
from chatcodec._providers.history.turns import history_for

_CALL = {"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}
_CALLS = {"role": "assistant", "content": None, "tool_calls": [_CALL]}
_RESULT = {"role": "tool", "tool_call_id": "call_1", "content": "a.txt"}
_USER = {"role": "user", "content": "and then?"}


def _body(*messages: dict[str, Any]) -> dict[str, Any]:
    history = [
        {"role": "system", "content": "be brief"},
        {"role": "developer", "content": [{"type": "text", "text": "plan first"}]},
        {"role": "user", "content": "list the files"},
        {"role": "assistant", "content": "Listing.", "reasoning_content": "ls", "tool_calls": [_CALL]},
        _RESULT,
        {"role": "assistant", "content": "Done."},
        _USER,
        {"role": "assistant", "content": None, "tool_calls": [{**_CALL, "id": "call_2"}], "name": None},
        {"role": "tool", "tool_call_id": "call_2", "content": [{"type": "text", "text": "ok"}]},
        *messages,
    ]
    return {"model": "gpt-5", "messages": history}


PLAIN = {
    "an agent history": _body(),
    "a turn of text, then the user": _body({"role": "assistant", "content": "Sure."}, _USER),
    "calls, then another turn": _body(_CALLS, {"role": "assistant", "content": "x"}, _RESULT),
    "a turn read the general way, then the user": _body({"role": "assistant", "content": "x", "refusal": "no"}, _USER),
    # read in the loop (messages.py): a bare turn of the empty text is a string, not a turn of no parts
    "a bare turn of the empty text": _body({"role": "assistant", "content": ""}, _USER),
    "a turn of calls and no content key, then their result": _body(
        {"role": "assistant", "tool_calls": [{**_CALL, "id": "call_3"}]}, {**_RESULT, "tool_call_id": "call_3"}
    ),
    "function results, paired by name": _body(
        _CALLS, {"role": "function", "name": "bash", "content": "a.txt"}, {"role": "assistant", "content": "x"}
    ),
}
RULED = {
    "a message between a call and its result": _body(_CALLS, _USER, _RESULT),
    "a system message between a call and its result": _body(_CALLS, {"role": "system", "content": "s"}, _RESULT),
    "a general turn's call, then the user": _body({**_CALLS, "refusal": "no"}, _USER, _RESULT),
    "a user message of no parts": _body({"role": "user", "content": []}),
    "a named system message of no parts": _body({"role": "system", "content": [], "name": "s"}),
    "an assistant turn of no parts": _body({"role": "assistant", "content": None}),
    "a call of another kind, kept whole": _body(
        {"role": "assistant", "content": None, "tool_calls": [{"id": "call_5", "type": "mcp", "mcp": {}}]}
    ),
    "a custom call": _body(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_4", "type": "custom", "custom": {"name": "patch", "input": "*** Begin"}}],
        },
        {"role": "tool", "tool_call_id": "call_4", "content": "done"},
    ),
    "a content part kept whole": _body(
        {"role": "assistant", "content": [{"type": "text", "text": "x"}, {"type": "output_audio", "id": "a"}]}
    ),
}
_SEALED = {  # OpenRouter's encrypted reasoning detail and a redacted Claude block (openai_chat/reasoning.py)
    "an encrypted reasoning detail": _body(
        {"role": "assistant", "content": "x", "reasoning_details": [{"type": "reasoning.encrypted", "data": "e"}]}
    ),
    "a redacted thinking block": _body(
        {"role": "assistant", "content": "x", "thinking_blocks": [{"type": "redacted_thinking", "data": "e"}]}
    ),
}


def _read(body: dict[str, Any], noted: Reading | None) -> dict[str, Any]:
    return read_request_data(copy.deepcopy(body), "openai-chat", noted=noted)


@pytest.mark.parametrize("name", list(PLAIN))
def test_a_plain_history_is_said_plain_and_the_survey_finds_nothing(name: str) -> None:
    noted = Reading()
    canonical = _read(PLAIN[name], noted)
    assert noted.plain(canonical["messages"])
    assert noted.unsealed(canonical["messages"])
    for capabilities in (ANTHROPIC, GEMINI, BEDROCK):  # every rule looked for: the list comes back as it is
        assert history_for(canonical["messages"], LossRecorder(), "x", capabilities) is canonical["messages"]


@pytest.mark.parametrize("name", list(RULED))
def test_a_history_the_rules_act_on_is_not_said_plain(name: str) -> None:
    noted = Reading()
    canonical = _read(RULED[name], noted)
    assert noted.plain_history is None
    assert not noted.plain(canonical["messages"])


@pytest.mark.parametrize("name", list(_SEALED))
def test_encrypted_reasoning_is_not_said_unsealed(name: str) -> None:
    noted = Reading()
    canonical = _read(_SEALED[name], noted)
    assert noted.unsealed_history is None
    assert not noted.unsealed(canonical["messages"])


@pytest.mark.parametrize("name", [*PLAIN, *RULED, *_SEALED])
@pytest.mark.parametrize("target", ["anthropic", "gemini", "bedrock-converse", "openai-chat", "openai-responses"])
def test_the_record_changes_no_body_and_no_loss(name: str, target: str) -> None:
    body = {**PLAIN, **RULED, **_SEALED}[name]
    written = []
    for noted in (Reading(), None):
        recorder = LossRecorder()
        wire = write_request_data(_read(body, noted), target, recorder, noted=noted)
        written.append((wire, [(loss.path, loss.what, loss.why) for loss in recorder.losses]))
    assert written[0] == written[1]
    if name == "a message between a call and its result" and target not in ("openai-chat", "openai-responses"):
        assert any("moved after" in why for _, _, why in written[0][1])


@pytest.mark.parametrize("target", ["anthropic", "gemini", "bedrock-converse"])
def test_a_swapped_list_is_surveyed(target: str) -> None:
    """The record holds the list read: a writer handed another list (the caller's edit) looks at it."""
    noted = Reading()
    canonical = _read(PLAIN["an agent history"], noted)
    messages = canonical["messages"]  # a user message put between a turn's call and its result:
    swapped = {**canonical, "messages": [*messages[:4], {"role": "user", "content": "stop"}, *messages[4:]]}
    assert not noted.plain(swapped["messages"])
    recorder = LossRecorder()
    write_request_data(swapped, target, recorder, noted=noted)
    assert any("moved after" in loss.why for loss in recorder.losses)


def test_a_swapped_list_is_surveyed_by_the_responses_writer() -> None:
    """A call kept whole, put in the list read by the caller, is sent by the rules' survey (with its results)."""
    noted = Reading()
    canonical = _read(PLAIN["an agent history"], noted)
    messages = canonical["messages"]
    kept = {"role": "assistant", "content": [{"type": "opaque", "provider": "gemini", "data": {"id": "call_1"}}]}
    swapped = {**canonical, "messages": [*messages, kept]}
    recorder = LossRecorder()
    write_request_data(swapped, "openai-responses", recorder, noted=noted)
    assert recorder.losses
