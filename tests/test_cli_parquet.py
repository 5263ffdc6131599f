"""``chatcodec convert`` and ``validate`` over Parquet files: the columnar form for canonical
data, a JSON text column for wire payloads, and the rows Arrow itself writes."""

from __future__ import annotations

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


def test_a_dataset_through_canonical_parquet_converts_as_its_json_lines_do(tmp_path: Path) -> None:
    """JSON lines -> canonical Parquet -> Anthropic Parquet -> JSON lines gives what JSON
    lines -> Anthropic JSON lines gives: the columnar form carries every recorded request."""
    source = _jsonl(tmp_path / "in.jsonl", _recorded())
    assert _convert(source, tmp_path / "direct.jsonl", "openai-chat", "anthropic", "--option", "max_tokens=99") == 0
    assert _convert(source, tmp_path / "canonical.parquet", "openai-chat", "canonical") == 0
    assert pq.read_schema(tmp_path / "canonical.parquet").metadata[b"chatcodec.form"] == b"request"
    assert (
        _convert(
            tmp_path / "canonical.parquet",
            tmp_path / "anthropic.parquet",
            "canonical",
            "anthropic",
            "--option",
            "max_tokens=99",
        )
        == 0
    )
    assert _convert(tmp_path / "anthropic.parquet", tmp_path / "back.jsonl", "anthropic", "anthropic") == 0
    assert _lines(tmp_path / "back.jsonl") == _lines(tmp_path / "direct.jsonl")
    texts = pq.read_table(tmp_path / "anthropic.parquet").column("anthropic_request").to_pylist()
    assert [json.loads(text) for text in texts] == _lines(tmp_path / "direct.jsonl")


def test_a_parquet_file_arrow_wrote_converts_as_its_json_does(tmp_path: Path) -> None:
    """Arrow fills every struct with the keys other rows have (``name``, ``max_tokens``,
    ``tool_calls``); read back those nulls are absent, so each row converts as its JSON."""
    rows = [
        {"model": "m", "max_tokens": 7, "messages": [{"role": "user", "content": "hi", "name": "ann"}]},
        {
            "model": "m",
            "messages": [
                {"role": "user", "content": "weather?"},
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "w", "arguments": "{}"}}],
                },
                {"role": "tool", "tool_call_id": "c1", "content": "sun"},
            ],
        },
    ]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "arrow.parquet")
    assert pa.Table.from_pylist(rows).to_pylist()[0]["messages"][0]["tool_calls"] is None  # what Arrow made
    assert _convert(tmp_path / "arrow.parquet", tmp_path / "from_parquet.jsonl", "openai-chat", "gemini") == 0
    assert _convert(_jsonl(tmp_path / "rows.jsonl", rows), tmp_path / "from_json.jsonl", "openai-chat", "gemini") == 0
    assert _lines(tmp_path / "from_parquet.jsonl") == _lines(tmp_path / "from_json.jsonl")


def test_rejected_rows_keep_their_place_and_id_and_go_to_the_reject_report(tmp_path: Path) -> None:
    rows = [
        {"id": "a", "request": json.dumps({"model": "m", "messages": [{"role": "user", "content": "one"}]})},
        {"id": "b", "request": "{broken"},
    ]
    table = pa.Table.from_pylist([{"request": row["request"]} for row in rows])
    pq.write_table(table, tmp_path / "text.parquet")
    code = _convert(tmp_path / "text.parquet", tmp_path / "out.parquet", "openai-chat", "anthropic", "--keep-lines")
    assert code == 1
    assert pq.read_table(tmp_path / "out.parquet").column("anthropic_request").to_pylist()[1] is None
    (reject,) = _lines(tmp_path / "out.rejects.jsonl")
    assert (reject["line"], reject["text"]) == (2, "{broken")
    assert reject["error"].startswith("at $: not valid JSON")


def test_every_rows_id_lands_in_its_own_column(tmp_path: Path) -> None:
    """``--id-field`` is the row's id, not payload: each row's goes to its own column, a
    placeholder's too, and the payload column holds the converted payload alone."""
    source = _jsonl(tmp_path / "in.jsonl", [{"id": 1, "messages": [{"role": "user", "content": "x"}]}, {"id": 2}])
    code = _convert(source, tmp_path / "out.parquet", "openai-chat", "anthropic", "--keep-lines", "--id-field", "id")
    assert code == 1
    table = pq.read_table(tmp_path / "out.parquet")
    assert table.column("id").to_pylist() == [1, 2]  # in its own type
    payloads = table.column("anthropic_request").to_pylist()
    assert json.loads(payloads[0]) == {"max_tokens": 4096, "messages": [{"role": "user", "content": "x"}]}
    assert payloads[1] is None


