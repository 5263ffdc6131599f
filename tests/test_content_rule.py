"""OpenHands' string-or-list content rule by capability, on canonical dumps and encoding."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec import ContentRule

IMAGE = {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}
CACHED = {"type": "ephemeral"}


def _conversation() -> list[chatcodec.AnyMessage]:
    return chatcodec.validate_messages(
        [
            {"role": "system", "content": [{"type": "text", "text": "Be brief.", "cache_control": CACHED}]},
            {"role": "user", "content": [{"type": "text", "text": "Look:"}, IMAGE, {"type": "text", "text": "what?"}]},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Checking."},
                    {"type": "tool_use", "id": "c1", "name": "zoom", "arguments": "{}"},
                ],
            },
            {
                "role": "tool",
                "tool_call_id": "c1",
                "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
            },
        ]
    )


@pytest.mark.parametrize(
    ("rule", "form"),
    [
        (ContentRule(), "string"),
        (ContentRule(cache=True), "list"),
        (ContentRule(vision=True), "list"),
        (ContentRule(function_calling=True), "list"),
    ],
)
def test_the_form_follows_the_capabilities(rule: ContentRule, form: str) -> None:
    assert rule.form == form


def test_string_form_joins_text_with_newlines_and_reports_what_it_drops() -> None:
    losses: list[chatcodec.Loss] = []
    dumped = ContentRule().dump(_conversation(), on_loss="ignore", losses=losses)
    assert dumped[0]["content"] == "Be brief."  # the cache marker is gone, with a loss
    assert dumped[1]["content"] == "Look:\nwhat?"  # OpenHands joins with "\n"; the image is dropped
    assert dumped[3]["content"][0]["content"] == "a\nb"
    assert dumped[2]["content"][1]["type"] == "tool_use"  # tool calls stay beside the text
    reported = {(loss.path, loss.what) for loss in losses}
    assert ("$[0].content[0].cache_control", "cache marker") in reported
    assert ("$[1].content[1]", "image") in reported
    assert ("$[1].content", "2 text parts") in reported


def test_list_form_without_vision_drops_images_with_a_loss() -> None:
    losses: list[chatcodec.Loss] = []
    dumped = ContentRule(function_calling=True).dump(_conversation(), on_loss="ignore", losses=losses)
    assert [part["type"] for part in dumped[1]["content"]] == ["text", "text"]
    assert [(loss.path, loss.what) for loss in losses] == [("$[1].content[1]", "image")]
    kept = ContentRule(vision=True).dump(_conversation(), on_loss="error")
    assert [part["type"] for part in kept[1]["content"]] == ["text", "image", "text"]


def test_a_plain_string_becomes_a_list_in_list_form() -> None:
    messages = chatcodec.validate_messages([{"role": "user", "content": "hi"}])
    assert ContentRule(cache=True).dump(messages) == [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]


def test_encode_request_for_openai_chat_takes_the_rule() -> None:
    request: dict[str, Any] = {"model": "llama", "messages": _conversation()}
    with pytest.warns(chatcodec.LossWarning):
        body = chatcodec.encode_request("openai-chat", request, content_rule=ContentRule())
    assert body["messages"][1] == {"role": "user", "content": "Look:\nwhat?"}
    assert body["messages"][2]["content"] == "Checking."
    assert body["messages"][2]["tool_calls"][0]["id"] == "c1"
    assert body["messages"][3] == {"role": "tool", "tool_call_id": "c1", "content": "a\nb"}
    with pytest.raises(chatcodec.LossError, match="no vision"):
        chatcodec.encode_request(
            "openai-chat", request, content_rule=ContentRule(function_calling=True), on_loss="error"
        )
    listed = chatcodec.encode_request(
        "openai-chat",
        {"model": "m", "messages": [{"role": "user", "content": "hi"}]},
        content_rule=ContentRule(cache=True),
    )
    assert listed["messages"][0]["content"] == [{"type": "text", "text": "hi"}]


def test_openhands_own_dumps_validate_and_the_rule_gives_its_string_form() -> None:
    """OpenHands' ``_list_serializer`` output validates; the string form of it is what its
    ``_string_serializer`` writes (text joined with newlines, tool calls beside it)."""
    list_form = [
        {"role": "system", "content": [{"type": "text", "text": "You are OpenHands.", "cache_control": CACHED}]},
        {"role": "user", "content": [{"type": "text", "text": "fix it"}, {"type": "text", "text": "please"}]},
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "Running."}],
            "tool_calls": [{"id": "c", "type": "function", "function": {"name": "bash", "arguments": '{"cmd": "ls"}'}}],
        },
        {"role": "tool", "content": [{"type": "text", "text": "a.py"}], "tool_call_id": "c", "name": "bash"},
    ]
    messages = chatcodec.validate_messages(list_form)
    body = chatcodec.encode_request(
        "openai-chat", {"model": "m", "messages": messages}, content_rule=ContentRule(), on_loss="ignore"
    )
    assert [message["content"] for message in body["messages"]] == [
        "You are OpenHands.",
        "fix it\nplease",
        "Running.",
        "a.py",
    ]
    assert body["messages"][2]["tool_calls"] == list_form[2]["tool_calls"]
