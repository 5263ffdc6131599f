"""The columnar form row by row: what it writes, what it refuses, and the converter's forms."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

import chatcodec
from chatcodec.datasets import ArrowConverter, arrow_schema, from_columnar, from_table, to_columnar, to_table

_REQUEST = {
    "model": "m",
    "messages": [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": [{"type": "text", "text": "hi", "provider_metadata": {"x": {"n": None}}}]},
    ],
    "tools": [{"type": "function", "name": "f", "parameters": {"type": "object", "properties": {}}}],
}


def test_a_string_content_is_one_text_part_flagged_and_free_form_values_are_json_text() -> None:
    (row,) = to_columnar([_REQUEST])
    assert row["messages"][0] == {
        "role": "system",
        "content": [{"type": "text", "text": "be brief"}],
        "content_is_text": True,
    }
    assert row["messages"][1]["content"][0]["provider_metadata"] == '{"x":{"n":null}}'  # a meant null kept
    assert row["tools"][0]["parameters"] == '{"type":"object","properties":{}}'
    assert from_columnar([row]) == [_REQUEST]


def test_a_key_the_canonical_form_does_not_have_is_refused() -> None:
    with pytest.raises(chatcodec.PayloadError, match="'colour' is not a field of the canonical form"):
        to_columnar([{"messages": [], "colour": "red"}])


def test_an_integer_a_float_column_cannot_hold_exactly_is_refused() -> None:
    with pytest.raises(chatcodec.PayloadError, match="no exact float64 form"):
        to_columnar([{"messages": [], "temperature": 2**53 + 1}])
    assert to_columnar([{"messages": [], "temperature": 2}]) == [{"messages": [], "temperature": 2}]


def test_a_row_of_nulls_reads_as_none() -> None:
    table = to_table([_REQUEST, None])
    assert table.schema == arrow_schema("request")
    assert from_table(table) == [_REQUEST, None]


def test_the_converter_writes_the_columnar_form_as_a_struct_column_and_reads_record_batches() -> None:
    batch = pa.RecordBatch.from_pylist(
        [{"request": json.dumps({"model": "m", "messages": [{"role": "user", "content": "x"}]})}]
    )
    converted = ArrowConverter(source="openai-chat", column="request", output_form="columnar")(batch)
    assert converted.schema.field("canonical_request").type == pa.struct(list(arrow_schema("request")))
    assert from_columnar(converted.column("canonical_request").to_pylist()) == [
        {"model": "m", "messages": [{"role": "user", "content": "x"}]}
    ]


def test_validating_only_writes_errors_and_losses_and_no_output() -> None:
    table = pa.table({"request": ['{"messages": [{"role": "user", "content": "x"}]}', '{"messages": 3}']})
    checked = ArrowConverter(source="openai-chat", column="request", validate_only=True)(table)
    assert checked.column_names == ["request", "chatcodec_error", "chatcodec_losses"]
    errors = checked.column("chatcodec_error").to_pylist()
    assert errors[0] is None
    assert "messages" in errors[1]


def test_a_columnar_output_needs_the_canonical_target() -> None:
    with pytest.raises(ValueError, match="needs target='canonical'"):
        ArrowConverter(source="openai-chat", target="anthropic", output_form="columnar")


def test_a_texts_citations_are_a_list_of_structs_and_come_back() -> None:
    """``TextPart.citations`` in the Arrow form: a list of ``{type, url, title, start_index,
    end_index}`` structs (``schemas/response.arrow.json``), through a table and back."""
    citation = {"type": "url_citation", "url": "https://b.com", "title": "B", "start_index": 0, "end_index": 4}
    response = {
        "id": "r",
        "model": "m",
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "content": [{"type": "text", "text": "Paris", "citations": [citation]}],
                },
                "finish_reason": {"unified": "stop", "raw": "stop"},
            }
        ],
    }
    table = to_table([response], kind="response")
    part_type = table.schema.field("choices").type.value_type.field("message").type.field("content").type.value_type
    cited = part_type.field("citations").type
    assert cited.value_type.field("start_index").type == pa.int64()
    assert from_table(table, kind="response") == [response]
