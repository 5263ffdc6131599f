"""pydantic-ai histories recorded against OpenAI's Responses API replay with their message
item ids, as their reasoning ids do (tests/test_pydantic_ai_reasoning_ids.py).

pydantic-ai reads each ``output_text`` of a Responses ``message`` item as a ``TextPart`` with the
item's ``id`` (``msg_...``) and ``provider_name="openai"``, and sends the text parts of one id
back as one message item (``OpenAIResponsesModel._process_response`` and ``_map_messages``,
the oracles here, run offline). chatcodec reported that id as pydantic-ai data lost on the way
to Responses; it now goes where the Responses reader keeps a message item's id.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from openai.types.responses import Response
from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models import ModelRequestParameters
from pydantic_ai.models.openai import OpenAIResponsesModel
from pydantic_ai.providers.openai import OpenAIProvider

import chatcodec

MODEL = OpenAIResponsesModel("gpt-5", provider=OpenAIProvider(api_key="offline"))
"""pydantic-ai's Responses model, used only for its mappings (no request is made)."""


def _stored(response: ModelResponse) -> list[dict[str, Any]]:
    messages: list[ModelMessage] = [
        ModelRequest(parts=[UserPromptPart("hi")]),
        response,
        ModelRequest(parts=[UserPromptPart("more")]),
    ]
    stored: list[dict[str, Any]] = ModelMessagesTypeAdapter.dump_python(messages, mode="json")
    return stored


