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
from chatcodec.providers.openai_chat.stream_encode import to_sse
from chatcodec.stream_input import iter_event_payloads
from chatcodec.stream_replay import events_from_response
from chatcodec.testing import chat_responses, chunkings, stream_events
from providers.openai_chat.openai_chat_support import FORMAT, encode_events, fixture_names, load_stream
from providers.openai_chat.test_properties import openai_responses
from stream_law import StreamLaw, one_by_one, outcome

PROPERTY = settings(max_examples=100, deadline=None)

RECORDINGS = fixture_names("stream", ".sse")

LAW = StreamLaw(FORMAT)
general, fast = LAW.decoded, LAW.accumulated
assert_same, assert_same_one_by_one = LAW.assert_same, LAW.assert_same_one_by_one


def chunk(*choices: dict[str, Any], **fields: Any) -> dict[str, Any]:
    envelope = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m", "system_fingerprint": "fp"}
    return {**envelope, "choices": list(choices), **fields}


def delta(index: int = 0, finish_reason: str | None = None, **fields: Any) -> dict[str, Any]:
    return {"index": index, "delta": fields, "logprobs": None, "finish_reason": finish_reason}


def call(index: int, arguments: str, call_id: str | None = None, name: str | None = None) -> dict[str, Any]:
    function = {"arguments": arguments} if name is None else {"name": name, "arguments": arguments}
    fragment: dict[str, Any] = {"index": index, "function": function}
    return fragment if call_id is None else {**fragment, "id": call_id, "type": "function"}


def plain_stream() -> list[dict[str, Any]]:
    """Reasoning, text and two parallel calls whose fragments interleave, then usage."""
    return [
        chunk(delta(role="assistant", content="", refusal=None)),
        chunk(delta(reasoning_content="Let me ")),
        chunk(delta(reasoning_content="think.")),
        chunk(delta(content="Cal")),
        chunk(delta(content="ling.")),
        chunk(delta(tool_calls=[call(0, "", "call_a", "f")])),
        chunk(delta(tool_calls=[call(1, '{"y"', "call_b", "g")])),
        chunk(delta(tool_calls=[call(0, '{"x":')])),
        chunk(delta(tool_calls=[call(1, ":2}")])),
        chunk(delta(tool_calls=[call(0, "1}")])),
        chunk(delta(finish_reason="tool_calls")),
        chunk(usage={"prompt_tokens": 5, "completion_tokens": 7, "total_tokens": 12}),
    ]


# --- recordings ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", RECORDINGS)
def test_every_recording_accumulates_as_decoded(name: str) -> None:
    sse = load_stream(name)
    chunks = list(iter_event_payloads(sse))
    assert_same(sse)
    assert_same(chunks)
    assert_same_one_by_one(chunks)


# --- the fast path is taken, and left when it should be ----------------------------------


def test_a_plain_stream_accumulates_to_its_parts() -> None:
    chunks = plain_stream()
    expected = general(chunks)
    assert fast(chunks) == expected
    assert fast(one_by_one(chunks)) == expected
    thinking, text, *calls = expected.message.parts
    assert (thinking.type, text.type, [part.type for part in calls]) == ("thinking", "text", ["tool_use", "tool_use"])


def test_fields_that_say_nothing_on_a_continuing_chunk_change_nothing() -> None:
    """The general path drops them (or keeps them on a delta event, which the accumulator
    does not read), so the fast path need not look at them."""
    chunks = plain_stream()
    chunks[4] = {**chunks[4], "x_groq": {"id": "req_1"}, "obfuscation": 7}
    chunks[4]["choices"] = [{**chunks[4]["choices"][0], "logprobs": {"content": []}, "extra": 1}]
    chunks[8]["choices"][0]["delta"]["channel"] = "analysis"
    chunks[9]["choices"][0]["delta"]["tool_calls"][0]["id"] = None
    expected = outcome(general, chunks)
    assert outcome(fast, chunks) == expected


@pytest.mark.parametrize(
    "odd",
    [
        {"error": {"message": "overloaded", "type": "server_error"}},
        {"x_groq": {"usage": {"queue_time": 1}}},
        {"system_fingerprint": "fp_other"},
        {"created": 1.0},
        {"model": 5},
    ],
    ids=["error", "new-field", "changed-field", "float-created", "number-model"],
)
def test_an_odd_chunk_accumulates_as_decoded(odd: dict[str, Any]) -> None:
    chunks = plain_stream()
    chunks[-2] = {**chunks[-2], **odd}
    expected = outcome(general, chunks)
    assert outcome(fast, chunks) == expected
    assert_same_one_by_one(chunks)


