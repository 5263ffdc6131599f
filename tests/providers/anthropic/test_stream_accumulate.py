"""``accumulate_stream`` builds the response straight from the decoder; it must give exactly
what decoding to canonical events and ``StreamAccumulator`` give: the same response for
every recorded and generated stream, the same error (type and message) for every broken
one (see ``stream_law.py``)."""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec.providers.anthropic.stream_encode import to_sse
from chatcodec.stream_replay import events_from_response
from chatcodec.testing import chat_responses, chunkings, stream_events
from providers.anthropic.anthropic_support import STREAM_FIXTURES, load_stream_text
from providers.anthropic.anthropic_support import stream_events as recorded_events
from providers.anthropic.test_properties import _responses as anthropic_responses
from stream_law import StreamLaw, one_by_one, outcome

FORMAT = "anthropic"
PROPERTY = settings(max_examples=100, deadline=None)


LAW = StreamLaw(FORMAT)
general, fast = LAW.decoded, LAW.accumulated
assert_same, assert_same_one_by_one = LAW.assert_same, LAW.assert_same_one_by_one


def block_delta(index: int, kind: str, key: str, text: object) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": {"type": kind, key: text}}


def block_start(index: object, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


def block_stop(index: int) -> dict[str, Any]:
    return {"type": "content_block_stop", "index": index}


def message_start(**fields: Any) -> dict[str, Any]:
    usage = {"input_tokens": 40, "cache_read_input_tokens": 3, "output_tokens": 1, "service_tier": "standard"}
    message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x", "content": []}
    return {"type": "message_start", "message": {**message, "stop_reason": None, "usage": usage, **fields}}


def plain_stream() -> list[dict[str, Any]]:
    """Thinking with its signature, text, and a tool call whose input streams."""
    return [
        message_start(),
        block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
        {"type": "ping"},
        block_delta(0, "thinking_delta", "thinking", "Let me "),
        block_delta(0, "thinking_delta", "thinking", "think."),
        block_delta(0, "signature_delta", "signature", "EqQB"),
        block_stop(0),
        block_start(1, {"type": "text", "text": ""}),
        block_delta(1, "text_delta", "text", "Call"),
        block_delta(1, "text_delta", "text", "ing."),
        block_stop(1),
        block_start(2, {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}, "caller": {"type": "direct"}}),
        block_delta(2, "input_json_delta", "partial_json", '{"x":'),
        block_delta(2, "input_json_delta", "partial_json", " 1}"),
        block_stop(2),
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": 9},
        },
        {"type": "message_stop"},
    ]


# --- recordings ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", STREAM_FIXTURES)
def test_every_recording_accumulates_as_decoded(name: str) -> None:
    events = recorded_events(name)
    assert_same(load_stream_text(name))
    assert_same(events)
    assert_same_one_by_one(events)


# --- the fast path is taken, and left when it should be ----------------------------------


def test_a_plain_stream_accumulates_to_its_parts() -> None:
    events = plain_stream()
    expected = general(events)
    assert fast(events) == expected
    assert fast(one_by_one(events)) == expected
    assert [part.type for part in expected.message.parts] == ["thinking", "text", "tool_use"]


def test_fields_that_say_nothing_on_a_delta_change_nothing() -> None:
    """The general path reads only ``index`` and ``delta`` from a delta event."""
    events = plain_stream()
    events[8] = {**events[8], "x_extra": {"any": "thing"}}
    expected = outcome(general, events)
    assert outcome(fast, events) == expected


@pytest.mark.parametrize(
    ("position", "odd"),
    [
        (8, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
        (8, block_delta(1, "citations_delta", "citation", {"type": "char_location"})),
        (7, block_start(1, {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}})),
        (7, block_start(1, {"type": "text", "text": "", "citations": []})),
        (11, block_start(2, {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}})),
        (2, {"type": "future_event"}),
    ],
    ids=["error", "citations", "server-tool", "text-with-citations", "whole-input", "unknown-event"],
)
def test_an_odd_event_accumulates_as_decoded(position: int, odd: dict[str, Any]) -> None:
    events = plain_stream()
    events[position] = odd
    expected = outcome(general, events)
    assert outcome(fast, events) == expected
    assert_same_one_by_one(events)


