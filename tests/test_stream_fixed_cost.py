"""A stream's fixed cost: what ``accumulate_stream`` skips must change
nothing. Usage kept as plain counts (no ``Usage`` model per event), the finished response
validated once (:func:`chatcodec._model.response.validate_response`), and OpenAI chunks checked
by a closed schema (:data:`~chatcodec._providers.openai_chat.stream_chunk.COMMON_CHUNK`)
before the wire adapter, Anthropic events by theirs
(:data:`~chatcodec._providers.anthropic.stream_shapes.COMMON_EVENT`)."""

from __future__ import annotations

import random
from typing import Any

import pydantic_core
import pytest

import chatcodec
from chatcodec._model.response import ChatResponse, validate_response
from chatcodec._providers.anthropic import wire as anthropic_wire
from chatcodec._providers.anthropic.stream_shapes import COMMON_EVENT
from chatcodec._providers.openai_chat.stream_chunk import COMMON_CHUNK
from chatcodec._providers.openai_chat.wire_validators import chunk_adapter
from chatcodec.streams._builder import StreamBuilder, plain_counts
from chatcodec.testing._laws.stream_law import StreamLaw, outcome
from fuzz import mutate, seeds
from fuzz.run import RandomChooser
from providers.anthropic.conformance_streams import plain_stream


def _response_dumps() -> list[dict[str, Any]]:
    dumps: list[dict[str, Any]] = []
    for provider in seeds.provider_names():
        found = seeds.seeds(provider)
        for payload in found.responses:
            try:
                response = chatcodec.decode_response(provider, payload)
            except chatcodec.ProviderAPIError:  # recorded error bodies
                continue
            dumps.append(response.model_dump(mode="json", exclude_unset=True))
    return dumps


def test_validate_response_gives_what_model_validate_gives() -> None:
    dumps = _response_dumps()
    assert dumps
    for dump in dumps:
        once, twice = validate_response(dump), ChatResponse.model_validate(dump)
        assert once == twice
        assert once.model_fields_set == twice.model_fields_set
        assert once.model_dump_json() == twice.model_dump_json()


_ASSISTANT: dict[str, Any] = {"message": {"role": "assistant", "content": []}}
_BROKEN: list[dict[str, Any]] = [
    {"choices": []},
    {"choices": [_ASSISTANT, _ASSISTANT]},
    {"choices": [_ASSISTANT], "usage": {"input_tokens": -1}},
    {"choices": [{"message": {"role": "user", "content": []}}]},
    {"choices": [_ASSISTANT], "surprise": 1},
]


@pytest.mark.parametrize(
    "broken", _BROKEN, ids=["no-choice", "same-index-twice", "negative-count", "user-message", "unknown-key"]
)
def test_validate_response_refuses_as_model_validate_does(broken: dict[str, Any]) -> None:
    with pytest.raises(pydantic_core.ValidationError) as once:
        validate_response(broken)
    with pytest.raises(pydantic_core.ValidationError) as twice:
        ChatResponse.model_validate(broken)
    assert once.value.errors(include_context=False) == twice.value.errors(include_context=False)
    assert str(once.value) == str(twice.value)


@pytest.mark.parametrize(
    ("usage", "plain"),
    [
        ({"input_tokens": 3, "output_tokens": 0, "cache_read_tokens": None}, True),
        ({}, True),
        ({"input_tokens": 3.0}, False),  # Usage makes it 3
        ({"input_tokens": True}, False),
        ({"input_tokens": -1}, False),
        ({"input_tokens": 3, "provider_metadata": {"anthropic": {}}}, False),
        ({"total_tokens": 3}, False),
    ],
)
def test_plain_counts_are_only_what_usage_keeps_as_it_is(usage: dict[str, Any], plain: bool) -> None:
    assert plain_counts(usage) is plain


