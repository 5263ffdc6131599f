"""Ollama response bodies and JSON-lines streams: finish reasons, times, calls, errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

import chatcodec
from chatcodec.streams._replay import events_from_response
from providers.ollama.conformance_streams import CALL, last, line
from providers.ollama.ollama_support import FIXTURES, assert_valid_response, assert_valid_stream, load_json


def _encode(response: chatcodec.ChatResponse) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_response("ollama", response, on_loss="ignore", losses=losses)
    assert_valid_response(body)
    return body, losses


def test_stop_with_tool_calls_is_tool_calls_and_the_word_is_kept() -> None:
    response = chatcodec.decode_response("ollama", load_json("response", "tool_call_no_id.json"))
    assert response.finish_reason == chatcodec.FinishReason(unified="tool_calls", raw="stop")
    assert _encode(response) == (load_json("response", "tool_call_no_id.json"), [])


def test_done_without_a_done_reason_ended_for_a_reason_the_wire_does_not_say() -> None:
    body = load_json("response", "text_no_done_reason.json")
    response = chatcodec.decode_response("ollama", body)
    assert response.finish_reason == chatcodec.FinishReason(unified="other")
    assert _encode(response) == (body, [])


def test_done_without_a_done_reason_after_calls_ended_to_call_them() -> None:
    """Ollama's cloud streams a call and then a done line without ``done_reason``
    (``cloud_tool_call_with_id.jsonl``): the answer ended to call its tools, so another
    format's caller is told so (Anthropic's ``tool_use``, not ``end_turn``: an agent loop
    waiting for it would stop), and Ollama's own writer again leaves the reason out."""
    text = (FIXTURES / "stream" / "cloud_tool_call_with_id.jsonl").read_text()
    response = chatcodec.accumulate_stream("ollama", text)
    assert response.finish_reason == chatcodec.FinishReason(unified="tool_calls")
    body, losses = _encode(response)
    assert ("done_reason" in body, body["done"], losses) == (False, True, [])
    anthropic_losses: list[chatcodec.Loss] = []
    answer = chatcodec.encode_response("anthropic", response, on_loss="ignore", losses=anthropic_losses)
    assert answer["stop_reason"] == "tool_use"
    assert [loss.path for loss in anthropic_losses] == ["$.id", "$.model"]  # the cloud's lines name neither
    events = list(chatcodec.encode_stream("anthropic", events_from_response(response), on_loss="ignore"))
    assert [event["delta"]["stop_reason"] for event in events if event["type"] == "message_delta"] == ["tool_use"]


def test_a_response_done_without_a_done_reason_after_calls_keeps_it_left_out() -> None:
    body = {**load_json("response", "tool_call_no_id.json")}
    del body["done_reason"]
    response = chatcodec.decode_response("ollama", body)
    assert response.finish_reason == chatcodec.FinishReason(unified="tool_calls")
    assert _encode(response) == (body, [])
    openai = chatcodec.encode_response("openai-chat", response, on_loss="ignore")
    assert openai["choices"][0]["finish_reason"] == "tool_calls"


@pytest.mark.parametrize(("unified", "word"), [("stop", "stop"), ("length", "length"), ("tool_calls", "stop")])
def test_another_providers_finish_reasons_get_ollamas_word(unified: chatcodec.UnifiedFinishReason, word: str) -> None:
    response = chatcodec.ChatResponse(message={"content": "a"}, finish_reason={"unified": unified, "raw": "end_turn"})
    body, losses = _encode(response)
    assert (body["done_reason"], body["done"], losses) == (word, True, [])


def test_a_finish_reason_ollama_has_no_word_for_is_sent_as_stop_and_reported() -> None:
    response = chatcodec.ChatResponse(message={"content": "a"}, finish_reason={"unified": "content_filter"})
    body, losses = _encode(response)
    assert body["done_reason"] == "stop"
    assert [loss.what for loss in losses] == ["finish reason 'content_filter'"]


def test_created_at_gives_unix_seconds_and_keeps_its_own_text() -> None:
    body = load_json("response", "images_null.json")
    response = chatcodec.decode_response("ollama", body)
    assert response.created == 1702507370
    assert response.provider_metadata == {"ollama": {"created_at": "2023-12-13T22:42:50.203334Z"}}
    whole_second = chatcodec.decode_response("ollama", load_json("response", "cloud_text_whole_second.json"))
    assert (whole_second.created, whole_second.provider_metadata) == (1704067200, None)


def test_a_response_from_another_provider_gets_the_created_at_the_server_writes() -> None:
    openai_body = load_json("response", "cloud_text_whole_second.json")
    response = chatcodec.ChatResponse(id="chatcmpl-1", model="m", created=1704067200, message={"content": "hello"})
    body, losses = _encode(response)
    assert body["created_at"] == openai_body["created_at"]
    assert [loss.what for loss in losses] == ["response id", "missing finish reason"]  # none was given


