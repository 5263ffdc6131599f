"""The history rules over canonical data give what the rules over models give: the same
messages and the same losses, for every combination of a target's turn traits.

The model rules (``providers/history.py`` and the modules it calls) serve the encoders
still written over models while each provider moves to canonical data (issue 29); this
law keeps the two equal until the model rules are gone with their last caller."""

from __future__ import annotations

from dataclasses import replace
from itertools import product

from hypothesis import given
from hypothesis import strategies as st

from chatcodec.losses import LossRecorder
from chatcodec.providers.history import history_for as history_for_models
from chatcodec.providers.history_data import history_for
from chatcodec.providers.openai_chat.capabilities import CAPABILITIES
from chatcodec.request import ChatRequest
from chatcodec.testing import strategies

TRAITS = list(product([False, True], repeat=3))


def _loss_list(recorder: LossRecorder) -> list[tuple[str, str, str]]:
    return [(loss.path, loss.what, loss.why) for loss in recorder.losses]


@given(request=strategies.chat_requests(), traits=st.sampled_from(TRAITS), target=st.sampled_from(["anthropic", "x"]))
def test_history_rules_over_data_equal_the_rules_over_models(
    request: ChatRequest, traits: tuple[bool, bool, bool], target: str
) -> None:
    freeform, follow, developer = traits
    capabilities = replace(CAPABILITIES, freeform_calls=freeform, results_follow_calls=follow, developer_role=developer)
    by_models, by_data = LossRecorder(), LossRecorder()
    expected = history_for_models(
        request,
        by_models,
        target,
        capabilities.display_name,
        freeform_calls=freeform,
        results_follow_calls=follow,
        developer_role=developer,
    )
    found = history_for(request.model_dump()["messages"], by_data, target, capabilities)
    assert found == [message.model_dump() for message in expected.messages]
    assert _loss_list(by_data) == _loss_list(by_models)


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