def test_usage_counts_that_are_not_plain_are_validated_where_they_arrive() -> None:
    builder = StreamBuilder()
    builder.usage({"input_tokens": 3.0, "output_tokens": 2})
    builder.usage({"output_tokens": 5})
    response = builder.response()
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.output_tokens) == (3, 5)
    assert type(response.usage.input_tokens) is int
    with pytest.raises(chatcodec.ValidationError):
        StreamBuilder().usage({"input_tokens": -1})


@pytest.mark.parametrize(
    "usage",
    [
        {"output_tokens": 9.0},
        {"output_tokens": 9, "cache_read_input_tokens": 4, "service_tier": "standard"},
        {"output_tokens": 9, "output_tokens_details": {"thinking_tokens": 3}},
    ],
    ids=["float-count", "bag", "details"],
)
def test_anthropic_usage_of_any_shape_accumulates_as_decoded(usage: dict[str, Any]) -> None:
    events = plain_stream()
    events[-2] = {**events[-2], "usage": usage}
    law = StreamLaw("anthropic")
    assert outcome(law.accumulated, events) == outcome(law.decoded, events)


@pytest.mark.parametrize("start_input", [{}, {"a": 1}], ids=["empty", "given"])
def test_anthropic_tool_input_streams_from_its_first_fragment(start_input: dict[str, Any]) -> None:
    """A ``tool_use`` start with an empty ``input`` takes the fast path from its first
    ``input_json_delta``; one whose ``input`` is given keeps the general reading."""
    events = plain_stream()
    events[11] = {**events[11], "content_block": {**events[11]["content_block"], "input": start_input}}
    law = StreamLaw("anthropic")
    assert outcome(law.accumulated, events) == outcome(law.decoded, events)
    response = chatcodec.accumulate_stream("anthropic", events)
    calls = [part for part in response.message.content if isinstance(part, chatcodec.ToolUsePart)]
    assert [call.arguments for call in calls] == ['{"x": 1}']


def _chunks(provider: str = "openai-chat") -> list[Any]:
    """Recorded chunks, and chunks mutated from them (a fixed seed)."""
    recorded = [chunk for stream in seeds.seeds(provider).streams for chunk in stream]
    chooser = RandomChooser(25)
    shuffle = random.Random(7)
    mutated = [mutate.mutated(chooser, shuffle.choice(recorded)) for _ in range(600)]
    return recorded + mutated


def test_common_chunk_accepts_only_what_the_wire_adapter_gives_back_unchanged() -> None:
    """The decoder reads a chunk the closed schema accepts as it is, where it read the
    wire adapter's copy: the two must be equal (and the adapter must accept it)."""
    accepted = 0
    for chunk in _chunks():
        try:
            COMMON_CHUNK.python().validate_python(chunk)
        except pydantic_core.ValidationError:
            continue
        accepted += 1
        assert chunk_adapter().validate_python(chunk) == chunk
    assert accepted > 50


def test_common_event_accepts_only_what_the_wire_adapter_accepts() -> None:
    """The Anthropic decoder skips the wire adapter for an event the closed schema
    accepts, so the adapter must accept every such event too; recorded events and
    mutations of them (a fixed seed), a field typed wrong among them."""
    edges: list[Any] = [
        {"type": "content_block_start", "index": -1, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": "", "citations": 5}},
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "thinking", "thinking": "", "signature": None},
        },
        {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": 1}},
        {"type": "message_delta", "delta": {"stop_reason": 1}, "usage": {"output_tokens": 1}},
        {"type": "message_delta", "delta": {}, "usage": {"output_tokens_details": {"thinking_tokens": -1}}},
    ]
    accepted = 0
    for event in [*_chunks("anthropic"), *edges]:
        if COMMON_EVENT.validate(event) is None:
            continue
        accepted += 1
        anthropic_wire.adapter(anthropic_wire.StreamEvent).validate_python(event)
    assert accepted > 50
    assert all(COMMON_EVENT.validate(event) is None for event in edges)
