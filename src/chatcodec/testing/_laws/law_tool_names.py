"""For every codec, tool names follow the codec's rule on encode (its entry's
``tool_name_rule``, written out from the provider's SDK or API reference rather than taken
from the codec). A blank name is fitted like any other and reported at its JSON path (a call
a model made with no name must not stop the conversion); a name the wire would reject is
rewritten the same way in the tool list, in tool calls and in ``tool_choice`` (so the model
can still call the tool it was shown), and the rewrite is reported. A codec checked without
a stated rule has only the laws that need none.
"""

from __future__ import annotations

from typing import Any

import chatcodec
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.registry import law
from chatcodec.testing._laws.suite import Suite, capabilities, carries_tool_definitions

NAMES = ["t" * 65, "x" * 200, "get weather", "lookup.v2", "wetter_für_morgen", "1st_tool", "mcp:search"]


def _defining(suite: Suite) -> list[ProviderEntry]:
    """The entries whose requests carry tool definitions: a stored history has none, so the
    laws reading a definition's name have no case for it."""
    return [entry for entry in suite.entries if carries_tool_definitions(entry.name)]


def _ruled(suite: Suite) -> list[ProviderEntry]:
    return [entry for entry in _defining(suite) if entry.tool_name_rule is not None]


def _fitting(suite: Suite) -> list[ProviderEntry]:
    """The entries whose wire fits a blank name (its capabilities' ``fitted_tool_names``)."""
    found = [(entry, capabilities(entry.name)) for entry in suite.entries]
    return [entry for entry, caps in found if caps is None or caps.fitted_tool_names]


def _names_a_tool(provider: str) -> bool:
    """Whether the codec's wire can name a tool in a tool choice (its capabilities say)."""
    found = capabilities(provider)
    return found is None or "tool" in found.tool_choice


def _request(name: str, call_name: str | None = None, *, choice: bool = True) -> chatcodec.ChatRequest:
    call: dict[str, Any] = {
        "type": "tool_use",
        "id": "call_1",
        "name": call_name if call_name is not None else name,
        "arguments": "{}",
    }
    chosen: dict[str, Any] = {"tool_choice": {"type": "tool", "name": name}} if choice else {}
    body: dict[str, Any] = {
        "model": "m",
        "max_tokens": 100,
        "tools": [{"name": name, "parameters": {"type": "object", "properties": {}}}],
        **chosen,
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
        ],
    }
    return chatcodec.validate_model(chatcodec.ChatRequest, body)


def _names(provider: str, body: dict[str, Any]) -> tuple[str, ...]:
    """The names a wire body gives the tool definition, the call, the choice and (where
    the wire names it) the result, read back by the codec's own decoder."""
    request = chatcodec.decode_request(provider, body)
    call = next(part for message in request.messages if message.role == "assistant" for part in message.parts)
    messages: list[Any] = list(request.messages)
    result = next(part for message in messages if message.role == "tool" for part in message.content)
    assert isinstance(call, chatcodec.ToolUsePart)
    names: tuple[str, ...] = (request.tools[0].name, call.name)
    if request.tool_choice is not None:
        names = (*names, request.tool_choice.name or "")
    result_name: str | None = getattr(result, "name", None)
    return (*names, result_name) if result_name is not None else names


@law(lambda suite: [(entry, name) for name in NAMES for entry in _ruled(suite)])
def names_the_codec_rejects_are_rewritten_everywhere_and_reported(provider: ProviderEntry, name: str) -> None:
    rule = provider.tool_name_rule
    assert rule is not None
    losses: list[chatcodec.Loss] = []
    choice = _names_a_tool(provider.name)
    body = chatcodec.encode_request(provider.name, _request(name, choice=choice), on_loss="ignore", losses=losses)
    sent = _names(provider.name, body)
    assert len(set(sent)) == 1, sent
    provider.check_request(body)
    if rule.match(name):
        assert sent[0] == name
        assert not [loss for loss in losses if loss.path.endswith(".name")]
        return
    assert rule.match(sent[0]), sent
    expected = {"$.tools[0].name", "$.messages[1].content[0].name", *(["$.tool_choice.name"] if choice else [])}
    assert {loss.path for loss in losses} >= expected


@law(_ruled)
def different_long_names_stay_different(provider: ProviderEntry) -> None:
    rule = provider.tool_name_rule
    assert rule is not None
    first, second = "a" * 140 + "_one", "a" * 140 + "_two"
    request = chatcodec.ChatRequest(
        model="m",
        max_tokens=10,
        tools=[chatcodec.ToolDefinition(name=first), chatcodec.ToolDefinition(name=second)],
        messages=[chatcodec.UserMessage(content="q")],
    )
    body = chatcodec.encode_request(provider.name, request, on_loss="ignore")
    names = [tool.name for tool in chatcodec.decode_request(provider.name, body).tools]
    assert names[0] != names[1]
    assert all(rule.match(name) for name in names)


@law(_defining)
def valid_names_are_left_alone(provider: ProviderEntry) -> None:
    losses: list[chatcodec.Loss] = []
    request = _request("get_weather-v2", choice=_names_a_tool(provider.name))
    body = chatcodec.encode_request(provider.name, request, on_loss="ignore", losses=losses)
    assert set(_names(provider.name, body)) == {"get_weather-v2"}
    assert not [loss for loss in losses if "name" in loss.path]  # a call may be reported for another reason


_BLANKS = [
    (" ", "f", "$.tools[0].name"),
    ("f", "", "$.messages[1].content[0].name"),
    ("f", " \t", "$.messages[1].content[0].name"),
]


@law(
    lambda suite: [
        (entry, *blank)
        for blank in _BLANKS
        for entry in _fitting(suite)
        if blank[2] != "$.tools[0].name" or entry in _defining(suite)
    ]
)
def blank_names_are_sent_fitted_and_reported_at_their_path(
    provider: ProviderEntry, tool_name: str, call_name: str, path: str
) -> None:
    request = _request(tool_name, call_name)
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_request(provider.name, request, on_loss="ignore", losses=losses)
    assert path in [loss.path for loss in losses if loss.what == "blank tool name"]
