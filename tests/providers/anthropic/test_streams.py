"""Streams: usage totals replace, server-tool and citation blocks accumulate like the
non-streamed message, other providers' events become valid Anthropic SSE, linear time."""

from __future__ import annotations

import time
from typing import Any

import pytest
from anthropic.lib.streaming._messages import accumulate_event

import chatcodec
from chatcodec._model.stream_events import (
    FinishEvent,
    RefusalDeltaEvent,
    ResponseStartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ThinkingDeltaEvent,
    ThinkingEndEvent,
    ThinkingStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
    UsageEvent,
)
from chatcodec.streams._replay import events_from_response
from providers.anthropic.anthropic_support import (
    assert_valid_stream,
    encode_events,
    load_json,
    normalized_arguments,
    stream_events,
)


def _start(**usage: int) -> dict[str, Any]:
    message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x", "content": []}
    return {"type": "message_start", "message": {**message, "stop_reason": None, "stop_sequence": None, "usage": usage}}


def _text_block(index: int, *deltas: str) -> list[dict[str, Any]]:
    return [
        {"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}},
        *(
            {"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": text}}
            for text in deltas
        ),
        {"type": "content_block_stop", "index": index},
    ]


def _end(stop_reason: str = "end_turn", **usage: int) -> list[dict[str, Any]]:
    return [
        {"type": "message_delta", "delta": {"stop_reason": stop_reason, "stop_sequence": None}, "usage": usage},
        {"type": "message_stop"},
    ]


def test_message_delta_usage_replaces_never_adds() -> None:
    """The compatible endpoint repeats ``input_tokens`` (61) differing from message_start (43)."""
    usage = chatcodec.accumulate_stream("anthropic", stream_events("message_delta_input_tokens_compat.jsonl")).usage
    assert usage == chatcodec.Usage(input_tokens=61, output_tokens=2)


def test_repeated_cache_counts_are_not_double_counted() -> None:
    events = [
        _start(input_tokens=3, cache_read_input_tokens=1000, cache_creation_input_tokens=200, output_tokens=1),
        *_text_block(0, "hi"),
        *_end(input_tokens=3, cache_read_input_tokens=1000, output_tokens=9),
    ]
    usage = chatcodec.accumulate_stream("anthropic", events).usage
    assert usage is not None
    assert (usage.input_tokens, usage.cache_read_tokens, usage.cache_write_tokens, usage.output_tokens) == (
        1203,
        1000,
        200,
        9,
    )


def test_streamed_server_tool_call_is_the_same_opaque_block_as_non_streamed() -> None:
    response = chatcodec.accumulate_stream("anthropic", stream_events("code_execution_server_tool.sse"))
    server_call = response.message.parts[2]
    assert isinstance(server_call, chatcodec.OpaquePart)
    assert server_call.data == {
        "type": "server_tool_use",
        "id": "srvtoolu_01MwXaweAHve88x6s3Fc8x6Q",
        "name": "bash_code_execution",
        "input": {"command": 'echo "65465-6544 * 65464-6+1.02255" | bc -l'},
    }
    result = response.message.parts[3]
    assert isinstance(result, chatcodec.OpaquePart)
    assert result.data["type"] == "bash_code_execution_tool_result"
    assert response.provider_metadata == {
        "anthropic": {
            "container": {"id": "container_011CaNRFAbjdPf4rmBarZzqQ", "expires_at": "2026-04-24T11:13:36.730129Z"},
            "_nulls": ["stop_details"],
        }
    }


def test_citations_arrive_as_deltas_and_end_on_the_text_part() -> None:
    citation = {"type": "char_location", "cited_text": "x", "document_index": 0, "start_char_index": 0}
    citation |= {"end_char_index": 1, "document_title": None}
    events = [
        _start(input_tokens=1, output_tokens=1),
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": "", "citations": None}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "citations_delta", "citation": citation}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "x"}},
        {"type": "content_block_stop", "index": 0},
        *_end(output_tokens=2),
    ]
    part = chatcodec.accumulate_stream("anthropic", events).message.parts[0]
    assert part == chatcodec.TextPart(text="x", provider_metadata={"anthropic": {"citations": [citation]}})