def test_a_tool_schema_arrow_filled_with_nulls_is_reported_and_refused_under_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def tool(name: str, properties: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {"name": name, "parameters": {"type": "object", "properties": properties}},
        }

    rows = [
        {"model": "m", "messages": [{"role": "user", "content": "a"}], "tools": [tool("f", {"x": {"type": "string"}})]},
        {"model": "m", "messages": [{"role": "user", "content": "b"}], "tools": [tool("g", {"y": {"type": "string"}})]},
    ]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "tools.parquet")
    assert (
        main(
            [
                "convert",
                str(tmp_path / "tools.parquet"),
                "--from",
                "openai-chat",
                "--to",
                "anthropic",
                "--out",
                str(tmp_path / "out.jsonl"),
            ]
        )
        == 0
    )
    assert "$.tools[0].function.parameters.properties.y: null value" in capsys.readouterr().err
    assert [row["tools"][0]["input_schema"]["properties"] for row in _lines(tmp_path / "out.jsonl")] == [
        {"x": {"type": "string"}},
        {"y": {"type": "string"}},
    ]
    strict = [
        "convert",
        str(tmp_path / "tools.parquet"),
        "--from",
        "openai-chat",
        "--to",
        "anthropic",
        "--strict",
        "--quiet",
    ]
    assert main([*strict, "--out", str(tmp_path / "strict.jsonl")]) == 2
    assert _lines(tmp_path / "strict.jsonl") == []


def test_the_format_options_override_the_extensions(tmp_path: Path) -> None:
    source = _jsonl(tmp_path / "in.jsonl", _recorded()[:2])
    assert _convert(source, tmp_path / "canonical.data", "openai-chat", "canonical", "--out-format", "parquet") == 0
    code = _convert(
        tmp_path / "canonical.data", tmp_path / "out.txt", "canonical", "openai-chat", "--in-format", "parquet"
    )
    assert code == 0
    assert _lines(tmp_path / "out.txt") == _recorded()[:2]


def test_parquet_output_needs_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _jsonl(tmp_path / "in.jsonl", _recorded()[:1])
    with pytest.raises(SystemExit):
        main(["convert", str(source), "--from", "openai-chat", "--to", "canonical", "--out-format", "parquet"])
    assert "Parquet output needs --out" in capsys.readouterr().err


def test_validate_reads_each_row_of_a_parquet_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _jsonl(tmp_path / "in.jsonl", _recorded())
    assert _convert(source, tmp_path / "canonical.parquet", "openai-chat", "canonical") == 0
    capsys.readouterr()
    assert main(["validate", str(tmp_path / "canonical.parquet")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(_recorded())
    assert all(line.startswith(f"{tmp_path / 'canonical.parquet'}:") and ": ok, " in line for line in lines)


def test_a_columnar_file_gives_its_ids_back_to_its_rows_and_placeholders(tmp_path: Path) -> None:
    rows = [{"id": 1, "messages": [{"role": "user", "content": "x"}]}, {"id": 2}]
    source = _jsonl(tmp_path / "in.jsonl", rows)
    code = _convert(source, tmp_path / "c.parquet", "openai-chat", "canonical", "--keep-lines", "--id-field", "id")
    assert code == 1
    assert pq.read_table(tmp_path / "c.parquet").column("id").to_pylist() == [1, 2]
    back = ["--keep-lines", "--id-field", "id"]
    assert _convert(tmp_path / "c.parquet", tmp_path / "back.jsonl", "canonical", "openai-chat", *back) == 1
    assert _lines(tmp_path / "back.jsonl") == [rows[0], {"id": 2}]  # the id first, the placeholder with its id
    (reject,) = _lines(tmp_path / "back.rejects.jsonl")
    assert (reject["line"], json.loads(reject["text"])) == (2, {"id": 2})
    assert reject["error"].startswith("a placeholder: this row was rejected when the file was written")
