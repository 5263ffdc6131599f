"""Bad input gives chatcodec errors that name the place: wire JSON paths for payloads,
the event's position for streams. Nothing raises KeyError or TypeError."""

from __future__ import annotations

import contextlib
import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec._model.stream_events import TextDeltaEvent, TextStartEvent, ToolCallEndEvent
from providers.anthropic.anthropic_support import (
    REQUEST_FIXTURES,
    RESPONSE_FIXTURES,
    STREAM_FIXTURES,
    load_json,
    stream_events,
)


def _request(**fields: Any) -> dict[str, Any]:
    return {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "q"}], **fields}


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ({"model": "m"}, "$.messages"),
        (_request(messages={"role": "user"}), "$.messages"),
        (_request(messages=[{"role": "bot", "content": "hi"}]), "$.messages[0].role"),
        (_request(messages=[{"role": "user"}]), "$.messages[0].content"),
        (_request(messages=[{"role": "user", "content": 7}]), "$.messages[0].content"),
        (
            _request(messages=[{"role": "user", "content": [{"type": "text", "text": 1}]}]),
            "$.messages[0].content[0].text",
        ),
        (_request(messages=[{"role": "user", "content": [{"text": "no type"}]}]), "$.messages[0].content[0].type"),
        (_request(messages=[{"role": "user", "content": ["bare string"]}]), "$.messages[0].content[0]"),
        (
            _request(messages=[{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f"}]}]),
            "$.messages[0].content[0].input",
        ),
        (
            _request(
                messages=[
                    {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": "{}"}]}
                ]
            ),
            "$.messages[0].content[0].input",
        ),
        (
            _request(messages=[{"role": "user", "content": [{"type": "tool_result", "tool_use_id": 5}]}]),
            "$.messages[0].content[0].tool_use_id",
        ),
        (_request(max_tokens="10"), "$.max_tokens"),
        (_request(system=5), "$.system"),
        (_request(tools=[{"input_schema": {}}]), "$.tools[0].name"),
        (_request(tool_choice={"type": "sometimes"}), "$.tool_choice.type"),
        (_request(stop_sequences="Paris"), "$.stop_sequences"),
        (_request(thinking={"budget_tokens": 5}), "$.thinking.type"),
    ],
)
def test_bad_requests_name_the_wire_path(payload: dict[str, Any], path: str) -> None:
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.decode_request("anthropic", payload)
    assert path in caught.value.paths
    assert "Anthropic request" in str(caught.value)


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ({"id": "m"}, "$.content"),
        ({"content": [{"type": "thinking"}]}, "$.content[0].thinking"),
        ({"content": [], "usage": {"input_tokens": "3"}}, "$.usage.input_tokens"),
        ({"content": [], "stop_reason": 3}, "$.stop_reason"),
        ({"type": "error", "error": "boom"}, "$.error"),
    ],
)
def test_bad_responses_name_the_wire_path(payload: dict[str, Any], path: str) -> None:
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.decode_response("anthropic", payload)
    assert path in caught.value.paths


def test_a_payload_that_is_not_an_object_is_a_payload_error() -> None:
    with pytest.raises(chatcodec.PayloadError):
        chatcodec.decode_request("anthropic", "[1, 2]")


def test_counts_canonical_forbids_are_validation_errors() -> None:
    with pytest.raises(chatcodec.ValidationError) as caught:
        chatcodec.decode_response("anthropic", {"content": [], "usage": {"input_tokens": -1, "output_tokens": 0}})
    assert caught.value.paths == ["$.usage.input_tokens"]


_START = {
    "type": "message_start",
    "message": {"id": "m", "type": "message", "role": "assistant", "model": "x", "content": [], "usage": {}},
}


def _text_start(index: int) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}


