"""A tool call given twice, as an Anthropic ``tool_use`` block in ``content`` and as a
``tool_calls`` entry with the same id (LangChain's ``AIMessage`` shape), is sent once, and
its result stays (a result without its call, or a call given twice, is a 400)."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec

CALL_ID = "toolu_1"


def _messages() -> list[dict[str, Any]]:
    block = {"type": "tool_use", "id": CALL_ID, "name": "get", "input": {"a": 1}}
    entry = {"id": CALL_ID, "type": "function", "function": {"name": "get", "arguments": '{"a": 1}'}}
    return [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "text", "text": "let me look"}, block], "tool_calls": [entry]},
        {"role": "tool", "tool_call_id": CALL_ID, "content": "ok"},
    ]


def test_a_call_given_as_a_block_and_in_tool_calls_is_read_once() -> None:
    assistant = chatcodec.validate_messages(_messages())[1]
    assert isinstance(assistant, chatcodec.AssistantMessage)
    assert [(part.type, getattr(part, "id", None)) for part in assistant.content] == [
        ("text", None),
        ("tool_use", CALL_ID),
    ]


@pytest.mark.parametrize("target", ["anthropic", "bedrock-converse", "gemini", "openai-responses"])
def test_a_call_given_twice_is_sent_once_with_its_result(target: str) -> None:
    body = {"model": "m", "messages": _messages()}
    converted = chatcodec.convert_request(body, source="openai-chat", target=target, on_loss="ignore")
    text = str(converted)
    if target == "gemini":  # Gemini names calls, not ids: one call and one response of that name
        assert (text.count("'functionCall'"), text.count("'functionResponse'")) == (1, 1)
    else:
        assert text.count(f"'{CALL_ID}'") == 2  # the call and its result


def test_a_call_given_twice_goes_back_to_openai_chat_as_it_came() -> None:
    body = {"model": "m", "messages": _messages()}
    assert chatcodec.convert_request(body, source="openai-chat", target="openai-chat", on_loss="raise") == body
