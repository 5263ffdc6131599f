"""Ollama request bodies: what each ``/api/chat`` field reads as, and what is reported when
a canonical request says what Ollama cannot."""

from __future__ import annotations

import json
from typing import Any

import pytest

import chatcodec
from providers.ollama.ollama_support import assert_valid_request, load_json


def _encode(request: chatcodec.ChatRequest | dict[str, Any]) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("ollama", request, on_loss="ignore", losses=losses)
    assert_valid_request(body)
    return body, losses


def _request(**fields: Any) -> chatcodec.ChatRequest:
    return chatcodec.validate_model(
        chatcodec.ChatRequest, {"model": "qwen3", "messages": [{"role": "user", "content": "q"}], **fields}
    )


def _whats(losses: list[chatcodec.Loss]) -> list[str]:
    return [loss.what for loss in losses]


@pytest.mark.parametrize(
    ("think", "reasoning"),
    [
        (True, {"enabled": True}),
        (False, {"enabled": False}),
        ("low", {"effort": "low", "enabled": True}),
        ("max", {"effort": "max", "enabled": True}),
    ],
)
def test_think_reads_as_a_switch_or_an_effort_and_back(think: object, reasoning: dict[str, Any]) -> None:
    body = {"model": "qwen3", "messages": [{"role": "user", "content": "q"}], "think": think}
    request = chatcodec.decode_request("ollama", body)
    assert request.reasoning is not None
    assert request.reasoning.model_dump(exclude_none=True) == reasoning
    assert _encode(request) == (body, [])


@pytest.mark.parametrize(
    ("reasoning", "think", "reported"),
    [
        ({"effort": "none"}, False, []),
        ({"effort": "minimal", "enabled": True}, "low", ["reasoning effort 'minimal'"]),
        ({"effort": "xhigh", "enabled": True}, "high", ["reasoning effort 'xhigh'"]),
        ({"effort": "high"}, "high", ["effort 'high' without thinking"]),
        ({"enabled": True, "budget_tokens": 2048}, True, ["reasoning budget_tokens"]),
        ({"enabled": False, "effort": "high"}, False, ["reasoning effort 'high'"]),
    ],
)
def test_efforts_without_an_ollama_level_are_sent_as_the_nearest_and_reported(
    reasoning: dict[str, Any], think: object, reported: list[str]
) -> None:
    body, losses = _encode(_request(reasoning=reasoning))
    assert body["think"] == think
    assert _whats(losses) == reported


def test_format_json_is_json_mode_and_a_schema_is_a_json_schema() -> None:
    schema = load_json("request", "structured_outputs_schema.json")["format"]
    assert chatcodec.decode_request("ollama", load_json("request", "format_json.json")).response_format == (
        chatcodec.ResponseFormat(type="json_object")
    )
    decoded = chatcodec.decode_request("ollama", load_json("request", "structured_outputs_schema.json"))
    assert decoded.response_format == chatcodec.ResponseFormat(type="json_schema", json_schema=schema)


def test_a_schema_name_and_strict_false_have_no_field_and_are_reported() -> None:
    response_format = {"type": "json_schema", "name": "answer", "strict": False, "json_schema": {"type": "object"}}
    body, losses = _encode(_request(response_format=response_format))
    assert body["format"] == {"type": "object"}
    assert _whats(losses) == ["response format name", "strict: false"]
    assert "format" not in _encode(_request(response_format={"type": "text"}))[0]


def test_sampling_rides_in_options_with_num_predict_as_max_tokens_and_the_rest_kept() -> None:
    options = {"num_ctx": 8192, "temperature": 0.2, "num_predict": 64, "top_k": 20, "stop": ["\n"], "min_p": 0.05}
    body = {"model": "qwen3", "messages": [{"role": "user", "content": "q"}], "options": options}
    request = chatcodec.decode_request("ollama", body)
    assert (request.temperature, request.max_tokens, request.top_k, request.stop) == (0.2, 64, 20, ["\n"])
    assert request.provider_options == {"ollama": {"options": {"num_ctx": 8192, "min_p": 0.05}}}
    assert _encode(request) == (body, [])


@pytest.mark.parametrize("options", [{"num_predict": -1}, {"top_k": 40.5}, {"stop": "\n"}])
def test_options_with_no_canonical_reading_stay_as_they_came(options: dict[str, Any]) -> None:
    body = {"model": "qwen3", "messages": [], "options": options}
    request = chatcodec.decode_request("ollama", body)
    assert (request.max_tokens, request.top_k, request.stop) == (None, None, [])
    assert chatcodec.encode_request("ollama", request) == body


