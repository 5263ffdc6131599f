"""ArrowConverter over the column shapes datasets hold, with no engine around it."""

from __future__ import annotations

import json

import pyarrow as pa

from chatcodec._registry import get_codec
from chatcodec.datasets import ArrowConverter, to_table
from columnar.rows import TO_ANTHROPIC, expected_anthropic, recorded_requests


def test_a_struct_column_of_canonical_data_is_read_as_the_columnar_form() -> None:
    """``output_form="columnar"`` writes canonical data as a struct column; given back as
    ``column=`` with ``source="canonical"`` it was read as a wire payload (content as
    parts with ``content_is_text`` flags, tool schemas as JSON text) and refused."""
    payloads = recorded_requests()
    canonical = to_table([get_codec("openai-chat").read_request(payload) for payload in payloads])
    structs = canonical.combine_chunks().to_struct_array()
    table = pa.table({"row": list(range(len(payloads))), "canonical_request": structs})
    to_anthropic = ArrowConverter(
        source="canonical", target="anthropic", column="canonical_request", options=TO_ANTHROPIC
    )
    converted = to_anthropic(table).to_pylist()
    assert [row["chatcodec_error"] for row in converted] == [None] * len(payloads)
    for row, payload in zip(converted, payloads, strict=True):
        assert json.loads(row["anthropic_request"]) == expected_anthropic(payload)[0]


def test_the_columnar_output_of_one_converter_is_the_input_of_the_next() -> None:
    payloads = recorded_requests()
    table = pa.table({"request": [json.dumps(payload) for payload in payloads]})
    to_canonical = ArrowConverter(source="openai-chat", column="request", output_form="columnar")
    to_anthropic = ArrowConverter(
        source="canonical", target="anthropic", column="canonical_request", options=TO_ANTHROPIC
    )
    converted = to_anthropic(to_canonical(table)).column("anthropic_request").to_pylist()
    assert [json.loads(text) for text in converted] == [expected_anthropic(payload)[0] for payload in payloads]