def test_newer_delta_kinds_replace_the_fields_they_name() -> None:
    """``compaction_delta`` (beta) sets the compaction block's fields; the block stays opaque."""
    events = [
        _start(input_tokens=1, output_tokens=1),
        {"type": "content_block_start", "index": 0, "content_block": {"type": "compaction", "content": None}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "compaction_delta", "content": "summary"}},
        {"type": "content_block_stop", "index": 0},
        *_end(output_tokens=2),
    ]
    part = chatcodec.accumulate_stream("anthropic", events).message.parts[0]
    assert part == chatcodec.OpaquePart(provider="anthropic", data={"type": "compaction", "content": "summary"})


def test_a_tool_call_given_whole_in_its_start_block() -> None:
    block = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}
    events = [
        _start(input_tokens=1, output_tokens=1),
        {"type": "content_block_start", "index": 0, "content_block": block},
        {"type": "content_block_stop", "index": 0},
        *_end("tool_use", output_tokens=2),
    ]
    call = chatcodec.accumulate_stream("anthropic", events).message.tool_calls[0]
    assert (call.id, call.arguments) == ("toolu_1", '{"a":1}')


def test_events_from_another_provider_become_valid_anthropic_sse() -> None:
    """What a proxy serving the Anthropic API from an OpenAI upstream emits."""
    events = [
        ResponseStartEvent(id="chatcmpl-1", model="gpt-5"),
        ThinkingStartEvent(index=0, provider="openai"),
        ThinkingDeltaEvent(index=0, delta="plan"),
        ThinkingEndEvent(index=0),
        TextStartEvent(index=1),
        TextDeltaEvent(index=1, delta="Hel"),
        TextDeltaEvent(index=1, delta="lo"),
        TextEndEvent(index=1),
        ToolCallStartEvent(index=2, id="call_1", name="get_weather"),
        ToolCallDeltaEvent(index=2, delta='{"city":'),
        ToolCallDeltaEvent(index=2, delta=' "Paris"}'),
        ToolCallEndEvent(index=2),
        FinishEvent(finish_reason=chatcodec.FinishReason(unified="tool_calls", raw="tool_calls")),
        UsageEvent(usage=chatcodec.Usage(input_tokens=20, output_tokens=5, cache_read_tokens=8)),
    ]
    wire, losses = encode_events(events)
    # the one thing it cannot carry: the signature the block requires, made up, as a response reports it
    assert [(loss.path, loss.what) for loss in losses] == [("$.content[0].signature", "thinking signature")]
    assert_valid_stream(wire)
    assert [event["type"] for event in wire][:2] == ["message_start", "content_block_start"]
    assert wire[-2]["usage"] == {"input_tokens": 12, "output_tokens": 5, "cache_read_input_tokens": 8}
    snapshot = None
    buffers: dict[int, bytes] = {}
    for event in wire:
        snapshot = accumulate_event(event=event, current_snapshot=snapshot, json_bufs=buffers)
    assert snapshot is not None
    sdk = chatcodec.decode_response("anthropic", snapshot.to_dict(mode="json"))
    ours = chatcodec.accumulate_stream("anthropic", "".join(chatcodec.to_sse("anthropic", wire)))
    assert normalized_arguments(ours).message == normalized_arguments(sdk).message
    assert ours.message.tool_calls[0].arguments == '{"city": "Paris"}'
    assert ours.finish_reason == chatcodec.FinishReason(unified="tool_calls", raw="tool_use")


def test_refusals_and_extra_choices_are_reported() -> None:
    events = [
        RefusalDeltaEvent(index=0, delta="I can't"),
        RefusalDeltaEvent(index=0, delta=" help."),
        TextStartEvent(index=0, choice=1),
        FinishEvent(finish_reason=chatcodec.FinishReason(unified="stop")),
        FinishEvent(choice=1, finish_reason=chatcodec.FinishReason(unified="stop")),
    ]
    wire, losses = encode_events(events)
    assert_valid_stream(wire)
    assert chatcodec.accumulate_stream("anthropic", wire).message.text == "I can't help."
    # no start event and no usage: the id, model and usage a message requires are invented, reported
    assert [loss.path for loss in losses] == ["$.id", "$.model", "$.content[0]", "$.choices[1]", "$.usage"]


