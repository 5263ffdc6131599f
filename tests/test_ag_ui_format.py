"""AG-UI messages as the ``ag-ui`` format (issue 110).

The fixtures in ``tests/fixtures/ag_ui/`` are AG-UI's own examples (its docs, its Python SDK's
tests) and pydantic-ai's AG-UI adapter tests, with their sources in the folder's README. The
oracle is AG-UI's own Python SDK (``ag_ui.core``, ``ag-ui-protocol`` 1.0.0 in the dev extra):
what chatcodec reads validates as its ``Message`` union, and so does what chatcodec writes, from
a fixture or from any generated conversation; pydantic-ai's ``AGUIAdapter`` loads what chatcodec
writes, and chatcodec reads what the adapter dumps.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

import chatcodec
from chatcodec.testing import chat_requests

ag_ui_core = pytest.importorskip("ag_ui.core")
from pydantic import TypeAdapter  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures" / "ag_ui"
CURRENT = sorted(path.name for path in FIXTURES.glob("*.json") if path.name != "pydantic_ai_messages.json")
"""The fixtures on AG-UI 1.0's wire (``pydantic_ai_messages.json`` holds the parts before 1.0)."""

MESSAGES: TypeAdapter[list[Any]] = TypeAdapter(list[ag_ui_core.Message])