@pytest.mark.parametrize(
    "events",
    [
        [message_start(), block_delta(0, "text_delta", "text", "a")],
        [
            message_start(),
            block_start(0, {"type": "text", "text": ""}),
            block_delta(0, "thinking_delta", "thinking", ""),
        ],
        [message_start(), block_start(0, {"type": "text", "text": 5})],
        [message_start(), block_start(0, {"type": "text", "text": ""}), block_start(0, {"type": "text", "text": ""})],
        [
            message_start(),
            block_start(0, {"type": "text", "text": ""}),
            block_stop(0),
            block_start(0, {"type": "text", "text": ""}),
        ],
        [message_start(), block_start(-1, {"type": "text", "text": ""})],
        [message_start(), block_start(True, {"type": "text", "text": ""})],
        [message_start(usage={"input_tokens": -1})],
        [message_start(usage={"input_tokens": "1"})],
        [message_start(content=[{"type": "text", "text": "already"}])],
        [{"type": "message_delta", "delta": {"stop_reason": 5}}],
        [{"no": "type"}],
        [message_start(), "not an event"],
        [],
    ],
    ids=[
        "never-started",
        "wrong-delta-kind",
        "number-text",
        "started-twice",
        "index-reused",
        "negative-index",
        "bool-index",
        "negative-usage",
        "text-usage",
        "content-in-start",
        "number-stop-reason",
        "no-type",
        "not-a-dict",
        "empty",
    ],
)
def test_broken_streams_raise_the_decoded_error(events: list[Any]) -> None:
    assert_same(events)