def test_error_events_become_error_events() -> None:
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    events = list(chatcodec.decode_stream("anthropic", [_start(input_tokens=1, output_tokens=0), error]))
    assert events[-1] == chatcodec.ErrorEvent(message="Overloaded", error_type="overloaded_error", body=error)
    accumulator = chatcodec.StreamAccumulator()
    accumulator.extend(events)
    with pytest.raises(chatcodec.ProviderAPIError) as caught:
        accumulator.response()
    assert caught.value.error_type == "overloaded_error"
    assert encode_events(events[-1:])[0] == [error]


def test_sse_text_is_rendered_as_anthropic_sends_it() -> None:
    wire = [{"type": "ping"}, {"type": "content_block_stop", "index": 0}]
    assert "".join(chatcodec.to_sse("anthropic", wire)) == (
        'event: ping\ndata: {"type":"ping"}\n\n'
        'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n'
    )


def test_an_empty_stream_encodes_to_nothing() -> None:
    assert encode_events([]) == ([], [])


def _long_stream(blocks: int) -> list[dict[str, Any]]:
    events = [_start(input_tokens=1, output_tokens=1)]
    for index in range(blocks):
        events += _text_block(index, *(["word "] * 200))
    server = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
    events.append({"type": "content_block_start", "index": blocks, "content_block": server})
    fragments = ['{"query": "', *(["x"] * 200 * blocks), '"}']
    for fragment in fragments:
        delta = {"type": "input_json_delta", "partial_json": fragment}
        events.append({"type": "content_block_delta", "index": blocks, "delta": delta})
    events.append({"type": "content_block_stop", "index": blocks})
    return events + _end(output_tokens=5)


def _seconds(events: list[dict[str, Any]]) -> float:
    """CPU seconds of this process, not wall-clock: other processes on a loaded machine
    (CI neighbours, parallel test runs) do not inflate it, so the ratio below measures the
    algorithm rather than the machine's load."""
    started = time.process_time()
    chatcodec.accumulate_stream("anthropic", events)
    return time.process_time() - started


def test_accumulation_is_linear_in_the_stream() -> None:
    """Eight times the events take far less than 64 times as long (quadratic would)."""
    small, large = _long_stream(5), _long_stream(40)
    _seconds(small)  # warm up
    ratio = min(_seconds(large) for _ in range(3)) / min(_seconds(small) for _ in range(3))
    assert ratio < 20, ratio


def test_a_recorded_non_streamed_response_and_its_stream_agree_on_usage() -> None:
    """``output_tokens_details`` (thinking tokens) survives the trip through a stream."""
    response = chatcodec.decode_response(
        "anthropic", load_json("response", "output_tokens_details_thinking_tokens.json")
    )
    wire, _ = encode_events(events_from_response(response))
    assert chatcodec.accumulate_stream("anthropic", wire).usage == response.usage


def test_push_style_decoding_gives_what_the_pull_decoder_gives() -> None:
    """``stream_decoder()`` (feed/close) is what Conversation and async proxies use."""
    events = stream_events("server_and_client_tool_use.sse")
    codec = chatcodec.get_codec("anthropic")
    assert isinstance(codec, chatcodec.SupportsStreamDecoder)
    decoder = codec.stream_decoder()
    pushed = [event for wire in events for event in decoder.feed(wire)] + decoder.close()
    assert pushed == list(chatcodec.decode_stream("anthropic", events))
    conversation = chatcodec.Conversation()
    for wire in events:
        conversation.append_chunk("anthropic", wire)
    message = conversation.finish_stream()
    assert message == chatcodec.accumulate_stream("anthropic", events).message


def test_streamed_arguments_that_are_not_an_object_are_reported() -> None:
    events = [
        ToolCallStartEvent(index=0, id="call_1", name="f"),
        ToolCallDeltaEvent(index=0, delta='{"a": '),
        ToolCallEndEvent(index=0),
        ToolCallStartEvent(index=1, id="call_2", name="g"),
        ToolCallDeltaEvent(index=1, delta='{"b": 1}'),
        ToolCallEndEvent(index=1),
    ]
    wire, losses = encode_events(events)
    assert_valid_stream(wire)
    # no start event and no usage: the id, model and usage a message requires are invented, reported
    assert [loss.path for loss in losses] == ["$.id", "$.model", "$.content[0].arguments", "$.usage"]
