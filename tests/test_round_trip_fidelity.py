"""Finish reasons that never claim too much, same-format
round trips that keep what they read, and freeform tool calls that stay consistent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec.streams._replay import events_from_response

FIXTURES = Path(__file__).parent / "fixtures"
PROVIDERS = ("anthropic", "bedrock-converse", "gemini", "openai-chat", "openai-responses")
RESPONSES = "openai-responses"
BEDROCK = "bedrock-converse"


def encode_response(target: str, response: chatcodec.ChatResponse) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    return chatcodec.encode_response(target, response, on_loss="ignore", losses=losses), losses


def encode_stream(target: str, response: chatcodec.ChatResponse) -> tuple[list[dict[str, Any]], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    events = list(chatcodec.encode_stream(target, events_from_response(response), on_loss="ignore", losses=losses))
    return events, losses


# --- a cut-off stream is never written as complete ------------------------------------------


def cut_off_response() -> chatcodec.ChatResponse:
    """A recorded Anthropic stream cut before its ``message_delta``: no finish reason."""
    blocks = (FIXTURES / "anthropic" / "stream" / "text_basic.sse").read_text().strip().split("\n\n")
    kept = [block for block in blocks if "message_delta" not in block and "message_stop" not in block]
    cut = "\n\n".join(kept) + "\n\n"
    with pytest.raises(chatcodec.StreamError, match="message_stop"):
        chatcodec.accumulate_stream("anthropic", cut)
    response = chatcodec.accumulate_stream("anthropic", cut, partial=True)
    assert response.finish_reason is None
    return response


COMPLETE_WORDS = {"end_turn", "completed", "STOP", "stop", "stop_sequence"}


def finish_word(target: str, body: dict[str, Any]) -> object:
    """The wire word saying why the answer ended, or None when the body has none."""
    if target == "anthropic":
        return body.get("stop_reason")
    if target == BEDROCK:
        return body.get("stopReason")
    if target == "gemini":
        return body["candidates"][0].get("finishReason")
    if target == "openai-chat":
        return body["choices"][0].get("finish_reason")
    return body.get("status")


@pytest.mark.parametrize("target", PROVIDERS)
def test_cut_off_stream_is_never_written_as_complete(target: str) -> None:
    body, losses = encode_response(target, cut_off_response())
    assert finish_word(target, body) not in COMPLETE_WORDS
    again = chatcodec.decode_response(target, body).finish_reason
    finish_losses = [loss for loss in losses if loss.path == "$.choices[0].finish_reason"]
    assert (again is not None) == bool(finish_losses), (again, losses)
    assert again is None or again.unified == "length"


@pytest.mark.parametrize("target", PROVIDERS)
def test_cut_off_stream_is_never_streamed_as_complete(target: str) -> None:
    events, _ = encode_stream(target, cut_off_response())
    if not any(event.get("type") == "response.incomplete" for event in events):  # Responses ends it, status unknown
        with pytest.raises(chatcodec.StreamError, match="cut off"):  # read back, it is still cut
            chatcodec.accumulate_stream(target, events)
    again = chatcodec.accumulate_stream(target, events, partial=True)
    assert again.finish_reason is None
    assert not any(event.get("type") == "response.completed" for event in events)
    assert not any("messageStop" in event for event in events)


# --- Responses round trips and foreign finish statuses -------------------------------------


def same_format_request(payload: dict[str, Any]) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_request(payload, source=RESPONSES, target=RESPONSES, on_loss="ignore", losses=losses)
    return out, losses


FUTURE_PART = {"type": "output_future", "x": 1}
TEXT_PART = {"type": "output_text", "text": "a", "annotations": []}


@pytest.mark.parametrize(
    "content", [[FUTURE_PART], [TEXT_PART, FUTURE_PART], [FUTURE_PART, TEXT_PART]], ids=["alone", "after", "before"]
)
def test_an_unknown_part_keeps_its_assistant_message_wrapper(content: list[dict[str, Any]]) -> None:
    message = {
        "type": "message",
        "role": "assistant",
        "id": "msg_1",
        "phase": "final_answer",
        "status": "completed",
        "content": content,
    }
    payload = {"model": "m", "input": [{"role": "user", "content": "hi"}, message]}
    out, losses = same_format_request(payload)
    assert out == payload
    assert losses == []


def test_an_unknown_part_keeps_its_wrapper_in_a_response_and_a_stream() -> None:
    message = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed", "content": [FUTURE_PART]}
    body = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "model": "m",
        "status": "completed",
        "output": [message],
    }
    response = chatcodec.decode_response(RESPONSES, body)
    assert chatcodec.encode_response(RESPONSES, response, on_loss="error") == body
    events, losses = encode_stream(RESPONSES, response)
    assert losses == []
    assert events[-1]["response"]["output"] == [message]
    assert chatcodec.accumulate_stream(RESPONSES, events) == response


def assistant_item(text: str, item_id: str) -> dict[str, Any]:
    return {"type": "message", "role": "assistant", "id": item_id, "content": [{**TEXT_PART, "text": text}]}


def test_two_consecutive_assistant_messages_are_not_merged_without_a_loss() -> None:
    payload = {
        "model": "m",
        "input": [{"role": "user", "content": "hi"}, assistant_item("a", "msg_1"), assistant_item("b", "msg_2")],
    }
    request = chatcodec.decode_request(RESPONSES, payload)
    for target in ("openai-chat", "anthropic", "gemini", BEDROCK):
        losses: list[chatcodec.Loss] = []
        options: Any = {"max_tokens": 9} if target == "anthropic" else None  # the limit Anthropic requires
        out = chatcodec.encode_request(target, request, on_loss="ignore", losses=losses, options=options)
        again = chatcodec.decode_request(target, out)
        assistants = [message for message in again.messages if message.role == "assistant"]
        assert len(assistants) == 2 or any("assistant" in loss.what or "turn" in loss.what for loss in losses), (
            target,
            out,
            losses,
        )
    assert same_format_request(payload) == (payload, [])


@pytest.mark.parametrize("value", [1, 0, 2])
def test_an_integer_temperature_stays_an_integer(value: int) -> None:
    payload = {"model": "m", "input": "hi", "temperature": value, "top_p": min(value, 1)}  # top_p: 0 to 1
    out, losses = same_format_request(payload)
    assert out == payload
    assert type(out["temperature"]) is int
    assert type(out["top_p"]) is int
    assert losses == []


@pytest.mark.parametrize("status", ["queued", "cancelled", "in_progress"])
@pytest.mark.parametrize("target", ["anthropic", BEDROCK])
def test_a_foreign_finish_status_is_never_copied_into_a_stop_reason(status: str, target: str) -> None:
    body = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "model": "m",
        "status": status,
        "output": [assistant_item("a", "msg_1")],
    }
    response = chatcodec.decode_response(RESPONSES, body)
    key = "stop_reason" if target == "anthropic" else "stopReason"
    out, losses = encode_response(target, response)
    assert out[key] != status
    assert "$.choices[0].finish_reason" in [loss.path for loss in losses]
    events, losses = encode_stream(target, response)
    assert status not in str(events)
    assert "$.finish_reason" in [loss.path for loss in losses]


@pytest.mark.parametrize("provider", ["anthropic", BEDROCK, "gemini"])
def test_a_raw_word_no_decoder_of_this_provider_read_is_mapped_from_the_unified_reason(
    provider: str,
) -> None:
    """Spelled as the provider spells its words, but with no record that its decoder read
    it (the conformance law covers the other half: a word it read comes back)."""
    word = "A_REASON_ADDED_IN_2027" if provider == "gemini" else "a_reason_added_in_2027"
    finished = chatcodec.FinishReason(unified="other", raw=word)
    foreign = chatcodec.ChatResponse(message=chatcodec.AssistantMessage(content="x"), finish_reason=finished)
    out, losses = encode_response(provider, foreign)
    assert word not in str(out)
    again = chatcodec.decode_response(provider, out).finish_reason
    assert again is not None
    assert again.unified == "other" or "$.choices[0].finish_reason" in [loss.path for loss in losses]


# --- Bedrock and Responses same-format round trips -----------------------------------------


def round_trip(provider: str, payload: dict[str, Any], kind: str = "request") -> tuple[dict[str, Any], list[Any]]:
    losses: list[chatcodec.Loss] = []
    convert = chatcodec.convert_request if kind == "request" else chatcodec.convert_response
    return convert(payload, source=provider, target=provider, on_loss="ignore", losses=losses), losses


USER_HI = {"role": "user", "content": [{"text": "hi"}]}
CACHE_POINT = {"cachePoint": {"type": "default"}}


@pytest.mark.parametrize(
    "payload",
    [
        {"modelId": "m", "messages": [{"role": "user", "content": [{"text": "hi"}, {"text": " "}, CACHE_POINT]}]},
        {"modelId": "m", "system": [{"text": "sys"}, {"text": "\n"}, CACHE_POINT], "messages": [USER_HI]},
    ],
    ids=["message", "system"],
)
def test_a_whitespace_text_block_before_a_cache_point_is_kept(payload: dict[str, Any]) -> None:
    assert round_trip(BEDROCK, payload) == (payload, [])


def test_an_empty_text_block_is_still_dropped() -> None:
    payload = {"modelId": "m", "messages": [{"role": "user", "content": [{"text": "hi"}, {"text": ""}, CACHE_POINT]}]}
    out, losses = round_trip(BEDROCK, payload)
    assert out["messages"][0]["content"] == [{"text": "hi"}]
    assert "blank text block" in [loss.what for loss in losses]


TOOL = {"toolSpec": {"name": "f", "inputSchema": {"json": {"type": "object"}}}}


@pytest.mark.parametrize(
    "config",
    [
        {"tools": [TOOL], "toolChoice": {"tool": {"name": "f", "extra": 1}}},
        {"tools": [TOOL], "toolChoice": {"auto": {"x": 1}}},
        {"tools": [TOOL], "toolChoice": {"any": {}}, "_x": {"_y": 1}},
    ],
)
def test_an_unmapped_field_inside_tool_config_stays_inside_it(config: dict[str, Any]) -> None:
    payload = {"modelId": "m", "messages": [USER_HI], "toolConfig": config}
    assert round_trip(BEDROCK, payload) == (payload, [])


NESTED = {"_a": {"__b": {"_": 1, "___c": [{"_d": 2}]}}}


def test_nested_underscore_keys_survive_a_responses_request() -> None:
    payload = {
        "model": "m",
        "input": [
            {"role": "user", "content": [{"type": "input_text", "text": "hi", "_x": NESTED}], "_m": NESTED},
            {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "s", "_e": NESTED}]},
            {"type": "message", "role": "assistant", "content": [{**TEXT_PART, "_p": NESTED}], "_w": NESTED},
        ],
        "reasoning": {"effort": "low", "_r": NESTED},
        "text": {"format": {"type": "text", "_f": NESTED}, "_t": NESTED},
        "_top": NESTED,
    }
    assert round_trip(RESPONSES, payload) == (payload, [])


def test_nested_underscore_keys_survive_a_responses_response() -> None:
    usage = {
        "input_tokens": 1,
        "output_tokens": 1,
        "total_tokens": 2,
        "input_tokens_details": {"cached_tokens": 0, "_d": NESTED},
        "output_tokens_details": {"reasoning_tokens": 0, "_o": NESTED},
    }
    payload = {
        "id": "r",
        "object": "response",
        "created_at": 1,
        "model": "m",
        "status": "completed",
        "output": [{**assistant_item("x", "msg_1"), "status": "completed"}],
        "usage": usage,
    }
    assert round_trip(RESPONSES, payload, "response") == (payload, [])


def test_nested_underscore_keys_survive_a_bedrock_request() -> None:
    payload = {
        "modelId": "m",
        "messages": [{"role": "user", "content": [{"text": "hi", "_t": NESTED}]}],
        "inferenceConfig": {"maxTokens": 5, "_i": NESTED},
        "additionalModelRequestFields": NESTED,
        "toolConfig": {"tools": [{"toolSpec": {**TOOL["toolSpec"], "_s": NESTED}}], "_c": NESTED},
    }
    assert round_trip(BEDROCK, payload) == (payload, [])


def test_an_assistant_turn_of_several_texts_sent_to_responses_reads_back_as_one_turn() -> None:
    """One message item of several ``output_text`` parts (it was an item per text, which
    read back as separate turns: the there-and-back law found it)."""
    request = chatcodec.validate_model(
        chatcodec.ChatRequest,
        {
            "model": "m",
            "messages": [
                {"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}
            ],
        },
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("openai-responses", request, on_loss="ignore", losses=losses)
    texts = [{"type": "output_text", "text": text, "annotations": []} for text in ("a", "b")]
    assert body["input"] == [{"role": "assistant", "content": texts}]
    assert losses == []
    assert len(chatcodec.decode_request("openai-responses", body).messages) == 1
