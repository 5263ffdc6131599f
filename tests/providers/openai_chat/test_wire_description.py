"""OpenAI Chat's field lists are the wire description's (``wire.py``, each shape naming its
SDK kinds): the reader reads every field the request shape types, and the fields it reads
beyond the shapes are the SDK's."""

from __future__ import annotations

from typing import Any

from chatcodec._providers.contract.context import DecodeContext
from chatcodec._providers.kit.wire import sdk_kinds, shape_fields
from chatcodec._providers.openai_chat import reasoning, request, request_fields, wire
from chatcodec._providers.openai_chat.common_shapes import SDK_NULLS
from chatcodec._providers.openai_chat.markers import PROVIDER
from chatcodec._strict.fields import schema_for

_EVERY_TYPED_FIELD: dict[str, Any] = {
    "model": "gpt-4o",
    "messages": [{"role": "user", "content": "hi"}],
    "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}],
    "tool_choice": "auto",
    "parallel_tool_calls": False,
    "max_tokens": 10,
    "max_completion_tokens": 20,
    "stop": ["END"],
    "temperature": 0.5,
    "top_p": 0.9,
    "frequency_penalty": 0.1,
    "presence_penalty": 0.2,
    "seed": 7,
    "reasoning_effort": "low",
    "response_format": {"type": "json_object"},
    "stream": False,
    "metadata": {"team": "a"},
}


def _known(kinds: tuple[str, ...]) -> frozenset[str]:
    schema = schema_for(PROVIDER)
    assert schema is not None
    return frozenset[str]().union(*(schema.known(kind) for kind in kinds))


def test_the_request_reader_maps_every_field_the_request_shape_types() -> None:
    assert set(_EVERY_TYPED_FIELD) == set(shape_fields(wire.Request))  # a field typed since: sample it here
    data = request.decode_request(dict(_EVERY_TYPED_FIELD), DecodeContext(PROVIDER))
    kept = data.get("provider_options", {}).get(PROVIDER, {})
    # max_completion_tokens and max_tokens are one canonical field: the older one is kept as it came
    assert set(kept) == {"max_tokens"}


def test_the_fields_the_request_reader_reads_beyond_the_shape_are_the_sdks() -> None:
    beyond = {"user", "service_tier", request_fields.STREAM_OPTIONS, *request_fields.NEUTRAL}
    assert beyond.isdisjoint(shape_fields(wire.Request))
    assert beyond <= _known(sdk_kinds(wire.Request))


def test_the_nulls_the_closed_front_takes_are_fields_of_the_sdks_answer_message() -> None:
    assert set(SDK_NULLS) <= _known(("ChatCompletionMessage",))


def test_the_reasoning_fields_read_are_typed_on_the_assistant_message_and_its_delta() -> None:
    assert set(reasoning.FIELDS) <= set(shape_fields(wire.AssistantMessage))
    assert set(reasoning.FIELDS) <= set(shape_fields(wire.Delta))
