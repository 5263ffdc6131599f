"""A message-level cache marker read from another format reaches OpenAI Chat on the
message's last part, as ``prompt_cache_breakpoint`` (the place OpenAI's explicit prompt
caching has for it), instead of being dropped with a loss."""

from __future__ import annotations

from typing import Any

import chatcodec

FORMAT = "openai-chat"


def _encode(messages: list[dict[str, Any]]) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    request = chatcodec.validate_model(chatcodec.ChatRequest, {"model": "gpt-5.6", "messages": messages})
    losses: list[chatcodec.Loss] = []
    return chatcodec.encode_request(FORMAT, request, on_loss="ignore", losses=losses), losses


def test_a_message_level_cache_marker_lands_on_the_last_part_of_list_content() -> None:
    marker = {"type": "ephemeral"}
    body, losses = _encode(
        [
            {"role": "system", "content": [{"type": "text", "text": "rules"}], "cache_control": marker},
            {
                "role": "user",
                "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
                "cache_control": marker,
            },
            {"role": "assistant", "content": [{"type": "text", "text": "ok"}], "cache_control": marker},
        ]
    )
    breakpoint = {"mode": "explicit"}
    assert body["messages"] == [
        {"role": "system", "content": [{"type": "text", "text": "rules", "prompt_cache_breakpoint": breakpoint}]},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "a"},
                {"type": "text", "text": "b", "prompt_cache_breakpoint": breakpoint},
            ],
        },
        {"role": "assistant", "content": [{"type": "text", "text": "ok", "prompt_cache_breakpoint": breakpoint}]},
    ]
    assert losses == []


def test_a_message_level_cache_marker_keeps_the_last_parts_own_different_marker_and_says_so() -> None:
    own = {"type": "ephemeral", "ttl": "12h"}
    content = [{"type": "text", "text": "a", "cache_control": own}]
    body, losses = _encode([{"role": "user", "content": content, "cache_control": {"type": "ephemeral"}}])
    assert body["messages"][0]["content"][0]["prompt_cache_breakpoint"] == {"mode": "explicit", "ttl": "12h"}
    assert [(loss.path, loss.why) for loss in losses] == [
        ("$.messages[0].cache_control", "its last part has a different marker, kept")
    ]


def test_a_message_level_cache_marker_on_a_string_system_message_makes_a_one_part_list() -> None:
    """Issue 61 (litellm's peer case): a string system message with a message-level marker.
    litellm's ``add_cache_control_to_content`` turns the string into one text block carrying
    the marker; OpenAI's own place for it is ``prompt_cache_breakpoint`` on that text part
    (SDK ``chat_completion_content_part_text_param.py``), not a dropped marker."""
    body, losses = _encode(
        [
            {"role": "system", "content": "rules", "cache_control": {"type": "ephemeral"}},
            {"role": "user", "content": "hi"},
        ]
    )
    assert body["messages"] == [
        {
            "role": "system",
            "content": [{"type": "text", "text": "rules", "prompt_cache_breakpoint": {"mode": "explicit"}}],
        },
        {"role": "user", "content": "hi"},
    ]
    assert losses == []


def test_a_message_level_cache_marker_on_empty_string_content_is_still_reported() -> None:
    _, losses = _encode([{"role": "user", "content": "", "cache_control": {"type": "ephemeral"}}])
    assert [loss.path for loss in losses] == ["$.messages[0].cache_control"]


def test_a_gateway_message_level_cache_control_is_written_back_where_it_was() -> None:
    wire = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "a"}], "cache_control": {"type": "ephemeral"}}
        ],
    }
    assert chatcodec.convert_request(wire, source=FORMAT, target=FORMAT, on_loss="error") == wire
