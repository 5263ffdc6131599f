"""``validate_messages`` reads the histories agent frameworks store, as a user validating one
at its boundary hands it over: LangChain's ``messages_to_dict`` and ``dumpd`` lists,
pydantic-ai's ``ModelMessagesTypeAdapter`` JSON, the Vercel AI SDK's ``ModelMessage[]`` (and
``UIMessage[]``, tests/test_ai_sdk_format.py). Each gives what its format's own reader gives;
the histories are written by the frameworks themselves (langchain-core, pydantic-ai, and the
``ModelMessage`` lists the AI SDK recorded in tests/fixtures/ai_sdk). An OpenAI-shaped list,
which an AI SDK ``ModelMessage[]`` can also be, reads as it always did.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.load import dumpd
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage, messages_to_dict
from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    SystemPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)

import chatcodec
from chatcodec._codec_protocols import SupportsMessageDecoding

AI_SDK = Path(__file__).parent / "fixtures" / "ai_sdk"
ROLES = ["system", "user", "assistant", "tool", "assistant"]


def _own_reading(fmt: str, messages: list[Any]) -> list[chatcodec.AnyMessage]:
    codec = chatcodec.get_codec(fmt)
    assert isinstance(codec, SupportsMessageDecoding)
    return codec.decode_messages(messages)


def _langchain() -> list[Any]:
    return [
        SystemMessage("Be brief."),
        HumanMessage("Weather in Paris?"),
        AIMessage("", tool_calls=[{"name": "get_weather", "args": {"city": "Paris"}, "id": "call_1"}]),
        ToolMessage("sunny", tool_call_id="call_1"),
        AIMessage("Sunny."),
    ]


def _pydantic_ai() -> list[ModelMessage]:
    return [
        ModelRequest(parts=[SystemPromptPart("Be brief."), UserPromptPart("Weather in Paris?")]),
        ModelResponse(parts=[ToolCallPart("get_weather", {"city": "Paris"}, tool_call_id="call_1")]),
        ModelRequest(parts=[ToolReturnPart("get_weather", "sunny", tool_call_id="call_1")]),
        ModelResponse(parts=[TextPart("Sunny.")]),
    ]


def _model_messages() -> list[list[Any]]:
    lines = (AI_SDK / "model_messages.jsonl").read_text().splitlines()
    return [json.loads(line)["messages"] for line in lines if line]


def _cases() -> list[tuple[str, str, object]]:
    langchain = messages_to_dict(_langchain())
    dumped = [dumpd(message) for message in _langchain()]
    stored = ModelMessagesTypeAdapter.dump_python(_pydantic_ai(), mode="json")
    cases: list[tuple[str, str, object]] = [
        ("messages_to_dict", "langchain", langchain),
        ("messages_to_dict as JSON text", "langchain", json.dumps(langchain)),
        ("dumpd", "langchain", dumped),
        ("ModelMessagesTypeAdapter", "pydantic-ai", stored),
        ("ModelMessagesTypeAdapter.dump_json", "pydantic-ai", ModelMessagesTypeAdapter.dump_json(_pydantic_ai())),
    ]
    cases += [(f"ModelMessage[] {index}", "ai-sdk-model", model) for index, model in enumerate(_model_messages())]
    return cases


@pytest.mark.parametrize(("form", "fmt", "history"), _cases(), ids=[case[0] for case in _cases()])
def test_a_stored_framework_history_validates_as_its_format_reads_it(form: str, fmt: str, history: object) -> None:
    read = chatcodec.validate_messages(history)
    raw: Any = json.loads(history) if isinstance(history, str | bytes) else history
    assert read == _own_reading(fmt, raw)
    assert [message.role for message in read] == ROLES
    calls = [part for message in read if not isinstance(message.content, str) for part in message.content]
    assert any(isinstance(part, chatcodec.ToolUsePart) for part in calls), form


def test_a_chat_list_an_ai_sdk_model_message_list_could_also_be_reads_as_it_always_did() -> None:
    """Role and content, text parts: both shapes at once; the dialects' reading wins (the
    same canonical messages the OpenAI Chat reader gives)."""
    both: list[dict[str, Any]] = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "text": "hi"}]},
        {"role": "assistant", "content": "hello"},
    ]
    assert chatcodec.validate_messages(both) == _own_reading("openai-chat", both)


def test_a_refused_chat_list_is_not_read_as_model_messages_by_chance() -> None:
    """A misspelt key in an OpenAI-shaped list is refused as before: the AI SDK's reader, which
    keeps unknown keys, is asked only of a list holding the AI SDK's marks."""
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.validate_messages([{"role": "user", "content": "hi", "nmae": "x"}])
    assert "nmae" in str(raised.value)


