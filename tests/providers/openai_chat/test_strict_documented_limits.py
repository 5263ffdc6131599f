"""OpenAI Chat's documented limits, refused under strict reading at their JSON paths and
read as they came without it (servers that bend the spec take them).

Sources: the openai SDK's ``CompletionCreateParams.stop`` ("Up to 4 sequences where the API
will stop generating further tokens") and ``FunctionDefinition.name`` ("Must be a-z, A-Z,
0-9, or contain underscores and dashes, with a maximum length of 64"); the API reference's
``tools`` ("A max of 128 functions are supported",
https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools). The Responses
API documents none of these for its tools (``FunctionToolParam.name``: "The name of the
function to call"), and has no ``stop``: its strict reading is unchanged."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec


def _body(**fields: Any) -> dict[str, Any]:
    return {"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}], **fields}


def _tool(name: str) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}


REFUSED = [
    (_body(stop=["a", "b", "c", "d", "e"]), "$.stop", "too_many"),
    (_body(tools=[_tool("get weather")]), "$.tools[0].function.name", "pattern_mismatch"),
    (_body(tools=[_tool("x" * 65)]), "$.tools[0].function.name", "pattern_mismatch"),
    (_body(tools=[_tool("name\n")]), "$.tools[0].function.name", "pattern_mismatch"),
    (_body(tools=[_tool(f"t{index}") for index in range(129)]), "$.tools", "too_many"),
    (_body(functions=[{"name": "a.b"}]), "$.functions[0].name", "pattern_mismatch"),
]

TAKEN = [
    _body(stop=["a", "b", "c", "d"]),
    _body(stop="a b"),
    _body(tools=[_tool("x" * 64), _tool("get-weather_2")]),
    _body(tools=[_tool(f"t{index}") for index in range(128)]),
]


@pytest.mark.parametrize(("body", "path", "rule"), REFUSED)
def test_strict_reading_refuses_past_the_documented_limits(body: dict[str, Any], path: str, rule: str) -> None:
    with pytest.raises(chatcodec.ValidationError) as refused:
        chatcodec.decode_request("openai-chat", body, strict=True)
    assert refused.value.paths == [path]
    assert f"[rule: {rule}]" in str(refused.value)
    with pytest.raises(chatcodec.ValidationError):
        chatcodec.convert_request(body, source="openai-chat", target="anthropic", strict=True, on_loss="ignore")


@pytest.mark.parametrize(("body", "path", "rule"), REFUSED)
def test_tolerant_reading_takes_them_as_they_came(body: dict[str, Any], path: str, rule: str) -> None:
    del path, rule
    request = chatcodec.decode_request("openai-chat", body).model_dump()
    if "stop" in body:
        assert request["stop"] == body["stop"]
    elif "tools" in body:
        assert [tool["name"] for tool in request["tools"]] == [tool["function"]["name"] for tool in body["tools"]]
    else:  # the deprecated functions list is kept as it came
        assert request["provider_options"]["openai-chat"]["functions"] == body["functions"]


@pytest.mark.parametrize("body", TAKEN)
def test_within_the_limits_strict_reading_takes_them(body: dict[str, Any]) -> None:
    chatcodec.decode_request("openai-chat", body, strict=True)


def test_responses_strict_reading_is_unchanged() -> None:
    tool = {"type": "function", "name": "x" * 65, "parameters": {"type": "object"}, "strict": False}
    chatcodec.decode_request("openai-responses", {"model": "gpt-4.1", "input": "hi", "tools": [tool]}, strict=True)
