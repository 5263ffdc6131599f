"""For every provider, tool names follow the provider's rule on encode
(``_providers/kit/tool_names.py``; each rule is its entry's ``tool_name_rule``, written out from
the provider's SDK or API reference rather than taken from the codecs). A blank name is
fitted like any other and reported at its JSON path (a call a model made with no
name must not stop the conversion); a name the provider would reject is rewritten the same way
in the tool list, in tool calls and in ``tool_choice`` (so the model can still call the
tool it was shown), and the rewrite is reported.
"""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from conformance.providers import PROVIDER, PROVIDER_NAMES

NAMES = ["t" * 65, "x" * 200, "get weather", "lookup.v2", "wetter_für_morgen", "1st_tool", "mcp:search"]

RULED = tuple(PROVIDER_NAMES)


def _names_a_tool(provider: str) -> bool:
    """Whether the provider's wire can name a tool in a tool choice (its capabilities say)."""
    return "tool" in chatcodec.get_codec(provider).capabilities.tool_choice  # type: ignore[attr-defined]


def _request(name: str, call_name: str | None = None, *, choice: bool = True) -> chatcodec.ChatRequest:
    call = {"type": "tool_use", "id": "call_1", "name": call_name if call_name is not None else name, "arguments": "{}"}
    chosen = {"tool_choice": {"type": "tool", "name": name}} if choice else {}
    return chatcodec.validate_model(
        chatcodec.ChatRequest,
        {
            "model": "m",
            "max_tokens": 100,
            "tools": [{"name": name, "parameters": {"type": "object", "properties": {}}}],
            **chosen,
            "messages": [
                {"role": "user", "content": "q"},
                {"role": "assistant", "content": [call]},
                {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
            ],
        },
    )


def _names(provider: str, body: dict[str, Any]) -> tuple[str, ...]:
    """The names a wire body gives the tool definition, the call, the choice and (where
    the wire names it) the result, read back by the provider's own decoder."""
    request = chatcodec.decode_request(provider, body)
    call = next(part for message in request.messages if message.role == "assistant" for part in message.parts)
    result = next(part for message in request.messages if message.role == "tool" for part in message.content)
    assert isinstance(call, chatcodec.ToolUsePart)
    names: tuple[str, ...] = (request.tools[0].name, call.name)
    if request.tool_choice is not None:
        names = (*names, request.tool_choice.name or "")
    return (*names, result.name) if result.name is not None else names


@pytest.mark.parametrize("provider", RULED)
@pytest.mark.parametrize("name", NAMES)
def test_names_the_provider_rejects_are_rewritten_everywhere_and_reported(provider: str, name: str) -> None:
    losses: list[chatcodec.Loss] = []
    choice = _names_a_tool(provider)
    body = chatcodec.encode_request(provider, _request(name, choice=choice), on_loss="ignore", losses=losses)
    sent = _names(provider, body)
    assert len(set(sent)) == 1, sent
    PROVIDER[provider].check_request(body)
    if PROVIDER[provider].tool_name_rule.match(name):
        assert sent[0] == name
        assert not [loss for loss in losses if loss.path.endswith(".name")]
        return
    assert PROVIDER[provider].tool_name_rule.match(sent[0]), sent
    expected = {"$.tools[0].name", "$.messages[1].content[0].name", *(["$.tool_choice.name"] if choice else [])}
    assert {loss.path for loss in losses} >= expected


@pytest.mark.parametrize("provider", RULED)
def test_different_long_names_stay_different(provider: str) -> None:
    first, second = "a" * 140 + "_one", "a" * 140 + "_two"
    request = chatcodec.ChatRequest(
        model="m",
        max_tokens=10,
        tools=[chatcodec.ToolDefinition(name=first), chatcodec.ToolDefinition(name=second)],
        messages=[chatcodec.UserMessage(content="q")],
    )
    body = chatcodec.encode_request(provider, request, on_loss="ignore")
    names = [tool.name for tool in chatcodec.decode_request(provider, body).tools]
    assert names[0] != names[1]
    assert all(PROVIDER[provider].tool_name_rule.match(name) for name in names)


@pytest.mark.parametrize("provider", RULED)
def test_valid_names_are_left_alone(provider: str) -> None:
    losses: list[chatcodec.Loss] = []
    request = _request("get_weather-v2", choice=_names_a_tool(provider))
    body = chatcodec.encode_request(provider, request, on_loss="ignore", losses=losses)
    assert set(_names(provider, body)) == {"get_weather-v2"}
    assert not [
        loss for loss in losses if "name" in loss.path
    ]  # a call may be reported for another reason (an unsigned one)


@pytest.mark.parametrize("provider", RULED)
@pytest.mark.parametrize(
    ("tool_name", "call_name", "path"),
    [
        (" ", "f", "$.tools[0].name"),
        ("f", "", "$.messages[1].content[0].name"),
        ("f", " \t", "$.messages[1].content[0].name"),
    ],
)
def test_blank_names_are_sent_fitted_and_reported_at_their_path(
    provider: str, tool_name: str, call_name: str, path: str
) -> None:
    request = _request(tool_name, call_name)
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_request(provider, request, on_loss="ignore", losses=losses)
    assert path in [loss.path for loss in losses if loss.what == "blank tool name"]
