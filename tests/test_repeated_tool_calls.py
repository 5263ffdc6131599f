"""A tool call given twice, as an Anthropic ``tool_use`` block in ``content`` and as a
``tool_calls`` entry with the same id (LangChain's ``AIMessage`` shape), is sent once, and
its result stays (a result without its call, or a call given twice, is a 400)."""

from __future__ import annotations

import json
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
    assert chatcodec.convert_request(body, source="openai-chat", target="openai-chat", on_loss="error") == body


def _langchain_dict(block_input: dict[str, Any]) -> list[dict[str, Any]]:
    """An ``AIMessage`` as the dict LangChain's ``convert_to_messages`` takes (langchain-core
    1.7.2): its Anthropic ``tool_use`` block in ``content`` with ``block_input``, and its
    ``tool_calls`` entry (a ``ToolCall``: ``args`` parsed) of the same id with other args."""
    block = {"type": "tool_use", "id": CALL_ID, "name": "get", "input": block_input}
    entry = {"name": "get", "args": {"a": 2}, "id": CALL_ID, "type": "tool_call"}
    return [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "text", "text": "let me look"}, block], "tool_calls": [entry]},
        {"role": "tool", "tool_call_id": CALL_ID, "content": "ok"},
    ]


def _sent_arguments(body: dict[str, Any], target: str) -> list[Any]:
    """The arguments of each call the assistant turn of ``body`` sends."""
    if target == "anthropic":
        return [block["input"] for block in body["messages"][1]["content"] if block["type"] == "tool_use"]
    if target == "openai-chat":
        return [json.loads(call["function"]["arguments"]) for call in body["messages"][1]["tool_calls"]]
    return [part["functionCall"]["args"] for part in body["contents"][1]["parts"] if "functionCall" in part]


@pytest.mark.parametrize("target", ["anthropic", "openai-chat", "gemini"])
def test_a_call_given_twice_with_other_input_sends_the_tool_calls_entry(target: str) -> None:
    """Issue 76: the entry is the call LangChain ran and sends (ChatAnthropic's
    ``_format_messages`` writes the ``tool_calls`` entry in place of a ``tool_use`` block of its
    id, langchain-anthropic's chat_models.py); the block's other input went silently in its
    place. Now the entry is sent and the block's input is reported at the block."""
    from langchain_core.messages import AIMessage, convert_to_messages

    messages = _langchain_dict({"a": 1})
    assistant = convert_to_messages(messages)[1]
    assert isinstance(assistant, AIMessage)
    assert assistant.tool_calls[0]["args"] == {"a": 2}
    losses: list[chatcodec.Loss] = []
    body = {"model": "m", "messages": messages}
    converted = chatcodec.convert_request(body, source="canonical", target=target, on_loss="ignore", losses=losses)
    assert _sent_arguments(converted, target) == [{"a": 2}]
    assert [(loss.path, loss.what) for loss in losses if loss.what.endswith("arguments")] == [
        ("$.messages[1].content[1]", "langchain tool call 'toolu_1' arguments")
    ]
    same = _langchain_dict({"a": 2})
    assistant_message = chatcodec.validate_messages(same)[1]
    assert [part.type for part in assistant_message.content] == ["text", "tool_use"]


def test_a_call_given_twice_with_other_input_goes_to_langchain_as_it_came() -> None:
    """Written as a LangChain history, the message is the one ``convert_to_messages`` builds:
    the block in ``content``, the entry in ``tool_calls``."""
    from langchain_core.messages import convert_to_messages, messages_from_dict

    messages = _langchain_dict({"a": 1})
    written = chatcodec.convert_request({"messages": messages}, source="canonical", target="langchain", on_loss="error")
    assert messages_from_dict(written["messages"]) == convert_to_messages(messages)
