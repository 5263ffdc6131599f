"""Batch envelopes are a layout of the row, not of the file: every envelope goes to Parquet
and back (a column per field of the row, the id typed), and canonical Parquet goes into
any envelope, as JSON lines do.

The rows are ``tests/fixtures/envelopes/`` (each provider's documented batch rows).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from pyarrow import parquet

from chatcodec.batch import _envelopes as envelopes
from chatcodec.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "envelopes"
REQUEST_ENVELOPES = [envelope.name for envelope in envelopes.ENVELOPES if envelope.kind == "request"]


def _rows(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _convert(source: Path, out: Path, *arguments: str) -> int:
    rejects = out.with_name(out.name + ".rejects.jsonl")
    return main(["convert", str(source), *arguments, "--out", str(out), "--rejects", str(rejects)])


@pytest.mark.parametrize("name", envelopes.ENVELOPE_NAMES)
def test_every_envelope_round_trips_through_parquet_read_back_by_its_name(tmp_path: Path, name: str) -> None:
    source = FIXTURES / f"{name}.jsonl"
    table_path = tmp_path / f"{name}.parquet"
    assert _convert(source, table_path, "--from", name, "--to", name) == 0
    table = parquet.read_table(table_path)
    envelope, _ = envelopes.envelope_named(name)
    id_pointer = envelope.pointer_of(envelopes.ID_SLOT)
    if id_pointer is not None and len(envelopes.split_pointer(id_pointer)) == 1:
        id_column = envelopes.split_pointer(id_pointer)[0]
        assert table.schema.field(id_column).type == pa.string()  # the id typed, in a column of its own
        assert table.column(id_column).to_pylist() == [row.get(id_column) for row in _rows(source)]
    body = envelopes.split_pointer(envelope.pointer_of(envelopes.BODY_SLOT) or "/")[0]
    assert body in json.loads(table.schema.metadata[b"chatcodec.json_columns"])
    assert table.schema.metadata[b"chatcodec.envelope"] == name.encode()
    back = tmp_path / "back.jsonl"
    assert _convert(table_path, back, "--from", name, "--to", name) == 0
    assert _rows(back) == _rows(source)


def test_a_present_null_and_an_absent_field_stay_apart_through_parquet(tmp_path: Path) -> None:
    source = FIXTURES / "openai-batch-output.jsonl"
    rows = _rows(source)
    assert all("error" in row and row["error"] is None for row in rows)
    table_path = tmp_path / "out.parquet"
    assert _convert(source, table_path, "--from", "openai-batch-output", "--to", "openai-batch-output") == 0
    assert parquet.read_table(table_path).column("error").to_pylist() == ["null"] * len(rows)
    back = tmp_path / "back.jsonl"
    assert _convert(table_path, back, "--from", "openai-batch-output", "--to", "anthropic-batch-results") == 0
    assert [row["custom_id"] for row in _rows(back)] == [row["custom_id"] for row in rows]


def test_an_envelope_written_to_parquet_is_read_into_another_envelope(tmp_path: Path) -> None:
    table_path = tmp_path / "batch.parquet"
    assert _convert(FIXTURES / "openai-batch.jsonl", table_path, "--from", "openai-batch", "--to", "openai-batch") == 0
    out = tmp_path / "anthropic.jsonl"
    code = _convert(table_path, out, "--from", "openai-batch", "--to", "anthropic-batch", "--model", "claude-x")
    assert code == 0
    assert [(row["custom_id"], row["params"]["model"]) for row in _rows(out)] == [
        ("request-1", "claude-x"),
        ("request-2", "claude-x"),
        ("request-3", "claude-x"),
    ]


@pytest.mark.parametrize("name", REQUEST_ENVELOPES)
def test_canonical_parquet_goes_into_any_envelope_as_canonical_json_lines_do(tmp_path: Path, name: str) -> None:
    canonical_lines, canonical_table = tmp_path / "canonical.jsonl", tmp_path / "canonical.parquet"
    source = FIXTURES / "openai-batch.jsonl"
    to_canonical = ("--from", "openai-batch:openai-chat", "--to", "canonical", "--id-field", "custom_id")
    lines = [row for row in _rows(source) if row["url"] == "/v1/chat/completions"]
    chat_only = tmp_path / "chat.jsonl"
    chat_only.write_text("".join(json.dumps(row) + "\n" for row in lines), encoding="utf-8")
    assert _convert(chat_only, canonical_lines, *to_canonical) == 0
    assert _convert(chat_only, canonical_table, *to_canonical) == 0
    into = ("--from", "canonical", "--to", name, "--id-field", "custom_id", "--model", "a-model")
    from_lines, from_table = tmp_path / "from-lines.jsonl", tmp_path / "from-table.jsonl"
    assert _convert(canonical_lines, from_lines, *into) == 0
    assert _convert(canonical_table, from_table, *into) == 0
    written = _rows(from_table)
    assert written == _rows(from_lines)
    envelope, _ = envelopes.envelope_named(name)
    body = envelopes.split_pointer(envelope.pointer_of(envelopes.BODY_SLOT) or "/")[0]
    assert all(body in row for row in written)  # in the envelope, not a bare body
    id_pointer = envelope.pointer_of(envelopes.ID_SLOT)
    if id_pointer is not None:
        assert [envelopes.get_pointer(row, id_pointer) for row in written] == ["request-1", "request-2"]


def test_canonical_parquet_into_an_envelope_that_needs_ids_rejects_rows_without_one(tmp_path: Path) -> None:
    canonical_table = tmp_path / "canonical.parquet"
    assert (
        _convert(FIXTURES / "anthropic-batch.jsonl", canonical_table, "--from", "anthropic-batch", "--to", "canonical")
        == 0
    )
    out = tmp_path / "openai.jsonl"
    assert _convert(canonical_table, out, "--from", "canonical", "--to", "openai-batch") == 2
    assert out.read_text(encoding="utf-8") == ""
    rejects = _rows(out.with_name(out.name + ".rejects.jsonl"))
    assert all("[rule: envelope_id]" in reject["error"] for reject in rejects)


def test_a_field_no_row_of_the_first_group_had_stops_the_run_rather_than_lose_it(tmp_path: Path) -> None:
    from chatcodec.batch._convert import BatchResult, ConvertOptions
    from chatcodec.datasets._envelope_parquet import EnvelopeParquetSink
    from chatcodec.datasets._parquet_sink import ColumnTypeError

    options = ConvertOptions("openai-chat", "openai-chat", envelope="openai-batch", out_envelope="openai-batch")
    sink = EnvelopeParquetSink(tmp_path / "out.parquet", options, rows_per_group=1)
    first = {"custom_id": "a", "method": "POST", "url": "/v1/chat/completions", "body": {"model": "m"}}
    sink.write(BatchResult(output=json.dumps(first).encode() + b"\n", converted=1))
    with pytest.raises(ColumnTypeError, match="'note'"):
        sink.write(BatchResult(output=json.dumps({**first, "note": "x"}).encode() + b"\n", converted=1))


@pytest.mark.parametrize("name", envelopes.ENVELOPE_NAMES)
def test_validate_reads_an_envelope_parquet_file_by_the_envelope_it_names(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    table_path = tmp_path / f"{name}.parquet"
    assert _convert(FIXTURES / f"{name}.jsonl", table_path, "--from", name, "--to", name) == 0
    capsys.readouterr()
    assert main(["validate", str(table_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(_rows(FIXTURES / f"{name}.jsonl"))
    assert all(": ok, " in line and "ok, 0 messages" not in line for line in lines)


def test_bare_bodies_with_an_id_column_go_back_into_their_envelope(tmp_path: Path) -> None:
    """An envelope's bodies written bare to Parquet with ``--id-field`` (the id a column of its
    own, the body JSON text) go back into the envelope with that id: every row was refused."""
    bare = tmp_path / "bare.parquet"
    out = ("--to", "openai-chat", "--id-field", "custom_id")
    # the third row is a /v1/responses row: not an openai-chat body, rejected
    assert _convert(FIXTURES / "openai-batch.jsonl", bare, "--from", "openai-batch:openai-chat", *out) == 1
    assert parquet.read_table(bare).schema.names == ["openai-chat_request", "custom_id"]
    back = tmp_path / "back.jsonl"
    assert _convert(bare, back, "--from", "openai-chat", "--id-field", "custom_id", "--to", "openai-batch") == 0
    chat_rows = [row for row in _rows(FIXTURES / "openai-batch.jsonl") if row["url"] == "/v1/chat/completions"]
    assert _rows(back) == chat_rows
