"""A user message of parts written to OpenAI Chat: each part written in order in one pass,
the ones OpenAI Chat content cannot hold left out with a loss each at their own path, and a
message none of whose parts it can hold left out with its own loss (OpenAI refuses empty
content)."""

from __future__ import annotations

from typing import Any

import chatcodec
from chatcodec import Loss

_OPAQUE = {"type": "opaque", "provider": "anthropic", "data": {"type": "container_upload", "file_id": "f"}}


def _written(content: list[dict[str, Any]]) -> tuple[list[Any], list[tuple[str, str]]]:
    losses: list[Loss] = []
    request = {
        "model": "gpt-5.1",
        "messages": [{"role": "user", "content": content}, {"role": "user", "content": "go"}],
    }
    body = chatcodec.encode_request("openai-chat", request, on_loss="ignore", losses=losses)
    return body["messages"], [(loss.path, loss.what) for loss in losses]


def test_parts_it_cannot_hold_are_left_out_in_order_each_reported() -> None:
    messages, losses = _written([{"type": "text", "text": "a"}, _OPAQUE, {"type": "text", "text": "b"}, _OPAQUE])
    assert messages[0] == {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}
    assert losses == [
        ("$.messages[0].content[1]", "anthropic block"),
        ("$.messages[0].content[3]", "anthropic block"),
    ]


def test_a_message_of_no_part_it_can_hold_is_left_out_and_reported() -> None:
    messages, losses = _written([_OPAQUE])
    assert messages == [{"role": "user", "content": "go"}]
    assert losses == [("$.messages[0].content[0]", "anthropic block"), ("$.messages[0]", "user message")]
