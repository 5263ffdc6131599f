"""A tool result with no output, from any format, reaches OpenAI Chat as ``content: ""``: OpenAI
refuses a tool message's ``content: []`` (issue 61), and the empty text is how canonical holds no
output. A Chat body's own ``[]`` still comes back as it came (its reader's marker)."""

from __future__ import annotations

from typing import Any

import chatcodec


def _anthropic_with_empty_result() -> dict[str, Any]:
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": []}]},
        ],
    }


def test_an_anthropic_result_with_no_content_is_the_empty_text() -> None:
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.convert_request(
        _anthropic_with_empty_result(), source="anthropic", target="openai-chat", on_loss="ignore", losses=losses
    )
    assert wire["messages"][2] == {"role": "tool", "tool_call_id": "toolu_1", "content": ""}
    assert not [loss for loss in losses if "content" in loss.path]


def test_a_converse_result_with_no_content_is_the_empty_text() -> None:
    body = {"messages": [{"role": "tool", "tool_call_id": "c1", "content": ""}]}
    converse = chatcodec.convert_request(body, source="openai-chat", target="bedrock-converse", on_loss="ignore")
    back = chatcodec.convert_request(converse, source="bedrock-converse", target="openai-chat", on_loss="ignore")
    assert back["messages"][0]["content"] == ""


def test_a_chat_bodys_own_empty_list_comes_back_as_it_came() -> None:
    body = {"model": "gpt-5", "messages": [{"role": "tool", "tool_call_id": "c1", "content": []}]}
    assert chatcodec.convert_request(body, source="openai-chat", target="openai-chat") == body
