"""The Responses reader learns, as it adds each message, whether the history holds anything the
shared history rules act on (``history/turns.py``: ``content: []``, an opaque part or a custom call
in a turn, a message right after an assistant's calls other than their results), and says so in
the conversion's record (``Reading.plain_history``); the OpenAI Chat writer then does not survey
the list again. What the reader says must be what the survey finds, and a conversion with the
record must give the body and the losses of the same conversion without it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from chatcodec._conversion import read_request_data, write_request_data
from chatcodec._losses import LossRecorder
from chatcodec._providers.anthropic.capabilities import CAPABILITIES as ANTHROPIC
from chatcodec._providers.contract.context import Reading
from chatcodec._providers.history.turns import history_for
from chatcodec._providers.openai_chat.capabilities import CAPABILITIES as CHAT

_CALL = {"type": "function_call", "call_id": "call_1", "name": "bash", "arguments": '{"command": "ls"}'}
_OUTPUT = {"type": "function_call_output", "call_id": "call_1", "output": "a.txt"}
_USER = {"role": "user", "content": "and then?"}


def _body(*items: dict[str, Any]) -> dict[str, Any]:
    history = [
        {"role": "system", "content": "be brief"},
        {"role": "developer", "content": [{"type": "input_text", "text": "plan first"}]},
        {"role": "user", "content": "list the files"},
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [{"type": "summary_text", "text": "ls"}],
            "encrypted_content": "e",
        },
        {"role": "assistant", "content": "Listing."},
        _CALL,
        {"type": "function_call", "id": "fc_2", "call_id": "call_2", "name": "bash", "arguments": "{}"},
        _OUTPUT,
        {"type": "function_call_output", "call_id": "call_2", "output": [{"type": "input_text", "text": "ok"}]},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]},
        _USER,
        *items,
    ]
    return {"model": "gpt-5", "instructions": "you are an agent", "input": history}


PLAIN = {
    "an agent history": _body(),
    "a turn of text, then the user": _body({"role": "assistant", "content": "Sure."}, _USER),
    "calls, then another turn": _body(
        {**_CALL, "call_id": "call_3"}, {"role": "assistant", "content": "x"}, {**_OUTPUT, "call_id": "call_3"}
    ),
}
RULED = {
    "a message between a call and its output": _body(
        {**_CALL, "call_id": "call_3"}, _USER, {**_OUTPUT, "call_id": "call_3"}
    ),
    "an item kept whole between a call and its output": _body(
        {**_CALL, "call_id": "call_3"}, {"type": "item_reference", "id": "msg_9"}, {**_OUTPUT, "call_id": "call_3"}
    ),
    "a message of no parts": _body({"role": "user", "content": []}),
    "a built-in tool call in a turn": _body({"type": "web_search_call", "id": "ws_1", "status": "completed"}),
    "a custom call": _body(
        {"type": "custom_tool_call", "call_id": "call_4", "name": "patch", "input": "*** Begin"},
        {"type": "custom_tool_call_output", "call_id": "call_4", "output": "done"},
    ),
    "an assistant message of no parts": _body({"type": "message", "role": "assistant", "content": []}),
}


def _read(body: dict[str, Any], noted: Reading | None) -> dict[str, Any]:
    return read_request_data(copy.deepcopy(body), "openai-responses", noted=noted)


@pytest.mark.parametrize("name", list(PLAIN))
def test_a_plain_history_is_said_plain_and_the_survey_finds_nothing(name: str) -> None:
    noted = Reading()
    canonical = _read(PLAIN[name], noted)
    assert noted.plain(canonical["messages"])
    for capabilities in (CHAT, ANTHROPIC):  # every rule looked for: the list comes back as it is
        assert history_for(canonical["messages"], LossRecorder(), "x", capabilities) is canonical["messages"]


@pytest.mark.parametrize("name", list(RULED))
def test_a_history_the_rules_act_on_is_not_said_plain(name: str) -> None:
    noted = Reading()
    canonical = _read(RULED[name], noted)
    assert noted.plain_history is None
    assert not noted.plain(canonical["messages"])


@pytest.mark.parametrize("name", [*PLAIN, *RULED])
@pytest.mark.parametrize("target", ["openai-chat", "anthropic"])
def test_the_record_changes_no_body_and_no_loss(name: str, target: str) -> None:
    body = {**PLAIN, **RULED}[name]
    written = []
    for noted in (Reading(), None):
        recorder = LossRecorder()
        wire = write_request_data(_read(body, noted), target, recorder, noted=noted)
        written.append((wire, [(loss.path, loss.what, loss.why) for loss in recorder.losses]))
    assert written[0] == written[1]
    if name == "a message between a call and its output":  # the rule acted, with the record given
        assert any("moved after" in why for _, _, why in written[0][1])


def test_a_swapped_list_is_surveyed() -> None:
    """The record holds the list read: a writer handed another list (the caller's edit) looks at it."""
    noted = Reading()
    canonical = _read(PLAIN["an agent history"], noted)
    messages = canonical["messages"]  # a user message put between the turn's calls and their results:
    swapped = {**canonical, "messages": [*messages[:5], {"role": "user", "content": "stop"}, *messages[5:]]}
    assert not noted.plain(swapped["messages"])
    recorder = LossRecorder()
    write_request_data(swapped, "openai-chat", recorder, noted=noted)
    assert any("moved after" in loss.why for loss in recorder.losses)