def test_results_without_ids_answer_the_calls_of_their_name_in_order() -> None:
    request = chatcodec.decode_request("ollama", load_json("request", "parallel_tool_results_by_name.json"))
    assistant, tool = request.messages[1], request.messages[2]
    assert isinstance(assistant, chatcodec.AssistantMessage)
    assert isinstance(tool, chatcodec.ToolMessage)
    calls = assistant.tool_calls
    assert [(call.name, json.loads(call.arguments)["city"]) for call in calls] == [
        ("get_temperature", "New York"),
        ("get_conditions", "New York"),
        ("get_temperature", "London"),
        ("get_conditions", "London"),
    ]
    assert [result.tool_use_id for result in tool.content] == [call.id for call in calls]
    assert len({call.id for call in calls}) == 4


def test_calls_and_results_from_openai_chat_get_ids_arguments_objects_and_tool_names() -> None:
    openai_body = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "q"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "call_9", "type": "function", "function": {"name": "f", "arguments": '{"a": [1, 2]}'}}
                ],
            },
            {"role": "tool", "tool_call_id": "call_9", "content": "ok"},
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        openai_body, source="openai-chat", target="ollama", on_loss="ignore", losses=losses
    )
    assert body["messages"][1:] == [
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"id": "call_9", "function": {"name": "f", "arguments": {"a": [1, 2]}}}],
        },
        {"role": "tool", "content": "ok", "tool_name": "f", "tool_call_id": "call_9"},
    ]
    assert losses == []


def test_integers_past_a_double_survive_in_arguments() -> None:
    arguments = '{"n":123456789012345678901234567890}'
    call = {"type": "tool_use", "id": "c", "name": "f", "arguments": arguments}
    body, losses = _encode(_request(messages=[{"role": "assistant", "content": [call]}]))
    assert body["messages"][0]["tool_calls"][0]["function"]["arguments"] == {"n": 123456789012345678901234567890}
    assert losses == []
    again = chatcodec.decode_request("ollama", json.loads(json.dumps(body))).messages[0]
    assert isinstance(again, chatcodec.AssistantMessage)
    assert again.tool_calls[0].arguments == arguments


def test_argument_text_that_is_not_an_object_is_wrapped_and_reported() -> None:
    call = {"type": "tool_use", "id": "c", "name": "f", "arguments": '{"a": 1'}
    body, losses = _encode(_request(messages=[{"role": "assistant", "content": [call]}]))
    assert body["messages"][0]["tool_calls"][0]["function"]["arguments"] == {"INVALID_JSON": '{"a": 1'}
    assert _whats(losses) == ["tool arguments"]


def test_images_are_base64_with_their_media_type_read_from_their_bytes() -> None:
    request = chatcodec.decode_request("ollama", load_json("request", "images_base64.json"))
    image, text = request.messages[0].parts
    assert isinstance(image, chatcodec.ImagePart)
    assert isinstance(image.source, chatcodec.Base64Source)
    assert image.source.media_type == "image/png"
    assert text == chatcodec.TextPart(text="what is in this image?")


def test_text_before_an_image_is_sent_after_it_and_reported() -> None:
    png = load_json("request", "images_base64.json")["messages"][0]["images"][0]
    content = [
        {"type": "text", "text": "look"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}},
        {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}},
    ]
    body, losses = _encode(_request(messages=[{"role": "user", "content": content}]))
    assert body["messages"] == [{"role": "user", "content": "look", "images": [png]}]
    assert _whats(losses) == ["url image", "order of the parts"]


def test_tool_choice_parallel_false_and_strict_tools_have_no_field_and_are_reported() -> None:
    tool = {"name": "f", "parameters": {"type": "object", "properties": {}}, "strict": True}
    _, losses = _encode(_request(tools=[tool], tool_choice={"type": "required"}, parallel_tool_calls=False))
    assert _whats(losses) == ["strict", "tool_choice", "parallel_tool_calls"]
    assert _encode(_request(tools=[{"name": "f"}], tool_choice={"type": "auto"}, parallel_tool_calls=True))[1] == []


def test_signed_thinking_from_another_provider_is_sent_as_its_text_and_reported() -> None:
    thinking = {"type": "thinking", "text": "hm", "signature": "c2ln", "provider": "anthropic"}
    message = {"role": "assistant", "content": [thinking, {"type": "text", "text": "a"}]}
    body, losses = _encode(_request(messages=[message]))
    assert body["messages"] == [{"role": "assistant", "thinking": "hm", "content": "a"}]
    assert _whats(losses) == ["thinking part from anthropic", "thinking signature"]


def test_a_developer_message_is_sent_as_system_and_reported() -> None:
    body, losses = _encode(_request(messages=[{"role": "developer", "content": "be brief"}]))
    assert body["messages"] == [{"role": "system", "content": "be brief"}]
    assert _whats(losses) == ["developer role"]


def test_a_body_without_messages_or_stream_is_written_back_without_them() -> None:
    body = {"model": "llama3.2", "keep_alive": "10m"}
    request = chatcodec.decode_request("ollama", body)
    assert (request.messages, request.stream) == ([], None)
    assert _encode(request) == (body, [])


