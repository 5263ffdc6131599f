"""The models and the exported JSON Schema accept exactly the same documents, and
the models coerce nothing. The schema's verdicts
come from Python ``jsonschema`` and from the Rust ``jsonschema`` crate (``jsonschema-rs``).

ajv's verdicts on the same documents are compared in ``test_schema_js.py``.
"""

from __future__ import annotations

from typing import Any

import pydantic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chatcodec
from schema_agreement import (
    KINDS,
    canonical_objects,
    dump,
    duplicate_choice_indexes,
    model_accepts,
    mutated,
    rust_schema_accepts,
    schema_accepts,
    schema_errors,
)

_SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("kind", KINDS)
def test_model_dump_validates_again_as_it_is(kind: chatcodec.SchemaKind) -> None:
    """Plain ``model_dump()`` (Python mode) and ``model_dump(mode="json")`` of any canonical
    object pass both the models and the schema: no nulls for absent fields."""

    @_SETTINGS
    @given(value=canonical_objects(kind))
    def check(value: Any) -> None:
        for mode in ("python", "json"):
            document = dump(kind, value, mode)
            assert model_accepts(kind, document), document
            assert schema_accepts(kind, document), [error.message for error in schema_errors(kind, document)]
            assert rust_schema_accepts(kind, document)

    check()


@pytest.mark.parametrize("kind", KINDS)
def test_one_mistake_gets_the_same_verdict_from_models_and_schema(kind: chatcodec.SchemaKind) -> None:
    @_SETTINGS
    @given(value=canonical_objects(kind), data=st.data())
    def check(value: Any, data: st.DataObject) -> None:
        mistake, document = data.draw(mutated(dump(kind, value)))
        by_model = model_accepts(kind, document)
        by_schema = schema_accepts(kind, document)
        assert rust_schema_accepts(kind, document) == by_schema, (mistake, document)
        if duplicate_choice_indexes(kind, document):
            assert (by_model, by_schema) == (False, by_schema)
            return
        assert by_model == by_schema, (mistake, document)

    check()


def test_duplicate_choice_indexes_are_the_one_rule_the_schema_cannot_state() -> None:
    """Documented gap: no JSON Schema keyword compares a property across array items."""
    message = {"role": "assistant", "content": "x"}
    document = {"choices": [{"message": message}, {"index": 0, "message": message}]}
    assert schema_accepts("response", document)
    assert rust_schema_accepts("response", document)
    assert not model_accepts("response", document)
    description = chatcodec.json_schema("response")["properties"]["choices"]["description"]
    assert "each `index` used once" in description


@pytest.mark.parametrize(
    ("kind", "document"),
    [
        ("messages", [{"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c", "is_error": "yes"}]}]),
        ("messages", [{"role": "assistant", "content": [{"type": "thinking", "encrypted": "E", "redacted": 1}]}]),
        ("messages", [{"role": "user", "content": 5}]),
        ("request", {"temperature": "0.5"}),
        ("request", {"max_tokens": "100"}),
        ("request", {"max_tokens": True}),
        ("request", {"max_tokens": 1.5}),
        ("request", {"stream": "true"}),
        ("request", {"stop": ["a", 1]}),
        ("response", {"choices": [{"message": {"role": "assistant", "content": "x"}, "index": "0"}]}),
        ("stream-event", {"type": "text_delta", "index": 0, "delta": 7}),
    ],
)
def test_models_coerce_nothing(kind: chatcodec.SchemaKind, document: object) -> None:
    """``"yes"`` is not ``True`` and ``"0.5"`` is not ``0.5``: both the models and the schema refuse."""
    assert not model_accepts(kind, document)
    assert not schema_accepts(kind, document)
    assert not rust_schema_accepts(kind, document)


@pytest.mark.parametrize(
    ("kind", "document"),
    [
        ("request", {"max_tokens": 100.0, "temperature": 1}),
        ("response", {"choices": [{"message": {"role": "assistant", "content": "x"}, "index": 1.0}]}),
        ("stream-event", {"type": "text_delta", "index": 2.0, "delta": "x"}),
        # a token's bytes (and an alternative's): integers from 0 to 255, whole floats too
        (
            "response",
            {
                "choices": [
                    {
                        "message": {"role": "assistant", "content": "x"},
                        "logprobs": [
                            {
                                "token": "x",
                                "logprob": -0.5,
                                "bytes": [120.0],
                                "top_logprobs": [{"token": "y", "logprob": -1, "bytes": [255.0]}],
                            }
                        ],
                    }
                ]
            },
        ),
    ],
)
def test_one_json_number_type(kind: chatcodec.SchemaKind, document: object) -> None:
    """An int is a valid float, and ``100.0`` a valid integer, as JSON Schema counts them."""
    assert model_accepts(kind, document)
    assert schema_accepts(kind, document)
    assert rust_schema_accepts(kind, document)


def test_integral_floats_become_ints() -> None:
    request = chatcodec.ChatRequest.model_validate({"max_tokens": 100.0, "temperature": 1})
    assert request.max_tokens == 100
    assert type(request.max_tokens) is int
    assert type(request.temperature) is float


def test_a_string_is_not_coerced_to_a_boolean_or_a_number() -> None:
    with pytest.raises(pydantic.ValidationError, match="valid boolean"):
        chatcodec.ToolResultPart.model_validate({"type": "tool_result", "tool_use_id": "c", "is_error": "yes"})
    with pytest.raises(pydantic.ValidationError, match="valid number"):
        chatcodec.ChatRequest.model_validate({"temperature": "0.5"})


@pytest.mark.parametrize(
    ("kind", "document"),
    [
        ("messages", [{}]),
        ("messages", [{"content": "hi"}]),
        ("messages", [{"role": "user", "content": [{"text": "hi"}]}]),
        ("messages", [{"role": "tool", "content": [{"tool_use_id": "c", "content": "r"}]}]),
        ("messages", [{"role": "user", "content": [{"type": "image", "source": {"url": "https://x"}}]}]),
        ("response", {"choices": [{"message": {"content": "x"}}]}),
        ("stream-event", {"index": 0, "delta": "x"}),
    ],
)
def test_tags_are_required(kind: chatcodec.SchemaKind, document: object) -> None:
    """``role`` and ``type`` tags are required wherever they tell kinds apart, in both."""
    assert not model_accepts(kind, document)
    assert not schema_accepts(kind, document)
    assert not rust_schema_accepts(kind, document)
