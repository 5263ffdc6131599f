"""The Responses API's encode rules, each a 400 or 404 from the API when broken. Requests
are checked against the SDK's ``ResponseCreateParams``, responses against its ``Response``."""

from __future__ import annotations

from typing import Any

import chatcodec
from providers.openai_responses.responses_support import (
    FORMAT,
    assert_request_matches_sdk,
    assert_response_matches_sdk,
    encode_request,
    encode_response,
)

PDF = "JVBERi0xLjQK"


def _request(messages: list[Any], **fields: Any) -> chatcodec.ChatRequest:
    return chatcodec.validate_model(chatcodec.ChatRequest, {"messages": messages, **fields})


def test_responses_inline_input_file_gets_the_filename_the_api_requires() -> None:
    document = {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": PDF}}
    body, losses = encode_request(_request([{"role": "user", "content": [document]}]))
    assert_request_matches_sdk(body)
    (part,) = body["input"][0]["content"]
    assert part["filename"] == "document.pdf"
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[0].content[0].filename", "file name")]
    assert losses[0].why == "Responses requires one with file data; sent 'document.pdf'"


def test_responses_inline_input_file_takes_the_title_as_its_filename() -> None:
    document = {
        "type": "document",
        "title": "report.pdf",
        "source": {"type": "base64", "media_type": "application/pdf", "data": PDF},
    }
    body, losses = encode_request(_request([{"role": "user", "content": [document]}]))
    assert body["input"][0]["content"][0]["filename"] == "report.pdf"
    assert losses == []


def test_responses_a_tool_call_with_no_arguments_is_sent_as_an_empty_object() -> None:
    call = {"type": "tool_use", "id": "call_1", "name": "now", "arguments": ""}
    body, _ = encode_request(_request([{"role": "user", "content": "time?"}, {"role": "assistant", "content": [call]}]))
    assert_request_matches_sdk(body)
    assert body["input"][1]["arguments"] == "{}"


def _reasoning_turn(encrypted: str | None, store: bool | None) -> dict[str, Any]:
    reasoning: dict[str, Any] = {"type": "reasoning", "id": "rs_1", "summary": []}
    if encrypted is not None:
        reasoning["encrypted_content"] = encrypted
    body: dict[str, Any] = {
        "model": "gpt-5",
        "input": [
            {"role": "user", "content": "hi"},
            reasoning,
            {
                "type": "message",
                "role": "assistant",
                "id": "msg_1",
                "content": [{"type": "output_text", "text": "hello", "annotations": []}],
            },
            {"role": "user", "content": "again"},
        ],
    }
    if store is not None:
        body["store"] = store
    return body


def test_responses_with_store_false_a_reasoning_item_without_encrypted_content_is_not_replayed_by_id() -> None:
    """404 "Item with id 'rs_1' not found. Items are not persisted when `store` is set to false"."""
    request = chatcodec.decode_request(FORMAT, _reasoning_turn(None, store=False))
    body, losses = encode_request(request)
    assert_request_matches_sdk(body)
    assert [item.get("type") for item in body["input"]] == [None, "message", None]
    assert [loss.path for loss in losses] == ["$.messages[1].content[0]"]
    assert "store" in losses[0].why


def test_responses_reasoning_replays_by_id_when_stored_or_encrypted() -> None:
    for body in (_reasoning_turn(None, store=None), _reasoning_turn("gAAAA", store=False)):
        request = chatcodec.decode_request(FORMAT, body)
        assert chatcodec.encode_request(FORMAT, request, on_loss="error") == body


def _foreign_response() -> chatcodec.ChatResponse:
    return chatcodec.decode_response(
        "openai-chat",
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "gpt-4o",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {
                        "role": "assistant",
                        "content": "Let me check.",
                        "tool_calls": [
                            {"id": "call_1", "type": "function", "function": {"name": "get", "arguments": "{}"}}
                        ],
                    },
                }
            ],
        },
    )


def test_responses_items_built_from_another_format_get_prefixed_ids() -> None:
    first, _ = encode_response(_foreign_response())
    again, _ = encode_response(_foreign_response())
    assert_response_matches_sdk(first, no_extra_keys=True)
    message, call = first["output"]
    assert message["id"][:4] == "msg_"
    assert call["id"][:3] == "fc_"
    assert len(message["id"]) == len(call["id"]) + 1 == 52
    assert first["output"] == again["output"]  # the same conversion gives the same ids