def test_assistant_text_between_tool_calls_is_sent_as_consecutive_assistant_messages() -> None:
    """Responses items that alternate text and calls (text, call, call, text, call) are one
    canonical assistant message; an Ollama message holds one ``content`` before its
    ``tool_calls``, and the server takes consecutive assistant messages (its templates
    range over ``.Messages``): each run of text and the calls after it is its own message,
    so no text is joined to another without a separator, and the order stays."""
    responses = {
        "model": "llama3.2",
        "input": [
            {"role": "user", "content": "q"},
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "First."}]},
            {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
            {"type": "function_call", "call_id": "c2", "name": "f", "arguments": "{}"},
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Then."}]},
            {"type": "function_call", "call_id": "c3", "name": "g", "arguments": '{"a":1}'},
            *({"type": "function_call_output", "call_id": call, "output": "r"} for call in ("c1", "c2", "c3")),
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        responses, source="openai-responses", target="ollama", losses=losses, on_loss="ignore"
    )
    assistants = [message for message in body["messages"] if message["role"] == "assistant"]
    assert [(message["content"], [call["id"] for call in message["tool_calls"]]) for message in assistants] == [
        ("First.", ["c1", "c2"]),
        ("Then.", ["c3"]),
    ]
    assert [loss.kind for loss in losses] == ["spelling"]
    assert all(loss.what != "text parts" for loss in losses)


def test_assistant_text_after_its_last_call_stays_in_that_calls_message() -> None:
    """Responses items ``[user, function_call c1, assistant message, function_call_output c1]``
    (the OpenAI Agents SDK's converter shape): the text has no result before it, so it
    belongs to the call's turn. One Ollama assistant message holds it (``content`` before
    ``tool_calls``, api/types.go's ``Message``), as Ollama's own Responses layer and the
    OpenAI Chat writer send it: three messages, not a text-only assistant message between
    the call and its result."""
    responses = {
        "model": "llama3.2",
        "input": [
            {"role": "user", "content": "go"},
            {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Checking."}]},
            {"type": "function_call_output", "call_id": "c1", "output": "r"},
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        responses, source="openai-responses", target="ollama", losses=losses, on_loss="ignore"
    )
    assert body["messages"] == [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": "Checking.",
            "tool_calls": [{"id": "c1", "function": {"name": "f", "arguments": {}}}],
        },
        {"role": "tool", "content": "r", "tool_name": "f", "tool_call_id": "c1"},
    ]
    assert [loss.what for loss in losses] == ["order of the parts"]


@pytest.mark.parametrize("target", ["anthropic", "bedrock-converse"])
def test_an_ollama_thinking_level_reaches_claude_as_thinking_at_that_effort(target: str) -> None:
    """``think: "high"`` turns thinking on (Ollama's ``ThinkValue``: "a level of thinking",
    api/types.go); on Claude 4.6+ an effort alone answers without thinking, so the level is
    adaptive thinking at that effort, as an OpenAI ``reasoning_effort`` is."""
    body = {"model": "claude-opus-4-7", "messages": [{"role": "user", "content": "q"}], "think": "high"}
    written = chatcodec.convert_request(body, source="ollama", target=target, on_loss="ignore")
    thinking = written["thinking"] if target == "anthropic" else written["additionalModelRequestFields"]["thinking"]
    assert thinking == {"type": "adaptive"}
    assert written["output_config" if target == "anthropic" else "outputConfig"] == {"effort": "high"}


def test_thinking_no_provider_produced_reads_back_as_ollamas_and_the_law_facts_say_so() -> None:
    """A thinking part of unknown origin is sent as ``thinking`` and read back as Ollama's, with
    no report (no producer to lose); the law facts held it the caller's, so the losses law failed
    on such a draw (the long profile's). Another provider's thinking is reported."""
    from chatcodec.testing._laws.built_in.ollama import entry

    single_hop = entry().single_hop
    for text in ("step one", ""):
        request = chatcodec.validate_model(
            chatcodec.ChatRequest,
            {"messages": [{"role": "assistant", "content": [{"type": "thinking", "text": text}]}]},
        )
        losses: list[chatcodec.Loss] = []
        body = chatcodec.encode_request("ollama", request, on_loss="ignore", losses=losses)
        assert body["messages"] == [{"role": "assistant", "thinking": text, "content": ""}]
        assert [loss for loss in losses if loss.path != "$.model"] == []
        decoded = chatcodec.decode_request("ollama", body)
        assert single_hop.decoded(decoded) == single_hop.original(request)
    foreign = {"type": "thinking", "text": "x", "provider": "anthropic"}
    losses = []
    chatcodec.encode_request(
        "ollama",
        chatcodec.validate_model(chatcodec.ChatRequest, {"messages": [{"role": "assistant", "content": [foreign]}]}),
        on_loss="ignore",
        losses=losses,
    )
    assert [loss.what for loss in losses if loss.path != "$.model"] == ["thinking part from anthropic"]