def _sent_by_pydantic_ai(stored: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Responses input items pydantic-ai itself sends for a stored history."""
    messages = ModelMessagesTypeAdapter.validate_python(stored)
    mapping = MODEL._map_messages  # pyright: ignore[reportPrivateUsage]  # the oracle: what pydantic-ai sends
    _, items = asyncio.run(mapping(messages, {}, ModelRequestParameters()))
    return [dict(item) for item in items]


RESPONSE = ModelResponse(
    parts=[
        TextPart("First", id="msg_1", provider_name="openai"),
        TextPart("second", id="msg_1", provider_name="openai"),
        TextPart("Another item", id="msg_2", provider_name="openai"),
    ],
    model_name="gpt-5",
    provider_name="openai",
)


def test_text_parts_go_to_responses_as_the_message_items_pydantic_ai_sends() -> None:
    """Parts of one id are one item with that id, as pydantic-ai sends them; no loss at a part."""
    stored = _stored(RESPONSE)
    losses: list[chatcodec.Loss] = []
    sent = chatcodec.convert_request(
        {"messages": stored, "model": "gpt-5"},
        source="pydantic-ai",
        target="openai-responses",
        on_loss="ignore",
        losses=losses,
    )
    assert sent["input"] == _sent_by_pydantic_ai(stored)
    assert [item["id"] for item in sent["input"] if "id" in item] == ["msg_1", "msg_2"]
    assert [loss.path for loss in losses if loss.path.startswith("$.messages[1].parts")] == []


def test_a_responses_message_item_reads_into_pydantic_ai_as_pydantic_ai_reads_it() -> None:
    """Each ``output_text`` of a message item is a ``TextPart`` with the item's id and
    ``provider_name``, as pydantic-ai's own reading of that item gives, with no loss."""
    item: dict[str, Any] = {
        "type": "message",
        "role": "assistant",
        "id": "msg_9",
        "status": "completed",
        "content": [
            {"type": "output_text", "text": "a", "annotations": []},
            {"type": "output_text", "text": "b", "annotations": []},
        ],
    }
    response = Response.model_validate(
        {"id": "resp_1", "created_at": 0, "model": "gpt-5", "object": "response", "output": [item]}
        | {"parallel_tool_calls": True, "tool_choice": "auto", "tools": []}
    )
    reading = MODEL._process_response  # pyright: ignore[reportPrivateUsage]  # the oracle: what pydantic-ai reads
    expected = reading(response, {}, ModelRequestParameters()).parts
    body: dict[str, Any] = {"model": "gpt-5", "input": [{"role": "user", "content": "hi"}, item]}
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(body, source="openai-responses", target="pydantic-ai", losses=losses)
    loaded = ModelMessagesTypeAdapter.validate_python(written["messages"])[1]
    assert isinstance(loaded, ModelResponse)
    assert [(p.content, p.id, p.provider_name) for p in loaded.parts if isinstance(p, TextPart)] == [
        (p.content, p.id, p.provider_name) for p in expected if isinstance(p, TextPart)
    ]
    assert losses == []
    assert chatcodec.convert_request(written, source="pydantic-ai", target="openai-responses")["input"] == body["input"]


EDGES = [
    [TextPart("a", id="msg_1", provider_name="azure"), TextPart("b", id="msg_1")],
    [TextPart("a", id="msg_1", provider_name="openai"), TextPart("b"), TextPart("c", id="msg_1")],
    [
        TextPart("a", id="msg_1", provider_name="openai"),
        ToolCallPart("f", {}, tool_call_id="call_1"),
        TextPart("b", id="msg_1", provider_name="openai"),
    ],
]


@pytest.mark.parametrize("parts", EDGES, ids=["other-provider-and-none", "an-id-less-part-between", "a-call-between"])
def test_text_part_ids_come_back_exactly_through_pydantic_ai(parts: list[Any]) -> None:
    stored = _stored(ModelResponse(parts=parts, model_name="gpt-5"))
    body = {"messages": stored, "model": "gpt-5"}
    again = chatcodec.convert_request(body, source="pydantic-ai", target="pydantic-ai")
    assert again["messages"] == stored


def test_a_stored_part_without_id_or_provider_keys_comes_back_without_them() -> None:
    """A hand-written history may leave keys out: a part after a run without an ``id`` key does
    not continue it, and one without ``provider_name`` is not given the implied one."""
    stored = _stored(RESPONSE)
    stored[1]["parts"] = [
        {"part_kind": "text", "content": "a", "id": "msg_1"},
        {"part_kind": "text", "content": "b"},
    ]
    again = chatcodec.convert_request(
        {"messages": stored, "model": "gpt-5"}, source="pydantic-ai", target="pydantic-ai"
    )
    assert again["messages"] == stored


def test_a_tool_calls_item_id_goes_to_responses_as_pydantic_ai_sends_it_and_back() -> None:
    """A ``ToolCallPart``'s ``id`` is its ``function_call`` item's (``fc_...``, beside the
    ``call_id``): sent as that item's ``id``, as pydantic-ai sends it, with no loss, and read
    back from Responses as pydantic-ai reads it."""
    call = ToolCallPart("lookup", {"q": "a"}, tool_call_id="call_1", id="fc_1", provider_name="openai")
    messages: list[ModelMessage] = [
        ModelRequest(parts=[UserPromptPart("hi")]),
        ModelResponse(parts=[call], model_name="gpt-5", provider_name="openai"),
        ModelRequest(parts=[ToolReturnPart("lookup", "found", tool_call_id="call_1")]),
    ]
    stored: list[dict[str, Any]] = ModelMessagesTypeAdapter.dump_python(messages, mode="json")
    losses: list[chatcodec.Loss] = []
    sent = chatcodec.convert_request(
        {"messages": stored, "model": "gpt-5"},
        source="pydantic-ai",
        target="openai-responses",
        on_loss="ignore",
        losses=losses,
    )
    assert (
        sent["input"][1]
        == _sent_by_pydantic_ai(stored)[1]
        == {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "lookup",
            "arguments": '{"q":"a"}',
        }
    )
    assert [loss.path for loss in losses if loss.path.startswith("$.messages[1].content")] == []
    item = {**sent["input"][1], "status": "completed"}
    response = Response.model_validate(
        {"id": "resp_1", "created_at": 0, "model": "gpt-5", "object": "response", "output": [item]}
        | {"parallel_tool_calls": True, "tool_choice": "auto", "tools": []}
    )
    reading = MODEL._process_response  # pyright: ignore[reportPrivateUsage]  # the oracle: what pydantic-ai reads
    (expected,) = reading(response, {}, ModelRequestParameters()).parts
    assert isinstance(expected, ToolCallPart)
    back = chatcodec.convert_request(sent, source="openai-responses", target="pydantic-ai")
    loaded = ModelMessagesTypeAdapter.validate_python(back["messages"])[1]
    assert isinstance(loaded, ModelResponse)
    (part,) = loaded.parts
    assert isinstance(part, ToolCallPart)
    assert (part.id, part.provider_name, part.tool_call_id) == (expected.id, expected.provider_name, "call_1")
    again = chatcodec.convert_request(
        {"messages": stored, "model": "gpt-5"}, source="pydantic-ai", target="pydantic-ai"
    )
    assert again["messages"] == stored
