"""Gemini request rules, each a 400 from the API when broken. Bodies are checked against
the google-genai SDK's types."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from providers.gemini.gemini_support import assert_valid_request, encode_request

PNG = "iVBORw0KGgo="


def _request(messages: list[Any]) -> chatcodec.ChatRequest:
    return chatcodec.validate_model(chatcodec.ChatRequest, {"messages": messages, "model": "gemini-2.5-flash"})


def _call_and_result(result_content: list[Any]) -> chatcodec.ChatRequest:
    call = {"type": "tool_use", "id": "call_1", "name": "snap", "arguments": "{}"}
    result = {"type": "tool_result", "tool_use_id": "call_1", "content": result_content}
    return _request(
        [
            {"role": "user", "content": "photo?"},
            {"role": "assistant", "content": [call]},
            {"role": "tool", "content": [result]},
        ]
    )


def _dumped(content: object) -> list[dict[str, Any]]:
    assert isinstance(content, list)
    return [part.model_dump(exclude_none=True) for part in content]


def test_gemini_a_media_only_tool_result_still_carries_the_response_object() -> None:
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}
    body, _ = encode_request(_call_and_result([image]))
    assert_valid_request(body)
    function_response = body["contents"][2]["parts"][0]["functionResponse"]
    assert function_response["response"] == {}
    assert function_response["parts"] == [{"inlineData": {"mimeType": "image/png", "data": PNG}}]
    decoded = chatcodec.decode_request("gemini", body)
    assert _dumped(decoded.messages[2].content[0].content) == [image]  # {} beside media: media alone
    assert chatcodec.encode_request("gemini", decoded, on_loss="error") == body


def test_gemini_a_result_of_the_text_braces_beside_media_stays_text() -> None:
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}
    content = [{"type": "text", "text": "{}"}, image]
    body, _ = encode_request(_call_and_result(content))
    decoded = chatcodec.decode_request("gemini", body)
    assert _dumped(decoded.messages[2].content[0].content) == content


@pytest.mark.parametrize("part_type", ["text", "tool_use"])
def test_gemini_thought_signature_on_text_and_call_parts_must_be_base64(part_type: str) -> None:
    bag = {"gemini": {"thoughtSignature": "not base64!"}}
    if part_type == "text":
        part: dict[str, Any] = {"type": "text", "text": "hi", "provider_metadata": bag}
    else:
        part = {"type": "tool_use", "id": "c1", "name": "f", "arguments": "{}", "provider_metadata": bag}
    body, losses = encode_request(
        _request([{"role": "user", "content": "q"}, {"role": "assistant", "content": [part]}])
    )
    assert_valid_request(body)
    assert "thoughtSignature" not in body["contents"][1]["parts"][0]
    assert ("$.messages[1].content[0].signature", "signature") in [(loss.path, loss.what) for loss in losses]


def test_gemini_a_base64_thought_signature_on_a_text_part_is_kept() -> None:
    part = {"type": "text", "text": "hi", "provider_metadata": {"gemini": {"thoughtSignature": "c2ln"}}}
    body, losses = encode_request(
        _request([{"role": "user", "content": "q"}, {"role": "assistant", "content": [part]}])
    )
    assert body["contents"][1]["parts"][0] == {"text": "hi", "thoughtSignature": "c2ln"}
    assert losses == []


def test_gemini_a_url_image_gets_the_mime_type_file_data_requires() -> None:
    image = {"type": "image", "source": {"type": "url", "url": "https://example.com/cat.png"}}
    body, losses = encode_request(_request([{"role": "user", "content": [image]}]))
    assert_valid_request(body)
    assert body["contents"][0]["parts"][0] == {
        "fileData": {"fileUri": "https://example.com/cat.png", "mimeType": "image/png"}
    }
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[0].content[0].source.media_type", "media type")]


def test_gemini_a_url_image_with_no_extension_gets_the_canonical_image_type() -> None:
    image = {"type": "image", "source": {"type": "url", "url": "https://example.com/photo?id=7"}}
    body, losses = encode_request(_request([{"role": "user", "content": [image]}]))
    assert body["contents"][0]["parts"][0]["fileData"]["mimeType"] == "image/jpeg"
    assert "guessed" in losses[0].why


def test_gemini_file_data_without_a_mime_type_read_from_gemini_goes_back_as_it_came() -> None:
    body = {"contents": [{"role": "user", "parts": [{"fileData": {"fileUri": "gs://bucket/notes"}}]}]}
    decoded = chatcodec.decode_request("gemini", body)
    assert chatcodec.encode_request("gemini", decoded, on_loss="error") == body


_CHAT_EMPTY_ASSISTANT = {
    "model": "gpt-4o",
    "messages": [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
        {"role": "assistant", "content": ""},
        {"role": "user", "content": "again"},
    ],
}


def test_gemini_an_empty_assistant_text_is_not_sent_and_a_turn_left_empty_is_dropped() -> None:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        _CHAT_EMPTY_ASSISTANT, source="openai-chat", target="gemini", losses=losses, on_loss="ignore"
    )
    assert_valid_request(body)
    assert [content["parts"] for content in body["contents"]] == [
        [{"text": "hi"}],
        [{"functionCall": {"name": "f", "args": {}, "id": "call_1"}}],
        [{"functionResponse": {"name": "f", "response": {"output": "ok"}, "id": "call_1"}}],
        [{"text": "again"}],
    ]
    assert [(loss.path, loss.what) for loss in losses] == [  # messages[1]'s "" beside calls: spelling, no text
        ("$.messages[3].content", "empty text"),  # the input's content string
        ("$.messages[3]", "empty message"),
    ]


def test_gemini_a_system_only_request_is_sent_as_one_user_turn_not_empty_contents() -> None:
    chat = {"model": "gpt-4o", "messages": [{"role": "system", "content": "Say hi."}]}
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(chat, source="openai-chat", target="gemini", losses=losses, on_loss="ignore")
    assert_valid_request(body)
    assert body == {"contents": [{"role": "user", "parts": [{"text": "Say hi."}]}]}
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages", "system prompt")]


def _file_part(file_id: str) -> dict[str, Any]:
    return {"type": "document", "source": {"type": "file", "file_id": file_id, "media_type": "application/pdf"}}


def test_gemini_a_document_by_gemini_file_name_is_sent_as_file_data() -> None:
    body, losses = encode_request(_request([{"role": "user", "content": [_file_part("files/abc123")]}]))
    assert_valid_request(body)
    uri = "https://generativelanguage.googleapis.com/v1beta/files/abc123"
    assert body["contents"] == [
        {"role": "user", "parts": [{"fileData": {"fileUri": uri, "mimeType": "application/pdf"}}]}
    ]
    assert losses == []


def test_gemini_a_turn_whose_only_part_is_another_providers_file_id_is_not_sent_with_no_parts() -> None:
    messages = [{"role": "user", "content": [_file_part("file-abc")]}, {"role": "user", "content": "summarise"}]
    body, losses = encode_request(_request(messages))
    assert_valid_request(body)
    assert body["contents"] == [{"role": "user", "parts": [{"text": "summarise"}]}]
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.messages[0].content[0].source", "file id"),
        ("$.messages[0]", "empty message"),
    ]


def test_gemini_an_empty_user_text_part_beside_others_is_not_sent() -> None:
    """An empty text part carries nothing and Vertex AI refuses it in a user turn too (400
    "Unable to submit request because it must have a text parameter", pydantic-ai#2032):
    beside other parts it is left out, reported; a user turn of one empty text stays (the
    Gemini API took one in a recorded request: ``test_rules.py``)."""
    chat = {
        "model": "gemini-2.5-pro",
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": ""}, {"type": "text", "text": "x"}]},
            {"role": "assistant", "content": "a"},
            {
                "role": "user",
                "content": [{"type": "image_url", "image_url": {"url": "gs://b/i.png"}}, {"type": "text", "text": ""}],
            },
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(chat, source="openai-chat", target="gemini", losses=losses, on_loss="ignore")
    assert_valid_request(body)
    parts = [part for content in body["contents"] for part in content["parts"]]
    assert {"text": ""} not in parts
    assert [(loss.path, loss.what) for loss in losses if loss.what == "empty text"] == [
        ("$.messages[0].content[0]", "empty text"),
        ("$.messages[2].content[1]", "empty text"),
    ]


@pytest.mark.parametrize("media_type", ["image/bmp", "image/gif", "image/tiff"])
def test_gemini_an_image_type_it_does_not_read_is_a_loss_not_sent(media_type: str) -> None:
    """Gemini's image formats are PNG, JPEG, WebP, HEIC and HEIF (image understanding,
    "Supported image formats"); another type is refused by the API, so it is not sent."""
    chat = {
        "model": "gemini-2.5-pro",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "what is it?"},
                    {"type": "image_url", "image_url": {"url": f"data:{media_type};base64,Qk0="}},
                ],
            }
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(chat, source="openai-chat", target="gemini", losses=losses, on_loss="ignore")
    assert body["contents"] == [{"role": "user", "parts": [{"text": "what is it?"}]}]
    assert [(loss.path, loss.kind) for loss in losses] == [("$.messages[0].content[1]", "content")]
    png = chat["messages"][0]["content"][1]["image_url"]["url"].replace(media_type, "image/png")  # type: ignore[index]
    chat["messages"][0]["content"][1]["image_url"]["url"] = png  # type: ignore[index]
    body = chatcodec.convert_request(chat, source="openai-chat", target="gemini", on_loss="error")
    assert body["contents"][0]["parts"][1] == {"inlineData": {"mimeType": "image/png", "data": "Qk0="}}


def test_gemini_a_blank_function_name_is_never_sent_and_the_result_names_what_the_call_does() -> None:
    """Gemini's function names start with a letter or ``_`` (``FunctionDeclaration.name``:
    "Must start with a letter or an underscore"), and a ``functionResponse`` names the
    function it answers: a blank name is rewritten on the call and on its result alike,
    reported once, at the call (the result has no name of its own: it takes its call's)."""
    chat = {
        "model": "gemini-2.5-pro",
        "messages": [
            {"role": "user", "content": "x"},
            {
                "role": "assistant",
                "tool_calls": [{"id": "c", "type": "function", "function": {"name": "", "arguments": "{}"}}],
            },
            {"role": "tool", "tool_call_id": "c", "content": "r"},
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(chat, source="openai-chat", target="gemini", losses=losses, on_loss="ignore")
    assert_valid_request(body)
    call = body["contents"][1]["parts"][0]["functionCall"]
    result = body["contents"][2]["parts"][0]["functionResponse"]
    assert call["name"].strip()
    assert result["name"] == call["name"]
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[1].tool_calls[0].name", "blank tool name")]


_REPEATED = {
    "candidates": [
        {"content": {"role": "model", "parts": [{"text": "a"}]}, "index": 0, "finishReason": "STOP"},
        {"content": {"role": "model", "parts": [{"text": "b"}]}, "index": 0, "finishReason": "STOP"},
    ],
    "modelVersion": "gemini-2.5-flash",
}


@pytest.mark.parametrize(
    "read",
    [
        lambda: chatcodec.decode_response("gemini", _REPEATED),
        lambda: chatcodec.decode_response("gemini", _REPEATED, strict=True),
        lambda: chatcodec.convert_response(_REPEATED, source="gemini", target="openai-chat"),
        lambda: chatcodec.accumulate_stream("gemini", [_REPEATED]),
    ],
    ids=["reader", "strict", "convert", "stream"],
)
def test_gemini_a_response_repeating_a_candidate_index_is_refused_by_every_reader(read: Any) -> None:
    """Each candidate of a ``GenerateContentResponse`` is one answer (``Candidate.index``:
    "Index of the candidate in the list of response candidates"): two with one index are
    refused at that candidate, by every reader alike (the converter wrote two choices of
    index 0, the stream reader one answer "ab", the model reader refused)."""
    with pytest.raises(chatcodec.ChatcodecError, match=r"candidates\[1\]\.index"):
        read()


@pytest.mark.parametrize("system", [[], [{"role": "system", "content": []}, {"role": "system", "content": []}]])
def test_an_empty_system_prompt_writes_no_system_instruction(system: list[Any]) -> None:
    # a Content needs parts ("contents.parts must not be empty"); Bedrock's `system: []` and
    # an empty system message say nothing, so nothing is left out by not writing it
    request = _request([*system, {"role": "user", "content": "hi"}])
    body, losses = encode_request(request)
    assert body == {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    assert losses == []
    assert_valid_request(body)


def test_a_request_with_nothing_sendable_is_reported_as_gemini_requires_contents() -> None:
    # contents is Required (API reference), and an empty list is refused: 400 "contents is
    # not specified"; what was dropped is reported, and the request as a whole too
    s3 = {"type": "image", "source": {"type": "url", "url": "s3://bucket/k.png", "media_type": "image/png"}}
    body, losses = encode_request(_request([{"role": "user", "content": [s3]}]))
    assert body["contents"] == []
    assert [loss.path for loss in losses][-1] == "$.messages"
    with pytest.raises(chatcodec.LossError):
        chatcodec.encode_request("gemini", _request([{"role": "user", "content": [s3]}]), on_loss="error")


def test_a_request_of_no_messages_is_left_as_every_writer_leaves_it() -> None:
    body, losses = encode_request(_request([]))
    assert body == {"contents": []}
    assert losses == []


def test_a_schema_beside_json_object_is_reported_not_dropped_silently() -> None:
    # JSON mode is responseMimeType application/json alone; a schema would make it a
    # json_schema format (responseJsonSchema), so a json_object format's schema is a loss
    # (found by the random sweep of the loss law)
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    request = chatcodec.validate_model(
        chatcodec.ChatRequest,
        {"messages": [], "response_format": {"type": "json_object", "json_schema": schema}},
    )
    body, losses = encode_request(request)
    assert body["generationConfig"] == {"responseMimeType": "application/json"}
    assert [(loss.path, loss.kind) for loss in losses] == [("$.response_format.json_schema", "setting")]


def test_gemini_a_result_part_s_cache_marker_and_another_provider_s_bag_are_reported() -> None:
    # a functionResponse has no cache marker (Gemini caches whole prompts, cachedContent) and its
    # text is the response string: both were dropped silently, as on no other part
    text = {"type": "text", "text": "42", "cache_control": {"type": "ephemeral"}}
    cited = {"type": "text", "text": "!", "provider_metadata": {"anthropic": {"citations": []}}}
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("gemini", _call_and_result([text, cited]), on_loss="ignore", losses=losses)
    assert_valid_request(body)
    assert {(loss.path, loss.kind) for loss in losses} >= {
        ("$.messages[2].content[0].content[0].cache_control", "setting"),
        ("$.messages[2].content[0].content[1]", "metadata"),
    }


@pytest.mark.parametrize(
    "first",
    [
        {"role": "user", "content": []},  # empty as given
        {"role": "user", "content": [{"type": "file", "file": {"file_id": "file-abc"}}]},  # emptied: OpenAI's id
    ],
)
def test_no_turn_of_no_parts_is_ever_sent(first: dict[str, Any]) -> None:
    """Issue 101: Gemini refuses ``parts: []`` ("contents.parts must not be empty"): a user turn
    with nothing to send, given so or emptied by what Gemini cannot take, is left out, reported."""
    body = {"model": "m", "messages": [first, {"role": "user", "content": "Hello?"}]}
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(body, source="openai-chat", target="gemini", on_loss="ignore", losses=losses)
    assert written["contents"] == [{"role": "user", "parts": [{"text": "Hello?"}]}]
    assert ("$.messages[0]", "empty message") in [(loss.path, loss.what) for loss in losses]
    assert_valid_request(written)
