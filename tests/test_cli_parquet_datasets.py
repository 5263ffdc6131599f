"""``chatcodec convert`` and ``validate`` over the Parquet files datasets hold:
ids and dataset columns beside the payload, values JSON has no form for, files an analyst
can query (typed columns, 64k-row groups, zstd), and what ``--strict`` and ``--storage`` do."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from chatcodec.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "openai-chat" / "request"


def _recorded() -> list[dict[str, Any]]:
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(FIXTURES.glob("*.json"))]


def _jsonl(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _lines(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _convert(source: Path, out: Path, source_format: str, target: str, *options: str) -> int:
    return main(
        ["convert", str(source), "--from", source_format, "--to", target, "--out", str(out), "--quiet", *options]
    )


def _user(text: str) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": text}]}


def test_validate_reads_the_form_a_parquet_file_names_rather_than_guessing_from_markers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A completion-style canonical row with ``stop`` holds a mark OpenAI Chat holds too;
    guessed from it, the row was "invalid openai-chat"; the file says it is canonical."""
    rows = [{"messages": [{"role": "text", "content": "Once upon a time"}], "stop": ["\n"]}]
    assert _convert(_jsonl(tmp_path / "in.jsonl", rows), tmp_path / "c.parquet", "canonical", "canonical") == 0
    capsys.readouterr()
    assert main(["validate", str(tmp_path / "c.parquet")]) == 0
    assert ": ok, 1 messages (1 text)" in capsys.readouterr().out


def test_validate_reads_the_format_a_payload_column_was_written_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _jsonl(tmp_path / "in.jsonl", [_user("hi")])
    assert _convert(source, tmp_path / "a.parquet", "openai-chat", "anthropic", "--option", "max_tokens=9") == 0
    assert pq.read_schema(tmp_path / "a.parquet").metadata[b"chatcodec.format"] == b"anthropic"
    capsys.readouterr()
    assert main(["validate", str(tmp_path / "a.parquet")]) == 0


def test_validate_accepts_extra_columns_the_same_with_or_without_a_system_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The system turn is the marker that made a row "openai-chat"; without it the row was
    held to canonical's closed fields and its dataset columns made it invalid."""
    plain = {**_user("hi"), "source": "web"}
    with_system = {**plain, "messages": [{"role": "system", "content": "be brief"}, *plain["messages"]]}
    pq.write_table(pa.Table.from_pylist([plain, with_system]), tmp_path / "rows.parquet")
    for path in (tmp_path / "rows.parquet", _jsonl(tmp_path / "rows.jsonl", [plain, with_system])):
        assert main(["validate", str(path)]) == 0
        assert capsys.readouterr().out.count(": ok, ") == 2
        assert main(["validate", "--strict", str(path)]) == 1  # both refused alike under --strict
        assert "2 of 2 conversation(s) invalid" in capsys.readouterr().err


def test_a_canonical_id_field_in_a_columnar_output_is_a_usage_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    response = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}],
    }
    source = _jsonl(tmp_path / "in.jsonl", [response])
    with pytest.raises(SystemExit) as raised:
        _convert(source, tmp_path / "x.parquet", "openai-chat", "canonical", "--kind", "response", "--keep-lines",
                 "--id-field", "id")  # fmt: skip
    assert raised.value.code == 64
    error = capsys.readouterr().err
    assert "'id' is a column of a Parquet file of canonical responses already" in error
    assert "Traceback" not in error


def test_a_parquet_file_with_an_id_column_beside_a_json_text_column_reads_each_payload(tmp_path: Path) -> None:
    """The shape ``bench/ray_dataset.py`` writes: ``row`` (int64) and ``request`` (JSON
    text); it was read as a payload with top-level ``row`` and ``request`` keys."""
    payloads = _recorded()
    table = pa.table({"row": list(range(len(payloads))), "request": [json.dumps(payload) for payload in payloads]})
    pq.write_table(table, tmp_path / "in.parquet")
    code = _convert(tmp_path / "in.parquet", tmp_path / "out.jsonl", "openai-chat", "openai-chat", "--keep-lines",
                    "--id-field", "row")  # fmt: skip
    assert code == 0
    assert _lines(tmp_path / "out.jsonl") == [{"row": index, **payload} for index, payload in enumerate(payloads)]