@pytest.mark.parametrize(
    "history",
    [
        [{"type": "human", "data": {"content": "hi"}}, {"type": "chat"}],
        [{"kind": "request", "parts": [{"content": "hi", "part_kind": "user-prompt"}]}, {"kind": "answer"}],
        [
            {"role": "user", "content": "hi"},
            {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "c", "toolName": "f"}]},
        ],
    ],
    ids=["langchain", "pydantic-ai", "ai-sdk-model"],
)
def test_a_history_its_framework_would_refuse_is_refused_at_the_message(history: list[Any]) -> None:
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.validate_messages(history)
    assert "[1]" in str(raised.value)


def test_a_bare_framework_list_names_a_refused_message_at_its_place_in_the_list() -> None:
    """A fuzz find (seed 20261127): a bare ``ModelMessage[]`` was checked as a history, so a
    refused message was named ``$.messages[1]``, a path the caller's list does not have."""
    import chatcodec

    for name in ("ai-sdk-model", "ai-sdk-ui", "langchain", "pydantic-ai"):
        with pytest.raises(chatcodec.ValidationError) as raised:
            chatcodec.get_codec(name).decode_messages(
                [{"role": "user", "content": "hi"}, {"role": "tool", "content": 7}]
            )
        assert raised.value.paths, name
        assert all(path.startswith("$[") for path in raised.value.paths), (name, raised.value)


@pytest.mark.parametrize(
    ("name", "message", "path"),
    [
        ("ai-sdk-model", {"role": "user", "content": "hi", "id": float("-inf")}, "$[0].id"),
        (
            "ai-sdk-ui",
            {"id": "u", "role": "user", "parts": [{"type": "text", "text": "hi"}], "metadata": {"x": 1e999}},
            "$[0].metadata.x",
        ),
        (
            "langchain",
            {"type": "human", "data": {"content": "hi", "additional_kwargs": {"x": float("nan")}}},
            "$[0].data.additional_kwargs.x",
        ),
        (
            "pydantic-ai",
            {"kind": "request", "parts": [{"part_kind": "user-prompt", "content": "hi"}], "metadata": {"x": 1e999}},
            "$[0].metadata.x",
        ),
    ],
)
def test_a_bare_framework_list_names_a_non_json_number_at_its_place_in_the_list(
    name: str, message: dict[str, Any], path: str
) -> None:
    """A fuzz find (seed 0, input 544115): a bare list holding ``-inf`` passed the history
    check, whose number check then named it in the wrapping history (``$.messages[0].id``)."""
    import chatcodec

    with pytest.raises(chatcodec.PayloadError) as raised:
        chatcodec.get_codec(name).decode_messages([message])
    assert raised.value.path == path


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("ai-sdk-model", {"role": ["user"], "content": "hi"}),
        (
            "ai-sdk-model",
            {
                "role": "tool",
                "content": [{"type": "tool-result", "toolCallId": "c", "toolName": "f", "output": {"type": {}}}],
            },
        ),
        ("ai-sdk-ui", {"id": "u", "role": {}, "parts": []}),
        ("ai-sdk-ui", {"id": "u", "role": "assistant", "parts": [{"type": "tool-f", "toolCallId": "c", "state": [1]}]}),
    ],
    ids=["model-role-list", "model-output-type-object", "ui-role-object", "ui-state-list"],
)
def test_an_unhashable_role_state_or_output_type_is_refused_at_the_message(name: str, message: dict[str, Any]) -> None:
    """A fuzz find (cli_validate, seed 0): the AI SDK checks looked a value up in a set, so a
    list or object there raised ``TypeError: unhashable type`` (the CLI's internal error)."""
    import chatcodec

    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.get_codec(name).decode_messages([message])
    assert raised.value.paths == ["$[0]"]