def test_a_broken_sse_stream_raises_as_decoded() -> None:
    sse = "".join(to_sse(plain_stream()))
    assert_same(sse.replace('"ing."', '"ing.'))  # bad JSON mid-stream
    assert_same(sse[: len(sse) // 2])  # cut off


_GONE = object()
"""Stands for a removed key."""

_ODD = [_GONE, None, "", "x", "text_delta", "thinking_delta", "input_json_delta", "signature_delta", 0, 1, 2, -1]
_ODD += [1.0, True, [], {}, {"type": "text_delta"}, {"type": "text_delta", "text": "x"}]
_DELTA_FIELDS = ("type", "text", "thinking", "partial_json", "signature", "citation", "x_extra")
_USAGE_FIELDS = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
_BLOCK_FIELDS = ("type", "text", "thinking", "signature", "id", "name", "input", "cache_control", "citations", "x")
_READ_OR_SKIPPED: dict[int, list[tuple[str, ...]]] = {
    0: [
        ("message",),
        *[("message", key) for key in ("id", "type", "role", "model", "content", "stop_reason", "stop_sequence")],
        *[("message", key) for key in ("usage", "container", "x_extra")],
        *[("message", "usage", key) for key in (*_USAGE_FIELDS, "output_tokens_details", "service_tier")],
    ],
    **{
        position: [("index",), ("content_block",), *[("content_block", key) for key in _BLOCK_FIELDS]]
        for position in (1, 7, 11)
    },
    2: [("type",), ("x_extra",)],
    **{
        position: [("index",), ("delta",), ("type",), ("x_extra",), *[("delta", key) for key in _DELTA_FIELDS]]
        for position in (4, 5, 9, 13)
    },
    6: [("index",), ("type",), ("x_extra",)],
    15: [
        ("delta",),
        ("usage",),
        ("x_extra",),
        *[("delta", key) for key in ("stop_reason", "stop_sequence", "stop_details", "x_extra")],
        *[("usage", key) for key in (*_USAGE_FIELDS, "output_tokens_details", "x_extra")],
    ],
}
"""Where in ``plain_stream()`` each field of each event kind is, to be set to anything."""


def changed(events: list[dict[str, Any]], position: int, path: tuple[str, ...], value: object) -> list[Any]:
    changed_events = copy.deepcopy(events)
    parent: Any = changed_events[position]
    for step in path[:-1]:
        parent = parent[step]
    if value is _GONE:
        parent.pop(path[-1], None)
    else:
        parent[path[-1]] = value
    return changed_events


def test_every_field_set_to_anything_gives_the_decoded_outcome() -> None:
    events = plain_stream()
    for position, paths in _READ_OR_SKIPPED.items():
        for path in paths:
            for value in _ODD:
                broken = changed(events, position, path, value)
                assert outcome(fast, broken) == outcome(general, broken), (position, path, value)


def shapes() -> dict[str, list[dict[str, Any]]]:
    """Streams that exercise one rule of the decoder each."""
    text = block_start(0, {"type": "text", "text": "Hi"})
    end = {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}}
    return {
        "text-in-start": [message_start(), text, block_delta(0, "text_delta", "text", "!"), block_stop(0)],
        "no-message-start": [text, block_stop(0), end],
        "cut-off": [message_start(), text, block_delta(0, "text_delta", "text", " there")],
        "thinking-without-signature": [
            message_start(model=""),
            block_start(0, {"type": "thinking", "thinking": "Hm"}),
            block_delta(0, "signature_delta", "signature", "sig"),
            block_stop(0),
        ],
        "escaped-tool-id": [
            message_start(),
            block_start(0, {"type": "tool_use", "id": "cc-functions_2eget_3a0", "name": "get", "input": {}}),
            block_stop(0),
        ],
        "block-extras": [
            message_start(),
            block_start(0, {"type": "text", "text": "", "x": None, "y": [1]}),
            block_stop(0),
        ],
        "message-extras": [
            message_start(container=None, context_management={"applied": []}, stop_sequence=None),
            {**end, "delta": {**end["delta"], "stop_details": None, "container": {"id": "c"}}},
            {**end, "usage": {"output_tokens": 3, "output_tokens_details": {"thinking_tokens": 1}}},
        ],
        "two-message-starts": [message_start(), message_start(id="msg_2", usage=None), text, block_stop(0)],
        "usage-only-delta": [message_start(), {"type": "message_delta", "delta": {}, "usage": {"input_tokens": 9}}],
        "ping-with-extras": [message_start(), {"type": "ping", "x": 1}, {"type": "message_stop", "metrics": {}}],
        "empty-deltas": [
            message_start(),
            block_start(0, {"type": "tool_use", "id": "t", "name": "f", "input": {}}),
            block_delta(0, "input_json_delta", "partial_json", ""),
            block_stop(0),
        ],
    }


@pytest.mark.parametrize("name", list(shapes()))
def test_each_rule_holds_both_ways(name: str) -> None:
    events = shapes()[name]
    assert_same(events)
    assert_same_one_by_one(events)


# --- generated streams -----------------------------------------------------------------------


def wire(events: Iterable[chatcodec.AnyStreamEvent]) -> list[dict[str, Any]]:
    """The events the encoder writes for ``events``, up to the first it refuses."""
    written: list[dict[str, Any]] = []
    with contextlib.suppress(chatcodec.StreamError):
        written.extend(chatcodec.encode_stream(FORMAT, events, on_loss="ignore"))
    return written


@PROPERTY
@given(anthropic_responses(), chunkings())
def test_anthropic_shaped_streams_accumulate_as_decoded(
    response: chatcodec.ChatResponse, split: chatcodec.testing.Splitter
) -> None:
    events = wire(events_from_response(response, split))
    assert_same(events)
    assert_same_one_by_one(events)


@PROPERTY
@given(chat_responses(), chunkings())
def test_any_response_streamed_accumulates_as_decoded(
    response: chatcodec.ChatResponse, split: chatcodec.testing.Splitter
) -> None:
    assert_same(wire(events_from_response(response, split)))


@PROPERTY
@given(st.lists(stream_events(), max_size=12))
def test_any_event_sequence_accumulates_as_decoded(events: list[chatcodec.AnyStreamEvent]) -> None:
    assert_same(wire(events))


# --- broken streams: the same error, or the same response ------------------------------------

_KEYS = st.sampled_from(
    [
        *("type", "index", "delta", "content_block", "message", "text", "thinking", "signature", "partial_json"),
        *("input", "id", "name", "usage", "stop_reason", "citations", "cache_control", "error", "x_extra"),
    ]
)


def _containers(value: Any) -> list[dict[str, Any] | list[Any]]:
    """Every dict and list inside ``value``, ``value`` included."""
    if isinstance(value, dict):
        found: list[dict[str, Any] | list[Any]] = [value]
        items: Iterable[Any] = value.values()
    elif isinstance(value, list):
        found, items = [value], value
    else:
        return []
    for item in items:
        found.extend(_containers(item))
    return found


@st.composite
def _broken(draw: st.DrawFn, events: list[dict[str, Any]]) -> list[Any]:
    """``events`` with one to three things changed: a value retyped, a key removed or
    added, an event repeated, dropped, swapped with the next or replaced by junk."""
    broken: list[Any] = copy.deepcopy(events)
    odd = st.sampled_from(_ODD[1:])
    for _ in range(draw(st.integers(1, 3))):
        if not broken:
            break
        position = draw(st.integers(0, len(broken) - 1))
        change = draw(st.sampled_from(["set", "delete", "add", "repeat", "drop", "swap", "junk"]))
        if change == "repeat":
            broken.insert(position, copy.deepcopy(broken[position]))
        elif change == "drop":
            del broken[position]
        elif change == "swap" and position + 1 < len(broken):
            broken[position], broken[position + 1] = broken[position + 1], broken[position]
        elif change == "junk":
            broken[position] = draw(odd)
        elif containers := _containers(broken[position]):
            container = draw(st.sampled_from(containers))
            if isinstance(container, list):
                if container:
                    container[draw(st.integers(0, len(container) - 1))] = draw(odd)
            elif change == "add" or not container:
                container[draw(_KEYS)] = draw(odd)
            elif change == "delete":
                del container[draw(st.sampled_from(sorted(container)))]
            else:
                container[draw(st.sampled_from(sorted(container)))] = draw(odd)
    return broken


@PROPERTY
@given(anthropic_responses(), chunkings(), st.data())
def test_broken_streams_fail_or_succeed_as_decoded(
    response: chatcodec.ChatResponse, split: chatcodec.testing.Splitter, data: st.DataObject
) -> None:
    broken = data.draw(_broken(wire(events_from_response(response, split))))
    assert_same(broken)
    assert_same_one_by_one(broken)
