"""The history rules over canonical data (``_providers/history/turns.py``): a history they
made is one the target takes as it is, and they report a loss exactly when they change
the history."""

from __future__ import annotations

from dataclasses import replace
from itertools import product

from hypothesis import given
from hypothesis import strategies as st

import chatcodec.testing as strategies
from chatcodec._losses import LossRecorder
from chatcodec._model.request import ChatRequest
from chatcodec._providers.history.turns import _survey, empty_instruction, history_for, results_after_calls
from chatcodec._providers.openai_chat.capabilities import CAPABILITIES

TRAITS = list(product([False, True], repeat=2))
"""``freeform_calls`` and ``results_follow_calls``; the developer role is kept, so every
loss is a change to the history (OpenAI Chat's ``empty_system=False`` too: the one change
not reported)."""


@given(request=strategies.chat_requests(), traits=st.sampled_from(TRAITS))
def test_history_rules_report_a_loss_exactly_when_they_change_the_history(
    request: ChatRequest, traits: tuple[bool, bool]
) -> None:
    freeform, follow = traits
    capabilities = replace(CAPABILITIES, freeform_calls=freeform, results_follow_calls=follow, developer_role=True)
    messages = request.model_dump()["messages"]
    recorder = LossRecorder()
    once = history_for(messages, recorder, "anthropic", capabilities)
    # an empty system message is left out unreported (an empty prompt is no prompt)
    assert bool(recorder.losses) == (once != [message for message in messages if not empty_instruction(message)])
    again = LossRecorder()
    assert history_for(once, again, "anthropic", capabilities) == once
    assert again.losses == []


@given(request=strategies.chat_requests())
def test_the_survey_says_misordered_whenever_results_after_calls_would_move_a_message(request: ChatRequest) -> None:
    # history_for skips the walk of results_after_calls when the survey says no message
    # stands between a call and its results: that answer must never hide a move
    messages = request.model_dump()["messages"]
    capabilities = replace(CAPABILITIES, results_follow_calls=True)
    _, _, misordered = _survey(messages, capabilities)
    recorder = LossRecorder()
    if not misordered:
        assert results_after_calls(messages, recorder, "Anthropic") is messages
        assert recorder.losses == []


def test_an_exchange_of_texts_is_not_misordered_and_a_message_between_a_call_and_its_result_is() -> None:
    call = {"type": "tool_use", "id": "c1", "name": "grep", "arguments": "{}"}
    chat = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "text", "text": "hello"}]},
        {"role": "user", "content": "and?"},
        {"role": "assistant", "content": [call]},
        {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "done"}]},
        {"role": "user", "content": "thanks"},
    ]
    capabilities = replace(CAPABILITIES, results_follow_calls=True)
    assert _survey(chat, capabilities) == (False, False, False)
    between = [*chat[:4], {"role": "user", "content": "wait"}, *chat[4:]]
    assert _survey(between, capabilities) == (False, False, True)
    recorder = LossRecorder()
    moved = history_for(between, recorder, "anthropic", capabilities)
    assert [message["role"] for message in moved] == ["user", "assistant", "user", "assistant", "tool", "user", "user"]
    assert [loss.path for loss in recorder.losses] == ["$.messages[4]"]


def test_a_custom_call_and_its_result_go_together() -> None:
    messages = [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": [{"type": "opaque", "provider": "openai-chat", "data": {"id": "c1", "type": "custom"}}],
        },
        {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "done"}]},
        {"role": "user", "content": "next"},
    ]
    recorder = LossRecorder()
    kept = history_for(messages, recorder, "anthropic", replace(CAPABILITIES, freeform_calls=False))
    assert kept == [messages[0], messages[3]]
    assert [loss.path for loss in recorder.losses] == ["$.messages[1].content[0]"]


def test_two_unsendable_calls_sharing_an_id_both_go() -> None:
    # ids are keys, but a server that gives none sends "" for each: the first call stayed
    # (unreported) when the calls were kept by id, so the next pass dropped it
    call = {"type": "tool_use", "id": "", "name": "grep", "arguments": "x", "kind": "custom"}
    answered = {"type": "opaque", "provider": "gemini", "data": {"id": "", "functionCall": {"name": "f"}}}
    result = {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "", "content": "done"}]}
    messages = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [call]},
        {"role": "assistant", "content": [call]},
        {"role": "user", "content": "again"},
        {"role": "assistant", "content": [answered]},
        result,
        {"role": "assistant", "content": [answered]},
        result,
    ]
    recorder = LossRecorder()
    kept = history_for(messages, recorder, "anthropic", replace(CAPABILITIES, freeform_calls=False))
    assert kept == [messages[0], messages[3]]
    assert [loss.path for loss in recorder.losses] == [
        "$.messages[1].content[0]",
        "$.messages[2].content[0]",
        "$.messages[4].content[0]",
        "$.messages[6].content[0]",
    ]
