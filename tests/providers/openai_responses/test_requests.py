"""Requests both ways: every item and part kind the issue lists round trips exactly and
passes the SDK oracle; what canonical maps is checked field by field."""

from __future__ import annotations

from typing import Any

import chatcodec
from chatcodec import AssistantMessage, SystemMessage, ToolMessage, UserMessage
from providers.openai_responses.responses_support import FORMAT, assert_request_matches_sdk, encode_request

PNG = "iVBORw0KGgo="


def _every_kind() -> dict[str, Any]:
    return {
        "model": "gpt-4.1",  # a GPT-5 model takes no temperature beside an effort (families/openai/model_rules.py)
        "instructions": "Be brief.",
        "input": [
            {"role": "developer", "content": "Use metric units."},
            {
                "type": "message",
                "role": "user",
                "content": [
                    {
                        "type": "input_text",
                        "text": "Look",
                        "prompt_cache_breakpoint": {"mode": "explicit", "ttl": "12h"},
                    },
                    {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}", "detail": "high"},
                    {"type": "input_image", "file_id": "file_1", "detail": "original"},
                    {"type": "input_file", "file_id": "file_2", "filename": "a.pdf"},
                    {"type": "input_file", "file_url": "https://example.com/b.pdf"},
                    {"type": "input_file", "file_data": "data:application/pdf;base64,JVBERi0=", "filename": "c.pdf"},
                ],
            },
            {
                "type": "reasoning",
                "id": "rs_1",
                "summary": [{"type": "summary_text", "text": "Plan."}],
                "content": [{"type": "reasoning_text", "text": "raw"}],
                "encrypted_content": "gAAA",
            },
            {
                "type": "message",
                "id": "msg_1",
                "status": "completed",
                "role": "assistant",
                "phase": "commentary",
                "content": [
                    {
                        "type": "output_text",
                        "text": "See",
                        "annotations": [
                            {"type": "url_citation", "url": "https://x", "title": "x", "start_index": 0, "end_index": 3}
                        ],
                    },
                    {"type": "refusal", "refusal": "not that"},
                ],
            },
            {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_c", "name": "patch", "input": "*** Begin"},
            {
                "type": "function_call",
                "id": "fc_1",
                "call_id": "call_f",
                "name": "get",
                "arguments": '{"a":1}',
                "status": "completed",
            },
            {
                "type": "web_search_call",
                "id": "ws_1",
                "status": "completed",
                "action": {"type": "search", "query": "q"},
            },
            {"type": "mcp_approval_request", "id": "mcpr_1", "arguments": "{}", "name": "t", "server_label": "s"},
            {"type": "custom_tool_call_output", "call_id": "call_c", "output": "applied"},
            {
                "type": "function_call_output",
                "call_id": "call_f",
                "output": [
                    {"type": "input_text", "text": "18C"},
                    {"type": "input_image", "file_id": "file_3", "detail": "auto"},
                ],
            },
            {"type": "mcp_approval_response", "approval_request_id": "mcpr_1", "approve": True},
            {"type": "item_reference", "id": "msg_0"},
            {"role": "user", "content": "Thanks"},
        ],
        "tools": [
            {"type": "web_search", "search_context_size": "low"},
            {
                "type": "function",
                "name": "get",
                "description": "Get it.",
                "parameters": {"type": "object", "properties": {}},
                "strict": False,
            },
            {"type": "custom", "name": "patch", "description": "Apply a patch."},
        ],
        "tool_choice": {"type": "function", "name": "get"},
        "parallel_tool_calls": False,
        "reasoning": {"effort": "high", "summary": "auto"},
        "text": {
            "format": {"type": "json_schema", "name": "answer", "schema": {"type": "object"}, "strict": True},
            "verbosity": "low",
        },
        "max_output_tokens": 2048,
        "previous_response_id": "resp_0",
        "store": False,
        "include": ["reasoning.encrypted_content"],
        "truncation": "auto",
        "metadata": {"user": "u1"},
        "prompt_cache_key": "k",
        "service_tier": "flex",
        "stream": True,
        "temperature": 0.5,
        "top_p": 1,
    }


def test_every_item_and_part_kind_round_trips_exactly_and_passes_the_sdk() -> None:
    payload = _every_kind()
    request = chatcodec.decode_request(FORMAT, payload)
    encoded, losses = encode_request(request)
    assert encoded == payload
    assert losses == []
    assert_request_matches_sdk(encoded)


def test_items_map_to_canonical_messages_in_order() -> None:
    request = chatcodec.decode_request(FORMAT, _every_kind())
    roles = [(type(message).__name__, message.role) for message in request.messages]
    assert roles == [
        ("SystemMessage", "system"),  # instructions
        ("SystemMessage", "developer"),
        ("UserMessage", "user"),
        ("AssistantMessage", "assistant"),  # reasoning .. mcp_approval_request: one turn
        ("ToolMessage", "tool"),  # custom_tool_call_output, function_call_output: one group
        ("UserMessage", "user"),  # mcp_approval_response, item_reference: kept whole
        ("UserMessage", "user"),
    ]
    turn = request.messages[3]
    assert isinstance(turn, AssistantMessage)
    assert [part.type for part in turn.parts] == [
        "thinking",
        "thinking",
        "text",
        "refusal",
        "tool_use",
        "tool_use",
        "opaque",
        "opaque",
    ]
    summary, raw = turn.thinking
    assert (summary.text, summary.encrypted, raw.text, raw.encrypted) == ("Plan.", None, "raw", "gAAA")
    assert [call.id for call in turn.tool_calls] == ["call_c", "call_f"]
    user = request.messages[2]
    assert isinstance(user, UserMessage)
    assert [part.type for part in user.parts] == ["text", "image", "image", "document", "document", "document"]
    assert user.parts[0].cache_control == chatcodec.CacheControl(ttl="12h")
    results = request.messages[4]
    assert isinstance(results, ToolMessage)
    assert [result.tool_use_id for result in results.content] == ["call_c", "call_f"]
    assert isinstance(request.messages[0], SystemMessage)
    assert request.reasoning == chatcodec.ReasoningConfig(effort="high", enabled=True, summary="auto")
    assert request.response_format == chatcodec.ResponseFormat(
        type="json_schema", name="answer", json_schema={"type": "object"}, strict=True
    )
    assert request.tool_choice == chatcodec.ToolChoice(type="tool", name="get")
    assert (request.max_tokens, request.parallel_tool_calls) == (2048, False)
    assert [tool.name for tool in request.tools] == ["get"]
    assert [tool.data["type"] for tool in request.provider_tools] == ["web_search", "custom"]


def test_input_as_one_string_and_a_bare_item_list_round_trip() -> None:
    for payload in ({"model": "gpt-5", "input": "Hi"}, {"input": [{"role": "assistant", "content": "x"}]}):
        encoded, losses = encode_request(chatcodec.decode_request(FORMAT, payload))
        assert (encoded, losses) == (payload, [])
    messages = chatcodec.get_codec(FORMAT).decode_messages(_every_kind()["input"])
    assert len(messages) == 6


def test_metadata_values_that_are_not_text_are_reported() -> None:
    encoded, losses = encode_request(chatcodec.ChatRequest(metadata={"user": "u", "n": 3}))
    assert encoded["metadata"] == {"user": "u"}
    assert [loss.path for loss in losses] == ["$.metadata.n"]


def test_settings_responses_has_no_field_for_are_reported() -> None:
    request = chatcodec.ChatRequest(
        stop=["END"], seed=1, top_k=3, reasoning=chatcodec.ReasoningConfig(budget_tokens=100, effort="max")
    )
    encoded, losses = encode_request(request)
    assert encoded["reasoning"] == {"effort": "max"}  # Responses takes max since 2026
    assert sorted(loss.path for loss in losses) == [
        "$.reasoning.budget_tokens",
        "$.seed",
        "$.stop",
        "$.top_k",
    ]


def test_audio_goes_back_only_where_it_came_from_responses() -> None:
    audio = {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}}
    payload = {"input": [{"role": "user", "content": [audio]}]}
    request = chatcodec.decode_request(FORMAT, payload)
    assert request.messages[0].parts[0].type == "audio"
    assert encode_request(request) == (payload, [])
    chat = {"messages": [{"role": "user", "content": [audio]}]}
    encoded, losses = encode_request(chatcodec.decode_request("openai-chat", chat))
    assert encoded["input"] == [{"role": "user", "content": []}]
    assert [loss.what for loss in losses] == ["audio part"]