def test_counts_are_usage_and_durations_ride_in_its_bag() -> None:
    response = chatcodec.decode_response("ollama", load_json("response", "structured_output.json"))
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.output_tokens) == (34, 12)
    assert response.usage.provider_metadata == {
        "ollama": {
            "total_duration": 2254970291,
            "load_duration": 574751416,
            "prompt_eval_duration": 1502000000,
            "eval_duration": 175000000,
        }
    }


def test_an_error_body_raises_the_servers_message() -> None:
    with pytest.raises(chatcodec.ProviderAPIError, match="the model failed to generate a response"):
        chatcodec.decode_response("ollama", load_json("response", "error_model_failed.json"))


# --- streams ---------------------------------------------------------------------------------------


def test_a_stream_is_thinking_text_and_whole_calls_then_the_done_line() -> None:
    lines = [line(thinking="hm"), line(content="Calling."), line(tool_calls=[CALL]), last()]
    response = chatcodec.accumulate_stream("ollama", lines)
    assert [part.type for part in response.message.parts] == ["thinking", "text", "tool_use"]
    assert response.finish_reason == chatcodec.FinishReason(unified="tool_calls", raw="stop")
    call = response.message.tool_calls[0]
    assert (call.id, call.arguments) == ("call_x2k9", '{"city":"Tokyo"}')


def test_a_stream_reads_from_json_lines_text() -> None:
    text = "".join(json.dumps(event) + "\n" for event in [line(content="Hel"), line(content="lo"), last()])
    assert chatcodec.accumulate_stream("ollama", text).message.text == "Hello"


def test_an_error_line_is_an_error_event() -> None:
    events = list(chatcodec.decode_stream("ollama", [line(content="a"), {"error": "out of memory"}]))
    errors = [event for event in events if isinstance(event, chatcodec.ErrorEvent)]
    assert [error.message for error in errors] == ["out of memory"]


def test_a_stream_from_another_provider_becomes_lines_with_the_call_whole_and_done_last() -> None:
    response = chatcodec.ChatResponse(
        model="m",
        message={
            "content": [
                {"type": "text", "text": "Hi"},
                {"type": "tool_use", "id": "c1", "name": "f", "arguments": '{"a":1}'},
            ]
        },
        finish_reason={"unified": "tool_calls", "raw": "tool_use"},
        usage={"input_tokens": 5, "output_tokens": 2},
    )
    losses: list[chatcodec.Loss] = []
    events = events_from_response(response)
    wire = list(chatcodec.encode_stream("ollama", events, on_loss="ignore", losses=losses))
    assert_valid_stream(wire)
    assert [event["done"] for event in wire] == [False, False, True]
    assert wire[1]["message"]["tool_calls"] == [{"id": "c1", "function": {"name": "f", "arguments": {"a": 1}}}]
    assert {key: wire[2][key] for key in ("done_reason", "prompt_eval_count", "eval_count")} == {
        "done_reason": "stop",
        "prompt_eval_count": 5,
        "eval_count": 2,
    }
    assert losses == []


def test_a_response_without_a_finish_reason_is_written_done_with_a_loss() -> None:
    """An Ollama response is ``done``; one with no finish reason (a cut-off answer) reads back
    as done for a reason not given (``other``): that is a change, so it is reported."""
    response = chatcodec.ChatResponse(
        choices=[chatcodec.ResponseChoice(index=0, message=chatcodec.AssistantMessage(content="hi"))]
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_response("ollama", response, on_loss="ignore", losses=losses)
    assert body["done"] is True
    assert [(loss.path, loss.what) for loss in losses] == [("$.choices[0].finish_reason", "missing finish reason")]


def test_empty_text_parts_joined_with_others_are_no_loss() -> None:
    """Joining ``["", "hi", ""]`` into ``"hi"`` changes nothing, even when a part carries
    another provider's bag (a Responses ``output_text`` with its ``annotations``)."""
    body = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "model": "m",
        "status": "completed",
        "output": [
            {
                "type": "message",
                "id": "msg_1",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": text, "annotations": []} for text in ("", "hi", "")],
            }
        ],
    }
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_response(body, source="openai-responses", target="ollama", on_loss="ignore", losses=losses)
    assert out["message"]["content"] == "hi"
    assert [loss for loss in losses if loss.kind == "content"] == []


def test_an_empty_text_after_a_call_is_no_change_of_order() -> None:
    """A Responses answer whose call is followed by an empty message (sweep seed
    3565144050): the empty text reads back from Ollama as no text part, so nothing moved;
    only its Responses bag is reported. An empty text kept for its bag must not count
    toward the thinking, images, text, calls layout."""
    body = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "model": "m",
        "status": "completed",
        "output": [
            {
                "type": "function_call",
                "id": "fc_1",
                "status": "completed",
                "call_id": "c",
                "name": "f",
                "arguments": "{}",
            },
            {
                "type": "message",
                "id": "msg_1",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "", "annotations": []}],
            },
        ],
    }
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_response(body, source="openai-responses", target="ollama", on_loss="ignore", losses=losses)
    assert out["message"] == {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": {}}}],
    }
    assert [loss.what for loss in losses if loss.kind == "content"] == []
    assert "openai-responses data ['item']" in [loss.what for loss in losses]
