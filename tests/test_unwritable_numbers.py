"""NaN and infinities (also ``1e400``, which reads as infinity) are never written as JSON:
JSON has no such number (RFC 8259 section 6), so a payload holding one is refused with a
chatcodec error at its path, given as a dict or as JSON text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec

NAN = float("nan")
INFINITY = float("inf")

REQUESTS: list[tuple[str, dict[str, Any], str]] = [
    (
        "anthropic",
        {"model": "c", "max_tokens": 5, "temperature": NAN, "messages": [{"role": "user", "content": "a"}]},
        "$.temperature",
    ),
    (
        "anthropic",
        {
            "model": "c",
            "max_tokens": 5,
            "tools": [{"name": "f", "input_schema": {"type": "object", "properties": {"x": {"maximum": INFINITY}}}}],
            "messages": [{"role": "user", "content": "a"}],
        },
        "$.tools[0].input_schema.properties.x.maximum",
    ),
    (
        "openai-chat",
        {"model": "m", "logit_bias": {"15": NAN}, "messages": [{"role": "user", "content": "a"}]},
        "$.logit_bias['15']",
    ),
    (
        "openai-chat",
        {
            "model": "m",
            "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": {"minimum": -INFINITY}}},
            "messages": [{"role": "user", "content": "a"}],
        },
        "$.response_format.json_schema.schema.minimum",
    ),
    ("openai-responses", {"model": "m", "temperature": NAN, "input": "a"}, "$.temperature"),
    (
        "gemini",
        {"contents": [{"role": "user", "parts": [{"text": "a"}]}], "generationConfig": {"temperature": NAN}},
        "$.generationConfig.temperature",
    ),
    (
        "bedrock-converse",
        {
            "modelId": "m",
            "additionalModelRequestFields": {"top_k": INFINITY},
            "messages": [{"role": "user", "content": [{"text": "a"}]}],
        },
        "$.additionalModelRequestFields.top_k",
    ),
    (
        "ollama",
        {"model": "m", "options": {"temperature": NAN}, "messages": [{"role": "user", "content": "a"}]},
        "$.options.temperature",
    ),
]


@pytest.mark.parametrize(("source", "body", "path"), REQUESTS, ids=[f"{source}:{path}" for source, _, path in REQUESTS])
@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "gemini"])
def test_a_request_dict_holding_nan_or_infinity_is_refused_at_its_path(
    source: str, body: dict[str, Any], path: str, target: str
) -> None:
    with pytest.raises(chatcodec.ChatcodecError) as raised:
        chatcodec.convert_request(body, source=source, target=target, on_loss="ignore")
    assert getattr(raised.value, "path", None) == path


@pytest.mark.parametrize(("source", "body", "path"), REQUESTS, ids=[f"{source}:{path}" for source, _, path in REQUESTS])
def test_the_same_request_as_json_text_is_refused_at_the_same_path(
    source: str, body: dict[str, Any], path: str
) -> None:
    text = json.dumps(body)  # Python writes NaN and Infinity, which are not JSON
    with pytest.raises(chatcodec.PayloadError) as raised:
        chatcodec.decode_request(source, text)
    assert raised.value.path == path


def test_a_number_past_a_doubles_range_in_text_is_refused() -> None:
    text = '{"model": "m", "temperature": 1e400, "messages": [{"role": "user", "content": "a"}]}'
    with pytest.raises(chatcodec.PayloadError) as raised:
        chatcodec.convert_request(text, source="openai-chat", target="anthropic")
    assert raised.value.path == "$.temperature"


def test_a_response_and_a_stream_chunk_holding_nan_are_refused_at_its_path() -> None:
    logprobs = {"content": [{"token": "hi", "logprob": -INFINITY, "bytes": None, "top_logprobs": []}]}
    choice = {
        "index": 0,
        "message": {"role": "assistant", "content": "hi"},
        "finish_reason": "stop",
        "logprobs": logprobs,
    }
    body = {"id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": [choice]}
    with pytest.raises(chatcodec.PayloadError) as refused:
        chatcodec.convert_response(body, source="openai-chat", target="anthropic")
    assert refused.value.path == "$.choices[0].logprobs.content[0].logprob"
    delta = {"index": 0, "delta": {"content": "hi"}, "finish_reason": None, "logprobs": logprobs}
    chunk = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [delta]}
    with pytest.raises(chatcodec.StreamError) as stream_refused:
        list(chatcodec.decode_stream("openai-chat", [chunk]))
    assert (stream_refused.value.event_index, stream_refused.value.path) == (
        0,
        "$.choices[0].logprobs.content[0].logprob",
    )


def test_canonical_data_holding_nan_is_refused_where_it_is_given() -> None:
    with pytest.raises(chatcodec.ValidationError):
        chatcodec.validate_messages([{"role": "user", "content": "a", "provider_metadata": {"x": {"y": NAN}}}])
    with pytest.raises(chatcodec.ValidationError):
        chatcodec.validate_model(chatcodec.ChatRequest, {"messages": [], "temperature": INFINITY})


def test_a_text_read_before_is_judged_as_it_was_the_first_time() -> None:
    """``payloads.checked_json_value(..., remember=True)`` (tool-call arguments) remembers the texts that
    held no overflowed number: one that did is refused every time, one whose string only
    says "Infinity" is read every time; ``loads`` (a stream's events, a body) remembers none."""
    import pydantic_core

    from chatcodec import _payloads
    from chatcodec._payloads import JSONValueError, checked_json_value, read_json_text

    overflowing = '{"a": [1, {"b": 1e400}]}'
    saying = '{"a": [1, {"b": "Infinity"}], "c": 2.5}'
    for _ in range(3):
        with pytest.raises(JSONValueError, match=r"\$\.a\[1\]\.b"):
            checked_json_value(pydantic_core.from_json(overflowing, allow_inf_nan=False), overflowing, remember=True)
        parsed = pydantic_core.from_json(saying, allow_inf_nan=False)
        assert checked_json_value(parsed, saying, remember=True) is parsed
    assert saying in _payloads._NO_OVERFLOW.texts  # pyright: ignore[reportPrivateUsage]
    assert overflowing not in _payloads._NO_OVERFLOW.texts  # pyright: ignore[reportPrivateUsage]
    event = '{"type": "content_block_delta", "index": 0}'
    assert read_json_text(event) == {"type": "content_block_delta", "index": 0}
    assert event not in _payloads._NO_OVERFLOW.texts  # pyright: ignore[reportPrivateUsage]


def test_gemini_arguments_with_an_overflowed_number_are_reported_every_request() -> None:
    body = {
        "model": "gemini-2.5-flash",
        "messages": [
            {"role": "user", "content": "go"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"x": [1e400]}'}},
                    {"id": "c2", "type": "function", "function": {"name": "f", "arguments": '{"x": [1.5]}'}},
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "ok"},
            {"role": "tool", "tool_call_id": "c2", "content": "ok"},
        ],
    }
    seen = []
    for _ in range(2):
        losses: list[chatcodec.Loss] = []
        out = chatcodec.convert_request(body, source="openai-chat", target="gemini", on_loss="ignore", losses=losses)
        seen.append((json.dumps(out, sort_keys=True), [(loss.path, loss.what) for loss in losses]))
    assert seen[0] == seen[1]
    assert seen[0][1] == [("$.messages[1].tool_calls[0].arguments", "tool-call arguments")]
    assert '"args": {"x": [1.5]}' in seen[0][0]


_JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),  # infinities too: an overflowed number, as pydantic-core reads it
    st.text(max_size=8),
)
_JSON_VALUES = st.recursive(
    _JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=4), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(value=_JSON_VALUES, budget=st.integers(min_value=-1, max_value=40))
def test_the_overflow_look_walks_or_writes_with_the_same_answer(value: object, budget: int) -> None:
    """``_payloads._overflowed`` walks a value within its budget of values and writes the rest
    back in Rust: either way the answer is the written value's (an overflowed number is
    written ``Infinity``), with nested infinities, infinities among strings saying so, and
    budgets spent before, at and after the value's size."""
    import pydantic_core

    from chatcodec._payloads import _overflowed  # pyright: ignore[reportPrivateUsage]

    holds_infinity = any(isinstance(node, float) and abs(node) == INFINITY for node in _nodes(value))
    found = _overflowed(value, budget)
    if holds_infinity:
        assert found
    elif b"Infinity" not in pydantic_core.to_json(value):  # (a string saying it: the caller's walk clears it)
        assert not found


def _nodes(value: object) -> list[object]:
    if isinstance(value, dict):
        return [value, *(node for item in value.values() for node in _nodes(item))]
    if isinstance(value, list):
        return [value, *(node for item in value for node in _nodes(item))]
    return [value]
