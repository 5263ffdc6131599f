"""Code written against Verifiers' message types keeps working on canonical messages.

The patterns are Verifiers' own (``verifiers/legacy/envs/tool_env.py``,
``verifiers/legacy/utils/message_utils.py``, ``verifiers/v1/types.py``): an assistant
turn's ``tool_calls`` (each with ``id``, ``name``, ``arguments``) beside its text
``content``, ``reasoning_content`` and ``thinking_blocks``, a tool message's
``tool_call_id``; read with ``[]``, ``.get``, ``in`` and attribute access. Verifiers'
dumps (0.4's ``provider_state`` and unset ``None`` fields, the older types) validate, and
so do the ``None`` keys Hugging Face ``datasets`` adds to content parts.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import pytest
from pydantic import BaseModel

import chatcodec
from chatcodec import AssistantMessage, ThinkingPart, ToolMessage, ToolUsePart

VERIFIERS_KEYS = ("content", "tool_calls", "reasoning_content", "thinking_blocks", "tool_call_id")


def _tool_turn() -> list[dict[str, Any]]:
    """A rollout as Verifiers stores it (``message.model_dump()`` of its 0.4 types:
    unset fields are ``None``)."""
    return [
        {"role": "system", "content": "Use the tools."},
        {"role": "user", "content": "Weather in Paris and Rome?"},
        {
            "role": "assistant",
            "content": "Checking both.",
            "reasoning_content": "Two cities, two calls.",
            "tool_calls": [
                {"id": "call_1", "name": "weather", "arguments": '{"city": "Paris"}', "namespace": None},
                {"id": "call_2", "name": "weather", "arguments": '{"city": "Rome"}', "namespace": None},
            ],
            "provider_state": None,
        },
    ]


def _run(name: str, arguments: dict[str, Any]) -> str:
    return f"{name}: sunny in {arguments['city']}"


def test_the_tool_env_loop_runs_every_tool_call() -> None:
    """``ToolEnv.env_response``: ``for tool_call in last_msg.tool_calls`` / the dict
    spelling ``last.get("tool_calls") or []``; stop when the assistant makes no call."""
    messages = chatcodec.validate_messages(_tool_turn())
    last = messages[-1]
    assert last["role"] == "assistant"
    assert last.get("tool_calls")  # the check Verifiers' loops run
    results: list[dict[str, Any]] = []
    for tool_call in last.get("tool_calls") or []:
        output = _run(tool_call.name, json.loads(tool_call.arguments))
        results.append({"role": "tool", "tool_call_id": tool_call.id, "content": output})
    assert [call["id"] for call in last["tool_calls"]] == ["call_1", "call_2"]
    assert [call.id for call in last.tool_calls] == ["call_1", "call_2"]  # attribute access too
    messages.extend(chatcodec.validate_messages(results))
    assert messages[-1]["tool_call_id"] == "call_2"
    assert messages[-1].tool_call_id == "call_2"
    assert messages[-1]["content"] == "weather: sunny in Rome"
    answer = chatcodec.validate_message({"role": "assistant", "content": "Sunny in both."})
    assert not answer.get("tool_calls")  # the loop ends
    assert "tool_calls" not in answer


def test_message_utils_reads_reasoning_and_text() -> None:
    """``message_to_printable`` / ``serialize_message_for_output``: ``content``,
    ``reasoning_content``, ``tool_calls`` and ``tool_call_id`` through ``.get``."""
    assistant = chatcodec.validate_messages(_tool_turn())[-1]
    assert assistant.get("content") == "Checking both."
    assert isinstance(assistant.get("reasoning_content"), str)
    assert assistant.get("reasoning_content") == "Two cities, two calls."
    assert assistant.get("tool_calls") is not None
    assert isinstance(assistant.content[0], ThinkingPart)  # the attribute stays canonical
    assert assistant.content[0].text == "Two cities, two calls."


@pytest.mark.parametrize(
    "message",
    [
        chatcodec.validate_messages(_tool_turn())[-1],
        AssistantMessage(content="plain"),
        AssistantMessage(content=[{"type": "thinking", "text": "t", "signature": "s", "provider": "anthropic"}]),
        AssistantMessage(content=[{"type": "thinking", "encrypted": "e", "redacted": True, "provider": "anthropic"}]),
        AssistantMessage(content=[{"type": "tool_use", "id": "c", "name": "f", "arguments": "{}"}]),
        ToolMessage(content=[{"type": "tool_result", "tool_use_id": "c", "content": "r", "is_error": True}]),
        ToolMessage(content=[{"type": "tool_result", "tool_use_id": "a"}, {"type": "tool_result", "tool_use_id": "b"}]),
    ],
    ids=["tool_turn", "plain", "signed", "redacted", "call_only", "tool_error", "two_results"],
)
def test_the_verifiers_keys_agree_across_every_access(message: Any) -> None:
    keys = message.keys()
    for key in VERIFIERS_KEYS:
        present = key in message
        assert present == (key in keys)
        if present:
            assert message.get(key) is message[key] or message.get(key) == message[key]
        else:
            assert message.get(key) is None
            with pytest.raises(KeyError):
                message[key]
    assert list(dict(message)) == keys


def test_values_are_the_verifiers_shapes() -> None:
    signed = AssistantMessage(
        content=[
            {"type": "thinking", "text": "plan", "signature": "sig", "provider": "anthropic"},
            {"type": "text", "text": "Done."},
            {"type": "tool_use", "id": "toolu_1", "name": "f", "arguments": '{"a": 1}'},
        ]
    )
    assert signed["content"] == "Done."
    assert signed["reasoning_content"] == "plan"
    assert signed["thinking_blocks"] == [{"type": "thinking", "thinking": "plan", "signature": "sig"}]
    assert [(call.id, call.name, call.arguments) for call in signed["tool_calls"]] == [("toolu_1", "f", '{"a": 1}')]
    calls_only = AssistantMessage(content=[{"type": "tool_use", "id": "c", "name": "f", "arguments": "{}"}])
    assert calls_only["content"] is None  # Verifiers: ``content=text or None``
    assert signed.model_dump()["content"][0]["type"] == "thinking"  # the dump stays canonical


@pytest.mark.parametrize(
    "message",
    [
        _tool_turn()[-1],
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c", "name": "f", "arguments": "{}"}]},
        {"role": "tool", "tool_call_id": "c", "content": "ok"},
        {"role": "tool", "tool_call_id": "c", "content": "boom", "is_error": True, "name": "f"},
        {
            "role": "assistant",
            "content": "x",
            "thinking_blocks": [{"type": "thinking", "thinking": "t", "signature": "s"}],
            "reasoning_content": "t",
        },
    ],
    ids=["tool_turn", "calls_only", "tool", "tool_error", "thinking_blocks"],
)
def test_dict_of_a_message_reads_back_to_the_same_message(message: dict[str, Any]) -> None:
    validated = chatcodec.validate_message(message)
    assert chatcodec.validate_message(dict(validated)) == validated


def test_provider_state_of_anthropic_thinking_keeps_the_signatures() -> None:
    message = {
        "role": "assistant",
        "content": "Answer.",
        "reasoning_content": "plan",
        "tool_calls": None,
        "provider_state": [
            {"type": "thinking", "thinking": "plan", "signature": "EqQBCkYIBxgCKkA"},
            {"type": "redacted_thinking", "data": "EmwKAhgBEgy3"},
        ],
    }
    validated = chatcodec.validate_message(message)
    assert isinstance(validated, AssistantMessage)
    assert [(part.signature, part.encrypted) for part in validated.thinking] == [
        ("EqQBCkYIBxgCKkA", None),
        (None, "EmwKAhgBEgy3"),
    ]
    body = chatcodec.encode_request(
        "anthropic", {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "q"}, message]}
    )
    assert body["messages"][1]["content"][:2] == message["provider_state"]


def test_provider_state_of_reasoning_details_is_written_back_where_it_came_from() -> None:
    details = [
        {"type": "reasoning.text", "text": "plan", "signature": "sig", "format": "anthropic-claude-v1", "index": 0}
    ]
    message = {"role": "assistant", "content": "Answer.", "provider_state": details}
    body = chatcodec.encode_request("openai-chat", {"model": "m", "messages": [message]})
    assert body["messages"][0]["reasoning_details"] == details


def test_provider_state_of_responses_items_is_kept_whole() -> None:
    item = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA"}
    validated = chatcodec.validate_message({"role": "assistant", "content": "Answer.", "provider_state": [item]})
    assert validated.content[0] == chatcodec.OpaquePart(provider="openai-responses", data=item)


def test_provider_state_that_is_not_a_list_of_objects_names_the_field() -> None:
    with pytest.raises(chatcodec.ValidationError, match="provider_state must be a list of objects"):
        chatcodec.validate_message({"role": "assistant", "content": "x", "provider_state": "oops"})


def test_hugging_face_datasets_null_keys_on_parts_and_messages() -> None:
    """``datasets`` stores a column of parts with the union of their keys, the missing
    ones ``None``; a null key is an absent key."""
    rows = [
        {
            "role": "user",
            "name": None,
            "content": [
                {"type": "text", "text": "What is this?", "image_url": None},
                {"type": "image_url", "text": None, "image_url": {"url": "https://example.com/cat.png"}},
            ],
        },
        {"role": "assistant", "content": "A cat.", "tool_calls": None, "reasoning_content": None},
    ]
    validated = chatcodec.validate_messages(rows)
    assert validated == chatcodec.validate_messages(
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}},
                ],
            },
            {"role": "assistant", "content": "A cat."},
        ]
    )


def test_the_older_verifiers_dump_with_openai_nested_calls() -> None:
    """Verifiers before 0.4 typed messages as OpenAI's ``ChatCompletionMessageParam``."""
    old = {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"x": 1}'}}],
    }
    validated = chatcodec.validate_message(old)
    assert isinstance(validated, AssistantMessage)
    assert validated["tool_calls"] == [ToolUsePart(id="c1", name="f", arguments='{"x": 1}')]
    assert chatcodec.encode_request("openai-chat", {"model": "m", "messages": [old]})["messages"][0] == old