@pytest.mark.parametrize(
    ("value", "arrow_type", "what"),
    [
        (datetime.datetime(2026, 1, 2, 3, 4), pa.timestamp("us"), "a timestamp"),
        (datetime.date(2026, 1, 2), pa.date32(), "a date"),
        (b"\x00\xff", pa.binary(), "binary data"),
    ],
)
def test_a_timestamp_date_or_binary_value_is_a_rejected_row_not_a_truncated_output(
    tmp_path: Path, value: object, arrow_type: Any, what: str
) -> None:
    rows = [_user("one"), {**_user("two"), "created": value}, _user("three")]
    table = pa.Table.from_pylist(rows, schema=pa.Table.from_pylist(rows).schema.set(2, pa.field("created", arrow_type)))
    pq.write_table(table, tmp_path / "in.parquet")
    assert _convert(tmp_path / "in.parquet", tmp_path / "out.jsonl", "openai-chat", "openai-chat") == 1
    assert _lines(tmp_path / "out.jsonl") == [_user("one"), _user("three")]
    (reject,) = _lines(tmp_path / "out.rejects.jsonl")
    assert reject["line"] == 2
    assert reject["error"].startswith(f"at $.created: {what} ")
    assert "has no JSON form" in reject["error"]


def test_strict_rejects_a_row_a_target_rule_changed(tmp_path: Path) -> None:
    """Anthropic's API version 2026-10-21 refuses ``temperature``: the rule drops it (a
    ``rule`` loss), which ``--strict`` let through as if nothing had changed."""
    changed = {"model": "claude-opus-4-7", "temperature": 0.5, "messages": [{"role": "user", "content": "hi"}]}
    source = _jsonl(tmp_path / "in.jsonl", [changed, _user("kept")])
    options = ("--option", "max_tokens=9", "--strict")
    assert _convert(source, tmp_path / "out.jsonl", "openai-chat", "anthropic", *options) == 1
    assert [row["messages"][0]["content"] for row in _lines(tmp_path / "out.jsonl")] == ["kept"]
    (reject,) = _lines(tmp_path / "out.rejects.jsonl")
    assert "rule anthropic.sampling_removed" in reject["error"]


def test_storage_mode_writes_openai_chat_without_live_server_rules(tmp_path: Path) -> None:
    """gpt-5.2 to 5.5 refuse function tools beside ``reasoning_effort`` on Chat Completions;
    a fine-tuning or archive file keeps what was asked."""
    tool = {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}
    request = {"model": "gpt-5.4", "reasoning_effort": "high", "tools": [tool], **_user("hi")}
    request["model"] = "gpt-5.4"
    source = _jsonl(tmp_path / "in.jsonl", [request])
    assert _convert(source, tmp_path / "live.jsonl", "openai-chat", "openai-chat") == 0
    assert "reasoning_effort" not in _lines(tmp_path / "live.jsonl")[0]
    assert _convert(source, tmp_path / "stored.jsonl", "openai-chat", "openai-chat", "--storage", "--strict-all") == 0
    assert _lines(tmp_path / "stored.jsonl") == [request]


def test_ids_and_dataset_columns_are_native_typed_columns(tmp_path: Path) -> None:
    rows = [
        {"id": 7, "split": "train", "score": 0.5, **_user("one")},
        {"id": 8, "split": "test", "score": 1, "messages": "not a list"},
    ]
    source = _jsonl(tmp_path / "in.jsonl", rows)
    columns = ("--keep-lines", "--id-field", "id", "--column", "split", "--column", "score")
    assert _convert(source, tmp_path / "out.parquet", "openai-chat", "canonical", *columns) == 1
    table = pq.read_table(tmp_path / "out.parquet")
    assert table.schema.field("id").type == pa.int64()
    assert table.schema.field("split").type == pa.string()
    assert table.schema.field("score").type == pa.float64()
    assert table.select(["id", "split", "score"]).to_pylist() == [
        {"id": 7, "split": "train", "score": 0.5},
        {"id": 8, "split": "test", "score": 1.0},  # the placeholder keeps its row's columns
    ]
    back = tmp_path / "back.jsonl"
    assert _convert(tmp_path / "out.parquet", back, "canonical", "openai-chat", *columns) == 1
    assert _lines(back)[0] == rows[0]