def test_a_reasoning_config_with_no_setting_writes_no_reasoning_object() -> None:
    """A canonical ``ReasoningConfig()`` says nothing; writing ``reasoning: {}`` would read
    back as a kept wire field the request never had (found by the losses law)."""
    request = chatcodec.ChatRequest(model="gpt-5", messages=[], reasoning=chatcodec.ReasoningConfig())
    losses: list[chatcodec.Loss] = []
    encoded = chatcodec.encode_request(FORMAT, request, on_loss="ignore", losses=losses)
    assert "reasoning" not in encoded
    assert losses == []
    kept = {"model": "gpt-5", "input": [], "reasoning": {"generate_summary": "auto"}}
    assert chatcodec.convert_request(kept, source=FORMAT, target=FORMAT)["reasoning"] == {"generate_summary": "auto"}


def test_a_results_name_goes_on_a_function_output_and_is_a_loss_on_a_custom_one() -> None:
    """The SDK's ``FunctionCallOutput`` has a ``name``; ``ResponseCustomToolCallOutputParam``
    (call_id, output, type, id, caller) has none, so a named result answering a custom call
    is sent without it and reported."""
    for kind, item_type in ((None, "function_call_output"), ("custom", "custom_tool_call_output")):
        call: dict[str, Any] = {"type": "tool_use", "id": "call_1", "name": "apply_patch", "arguments": "{}"}
        if kind is not None:
            call["kind"] = kind
        result = {"type": "tool_result", "tool_use_id": "call_1", "content": "applied", "name": "apply_patch"}
        request = {
            "model": "gpt-5",
            "messages": [{"role": "assistant", "content": [call]}, {"role": "tool", "content": [result]}],
        }
        losses: list[chatcodec.Loss] = []
        body = chatcodec.encode_request(FORMAT, request, on_loss="ignore", losses=losses)
        assert_request_matches_sdk(body)
        output = body["input"][-1]
        assert output["type"] == item_type
        named = item_type == "function_call_output"
        assert ("name" in output) is named
        assert [loss.path for loss in losses if loss.what == "tool name"] == (
            [] if named else ["$.messages[1].content[0].name"]
        )