def _delta(index: int, delta: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": delta}


@pytest.mark.parametrize(
    ("events", "position", "path", "words"),
    [
        ([_START, _delta(0, {"type": "text_delta", "text": "x"})], 1, "$.index", "never started"),
        ([_START, {"type": "content_block_stop", "index": 3}], 1, "$.index", "never started"),
        ([_START, _text_start(0), _text_start(0)], 2, "$.index", "started again"),
        ([_START, _text_start(0), _delta(0, {"type": "thinking_delta", "thinking": "x"})], 2, "$.delta.type", "text"),
        ([_START, _text_start(0), _delta(0, {"type": "text_delta"})], 2, "$.delta.text", "text string"),
        ([_START, {"type": "content_block_start", "index": "0"}], 1, "$.index", "integer"),
        ([{"type": "message_delta"}], 0, "$.delta", "required"),
        ([_START, {"type": "content_block_delta", "index": 0, "delta": {"text": "x"}}], 1, "$.delta.type", "required"),
        (
            [
                _START,
                {"type": "content_block_start", "index": 0, "content_block": {"type": "server_tool_use", "input": {}}},
                _delta(0, {"type": "input_json_delta", "partial_json": '{"q": '}),
                {"type": "content_block_stop", "index": 0},
            ],
            3,
            "$.delta.partial_json",
            "not JSON",
        ),
        (
            [
                _START,
                {"type": "content_block_start", "index": 0, "content_block": {"type": "web_search_tool_result"}},
                _delta(0, {"type": "text_delta", "text": "x"}),
            ],
            2,
            "$.delta.type",
            "web_search_tool_result",
        ),
    ],
)
def test_malformed_streams_name_the_event(events: list[dict[str, Any]], position: int, path: str, words: str) -> None:
    with pytest.raises(chatcodec.StreamError) as caught:
        chatcodec.accumulate_stream("anthropic", events)
    assert (caught.value.event_index, caught.value.path) == (position, path)
    assert words in str(caught.value)


def test_unknown_event_types_and_pings_are_ignored() -> None:
    events = [_START, {"type": "ping"}, {"type": "future_event", "x": 1}, {"type": "message_stop", "extra": True}]
    assert [event.type for event in chatcodec.decode_stream("anthropic", events)] == ["response_start", "usage"]


def test_bad_json_in_an_sse_stream_is_a_stream_error() -> None:
    with pytest.raises(chatcodec.StreamError) as caught:
        chatcodec.accumulate_stream("anthropic", 'event: message_start\ndata: {"type": \n\n')
    assert caught.value.event_index == 0


def test_encoding_events_out_of_order_is_a_stream_error() -> None:
    with pytest.raises(chatcodec.StreamError) as caught:
        list(chatcodec.encode_stream("anthropic", [TextDeltaEvent(index=0, delta="x")], on_loss="ignore"))
    assert caught.value.event_index == 0
    events = [TextStartEvent(index=0), ToolCallEndEvent(index=0)]
    with pytest.raises(chatcodec.StreamError) as caught:
        list(chatcodec.encode_stream("anthropic", events, on_loss="ignore"))
    assert caught.value.event_index == 1


_VOCABULARY = [
    "type",
    "role",
    "content",
    "messages",
    "text",
    "source",
    "data",
    "media_type",
    "url",
    "id",
    "name",
    "input",
    "tool_use_id",
    "is_error",
    "thinking",
    "signature",
    "usage",
    "input_tokens",
    "system",
    "tools",
    "index",
    "delta",
    "message",
    "content_block",
    "partial_json",
    "stop_reason",
    "cache_control",
    "citations",
    "budget_tokens",
]
_TAGS = [
    "text",
    "image",
    "document",
    "thinking",
    "redacted_thinking",
    "tool_use",
    "tool_result",
    "user",
    "assistant",
    "system",
    "base64",
    "url",
    "file",
    "ephemeral",
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "error",
    "text_delta",
    "input_json_delta",
    "enabled",
    "server_tool_use",
]
_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(_TAGS), st.text(max_size=3)),
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(st.sampled_from(_VOCABULARY), children, max_size=4)
    ),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copied = copy.copy(value)
    copied[path[0]] = _replaced(value[path[0]], path[1:], new)
    return copied


@st.composite
def _mutants(draw: st.DrawFn) -> tuple[str, Any]:
    """A recorded payload with one value somewhere replaced by something else."""
    kind = draw(st.sampled_from(["request", "response", "stream"]))
    names = {"request": REQUEST_FIXTURES, "response": RESPONSE_FIXTURES, "stream": STREAM_FIXTURES}[kind]
    name = draw(st.sampled_from(names))
    original: Any = stream_events(name) if kind == "stream" else load_json(kind, name)
    paths = _paths(original)
    path = draw(st.sampled_from(paths[1:] if kind == "stream" else paths))  # a stream stays a list
    return kind, _replaced(original, path, draw(_values))


def _accumulate(provider: str, events: list[Any]) -> chatcodec.ChatResponse:
    """The codec's own stream decoder on event objects (the top-level function would
    first sniff the list's form, which is not what is under test here)."""
    accumulator = chatcodec.StreamAccumulator()
    accumulator.extend(chatcodec.get_codec(provider).decode_stream(events))
    return accumulator.response()


_DECODERS = {"request": chatcodec.decode_request, "response": chatcodec.decode_response, "stream": _accumulate}


@settings(max_examples=300, deadline=None)
@given(_mutants())
def test_no_input_makes_a_decoder_crash(mutant: tuple[str, Any]) -> None:
    """Whatever comes in, a decoder returns or raises a chatcodec error, never a KeyError."""
    kind, payload = mutant
    with contextlib.suppress(chatcodec.ChatcodecError):
        _DECODERS[kind]("anthropic", payload)