def test_responses_a_message_between_a_call_and_its_output_moves_after_the_output() -> None:
    body = {
        "model": "gpt-5",
        "input": [
            {"role": "user", "content": "weather?"},
            {"type": "function_call", "call_id": "call_1", "name": "get", "arguments": "{}"},
            {"role": "user", "content": "hurry"},
            {"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
        ],
    }
    request = chatcodec.decode_request(FORMAT, body)
    losses: list[chatcodec.Loss] = []
    chat = chatcodec.encode_request("openai-chat", request, on_loss="ignore", losses=losses)
    assert [message["role"] for message in chat["messages"]] == ["user", "assistant", "tool", "user"]
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.messages[2]", "message between a tool call and its result")
    ]
    anthropic = chatcodec.encode_request("anthropic", request, on_loss="ignore", options={"max_tokens": 10})
    assert anthropic["messages"][2]["content"][0]["type"] == "tool_result"
    assert chatcodec.encode_request(FORMAT, request, on_loss="error") == body  # its own format keeps the order


def test_an_answer_id_with_a_lone_surrogate_still_names_its_items() -> None:
    """Made-up item ids digest the answer's id; an id read from JSON may hold a lone
    surrogate (``"\\ud800"`` is valid JSON), which ``str.encode`` refused with a
    UnicodeEncodeError (found by the fuzz run), streamed and not."""
    answer = {
        "id": "\ud800",
        "type": "message",
        "role": "assistant",
        "model": "m",
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    converted = chatcodec.convert_response(answer, source="anthropic", target="openai-responses", on_loss="ignore")
    item_id = converted["output"][0]["id"]
    assert item_id.startswith("msg_")
    assert (
        item_id
        == chatcodec.convert_response(answer, source="anthropic", target="openai-responses", on_loss="ignore")[
            "output"
        ][0]["id"]
    )


def test_a_text_format_alone_leaves_no_empty_text_bag() -> None:
    """``text: {"format": ...}`` reads as the response format alone: the emptied ``text``
    object was kept in the bag, a change nobody reported (the loss law found it), and the
    format alone writes ``text`` back the same."""
    request = chatcodec.ChatRequest(messages=[], response_format={"type": "text"})
    body, losses = encode_request(request)
    assert (body["text"], losses) == ({"format": {"type": "text"}}, [])
    decoded = chatcodec.decode_request(FORMAT, body)
    assert decoded.provider_options is None
    assert encode_request(decoded) == (body, [])


def test_responses_an_empty_assistant_text_beside_tool_calls_is_no_item() -> None:
    chat = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
            },
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(chat, source="openai-chat", target=FORMAT, losses=losses, on_loss="ignore")
    assert_request_matches_sdk(body)
    written = [
        {"role": "user", "content": "hi"},
        {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}"},
    ]
    assert body["input"] == written
    assert losses == []  # OpenAI Chat's "" beside calls is spelling: no text part read (issue 107)
    turn = chatcodec.AssistantMessage(
        content=[chatcodec.TextPart(text=""), chatcodec.ToolUsePart(id="call_1", name="f", arguments="{}")]
    )
    request = chatcodec.ChatRequest(model="gpt-4o", messages=[chatcodec.UserMessage(content="hi"), turn])
    losses = []
    body = chatcodec.encode_request(FORMAT, request, losses=losses, on_loss="ignore")
    assert body["input"] == written
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[1].content[0]", "empty text")]


def test_responses_an_empty_assistant_item_of_its_own_goes_back_as_it_came() -> None:
    body = {
        "model": "gpt-4o",
        "input": [
            {"role": "assistant", "content": ""},
            {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}"},
        ],
    }
    losses: list[chatcodec.Loss] = []
    assert chatcodec.convert_request(body, source=FORMAT, target=FORMAT, losses=losses, on_loss="ignore") == body
    assert losses == []


def test_responses_an_assistant_turn_of_several_texts_is_one_message_item() -> None:
    anthropic = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,  # Responses refuses a max_output_tokens below 16 (rules.py)
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(anthropic, source="anthropic", target=FORMAT, losses=losses, on_loss="ignore")
    assert_request_matches_sdk(body)
    texts = [{"type": "output_text", "text": text, "annotations": []} for text in ("a", "b")]
    assert body["input"] == [{"role": "user", "content": "hi"}, {"role": "assistant", "content": texts}]
    assert losses == []
    read_back = chatcodec.decode_request(FORMAT, body).messages
    assert [message.role for message in read_back] == ["user", "assistant"]


def test_responses_an_empty_schema_name_is_reported_when_it_is_sent_as_response() -> None:
    """OpenAI Chat's ``json_schema.name`` and Responses' ``text.format.name`` are 1 to 64
    characters (the openai SDK's ``ResponseFormatTextJSONSchemaConfigParam.name``): an empty one
    is sent as ``"response"``, a change reported as an unnamed schema's (found by a random draw
    of the no-loss law Chat -> Responses -> Chat, which came back named ``response`` unreported)."""
    request = chatcodec.ChatRequest(
        messages=[], response_format={"type": "json_schema", "name": "", "json_schema": {"type": "object"}}
    )
    body, losses = encode_request(request)
    assert body["text"]["format"]["name"] == "response"
    assert [(loss.path, loss.what) for loss in losses] == [("$.response_format.name", "unnamed schema")]