def test_an_output_texts_empty_annotations_are_no_loss_and_come_back() -> None:
    """The Responses writer gives every ``output_text`` ``annotations: []`` (the SDK's
        ``ResponseOutputText`` requires the field): read back, an empty list is no data to carry,
        so another format reports nothing for it; a non-empty list (a url citation, the part's
    canonical citation) still is reported."""
    cited = {"type": "url_citation", "start_index": 0, "end_index": 1, "url": "https://example.com", "title": "t"}
    body = {
        "model": "gpt-5",
        "input": [
            {"role": "user", "content": "hi"},
            {
                "type": "message",
                "role": "assistant",
                "content": [
                    {"type": "output_text", "text": "a", "annotations": []},
                    {"type": "output_text", "text": "b", "annotations": [cited]},
                ],
            },
        ],
    }
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(body, source="openai-responses", target="anthropic", on_loss="ignore", losses=losses)
    annotated = [loss.path for loss in losses if "annotations" in loss.what or "citations" in loss.what]
    assert annotated == ["$.input[1].content[1].citations"]  # the input item's part's url citation
    back = chatcodec.convert_request(body, source="openai-responses", target="openai-responses", on_loss="error")
    assert back["input"][1]["content"] == body["input"][1]["content"]


def test_a_loss_is_placed_at_its_item_after_reasoning_of_several_summaries() -> None:
    """A reasoning item is a thinking part per summary text (or one): each part of its turn
    after it is placed at its own item, not at the turn's first (a web search call after
    reasoning of two summaries was reported at the reasoning item)."""
    two = [{"type": "summary_text", "text": "a"}, {"type": "summary_text", "text": "b"}]
    items = [
        {"role": "user", "content": "Search."},
        {"type": "reasoning", "id": "rs_1", "summary": two, "content": [{"type": "reasoning_text", "text": "c"}]},
        {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search"}},
        {"type": "reasoning", "id": "rs_2", "summary": []},
        {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}", "id": "fc_1"},
        {"type": "function_call_output", "call_id": "call_1", "output": "done"},
    ]
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(
        {"model": "gpt-5", "input": items}, source=FORMAT, target="openai-chat", on_loss="ignore", losses=losses
    )
    assert [loss.path for loss in losses] == ["$.input[1]"] * 3 + ["$.input[2]", "$.input[3]", "$.input[4]"]
