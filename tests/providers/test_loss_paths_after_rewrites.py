"""A loss names its place in the request even when the history sent is rewritten: the
shared history rules (``history_for``) leave out an empty system message, drop a call the
target cannot send with its results, and move a message standing between a call and its
results; the writer numbers the messages it is given, and the loss recorder renumbers
them (``Renumbering``) until the target's rules, whose paths number the body's own."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given

import chatcodec
from chatcodec._losses import LossRecorder, Renumbering
from chatcodec.testing import chat_requests

VIDEO = {"type": "video", "source": {"type": "url", "url": "https://example.com/clip.mp4"}}
"""A part none of the targets below carries as it is (each reports it at the part's path)."""


def _paths(target: str, request: dict[str, Any]) -> list[str]:
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_request(target, {**request, "model": "m"}, on_loss="ignore", losses=losses)
    return [loss.path for loss in losses]


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses", "gemini", "ollama"])
def test_a_loss_after_a_left_out_empty_system_message_names_the_request_place(target: str) -> None:
    request = {
        "messages": [
            {"role": "system", "content": []},
            {"role": "user", "content": [{"type": "text", "text": "what is in it?"}, VIDEO]},
        ]
    }
    assert any(path.startswith("$.messages[1].content[1]") for path in _paths(target, request))
    assert not any(path.startswith("$.messages[0]") for path in _paths(target, request))


def _call(call_id: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": "look", "input": {}}


def _result(call_id: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": call_id, "content": [{"type": "text", "text": "seen"}]}


@pytest.mark.parametrize("target", ["anthropic", "bedrock-converse", "openai-chat"])
def test_a_loss_in_a_moved_message_names_the_request_place(target: str) -> None:
    """The user's message between a call and its result is sent after the result."""
    request = {
        "messages": [
            {"role": "user", "content": "look"},
            {"role": "assistant", "content": [_call("c1")]},
            {"role": "user", "content": [{"type": "text", "text": "also this"}, VIDEO]},
            {"role": "tool", "content": [_result("c1")]},
        ]
    }
    paths = _paths(target, request)
    assert "$.messages[2]" in paths  # the move itself
    assert any(path.startswith("$.messages[2].content[1]") for path in paths), paths  # the video, in it
    assert not any(path.startswith("$.messages[3].content[1]") for path in paths), paths


def test_a_loss_after_a_dropped_call_names_the_request_place() -> None:
    """Ollama cannot send another format's call kept whole: the call goes with its result
    (the tool message emptied goes too), and later places keep the request's numbers,
    both for the message after them and for the part after the dropped call."""
    foreign = {"type": "opaque", "provider": "openai-responses", "data": {"type": "function_call", "call_id": "c1"}}
    marked = {"type": "text", "text": "checking", "cache_control": {"type": "ephemeral"}}
    request = {
        "messages": [
            {"role": "user", "content": "look"},
            {"role": "assistant", "content": [foreign, marked]},
            {"role": "tool", "content": [_result("c1")]},
            {"role": "user", "content": [{"type": "text", "text": "and this?"}, VIDEO]},
        ]
    }
    paths = _paths("ollama", request)
    assert "$.messages[1].content[0]" in paths  # the call, with its result named
    assert "$.messages[1].content[1].cache_control" in paths  # the part after it: position 1 in the request
    assert "$.messages[3].content[1]" in paths


def test_the_renumbering_maps_message_and_part_steps_only() -> None:
    renumbering = Renumbering((1, 3), {1: (0, 2)})
    assert renumbering.apply(("messages", 0, "content", 0)) == ("messages", 1, "content", 0)
    assert renumbering.apply(("messages", 1, "content", 1, "source")) == ("messages", 3, "content", 2, "source")
    assert renumbering.apply(("messages", 1)) == ("messages", 3)
    assert renumbering.apply(("tools", 0)) == ("tools", 0)
    assert renumbering.apply(("messages", 5)) == ("messages", 5)  # no such message sent: as given
    recorder = LossRecorder()
    recorder.renumber(renumbering)
    recorder.add(("messages", 0, "content", 0), "x", "y")
    recorder.renumber(None)
    recorder.add(("messages", 0), "x", "y")
    assert [loss.path for loss in recorder.losses] == ["$.messages[1].content[0]", "$.messages[0]"]


def test_the_renumbering_ends_before_the_target_rules() -> None:
    """The target's rules report at the body's own messages (Anthropic's rule moving a
    document out of an assistant turn names the body's turn): the codec ends the history's
    renumbering when the writer returns."""
    recorder = LossRecorder()
    codec = chatcodec.get_codec("anthropic")
    moved = [
        {"role": "user", "content": "look"},
        {"role": "assistant", "content": [_call("c1")]},
        {"role": "user", "content": "also this"},
        {"role": "tool", "content": [_result("c1")]},
    ]
    codec.write_request({"messages": moved, "model": "claude-sonnet-4-5", "max_tokens": 10}, recorder)
    assert [loss.path for loss in recorder.losses] == ["$.messages[2]"]
    recorder.add(("messages", 2), "a rule's report", "at the body's message")
    assert recorder.losses[-1].path == "$.messages[2]"  # not renumbered to the request's 3 -> 2 mapping


_MESSAGE_PLACE = re.compile(r"\$\.messages\[(\d+)\](?:\.content\[(\d+)\])?")
WRITERS = ["openai-chat", "anthropic", "openai-responses", "gemini", "bedrock-converse", "bedrock-nova", "ollama"]


@given(chat_requests())
def test_every_loss_at_a_message_names_a_message_and_part_the_request_has(request: chatcodec.ChatRequest) -> None:
    """The law behind the cases above, over any request and every writer: a loss's path
    into ``messages`` names a message the request has and, where it names a part, a part
    that message has. A target rule's loss is left out: its path is in the encoded body
    (``ProviderRules.report``)."""
    messages = request.model_dump()["messages"]
    for target in WRITERS:
        losses: list[chatcodec.Loss] = []
        try:
            chatcodec.encode_request(target, request, on_loss="ignore", losses=losses)
        except chatcodec.ChatcodecError:
            continue
        for loss in losses:
            place = _MESSAGE_PLACE.match(loss.path)
            if loss.kind == "rule" or place is None:
                continue
            index = int(place.group(1))
            assert index < len(messages), (target, str(loss))
            if place.group(2) is not None:
                content = messages[index]["content"]
                assert isinstance(content, list), (target, str(loss))
                assert int(place.group(2)) < len(content), (target, str(loss))


def _shifted(loss: chatcodec.Loss) -> str:
    """A loss as the request without its first message names it: every message place in its
    path and its text (a dropped call's loss names its results) one lower."""
    if loss.kind == "rule":  # a path in the encoded body, which does not change
        return str(loss)
    return _ANY_MESSAGE_PLACE.sub(lambda place: f"$.messages[{int(place.group(1)) - 1}]", str(loss))


_ANY_MESSAGE_PLACE = re.compile(r"\$\.messages\[(\d+)\]")


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses", "gemini", "ollama"])
@given(chat_requests())
def test_an_empty_system_message_first_changes_no_body_and_shifts_every_loss_by_one(
    target: str, request: chatcodec.ChatRequest
) -> None:
    """For a target that leaves an empty system message out, a request with one put first
    is sent as the request without it, and reports the same losses one message further on."""
    data = request.model_dump(exclude_none=True)
    prefixed = {**data, "messages": [{"role": "system", "content": []}, *data["messages"]]}
    plain_losses: list[chatcodec.Loss] = []
    prefixed_losses: list[chatcodec.Loss] = []
    try:
        plain = chatcodec.encode_request(target, data, on_loss="ignore", losses=plain_losses)
    except chatcodec.ChatcodecError:
        return
    assert chatcodec.encode_request(target, prefixed, on_loss="ignore", losses=prefixed_losses) == plain
    assert [_shifted(loss) for loss in prefixed_losses] == [str(loss) for loss in plain_losses]