def _fixture(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return loaded


def _oracle(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``messages`` as AG-UI's SDK reads and dumps them (its wire spelling, nothing it drops)."""
    return [message.model_dump(by_alias=True, mode="json") for message in MESSAGES.validate_python(messages)]


@pytest.mark.parametrize("name", CURRENT)
def test_an_ag_ui_example_validates_and_comes_back_exactly(name: str) -> None:
    wire = _fixture(name)
    assert _oracle(wire["messages"]) == wire["messages"]  # the example is AG-UI 1.0's, as its SDK reads it
    assert chatcodec.convert_request(wire, source="ag-ui", target="ag-ui", on_loss="error") == wire


def test_a_run_agent_input_gives_its_tools_and_keeps_its_run_fields_in_the_requests_bag() -> None:
    wire = _fixture("sdk_run_agent_input.json")
    ag_ui_core.RunAgentInput.model_validate(wire)
    request = chatcodec.decode_request("ag-ui", wire)
    roles = [message.role for message in request.messages]
    assert roles == ["system", "user", "developer", "assistant", "tool", "user"]
    assert [(tool.name, tool.parameters["required"]) for tool in request.tools] == [
        ("analyze_data", ["dataset"]),
        ("fetch_data", ["source", "query"]),
    ]
    kept = (request.provider_options or {})["ag-ui"]
    assert sorted(kept) == ["context", "forwardedProps", "parentRunId", "runId", "state", "threadId"]
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("openai-chat", request, on_loss="ignore", losses=losses)
    assert [tool["function"]["name"] for tool in body["tools"]] == ["analyze_data", "fetch_data"]
    assert any(loss.path == "$.provider_options" and "threadId" in loss.what for loss in losses)


def test_tools_without_parameters_or_description_come_back_as_they_were() -> None:
    wire = {
        "threadId": "t",
        "runId": "r",
        "messages": [],
        "tools": [
            {"name": "now", "description": ""},
            {"name": "confirm", "description": "Ask the user", "parameters": {"type": "object"}, "metadata": {"ui": 1}},
        ],
        "context": [],
    }
    ag_ui_core.RunAgentInput.model_validate(wire)
    request = chatcodec.decode_request("ag-ui", wire)
    assert (request.tools[0].description, request.tools[0].parameters) == (None, {"type": "object", "properties": {}})
    assert chatcodec.encode_request("ag-ui", request, on_loss="error") == wire
    empty = {"threadId": "t", "runId": "r", "messages": [], "tools": []}
    assert chatcodec.convert_request(empty, source="ag-ui", target="ag-ui", on_loss="error") == empty


@pytest.mark.parametrize(
    ("tool", "path"),
    [
        ({"name": "f", "description": "d", "parameters": 3}, "$.tools[0].parameters"),
        ({"name": "f", "description": 3}, "$.tools[0].description"),
        ({"name": "f"}, "$.tools[0]:"),  # found by the fuzz harness: no description is named at the tool
        ({"description": "d"}, "$.tools[0]:"),
    ],
)
def test_a_tool_ag_ui_would_refuse_is_refused_at_its_path(tool: dict[str, Any], path: str) -> None:
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.decode_request("ag-ui", {"messages": [], "tools": [tool]})
    assert path in str(caught.value)


def test_a_canonical_tool_is_written_as_ag_uis_tool_and_what_it_lacks_is_reported() -> None:
    request = chatcodec.ChatRequest.model_validate(
        {
            "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"name": "f", "parameters": {"type": "object", "properties": {}}, "strict": True}],
            "tool_choice": {"type": "required"},
        }
    )
    losses: list[chatcodec.Loss] = []
    written = chatcodec.encode_request("ag-ui", request, on_loss="ignore", losses=losses)
    assert written["tools"] == [{"name": "f", "description": "", "parameters": {"type": "object", "properties": {}}}]
    assert sorted(loss.path for loss in losses) == ["$.tool_choice", "$.tools[0].strict"]
    ag_ui_core.RunAgentInput.model_validate({"threadId": "t", "runId": "r", **written})


def test_the_docs_conversation_reads_as_the_turns_it_shows() -> None:
    request = chatcodec.decode_request("ag-ui", _fixture("docs_conversation.json"))
    user, assistant, tool, answer = request.messages
    assert user.text == "What's the weather in New York?"
    assert isinstance(assistant, chatcodec.AssistantMessage)
    assert assistant.text == "Let me check the weather for you."
    (call,) = assistant.tool_calls
    assert (call.id, call.name, call.parsed_arguments()) == (
        "call_1",
        "get_weather",
        {"location": "New York", "unit": "celsius"},
    )
    assert isinstance(tool, chatcodec.ToolMessage)
    assert tool.tool_call_id == "call_1"
    assert "Partly Cloudy" in tool.text
    assert answer.text.startswith("The weather in New York is partly cloudy")
    assert [(message.provider_metadata or {}).get("ag-ui") for message in (user, assistant, answer)] == [
        {"id": "msg_1"},
        {"id": "msg_2"},
        {"id": "msg_3"},
    ]


@pytest.mark.parametrize("name", CURRENT)
@pytest.mark.parametrize("target", ["openai-chat", "anthropic"])
def test_an_example_converts_to_a_provider_and_back_with_its_conversation(name: str, target: str) -> None:
    """Through OpenAI Chat or Anthropic and back, the conversation is the same (ids and the bags
    a provider has no field for are reported, each a loss) and what comes back is AG-UI 1.0's."""
    wire = _fixture(name)
    original = chatcodec.decode_request("ag-ui", wire)
    there: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        wire, source="ag-ui", target=target, on_loss="ignore", losses=there, options={"model": "m"}
    )
    back = chatcodec.convert_request(body, source=target, target="ag-ui", on_loss="ignore")
    _oracle(back["messages"])
    assert any("ag-ui data" in loss.what for loss in there)  # the ids, reported
    again = chatcodec.decode_request("ag-ui", back)
    assert _said(again) == _said(original)


def _said(request: chatcodec.ChatRequest) -> list[tuple[str, str, list[tuple[str, Any]]]]:
    """Who said which text and which calls they made (what every format keeps of a turn; a turn
    of media alone a provider may leave out, reported)."""
    said = []
    for message in request.messages:
        if not message.text and not getattr(message, "tool_calls", []):
            continue
        calls = [(call.name, call.parsed_arguments()) for call in getattr(message, "tool_calls", [])]
        role = "system" if message.role == "developer" else message.role  # Anthropic has no developer role
        said.append((role, _as_json(message.text) if role == "tool" else message.text, calls))
    return _joined(said)


def _as_json(text: str) -> str:
    """A result's JSON text in one spelling (pydantic-ai dumps a result it parsed compactly)."""
    try:
        return json.dumps(json.loads(text))
    except ValueError:
        return text


def _joined(said: list[tuple[str, str, list[tuple[str, Any]]]]) -> list[tuple[str, str, list[tuple[str, Any]]]]:
    """Consecutive results as one group, leading instructions as one prompt (Anthropic's)."""
    joined: list[tuple[str, str, list[tuple[str, Any]]]] = []
    for entry in said:
        leading = entry[0] == "system" and all(each[0] == "system" for each in joined)
        if joined and (entry[0] == joined[-1][0] == "tool" or (leading and joined[-1][0] == "system")):
            joined[-1] = (entry[0], joined[-1][1] + entry[1], [])
        else:
            joined.append(entry)
    return joined


def test_parts_before_1_0_read_as_media_and_are_written_as_1_0_parts() -> None:
    """pydantic-ai's ``test_messages``: ``binary`` parts by URL or bytes read as the media their
    ``mimeType`` names, and are written as AG-UI 1.0's media parts, as AG-UI's compatibility
    boundary upgrades them."""
    wire = _fixture("pydantic_ai_messages.json")
    request = chatcodec.decode_request("ag-ui", wire)
    kinds = [part.type for message in request.messages[4:10] for part in message.parts if part.type != "text"]
    assert kinds == ["image", "image", "video", "audio", "document", "document"]
    document = request.messages[9].parts[0]
    assert isinstance(document, chatcodec.DocumentPart)
    assert document.source.model_dump() == {
        "type": "base64",
        "media_type": "text/plain",
        "data": "SGVsbG8sIHdvcmxkIQ==",
    }
    written = chatcodec.encode_request("ag-ui", request, on_loss="error")["messages"]
    assert _oracle(written) == written
    assert written[5]["content"] == [
        {"type": "image", "source": {"type": "url", "value": "http://example.com/image.png", "mimeType": "image/png"}}
    ]
    assert [message["id"] for message in written] == [message["id"] for message in wire["messages"]]


def test_reasoning_before_an_answer_is_its_thinking_and_keeps_its_encrypted_value() -> None:
    """pydantic-ai's ``test_reasoning_message_thinking_roundtrip``: the reasoning message and the
    answer after it are one assistant turn; its ``encryptedValue`` is the thinking's opaque payload."""
    wire = _fixture("pydantic_ai_reasoning.json")
    (message,) = chatcodec.decode_request("ag-ui", wire).messages
    thinking, text = message.parts
    assert isinstance(thinking, chatcodec.ThinkingPart)
    assert thinking.text == "Let me think about this..."
    assert json.loads(thinking.encrypted or "")["signature"] == "sig_abc123"
    assert text.model_dump(exclude_none=True) == {"type": "text", "text": "Here is my response"}


def test_a_failed_tool_is_an_error_result_and_its_error_text_is_no_extra_data() -> None:
    wire = _fixture("pydantic_ai_failed_tool.json")
    request = chatcodec.decode_request("ag-ui", wire)
    result = request.messages[1].content[0]
    assert isinstance(result, chatcodec.ToolResultPart)
    assert result.is_error
    assert result.text == "tool failed"
    assert result.provider_metadata == {"ag-ui": {"id": "msg-2"}}
    other = json.loads(json.dumps(wire))
    other["messages"][1]["error"] = "timed out"
    read = chatcodec.decode_request("ag-ui", other).messages[1].content[0]
    assert (read.provider_metadata or {})["ag-ui"]["error"] == "timed out"
    assert chatcodec.encode_request("ag-ui", chatcodec.decode_request("ag-ui", other)) == other


def test_an_activity_rides_with_the_message_after_it_and_is_reported_elsewhere() -> None:
    wire = _fixture("sdk_parts.json")
    request = chatcodec.decode_request("ag-ui", wire)
    developer = request.messages[-1]
    assert developer.role == "developer"
    assert (developer.provider_metadata or {})["ag-ui"]["activities_before"] == [wire["messages"][3]]
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_request("openai-chat", request, on_loss="ignore", losses=losses)
    assert [loss.path for loss in losses if "activities_before" in loss.what] == ["$.messages[3]"]


def test_activities_alone_and_activities_last_come_back() -> None:
    alone = {"messages": [{"id": "a", "role": "activity", "activityType": "PLAN", "content": {"steps": []}}]}
    assert chatcodec.convert_request(alone, source="ag-ui", target="ag-ui", on_loss="error") == alone
    last = {"messages": [{"id": "u", "role": "user", "content": "hi"}, *alone["messages"]]}
    assert chatcodec.convert_request(last, source="ag-ui", target="ag-ui", on_loss="error") == last


def test_reasoning_no_answer_followed_is_a_turn_of_its_own() -> None:
    wire = {
        "messages": [
            {"id": "r", "role": "reasoning", "content": "hmm"},
            {"id": "u", "role": "user", "content": "go on"},
        ]
    }
    request = chatcodec.decode_request("ag-ui", wire)
    assert [message.role for message in request.messages] == ["assistant", "user"]
    assert chatcodec.encode_request("ag-ui", request, on_loss="error") == wire


def test_a_made_up_id_is_no_data_and_a_canonical_turn_gets_ids() -> None:
    request = chatcodec.ChatRequest.model_validate(
        {
            "messages": [
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": [{"type": "thinking", "text": "t"}, {"type": "text", "text": "a"}]},
            ]
        }
    )
    written = chatcodec.encode_request("ag-ui", request, on_loss="error")
    assert [message["id"] for message in written["messages"]] == ["message-0", "message-1", "message-2"]
    assert [message["role"] for message in written["messages"]] == ["user", "reasoning", "assistant"]
    assert chatcodec.decode_request("ag-ui", written) == request


@pytest.mark.parametrize(
    ("content", "what"),
    [
        (
            [{"type": "tool_use", "id": "c", "name": "f", "arguments": "{}"}, {"type": "text", "text": "after"}],
            "text after a call",
        ),
        ([{"type": "text", "text": "a"}, {"type": "thinking", "text": "t"}], "reasoning after the answer"),
        ([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "text parts"),
        ([{"type": "thinking", "text": "t", "signature": "s"}], "thinking signature"),
        ([{"type": "refusal", "text": "no"}], "refusal"),
    ],
)
def test_what_an_assistant_message_cannot_hold_is_reported_where_it_stands(content: Any, what: str) -> None:
    request = chatcodec.ChatRequest.model_validate({"messages": [{"role": "assistant", "content": content}]})
    losses: list[chatcodec.Loss] = []
    written = chatcodec.encode_request("ag-ui", request, on_loss="ignore", losses=losses)
    assert what in [loss.what for loss in losses]
    assert all(loss.path.startswith("$.messages[0]") for loss in losses)
    _oracle(written["messages"])


def test_a_result_named_as_its_call_is_no_loss_and_another_name_is() -> None:
    call = {"role": "assistant", "content": [{"type": "tool_use", "id": "c", "name": "f", "arguments": "{}"}]}
    for name, lost in (("f", False), ("g", True)):
        result = {"type": "tool_result", "tool_use_id": "c", "content": "ok", "name": name}
        request = chatcodec.ChatRequest.model_validate({"messages": [call, {"role": "tool", "content": [result]}]})
        losses: list[chatcodec.Loss] = []
        chatcodec.encode_request("ag-ui", request, on_loss="ignore", losses=losses)
        assert [loss.path for loss in losses] == (["$.messages[1].content[0].name"] if lost else [])


@pytest.mark.parametrize(
    ("message", "path", "words"),
    [
        ({"id": "m", "role": "critic", "content": "x"}, "$.messages[0]", "role 'critic'"),
        ({"role": "user", "content": "x"}, "$.messages[0]", "string id"),
        ({"id": "m", "role": "system", "content": [{"type": "text", "text": "x"}]}, "$.messages[0]", "content"),
        ({"id": "m", "role": "tool", "content": "x"}, "$.messages[0]", "toolCallId"),
        (
            {"id": "m", "role": "assistant", "toolCalls": [{"id": "c", "function": {"name": "f"}}]},
            "$.messages[0]",
            "toolCalls[0].function",
        ),
        (
            {"id": "m", "role": "user", "content": [{"type": "image", "source": {"type": "data", "value": "AA=="}}]},
            "$.messages[0]",
            "content[0].source.mimeType",
        ),
        (  # found by the fuzz harness: a source type that is no string
            {"id": "m", "role": "user", "content": [{"type": "image", "source": {"type": {}, "value": "x"}}]},
            "$.messages[0]",
            "content[0].source: an object whose type is data, url or file",
        ),
    ],
)
def test_a_message_ag_ui_refuses_is_refused_at_its_path(message: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.decode_request("ag-ui", {"messages": [message]})
    assert path in str(caught.value)
    assert words in str(caught.value)


def test_validate_messages_reads_an_ag_ui_list() -> None:
    messages = chatcodec.validate_messages(_fixture("docs_conversation.json")["messages"])
    assert [message.role for message in messages] == ["user", "assistant", "tool", "assistant"]
    assert messages[1].tool_calls[0].name == "get_weather"


def test_a_response_is_the_messages_of_one_answer() -> None:
    wire = _fixture("pydantic_ai_reasoning.json")
    response = chatcodec.decode_response("ag-ui", wire)
    assert response.id == "msg-1"
    assert [part.type for part in response.choices[0].message.parts] == ["thinking", "text"]
    assert chatcodec.encode_response("ag-ui", response, on_loss="error") == wire
    with pytest.raises(chatcodec.ValidationError):
        chatcodec.decode_response("ag-ui", _fixture("docs_tool_call.json"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(request=chat_requests())
def test_what_chatcodec_writes_is_ag_uis_own_message_list(request: chatcodec.ChatRequest) -> None:
    """Any conversation, written as AG-UI, validates as AG-UI 1.0's ``RunAgentInput`` messages."""
    written = chatcodec.encode_request("ag-ui", request, on_loss="ignore")
    ag_ui_core.RunAgentInput.model_validate({"threadId": "t", "runId": "r", "messages": written["messages"]})
    assert _oracle(written["messages"]) == written["messages"]


def test_pydantic_ais_adapter_loads_what_chatcodec_writes_and_chatcodec_reads_what_it_dumps() -> None:
    """pydantic-ai's ``AGUIAdapter`` (the adapter the issue's threads ask to convert through):
    chatcodec's writing of a conversation loads as the same turns, and dumped again reads back
    as the conversation (its fresh ids, and its ``encryptedValue`` JSON on reasoning, aside)."""
    adapter = pytest.importorskip("pydantic_ai.ui.ag_ui").AGUIAdapter
    wire = _fixture("docs_conversation.json")
    loaded = adapter.load_messages(MESSAGES.validate_python(wire["messages"]))
    assert [message.kind for message in loaded] == ["request", "response", "request", "response"]
    dumped = [message.model_dump(by_alias=True, mode="json") for message in adapter.dump_messages(loaded)]
    read = chatcodec.decode_request("ag-ui", {"messages": dumped})
    original = chatcodec.decode_request("ag-ui", wire)
    assert _said(read) == _said(original)
    assert read.messages[2].content[0].tool_use_id == "call_1"


def test_ag_uis_sdk_objects_read_as_their_wire_and_a_snake_case_dump_is_refused_by_name() -> None:
    """The SDK's models are read as they dump ``by_alias`` (AG-UI's wire); ``model_dump()``
    without it spells ``tool_calls``, which would read as an unknown field: refused, named."""
    messages = MESSAGES.validate_python(_fixture("docs_conversation.json")["messages"])
    assert chatcodec.validate_messages(messages) == chatcodec.validate_messages(
        _fixture("docs_conversation.json")["messages"]
    )
    snake = [message.model_dump() for message in messages]
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.decode_request("ag-ui", {"messages": snake})
    assert "$.messages[1]" in str(caught.value)
    assert "tool_calls: AG-UI's wire spells it toolCalls" in str(caught.value)


def test_pydantic_ais_adapter_loads_a_conversation_chatcodec_wrote_from_another_format() -> None:
    """An Anthropic conversation (thinking, a call, its result, an image) written as AG-UI by
    chatcodec loads in pydantic-ai's ``AGUIAdapter`` as the same turns and parts."""
    adapter = pytest.importorskip("pydantic_ai.ui.ag_ui").AGUIAdapter
    parts = pytest.importorskip("pydantic_ai.messages")
    anthropic = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is in this picture, and the weather there?"},
                    {"type": "image", "source": {"type": "url", "url": "https://example.com/paris.png"}},
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "It shows Paris.", "signature": "c2ln"},
                    {"type": "text", "text": "Paris. Checking the weather."},
                    {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
                ],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"}]},
        ],
    }
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(anthropic, source="anthropic", target="ag-ui", on_loss="ignore", losses=losses)
    assert sorted(loss.what for loss in losses) == ["max_tokens", "thinking provider", "thinking signature"]
    loaded = adapter.load_messages(MESSAGES.validate_python(written["messages"]))
    request, response, results = loaded
    prompt = request.parts[0]
    assert isinstance(prompt, parts.UserPromptPart)
    assert prompt.content[0] == "What is in this picture, and the weather there?"
    assert isinstance(prompt.content[1], parts.ImageUrl)
    assert [type(part).__name__ for part in response.parts] == ["ThinkingPart", "TextPart", "ToolCallPart"]
    assert response.parts[2].args_as_dict() == {"city": "Paris"}
    (result,) = results.parts
    assert (result.tool_name, result.tool_call_id, result.content) == ("get_weather", "toolu_1", "sunny")