@pytest.mark.parametrize(
    "chunks",
    [
        [chunk(delta(content="a")), chunk(delta(content=5))],
        [chunk(delta(content="a")), chunk(delta(tool_calls=[call(3, "{}")]))],
        [chunk(delta(tool_calls=[call(0, "", "a", "f")])), chunk(delta(tool_calls=[call(0, "", name="g")]))],
        [chunk(delta(content="a", finish_reason="stop")), chunk(delta(content="b"))],
        [chunk(delta(content="a")), chunk(delta(index=True, content="b"))],
        [chunk(delta(content="a")), {"id": "c1", "choices": [delta(content="b")], "created": True}],
        [chunk(delta(content="a")), "not a chunk"],
        [chunk(delta(content="a"), usage={"prompt_tokens": -1})],
        [chunk(delta(content="a"), error={"message": "boom"})],
        [],
    ],
    ids=[
        "number-content",
        "unknown-call",
        "renamed-call",
        "after-finish",
        "bool-index",
        "bool-created",
        "not-a-dict",
        "negative-usage",
        "error",
        "empty",
    ],
)
def test_broken_streams_raise_the_decoded_error(chunks: list[Any]) -> None:
    assert_same(chunks)


_GONE = object()
"""Stands for a removed key."""

_ODD = [
    _GONE,
    None,
    "",
    "x",
    "f",
    "call_a",
    "stop",
    0,
    1,
    -1,
    1.0,
    True,
    [],
    {},
    [{}],
    {"message": "m"},
    "chat.completion",
]
_ODD += [{"prompt_tokens": 1}, {"arguments": "x"}, {"name": "g", "arguments": "x"}]
_DELTA = ("choices", 0, "delta")
_FRAGMENT = (*_DELTA, "tool_calls", 0)
_ENVELOPE = ("error", "usage", "created", "model", "id", "object", "system_fingerprint", "service_tier", "choices")
_CHOICE = ("index", "finish_reason", "logprobs", "delta", "x_extra")
_DELTA_FIELDS = ("content", "role", "refusal", "reasoning_content", "reasoning", "reasoning_details", "tool_calls")
_CALL_FIELDS: list[tuple[str | int, ...]] = [
    (*_DELTA, "tool_calls"),
    _FRAGMENT,
    *[(*_FRAGMENT, key) for key in ("index", "id", "type", "function", "x_extra")],
    *[(*_FRAGMENT, "function", key) for key in ("name", "arguments", "x_extra")],
]
_CHUNK_FIELDS: list[tuple[str | int, ...]] = [
    *[(key,) for key in _ENVELOPE],
    ("choices", 0),
    *[("choices", 0, key) for key in _CHOICE],
    *[(*_DELTA, key) for key in (*_DELTA_FIELDS, "channel")],
]
_READ_OR_SKIPPED: dict[int, list[tuple[str | int, ...]]] = {
    0: _CHUNK_FIELDS,
    2: [(*_DELTA, key) for key in ("reasoning_content", "reasoning", "content", "role", "x_extra")],
    4: _CHUNK_FIELDS,
    5: _CALL_FIELDS,
    8: _CALL_FIELDS,
    10: _CHUNK_FIELDS,
    11: [("usage",), *[("usage", key) for key in ("prompt_tokens", "completion_tokens", "total_tokens", "x_extra")]],
}
"""Where in ``plain_stream()`` the first chunk, a continuing one (reasoning, text,
arguments), a call's start, the finish and the usage have each field, to be set to
anything."""


def changed(chunks: list[dict[str, Any]], position: int, path: tuple[str | int, ...], value: object) -> list[Any]:
    changed_chunks = copy.deepcopy(chunks)
    parent: Any = changed_chunks[position]
    for step in path[:-1]:
        parent = parent[step]
    if value is not _GONE:
        parent[path[-1]] = value
    elif isinstance(parent, list):
        del parent[path[-1]]
    else:
        parent.pop(path[-1], None)
    return changed_chunks


def test_every_field_set_to_anything_gives_the_decoded_outcome() -> None:
    chunks = plain_stream()
    for position, paths in _READ_OR_SKIPPED.items():
        for path in paths:
            for value in _ODD:
                broken = changed(chunks, position, path, value)
                expected = outcome(general, broken)
                assert outcome(fast, broken) == expected, (position, path, value)


