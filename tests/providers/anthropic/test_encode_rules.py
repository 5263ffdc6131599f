"""Anthropic's rules on encode and the silent changes it made, each rule a named test
(prefill whitespace, server-tool order, document sources, values the source lacks, tool
ids rewritten on a same-provider round trip)."""

from __future__ import annotations

import base64
from typing import Any

import pytest

import chatcodec
from providers.anthropic.anthropic_support import assert_valid_request, assert_valid_response, encode_request

WEB_SEARCH_CALL = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "q"}}
WEB_SEARCH_RESULT = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}


def _request(messages: list[Any], **fields: Any) -> chatcodec.ChatRequest:
    fields = {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": messages, **fields}
    return chatcodec.validate_model(chatcodec.ChatRequest, fields)


def _document(source: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "document", "source": source, **fields}]}


def _base64(media_type: str, data: bytes) -> dict[str, Any]:
    return {"type": "base64", "media_type": media_type, "data": base64.b64encode(data).decode()}


def _paths(losses: list[chatcodec.Loss]) -> list[str]:
    return [loss.path for loss in losses]


# --- prefill whitespace ------------------------------------------------------------------


@pytest.mark.parametrize(
    "prefill",
    ["The answer is \n", [{"type": "text", "text": "first"}, {"type": "text", "text": "The answer is  "}]],
)
def test_prefill_trailing_whitespace_trimmed_and_reported(prefill: Any) -> None:
    """Anthropic: 400 "final assistant content cannot end with trailing whitespace"."""
    body, losses = encode_request(
        _request([{"role": "user", "content": "q"}, {"role": "assistant", "content": prefill}])
    )
    last = body["messages"][-1]
    text = last["content"] if isinstance(last["content"], str) else last["content"][-1]["text"]
    assert text == "The answer is"
    assert any("trailing whitespace" in loss.what for loss in losses), losses
    assert all(loss.path.startswith("$.messages[1]") for loss in losses), losses
    assert_valid_request(body)


def test_whitespace_is_kept_when_a_user_turn_follows() -> None:
    body, losses = encode_request(
        _request(
            [
                {"role": "user", "content": "q"},
                {"role": "assistant", "content": "The answer is \n"},
                {"role": "user", "content": "go on"},
            ]
        )
    )
    assert body["messages"][1]["content"] == "The answer is \n"
    assert losses == []


def test_a_prefill_of_only_whitespace_is_dropped_and_reported() -> None:
    body, losses = encode_request(
        _request(
            [
                {"role": "user", "content": "q"},
                {"role": "assistant", "content": [{"type": "text", "text": "x"}, {"type": "text", "text": " \n"}]},
            ]
        )
    )
    assert body["messages"][-1]["content"] == [{"type": "text", "text": "x"}]
    assert losses, "the dropped block is reported"


# --- server-tool order -------------------------------------------------------------------


def test_client_tool_use_moves_after_server_tool_blocks() -> None:
    """A client ``tool_use`` before a server tool's blocks leaves no place for its result."""
    client_call = {"type": "tool_use", "id": "toolu_1", "name": "lookup", "arguments": "{}"}
    assistant = {
        "role": "assistant",
        "content": [
            client_call,
            {"type": "opaque", "provider": "anthropic", "data": WEB_SEARCH_CALL},
            {"type": "opaque", "provider": "anthropic", "data": WEB_SEARCH_RESULT},
        ],
    }
    tool = {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}
    body, losses = encode_request(_request([{"role": "user", "content": "q"}, assistant, tool]))
    types = [block["type"] for block in body["messages"][1]["content"]]
    assert types == ["server_tool_use", "web_search_tool_result", "tool_use"]
    assert _paths(losses) == ["$.messages[1].content[0]"]
    assert_valid_request(body)


