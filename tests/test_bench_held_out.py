"""The bench's held-out agent sessions (``bench/held_out.py``, issue 107's done-when): each holds
what its client sends as its docstring says, is the same for the same seed and another for another,
and converts to what the bench's check expects of it (so a count is never of a failed conversion).
The anchor libraries are not needed (nor imported) here."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from bench_modules import bench_module as _bench


def _blocks(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        block for message in body["messages"] if isinstance(message["content"], list) for block in message["content"]
    ]


def test_claude_code_session_holds_what_claude_code_sends() -> None:
    held = _bench("held_out")
    body = held.claude_code(40)
    blocks = _blocks(body)
    assert sum(block["type"] == "thinking" and bool(block["signature"]) for block in blocks) == 40
    results = [block for block in blocks if block["type"] == "tool_result"]
    assert sum(block.get("is_error") is True for block in results) == 2
    images = [part for block in results if isinstance(block["content"], list) for part in block["content"]]
    assert [part["type"] for part in images] == ["text", "image"]
    assert body["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert body["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 31_999}
    assert all(tool["input_schema"]["$schema"].startswith("http://json-schema.org/") for tool in body["tools"])


def test_litellm_client_session_holds_litellms_own_dump() -> None:
    held = _bench("held_out")
    body = held.litellm_client(40)
    assistants = [message for message in body["messages"] if message["role"] == "assistant"]
    assert len(assistants) == 40
    for message in assistants:
        assert list(message) == [
            "content",
            "role",
            "tool_calls",
            "function_call",
            "reasoning_content",
            "thinking_blocks",
            "provider_specific_fields",
        ]
        assert message["reasoning_content"] == "".join(block["thinking"] for block in message["thinking_blocks"])
    tools = [message for message in body["messages"] if message["role"] == "tool"]
    assert all(isinstance(message["name"], str) for message in tools)
    assert sum(part["type"] == "image_url" for message in tools for part in message["content"]) == 1
    parts = [message for message in body["messages"] if message["role"] != "assistant"]
    marked = [message for message in parts if "cache_control" in message["content"][-1]]
    assert marked[0]["role"] == "system"
    assert len(marked) == 3


def test_openrouter_session_holds_its_reasoning_details() -> None:
    held = _bench("held_out")
    body = held.openrouter_reasoning(10)
    assistants = [message for message in body["messages"] if message["role"] == "assistant"]
    for message in assistants:
        (detail,) = message["reasoning_details"]
        assert detail["type"] == "reasoning.text"
        assert detail["format"] == "anthropic-claude-v1"
        assert detail["text"] == message["reasoning"]
        assert message["refusal"] is None
    assert body["reasoning"] == {"effort": "high"}


def test_sessions_are_seeded() -> None:
    held = _bench("held_out")
    for build in (held.claude_code, held.litellm_client, held.openrouter_reasoning):
        assert build(10) == build(10)
        assert build(10) != build(10, held.OTHER_SEEDS[0])


@pytest.mark.parametrize("kind", ["claude code", "litellm client", "openrouter reasoning"])
def test_every_held_out_session_passes_the_bench_check(kind: str) -> None:
    """Each session converts to what the bench's check (``agent_sources.viewer``) expects of it."""
    held = _bench("held_out")
    sources = _bench("agent_sources")
    for session in held.sessions([3], [kind]):
        view = sources.viewer(session.source, session.target)
        written = chatcodec.convert_request(
            session.body, source=session.source, target=session.target, on_loss="ignore"
        )
        assert view(written) == sources.expected(session.body, session.source, session.target), session.target
        assert len(session.others) == 2
