"""Anthropic refuses a body holding one ``tool_use`` id twice (400); an episode whose turns were
parsed one by one (``parse_completion`` without ``first_call_index``) holds such repeats. The
writer sends each repeat under a new id, with the results after it, and reports it."""

from __future__ import annotations

from typing import Any

import pytest

from chatcodec import Loss, LossError, convert_request, parse_completion

CALL = '<tool_call>\n{"name": "lookup", "arguments": {"q": "x"}}\n</tool_call>'


def _episode_body() -> dict[str, Any]:
    """Two turns each parsed alone: both calls are ``call_0``."""
    turns = [parse_completion(CALL, parser="hermes", on_loss="ignore") for _ in range(2)]
    messages: list[dict[str, Any]] = [{"role": "user", "content": [{"type": "text", "text": "go"}]}]
    for answer, turn in zip(("one", "two"), turns, strict=True):
        messages.append(turn.model_dump(exclude_none=True))
        call_id = turn.content[0]["id"]
        messages.append(
            {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": answer}]}
        )
    return {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": messages}


def _blocks(body: dict[str, Any], kind: str, key: str) -> list[str]:
    return [block[key] for turn in body["messages"] for block in turn["content"] if block["type"] == kind]


@pytest.mark.parametrize("source", ["canonical", "openai-chat"])
def test_a_repeated_call_id_is_sent_once_and_reported(source: str) -> None:
    body = _episode_body()
    if source == "openai-chat":  # the direct path from OpenAI Chat writes the same ids
        body = convert_request(body, source="canonical", target="openai-chat", on_loss="ignore")
    losses: list[Loss] = []
    sent = convert_request(body, source=source, target="anthropic", on_loss="ignore", losses=losses)
    assert _blocks(sent, "tool_use", "id") == ["call_0", "call_0-2"]
    assert _blocks(sent, "tool_result", "tool_use_id") == ["call_0", "call_0-2"]  # each result its own call's
    (repeat,) = [loss for loss in losses if "repeated tool_use id" in loss.why]
    assert repeat.kind == "metadata"
    assert repeat.path.endswith(".id")
    with pytest.raises(LossError, match="repeated tool_use id"):
        convert_request(body, source=source, target="anthropic", on_loss={"metadata": "error", "*": "ignore"})


def test_first_call_index_leaves_nothing_to_rename() -> None:
    first = parse_completion(CALL, parser="hermes", on_loss="ignore")
    second = parse_completion(CALL, parser="hermes", first_call_index=1, on_loss="ignore")
    assert [first.content[0]["id"], second.content[0]["id"]] == ["call_0", "call_1"]
