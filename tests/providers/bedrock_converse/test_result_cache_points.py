"""A cache marker on the last part of a tool result reaches Bedrock as a ``cachePoint``
right after the ``toolResult`` block (which holds no cache point of its own): the same
prefix is cached, nothing is dropped."""

from __future__ import annotations

from typing import Any

import chatcodec
from chatcodec.testing._laws.built_in.bedrock_converse import meaning
from providers.bedrock_converse.bedrock_support import assert_valid_request

FORMAT = "bedrock-converse"
POINT = {"cachePoint": {"type": "default"}}


def _anthropic(result_content: list[dict[str, Any]]) -> dict[str, Any]:
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": result_content}
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "get", "input": {}}]},
            {"role": "user", "content": [result, {"type": "text", "text": "and now?"}]},
        ],
    }


def _converted(body: dict[str, Any]) -> tuple[list[dict[str, Any]], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(body, source="anthropic", target=FORMAT, losses=losses, on_loss="ignore")
    assert_valid_request(converted)
    content: list[dict[str, Any]] = converted["messages"][2]["content"]
    return content, losses


def test_a_marker_on_a_tool_results_last_part_is_a_cache_point_after_the_result() -> None:
    marked = {"type": "text", "text": "big result", "cache_control": {"type": "ephemeral"}}
    content, losses = _converted(_anthropic([{"type": "text", "text": "head"}, marked]))
    assert [next(iter(block)) for block in content] == ["toolResult", "cachePoint", "text"]
    assert content[1] == POINT
    assert content[0]["toolResult"]["content"] == [{"text": "head"}, {"text": "big result"}]
    assert losses == []


def test_a_marker_inside_a_tool_result_but_not_last_is_still_reported() -> None:
    marked = {"type": "text", "text": "head", "cache_control": {"type": "ephemeral"}}
    content, losses = _converted(_anthropic([marked, {"type": "text", "text": "tail"}]))
    assert [next(iter(block)) for block in content] == ["toolResult", "text"]
    assert [loss.path for loss in losses] == ["$.messages[2].content[0].content[0].cache_control"]


def test_a_marker_on_a_tool_results_last_part_reads_back_as_the_same_meaning() -> None:
    """The single-hop law's normal form takes the marker moved onto the result as the same."""
    marker = {"type": "ephemeral"}
    text = {"type": "text", "text": "ok", "cache_control": marker}
    result = {"type": "tool_result", "tool_use_id": "t1", "content": [text]}
    request = chatcodec.ChatRequest.model_validate({"messages": [{"role": "tool", "content": [result]}]})
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(FORMAT, request, on_loss="ignore", losses=losses)
    assert [loss for loss in losses if loss.kind != "required"] == []
    assert meaning(chatcodec.decode_request(FORMAT, body)) == meaning(request)