def shapes() -> dict[str, list[dict[str, Any]]]:
    """Streams that exercise one rule of the decoder each."""
    start = chunk(delta(role="assistant", content=""))
    return {
        "repeated-reasoning": [
            chunk(delta(reasoning_content="r", reasoning="r")),
            chunk(delta(reasoning="s")),
            chunk(delta(reasoning_content="t")),
        ],
        "call-without-type": [chunk(delta(tool_calls=[{"index": 0, "id": "a", "function": {"name": "f"}}]))],
        "empty-text-then-finish": [start, chunk(delta(finish_reason="stop"))],
        "empty-text-then-call": [start, chunk(delta(tool_calls=[call(0, "{}", "a", "f")]))],
        "new-id-same-index": [
            chunk(delta(tool_calls=[call(0, "{", "a", "f")])),
            chunk(delta(tool_calls=[call(0, "}")])),
            chunk(delta(tool_calls=[call(0, "{}", "b", "f")])),
            chunk(delta(tool_calls=[{"index": 0, "id": "b", "function": {"name": "f", "arguments": "!"}}])),
            chunk(delta(tool_calls=[{"index": 0, "id": "", "function": {"name": "", "arguments": "?"}}])),
        ],
        "two-choices": [
            chunk(delta(0, content="a"), delta(1, content="b")),
            chunk(delta(1, content="c")),
            chunk(delta(0, finish_reason="length")),
            chunk(delta(1, content="d")),
            chunk(delta(0, content="")),
            chunk(delta(1, finish_reason="stop")),
        ],
        "own-finish-reason": [chunk(delta(content="a")), chunk(delta(finish_reason="insufficient_system_resource"))],
        "finish-with-usage": [
            chunk(delta(content="a")),
            chunk(delta(content="b", finish_reason="stop"), usage={"completion_tokens": 2, "prompt_tokens": 1}),
        ],
        "keepalive-and-two-usages": [
            chunk(delta(content="a")),
            chunk(),
            chunk(delta(content="b")),
            chunk(usage={"x_cost": 1, "prompt_tokens": 3, "prompt_tokens_details": {"audio": 0, "cached_tokens": 1}}),
            chunk(usage={"completion_tokens": 2, "total_tokens": 9}),
        ],
        "no-object": [{"id": "c", "choices": [delta(content="a")]}, {"id": "c", "choices": [delta(content="b")]}],
        "later-chunk-without-id": [chunk(delta(content="a")), {"choices": [delta(content="b")]}],
        "created-per-chunk": [chunk(delta(content="a")), chunk(delta(content="b"), created=2)],
        "service-tier-later": [chunk(delta(content="a")), chunk(delta(content="b"), service_tier="flex")],
    }


@pytest.mark.parametrize("name", list(shapes()))
def test_each_rule_holds_both_ways(name: str) -> None:
    chunks = shapes()[name]
    assert_same(chunks)
    assert_same_one_by_one(chunks)


def test_a_broken_sse_stream_raises_as_decoded() -> None:
    sse = "".join(to_sse(plain_stream()))
    assert_same(sse.replace('"ling."', '"ling.'))  # bad JSON mid-stream
    assert_same(sse[: len(sse) // 2])  # cut off


# --- generated streams -----------------------------------------------------------------------


def wire(events: Iterable[chatcodec.AnyStreamEvent]) -> list[dict[str, Any]]:
    """The chunks the encoder writes for ``events``, up to the first it refuses."""
    chunks: list[dict[str, Any]] = []
    with contextlib.suppress(chatcodec.StreamError):
        chunks.extend(chatcodec.encode_stream(FORMAT, events, on_loss="ignore"))
    return chunks


@PROPERTY
@given(openai_responses(), chunkings())
def test_openai_shaped_streams_accumulate_as_decoded(
    response: chatcodec.ChatResponse, split: chatcodec.testing.Splitter
) -> None:
    chunks, _ = encode_events(list(events_from_response(response, split)))
    assert_same(chunks)
    assert_same_one_by_one(chunks)


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

_ODD_VALUES = st.sampled_from(
    [None, "", "x", "stop", 0, 1, -1, 2, 1.5, True, [], {}, [{}], [None], {"index": 0}, {"arguments": "x"}]
)
_KEYS = st.sampled_from(
    [
        "error",
        "logprobs",
        "refusal",
        "role",
        "content",
        "reasoning_content",
        "reasoning",
        "reasoning_details",
        "tool_calls",
        "index",
        "id",
        "type",
        "function",
        "name",
        "arguments",
        "usage",
        "finish_reason",
        "delta",
        "choices",
        "object",
        "created",
        "model",
        "system_fingerprint",
        "x_extra",
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
def _broken(draw: st.DrawFn, chunks: list[dict[str, Any]]) -> list[Any]:
    """``chunks`` with one to three things changed: a value retyped, a key removed or
    added, a chunk repeated, dropped, swapped with the next or replaced by junk."""
    broken: list[Any] = copy.deepcopy(chunks)
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
            broken[position] = draw(_ODD_VALUES)
        elif containers := _containers(broken[position]):
            _change(draw, draw(st.sampled_from(containers)), change)
    return broken


def _change(draw: st.DrawFn, container: dict[str, Any] | list[Any], change: str) -> None:
    if isinstance(container, dict):
        if change == "add" or not container:
            container[draw(_KEYS)] = draw(_ODD_VALUES)
        elif change == "delete":
            del container[draw(st.sampled_from(sorted(container)))]
        else:
            container[draw(st.sampled_from(sorted(container)))] = draw(_ODD_VALUES)
    elif container:
        position = draw(st.integers(0, len(container) - 1))
        if change == "delete":
            del container[position]
        else:
            container[position] = draw(_ODD_VALUES)


@PROPERTY
@given(openai_responses(), chunkings(), st.data())
def test_broken_streams_fail_or_succeed_as_decoded(
    response: chatcodec.ChatResponse, split: chatcodec.testing.Splitter, data: st.DataObject
) -> None:
    chunks, _ = encode_events(list(events_from_response(response, split)))
    broken = data.draw(_broken(chunks))
    assert_same(broken)
    assert_same_one_by_one(broken)