def test_a_parquet_inputs_column_keeps_its_arrow_type(tmp_path: Path) -> None:
    table = pa.table({"row": pa.array([1, 2], pa.int32()), "request": [json.dumps(_user("a")), json.dumps(_user("b"))]})
    pq.write_table(table, tmp_path / "in.parquet")
    code = _convert(tmp_path / "in.parquet", tmp_path / "out.parquet", "openai-chat", "anthropic", "--column", "row",
                    "--option", "max_tokens=9")  # fmt: skip
    assert code == 0
    written = pq.read_table(tmp_path / "out.parquet")
    assert written.schema.field("row").type == pa.int32()
    assert written.column("row").to_pylist() == [1, 2]


def test_parquet_output_is_zstd_in_row_groups_of_64k_rows(tmp_path: Path) -> None:
    """128-row groups (one per batch converted) made a 19 MB footer for 200k rows."""
    rows = [_user(f"row {index}") for index in range(300)]
    assert _convert(_jsonl(tmp_path / "in.jsonl", rows), tmp_path / "c.parquet", "openai-chat", "canonical") == 0
    metadata = pq.ParquetFile(tmp_path / "c.parquet").metadata
    assert (metadata.num_row_groups, metadata.num_rows) == (1, 300)
    assert metadata.row_group(0).column(0).compression == "ZSTD"


def test_canonical_json_lines_through_parquet_come_back_byte_identical(tmp_path: Path) -> None:
    source = _jsonl(tmp_path / "in.jsonl", _recorded())
    assert _convert(source, tmp_path / "canonical.jsonl", "openai-chat", "canonical") == 0
    assert _convert(tmp_path / "canonical.jsonl", tmp_path / "c.parquet", "canonical", "canonical") == 0
    assert _convert(tmp_path / "c.parquet", tmp_path / "back.jsonl", "canonical", "canonical") == 0
    assert (tmp_path / "back.jsonl").read_bytes() == (tmp_path / "canonical.jsonl").read_bytes()


def test_an_id_of_another_type_than_its_columns_stops_the_run_with_a_message_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A JSON id column's type is the one its first row group holds; a later id that does
    not fit cannot be written in that column. The run failed: no output is left, not even
    the rows before it (issue 63: they read as a whole, valid file)."""
    from chatcodec.datasets import _parquet_sink as parquet_sink

    monkeypatch.setattr(parquet_sink, "ROWS_PER_GROUP", 2)
    rows = [{"id": index, **_user("a")} for index in range(128)] + [{"id": "last", **_user("b")}]  # two batches
    source = _jsonl(tmp_path / "in.jsonl", rows)
    code = _convert(source, tmp_path / "out.parquet", "openai-chat", "canonical", "--keep-lines", "--id-field", "id")
    assert code == 74
    error = capsys.readouterr().err
    assert "the column 'id' is int64" in error
    assert "Traceback" not in error
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.jsonl"]


def test_integer_sampling_numbers_stay_integers_through_canonical_parquet(tmp_path: Path) -> None:
    """``top_p: 1`` is ``1.0`` in canonical's float column; the reader's ``_integers`` marker
    rides in the row's bag, so the home writer spells it ``1`` again."""
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "temperature": 0.5, "top_p": 1}
    source = _jsonl(tmp_path / "in.jsonl", [body])
    assert _convert(source, tmp_path / "c.parquet", "openai-chat", "canonical") == 0
    assert _convert(tmp_path / "c.parquet", tmp_path / "back.jsonl", "canonical", "openai-chat") == 0
    assert (tmp_path / "back.jsonl").read_text(encoding="utf-8") == json.dumps(body) + "\n"