def test_server_tool_order_already_right_is_left_alone() -> None:
    assistant = {
        "role": "assistant",
        "content": [
            {"type": "opaque", "provider": "anthropic", "data": WEB_SEARCH_CALL},
            {"type": "opaque", "provider": "anthropic", "data": WEB_SEARCH_RESULT},
            {"type": "tool_use", "id": "toolu_1", "name": "lookup", "arguments": "{}"},
        ],
    }
    tool = {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}
    body, losses = encode_request(_request([{"role": "user", "content": "q"}, assistant, tool]))
    assert [block["type"] for block in body["messages"][1]["content"]] == [
        "server_tool_use",
        "web_search_tool_result",
        "tool_use",
    ]
    assert losses == []


# --- document sources --------------------------------------------------------------------


def test_plain_text_base64_document_goes_as_a_text_source() -> None:
    body, losses = encode_request(_request([_document(_base64("text/plain", "héllo\n".encode()))]))
    block = body["messages"][0]["content"][0]
    assert block["source"] == {"type": "text", "media_type": "text/plain", "data": "héllo\n"}
    assert losses == []
    assert_valid_request(body)


@pytest.mark.parametrize("media_type", ["application/msword", "text/csv", "image/png"])
def test_other_base64_documents_are_a_loss_never_a_rejected_block(media_type: str) -> None:
    request = _request([_document(_base64(media_type, b"data")), {"role": "user", "content": "what is it?"}])
    body, losses = encode_request(request)
    assert all(
        block["type"] != "document"
        for message in body["messages"]
        for block in message["content"]
        if isinstance(block, dict)
    )
    assert _paths(losses) == ["$.messages[0].content[0]"]
    assert_valid_request(body)
    with pytest.raises(chatcodec.LossError):
        chatcodec.encode_request("anthropic", request, on_loss="error")


def test_base64_text_that_is_not_utf8_is_a_loss() -> None:
    body, losses = encode_request(
        _request([_document(_base64("text/plain", b"\xff\xfe")), {"role": "user", "content": "q"}])
    )
    assert _paths(losses) == ["$.messages[0].content[0]"]
    assert_valid_request(body)


def test_text_source_of_another_media_type_is_sent_as_plain_text_and_reported() -> None:
    source = {"type": "text", "text": "# title", "media_type": "text/markdown"}
    body, losses = encode_request(_request([_document(source)]))
    assert body["messages"][0]["content"][0]["source"] == {
        "type": "text",
        "media_type": "text/plain",
        "data": "# title",
    }
    assert _paths(losses) == ["$.messages[0].content[0].source.media_type"]
    assert_valid_request(body)


@pytest.mark.parametrize(
    "source",
    [
        _base64("application/pdf", b"%PDF-1.4"),
        {"type": "url", "url": "https://example.com/a.pdf"},
        {"type": "file", "file_id": "file_011"},
    ],
)
def test_pdf_url_and_file_documents_are_sent_as_they_are(source: dict[str, Any]) -> None:
    body, losses = encode_request(_request([_document(source)]))
    assert body["messages"][0]["content"][0]["source"] == source
    assert losses == []
    assert_valid_request(body)


# --- file names and titles (Anthropic side) ----------------------------------------------


def test_openai_filename_becomes_the_anthropic_title() -> None:
    body, losses = encode_request(_request([_document(_base64("application/pdf", b"%PDF"), filename="report.pdf")]))
    assert body["messages"][0]["content"][0]["title"] == "report.pdf"
    assert losses == []


def test_a_filename_beside_a_different_title_is_reported() -> None:
    document = _document(_base64("application/pdf", b"%PDF"), filename="report.pdf", title="Q3 report")
    body, losses = encode_request(_request([document]))
    assert body["messages"][0]["content"][0]["title"] == "Q3 report"
    assert _paths(losses) == ["$.messages[0].content[0].filename"]


# --- values the source lacks -------------------------------------------------------------


def test_missing_max_tokens_is_a_reported_loss_not_a_silent_default() -> None:
    request = _request([{"role": "user", "content": "q"}], max_tokens=None)
    body, losses = encode_request(request)
    assert body["max_tokens"] >= 1
    assert _paths(losses) == ["$.max_tokens"]