def _agents_sdk_input_list() -> list[Any]:
    """What ``RunResult.to_input_list()`` returns after a Chat Completions model's turn, built
    by openai-agents 0.24's own code: ``Converter.message_to_output_items`` (the Chat Completions
    model's reading of a reply, which gives a ``reasoning`` item and every item the SDK's
    ``__fake_id__``), the run items wrapping them, ``ItemHelpers.tool_call_output_item`` and
    ``to_input_item()``, after ``ItemHelpers.input_to_new_input_list`` of the prompt."""
    from agents import Agent
    from agents.items import ItemHelpers, MessageOutputItem, ReasoningItem, ToolCallItem, ToolCallOutputItem
    from agents.models.chatcmpl_converter import Converter
    from agents.models.fake_id import FAKE_RESPONSES_ID
    from openai.types.chat import ChatCompletionMessage, ChatCompletionMessageFunctionToolCall
    from openai.types.chat.chat_completion_message_function_tool_call import Function
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseReasoningItem

    agent = Agent(name="weather")
    call = ChatCompletionMessageFunctionToolCall(
        id="call_1", type="function", function=Function(name="get_weather", arguments='{"city": "Paris"}')
    )
    # ``reasoning_content``: what LiteLLM's and DeepSeek's Chat Completions messages carry
    reply = ChatCompletionMessage.model_validate(
        {
            "role": "assistant",
            "content": "Checking.",
            "tool_calls": [call],
            "reasoning_content": "The user wants the weather.",
        }
    )
    thought, said, asked = Converter.message_to_output_items(reply)
    assert isinstance(thought, ResponseReasoningItem)
    assert isinstance(said, ResponseOutputMessage)
    assert isinstance(asked, ResponseFunctionToolCall)
    (answer,) = Converter.message_to_output_items(ChatCompletionMessage(role="assistant", content="Sunny."))
    assert isinstance(answer, ResponseOutputMessage)
    items = [
        ReasoningItem(agent=agent, raw_item=thought),
        MessageOutputItem(agent=agent, raw_item=said),
        ToolCallItem(agent=agent, raw_item=asked),
        ToolCallOutputItem(agent=agent, raw_item=ItemHelpers.tool_call_output_item(asked, "sunny"), output="sunny"),
        MessageOutputItem(agent=agent, raw_item=answer),
    ]
    listed = ItemHelpers.input_to_new_input_list("Weather in Paris?") + [item.to_input_item() for item in items]
    kinds = ["reasoning", "message", "function_call", "function_call_output", "message"]
    assert [dict(item).get("type") for item in listed] == [None, *kinds]
    assert dict(listed[1])["id"] == FAKE_RESPONSES_ID
    return [dict(item) for item in listed]


def test_an_openai_agents_sdk_input_list_validates_as_the_responses_items_it_is() -> None:
    """Issue 76: ``to_input_list()`` output was taken for an AI SDK ``ModelMessage[]`` (its
    ``reasoning`` item shares the word with an AI SDK part type) and refused as one; it reads
    as the OpenAI Responses reader reads the same items as a request's ``input``."""
    listed = _agents_sdk_input_list()
    read = chatcodec.validate_messages(listed)
    assert read == chatcodec.decode_request("openai-responses", {"model": "m", "input": listed}).messages
    assert [message.role for message in read] == ["user", "assistant", "tool", "assistant"]
    thinking, _, call = read[1].content
    assert isinstance(thinking, chatcodec.ThinkingPart)
    assert thinking.text == "The user wants the weather."
    assert isinstance(call, chatcodec.ToolUsePart)
    assert (call.id, call.name) == ("call_1", "get_weather")


def test_a_refused_responses_item_list_is_named_as_responses_items() -> None:
    """A Responses item list the Responses reader refuses is refused by it, not by the AI SDK's
    reader (whose "role None" was the wrong format's complaint)."""
    listed = _agents_sdk_input_list()
    listed[3]["call_id"] = 7
    with pytest.raises(chatcodec.ValidationError) as raised:
        chatcodec.validate_messages(listed)
    assert "ModelMessage" not in str(raised.value)
    assert raised.value.paths[0].startswith("$[3]")
