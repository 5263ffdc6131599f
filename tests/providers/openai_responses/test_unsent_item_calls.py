"""A Responses call item another format cannot send (``local_shell_call``, kept whole as an
opaque part) goes with the ``function_call_output`` answering it, one loss naming both: the
result alone would be an orphan ``tool_result``, which Anthropic refuses ("unexpected
`tool_use_id` found in `tool_result` blocks"). The call is found by its ``call_id``, the id a
result names; an item's ``id`` (``lsh_...``) is the item's own (``_providers/history/turns.py``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from anthropic.types import MessageCreateParams

import chatcodec
from sdk_oracle import assert_matches

_SHELL_CALL = {
    "type": "local_shell_call",
    "id": "lsh_1",
    "call_id": "call_shell",
    "status": "completed",
    "action": {"type": "exec", "command": ["ls"], "env": {}},
}
_FUNCTION_CALL = {"type": "function_call", "id": "fc_2", "call_id": "call_fn", "name": "lookup", "arguments": "{}"}


def _request(*items: dict[str, Any]) -> dict[str, Any]:
    return {"model": "gpt-4.1", "input": [{"role": "user", "content": "list files"}, *items]}


def _to_anthropic(payload: dict[str, Any]) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        payload, source="openai-responses", target="anthropic", on_loss="ignore", losses=losses
    )
    assert_matches(body, MessageCreateParams)
    chatcodec.decode_request("anthropic", body, strict=True)  # Anthropic's rule: no orphan tool_result
    return body, losses


def test_a_local_shell_call_and_its_output_are_dropped_together_with_one_loss() -> None:
    output = {"type": "function_call_output", "call_id": "call_shell", "output": "a.txt"}
    body, losses = _to_anthropic(_request(_SHELL_CALL, output))
    assert "call_shell" not in json.dumps(body)  # neither the call nor its result
    named = [loss for loss in losses if "call_shell" in loss.what]
    assert len(named) == 1
    assert named[0].path == "$.input[1]"
    assert "tool result ($.input[2])" in named[0].what
    assert not [loss for loss in losses if loss.path == "$.input[2]"]  # the result's loss is the call's


def test_the_function_calls_beside_it_are_sent_with_their_results() -> None:
    items = (
        _SHELL_CALL,
        _FUNCTION_CALL,
        {"type": "function_call_output", "call_id": "call_shell", "output": "a.txt"},
        {"type": "function_call_output", "call_id": "call_fn", "output": "found"},
    )
    body, losses = _to_anthropic(_request(*items))
    text = json.dumps(body)
    assert "call_shell" not in text
    results = [part for message in body["messages"] if message["role"] == "user" for part in message["content"]]
    assert [part.get("tool_use_id") for part in results if isinstance(part, dict)] == ["call_fn"]
    assert len([loss for loss in losses if "call_shell" in loss.what]) == 1


@pytest.mark.parametrize("target", ["openai-chat", "gemini", "bedrock-converse"])
def test_no_target_gets_the_output_of_a_call_it_cannot_send(target: str) -> None:
    output = {"type": "function_call_output", "call_id": "call_shell", "output": "a.txt"}
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        _request(_SHELL_CALL, output), source="openai-responses", target=target, on_loss="ignore", losses=losses
    )
    assert "a.txt" not in json.dumps(body)
    assert [loss.path for loss in losses if "call_shell" in loss.what] == ["$.input[1]"]
