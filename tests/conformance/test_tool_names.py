"""Issue 10 item 7, for every provider: tool names follow the provider's rule on encode.

OpenAI function names must match ``^[a-zA-Z0-9_-]{1,64}$`` (the SDK's
``FunctionDefinition.name``); Anthropic documents the same pattern for client tools. A
blank name is an error naming its JSON path; a name the provider would reject is
rewritten the same way in the tool list, in tool calls and in ``tool_choice`` (so the
model can still call the tool it was shown), and the rewrite is reported.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import chatcodec
from conformance.providers import PROVIDER

RULED = ("openai-chat", "anthropic")
"""The codecs whose encoders apply the kit's ``tool_name`` rule (OpenAI's pattern, which
Anthropic shares). bedrock-converse fits names to botocore's ``ToolName`` pattern and tests
it in ``tests/providers/bedrock_converse``; gemini (whose pattern also allows ``.`` and
``:``) and openai-responses do not check names yet: a known gap, listed in the session
note, to close by giving each its pattern here."""

VALID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


def _request(name: str, call_name: str | None = None) -> chatcodec.ChatRequest:
    call = {"type": "tool_use", "id": "call_1", "name": call_name if call_name is not None else name, "arguments": "{}"}
    return chatcodec.validate_model(
        chatcodec.ChatRequest,
        {
            "model": "m",
            "max_tokens": 100,
            "tools": [{"name": name, "parameters": {"type": "object", "properties": {}}}],
            "tool_choice": {"type": "tool", "name": name},
            "messages": [
                {"role": "user", "content": "q"},
                {"role": "assistant", "content": [call]},
                {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
            ],
        },
    )


def _names(provider: str, body: dict[str, Any]) -> tuple[str, str, str]:
    """(tool definition, tool call, tool choice) names in a wire body."""
    if provider == "openai-chat":
        return (
            body["tools"][0]["function"]["name"],
            body["messages"][1]["tool_calls"][0]["function"]["name"],
            body["tool_choice"]["function"]["name"],
        )
    return body["tools"][0]["name"], body["messages"][1]["content"][0]["name"], body["tool_choice"]["name"]


@pytest.mark.parametrize("provider", RULED)
@pytest.mark.parametrize("name", ["t" * 65, "x" * 200, "get weather", "lookup.v2", "wetter_für_morgen"])
def test_item_07_names_the_provider_rejects_are_rewritten_everywhere_and_reported(provider: str, name: str) -> None:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(provider, _request(name), on_loss="ignore", losses=losses)
    sent = _names(provider, body)
    assert len(set(sent)) == 1, sent
    assert VALID.match(sent[0]), sent
    assert {loss.path for loss in losses} >= {"$.tools[0].name", "$.messages[1].content[0].name", "$.tool_choice.name"}
    PROVIDER[provider].check_request(body)


@pytest.mark.parametrize("provider", RULED)
def test_item_07_different_long_names_stay_different(provider: str) -> None:
    first, second = "a" * 70 + "_one", "a" * 70 + "_two"
    request = chatcodec.ChatRequest(
        model="m",
        max_tokens=10,
        tools=[chatcodec.ToolDefinition(name=first), chatcodec.ToolDefinition(name=second)],
        messages=[chatcodec.UserMessage(content="q")],
    )
    body = chatcodec.encode_request(provider, request, on_loss="ignore")
    tools = body["tools"]
    names = [tool["function"]["name"] if "function" in tool else tool["name"] for tool in tools]
    assert names[0] != names[1]
    assert all(VALID.match(name) for name in names)


@pytest.mark.parametrize("provider", RULED)
def test_item_07_valid_names_are_left_alone(provider: str) -> None:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(provider, _request("get_weather-v2"), on_loss="ignore", losses=losses)
    assert _names(provider, body) == ("get_weather-v2",) * 3
    assert losses == []


@pytest.mark.parametrize("provider", RULED)
@pytest.mark.parametrize(
    ("tool_name", "call_name", "path"),
    [
        (" ", "f", "$.tools[0].name"),
        ("f", "", "$.messages[1].content[0].name"),
        ("f", " \t", "$.messages[1].content[0].name"),
    ],
)
def test_item_07_blank_names_are_an_error_naming_the_path(
    provider: str, tool_name: str, call_name: str, path: str
) -> None:
    request = _request(tool_name, call_name)
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.encode_request(provider, request, on_loss="ignore")
    assert caught.value.paths == [path]
