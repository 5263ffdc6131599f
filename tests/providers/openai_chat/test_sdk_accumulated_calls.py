"""An assistant message the OpenAI SDK accumulated from a stream keeps each tool call's
``index``: it is where the call streamed, nothing a user sent, so converting it elsewhere
reports nothing for it, and OpenAI Chat gets it back as it came."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec

FORMAT = "openai-chat"


def _body() -> dict[str, Any]:
    call = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
    return {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
        ],
        "max_completion_tokens": 50,
    }


@pytest.mark.parametrize("target", [name for name in chatcodec.registered_providers() if name != FORMAT])
def test_an_sdk_accumulated_call_index_is_no_loss(target: str) -> None:
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(_body(), source=FORMAT, target=target, on_loss="ignore", losses=losses)
    assert not [loss for loss in losses if "index" in loss.what]


def test_an_sdk_accumulated_call_index_round_trips() -> None:
    body = _body()
    assert chatcodec.convert_request(body, source=FORMAT, target=FORMAT, on_loss="raise") == body