def test_asktable_tool_use_input_as_argument_text_is_kept_exactly() -> None:
    """AskTable builds ``tool_use.input`` as the argument JSON *text*, delta by delta."""
    text = '{"city": "Beijing"}'
    message = chatcodec.validate_message(
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "weather", "input": text}]}
    )
    assert isinstance(message, AssistantMessage)
    assert message.tool_calls[0].arguments == text
    request = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "q"}, message]}
    openai_body = chatcodec.encode_request("openai-chat", request)
    assert openai_body["messages"][1]["tool_calls"][0]["function"]["arguments"] == text
    anthropic_body = chatcodec.encode_request("anthropic", request)
    assert anthropic_body["messages"][1]["content"][0]["input"] == {"city": "Beijing"}
    partial = chatcodec.validate_message(
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "w", "input": '{"ci'}]}
    )
    assert partial.tool_calls[0].arguments == '{"ci'  # half-streamed text stays what it was


class _VerifiersToolCall(BaseModel):
    """Verifiers' v1 ``ToolCall`` (``verifiers/v1/types.py``), mirrored: the package is not a test dependency."""

    id: str
    name: str
    arguments: str


class _VerifiersAssistant(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str | None = None
    reasoning_content: str | None = None
    tool_calls: list[_VerifiersToolCall] | None = None
    provider_state: list[dict[str, Any]] | None = None


def test_verifiers_message_objects_are_taken_as_they_are() -> None:
    """A rollout holds Verifiers' pydantic messages, not dumps: read as the fields set."""
    call = _VerifiersToolCall(id="call_1", name="weather", arguments='{"city": "Paris"}')
    message = _VerifiersAssistant(content="On it.", tool_calls=[call])
    validated = chatcodec.validate_messages([{"role": "user", "content": "Weather?"}, message])[1]
    assert validated == chatcodec.validate_message(message.model_dump())  # nulls and all
    assert [(tool_call.id, tool_call.arguments) for tool_call in validated["tool_calls"]] == [
        ("call_1", '{"city": "Paris"}')
    ]


def test_a_verifiers_dump_with_arguments_given_as_an_object() -> None:
    """``function.arguments`` as a JSON object (as some Verifiers dumps and
    compatible servers hold it) is read, and written back to OpenAI exactly as it came."""
    call = {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}
    dump = [
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
    ]
    messages = chatcodec.validate_messages(dump)
    [tool_use] = messages[1]["tool_calls"]
    assert json.loads(tool_use.arguments) == {"city": "Paris"}
    assert chatcodec.encode_request("openai-chat", {"messages": dump}, options={"model": "m"})["messages"] == dump
    anthropic = chatcodec.encode_request("anthropic", {"messages": dump, "max_tokens": 10}, options={"model": "m"})
    assert anthropic["messages"][1]["content"][0]["input"] == {"city": "Paris"}
