"""A Responses function output of ``[]`` (the OpenAI SDK's ``FunctionCallOutput.output``:
``Union[str, ResponseFunctionCallOutputItemListParam]``, a list that may hold no item) is
no output: canonical reads it as the empty text, so OpenAI Chat gets ``content: ""`` (its
``ChatCompletionToolMessageParam.content`` is a string or a list of text parts, and the API
refuses an empty array: "Invalid 'messages[2].content': empty array. Expected an array with
minimum length 1"), while Responses gets ``[]`` back (the ``_empty_output`` marker). Issue 61."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec import Loss

CALL = {"type": "function_call", "call_id": "call_1", "name": "lookup", "arguments": "{}"}
REQUEST: dict[str, Any] = {
    "model": "gpt-4.1",
    "input": [
        {"role": "user", "content": "go"},
        CALL,
        {"type": "function_call_output", "call_id": "call_1", "output": []},
    ],
}


def test_an_empty_output_list_round_trips_exactly() -> None:
    decoded = chatcodec.decode_request("openai-responses", copy.deepcopy(REQUEST))
    assert decoded.messages[-1].model_dump(exclude_none=True)["content"][0]["content"] == ""
    assert chatcodec.encode_request("openai-responses", decoded) == REQUEST


def test_an_empty_output_list_is_an_empty_tool_message_for_openai_chat() -> None:
    losses: list[Loss] = []
    body = chatcodec.convert_request(
        copy.deepcopy(REQUEST), source="openai-responses", target="openai-chat", losses=losses
    )
    assert body["messages"][-1] == {"role": "tool", "tool_call_id": "call_1", "content": ""}
    assert losses == []


@pytest.mark.parametrize("output", ["", "done", [{"type": "input_text", "text": "done"}]])
def test_other_outputs_are_read_as_before(output: object) -> None:
    request = {
        **REQUEST,
        "input": [*REQUEST["input"][:2], {"type": "function_call_output", "call_id": "call_1", "output": output}],
    }
    decoded = chatcodec.decode_request("openai-responses", copy.deepcopy(request))
    assert "provider_metadata" not in decoded.messages[-1].model_dump(exclude_none=True)["content"][0]
    assert chatcodec.encode_request("openai-responses", decoded) == request


@pytest.mark.parametrize("middle", ["bedrock-converse", "bedrock-nova", "anthropic"])
def test_an_empty_output_text_comes_back_as_text_through_a_format_without_one(middle: str) -> None:
    """Converse and Nova hold no output as ``"content": []`` (botocore's ``ToolResultBlock``):
    on the way back Responses writes the empty text it started from, as OpenAI Chat does,
    not a ``[]`` no Responses body gave (the no-loss law Responses -> Converse -> Responses,
    found by a random draw of the conformance laws)."""
    given = copy.deepcopy(REQUEST)
    given["input"][-1]["output"] = ""
    there = chatcodec.convert_request(copy.deepcopy(given), source="openai-responses", target=middle, on_loss="ignore")
    back = chatcodec.convert_request(there, source=middle, target="openai-responses", on_loss="ignore")
    assert back["input"][-1] == {"type": "function_call_output", "call_id": "call_1", "output": ""}