def test_max_tokens_and_model_are_options_the_caller_sets() -> None:
    request = chatcodec.ChatRequest(messages=[chatcodec.UserMessage(content="q")])
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(
        "anthropic", request, options={"max_tokens": 2048, "model": "claude-haiku-4-5"}, losses=losses
    )
    assert (body["max_tokens"], body["model"]) == (2048, "claude-haiku-4-5")
    assert losses == []
    assert_valid_request(body)


def test_options_apply_to_conversions_too() -> None:
    openai_body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "q"}]}
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        openai_body, source="openai-chat", target="anthropic", options={"max_tokens": 512}, losses=losses
    )
    assert body["max_tokens"] == 512
    assert losses == []


def test_a_missing_model_is_not_made_up_but_reported() -> None:
    """Nothing invented: the body has no ``model``, and a ``required`` loss says the API
    will refuse it (never silently absent)."""
    request = chatcodec.ChatRequest(messages=[chatcodec.UserMessage(content="q")], max_tokens=10)
    body, losses = encode_request(request)
    assert "model" not in body
    assert [(loss.path, loss.kind) for loss in losses] == [("$.model", "required")]


def test_response_values_the_source_lacks_are_reported() -> None:
    response = chatcodec.ChatResponse(
        choices=[
            chatcodec.ResponseChoice(
                message=chatcodec.AssistantMessage(
                    content=[chatcodec.ThinkingPart(text="hmm"), chatcodec.TextPart(text="a")]
                )
            )
        ]
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_response("anthropic", response, on_loss="ignore", losses=losses)
    assert_valid_response(body)
    assert sorted(_paths(losses)) == ["$.choices[0].message.content[0].signature", "$.id", "$.model", "$.usage"]


# --- tool ids rewritten on a same-provider round trip ------------------------------------


@pytest.mark.parametrize("tool_id", ["a.b", ""])
def test_same_provider_round_trip_reports_rewritten_tool_ids(tool_id: str) -> None:
    wire = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": tool_id, "name": "f", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id, "content": "ok"}]},
        ],
    }
    body, losses = encode_request(chatcodec.decode_request("anthropic", wire))
    sent = body["messages"][1]["content"][0]["id"]
    assert sent != tool_id
    assert body["messages"][2]["content"][0]["tool_use_id"] == sent
    assert _paths(losses) == ["$.messages[1].content[0].id", "$.messages[2].content[0].tool_use_id"]


def test_canonical_ids_rewritten_reversibly_are_not_reported() -> None:
    """Decoding restores them, so a canonical round trip changes nothing."""
    request = _request(
        [
            {"role": "user", "content": "q"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "functions.f:0", "name": "f", "arguments": "{}"}],
            },
            {"role": "tool", "tool_call_id": "functions.f:0", "content": "ok"},
        ]
    )
    body, losses = encode_request(request)
    assert losses == []
    assert chatcodec.decode_request("anthropic", body) == request


@pytest.mark.parametrize("media_type", ["image/heic", "image/bmp", "image/svg+xml"])
def test_an_image_anthropic_cannot_take_is_dropped_and_reported_not_sent_to_a_400(media_type: str) -> None:
    image = {"type": "image", "source": _base64(media_type, b"\x00\x01")}
    body, losses = encode_request(_request([{"role": "user", "content": [{"type": "text", "text": "what?"}, image]}]))
    assert_valid_request(body)
    assert body["messages"] == [{"role": "user", "content": [{"type": "text", "text": "what?"}]}]
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[0].content[1]", f"image of type {media_type}")]


def test_jpeg_png_gif_and_webp_images_are_sent() -> None:
    images = [
        {"type": "image", "source": _base64(kind, b"\x00")}
        for kind in ("image/jpeg", "image/png", "image/gif", "image/webp")
    ]
    body, losses = encode_request(_request([{"role": "user", "content": images}]))
    assert_valid_request(body)
    assert len(body["messages"][0]["content"]) == 4
    assert losses == []
