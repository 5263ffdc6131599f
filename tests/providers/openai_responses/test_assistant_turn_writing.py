"""The Responses request writer writes an assistant turn of its role and parts alone with
``items.request_turn`` directly (the call ``encode_assistant`` makes for it); any other turn (a
name, a cache marker, a bag on the turn, no parts, a string) still takes ``encode_assistant``'s
checks and reports what it reported. Each turn here is written both inside a request and by
``encode_assistant`` itself: the items and the losses must be the same."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec import Loss
from chatcodec._losses import LossRecorder
from chatcodec._providers.openai_responses import items
from chatcodec._providers.openai_responses.items import encode_assistant

_CALL = {"type": "tool_use", "id": "call_1", "name": "bash", "arguments": '{"command": "ls"}'}
_TEXT = {"type": "text", "text": "Listing."}
_FOREIGN_REASONING = {"type": "thinking", "text": "look first", "provider": "openai-chat"}

TURNS: dict[str, dict[str, Any]] = {
    "parts alone": {"role": "assistant", "content": [_FOREIGN_REASONING, _TEXT, _CALL]},
    "a name": {"role": "assistant", "name": "planner", "content": [_TEXT, _CALL]},
    "a cache marker": {"role": "assistant", "cache_control": {"type": "ephemeral"}, "content": [_CALL]},
    "a bag": {"role": "assistant", "provider_metadata": {"gemini": {"x": 1}}, "content": [_CALL]},
    "no parts": {"role": "assistant", "content": []},
    "a string": {"role": "assistant", "content": "Done."},
}


def _written(turn: dict[str, Any]) -> tuple[list[Any], list[Loss]]:
    losses: list[Loss] = []
    request = {"model": "gpt-5", "messages": [{"role": "user", "content": "list the files"}, turn]}
    body = chatcodec.encode_request("openai-responses", request, on_loss="ignore", losses=losses)
    return body["input"][1:], losses


@pytest.mark.parametrize("name", list(TURNS))
def test_a_turn_is_written_as_encode_assistant_writes_it(name: str) -> None:
    turn = TURNS[name]
    items, losses = _written(turn)
    recorder = LossRecorder()
    assert items == encode_assistant(turn, recorder, ("messages", 1), holds=set())
    assert [(loss.path, loss.what) for loss in losses] == [(loss.path, loss.what) for loss in recorder.losses]


def test_only_the_plain_turn_writes_no_turn_loss() -> None:
    """What the shortcut skips is reported for every turn that has it (the checks ran)."""
    assert [loss.what for loss in _written(TURNS["parts alone"])[1]] == ["reasoning from openai-chat"]
    assert "participant name" in [loss.what for loss in _written(TURNS["a name"])[1]]
    assert "cache_control" in [loss.what for loss in _written(TURNS["a cache marker"])[1]]
    assert "empty assistant turn" in [loss.what for loss in _written(TURNS["no parts"])[1]]
    assert _written(TURNS["a string"])[0] == [{"role": "assistant", "content": "Done."}]


_FIELD_REASONING = {**_FOREIGN_REASONING, "provider_metadata": {"openai-chat": {"field": "reasoning_content"}}}
"""An OpenAI Chat turn's ``reasoning_content`` as its reader reads it: the bag names the field."""
_ARRAY_CALL = {**_CALL, "arguments": "[]"}
"""A call the shortcut leaves to the ItemWriter (arguments that open no JSON object)."""


@pytest.mark.parametrize(
    ("content", "place"),
    [
        ([_FIELD_REASONING, _TEXT], "$.messages[1].content[0]"),
        ([_ARRAY_CALL, _FIELD_REASONING], "$.messages[1].content[1]"),
    ],
    ids=["first (request_turn)", "after a call (the ItemWriter)"],
)
def test_dropped_foreign_reasoning_is_one_loss(content: list[dict[str, Any]], place: str) -> None:
    """Another provider's reasoning a request drops is reported once, its bag with it (issue
    99: the bag's own report said the same place again), by either writer of the turn."""
    losses = _written({"role": "assistant", "content": content})[1]
    assert [(loss.path, loss.what) for loss in losses if loss.path == place] == [(place, "reasoning from openai-chat")]


def test_reasoning_content_into_responses_is_one_loss_a_turn() -> None:
    request = {
        "model": "gpt-5",
        "messages": [
            {"role": "user", "content": "list the files"},
            {"role": "assistant", "content": "Listing.", "reasoning_content": "look first"},
            {"role": "user", "content": "go on"},
        ],
    }
    losses: list[Loss] = []
    chatcodec.convert_request(request, source="openai-chat", target="openai-responses", on_loss="ignore", losses=losses)
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.messages[1].reasoning_content", "reasoning from openai-chat")
    ]


_SIGNED_CALL = {**_CALL, "provider_metadata": {"gemini": {"thoughtSignature": "c2ln"}}}
"""A call as the OpenAI Chat reader reads one with Gemini's thought signature: another provider's bag."""


@pytest.mark.parametrize(
    "content",
    [[_SIGNED_CALL], [_FOREIGN_REASONING, _TEXT, _SIGNED_CALL, {**_CALL, "id": "call_2"}], [_SIGNED_CALL, _TEXT]],
    ids=["alone", "after reasoning and a text", "before a text"],
)
def test_a_call_with_another_providers_bag_alone_is_written_without_the_item_writer(
    content: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``request_turn`` claims such a bag (reported at the call's place) and writes the call as a
    plain one, as the :class:`ItemWriter` writes it (the oracle, run on the same parts)."""
    expected = LossRecorder()
    wanted = items._written_turn(content, 0, [], expected, ("messages", 1))
    monkeypatch.setattr(items, "_written_turn", _refused)
    recorder = LossRecorder()
    assert items.request_turn(content, recorder, ("messages", 1), set()) == wanted
    assert [(loss.path, loss.what) for loss in recorder.losses] == [(loss.path, loss.what) for loss in expected.losses]
    assert any(loss.what.startswith("gemini data") for loss in recorder.losses)


def test_a_call_with_this_providers_bag_is_the_item_writers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(items, "_written_turn", _refused)
    own = {**_CALL, "provider_metadata": {"openai-responses": {"id": "fc_1"}}}
    with pytest.raises(AssertionError, match="the ItemWriter"):
        items.request_turn([own], LossRecorder(), ("messages", 1), set())


def _refused(*_: object) -> list[dict[str, Any]]:
    raise AssertionError("the ItemWriter")
