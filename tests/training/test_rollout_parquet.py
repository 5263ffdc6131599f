"""Rollout rows through Parquet: the token columns as typed lists (``list<int64>``,
``list<bool>``, ``list<double>``) beside the row's JSON text, read back equal."""

from __future__ import annotations

import json
from pathlib import Path

from chatcodec.cli import main
from training.test_rollout_rows import convert_file, read_rows, rollout_file, tokenizer_json, write_rows

__all__ = ["tokenizer_json"]  # the fixture, shared with the rows' tests


def test_parquet_keeps_the_token_columns_typed_and_exact(tmp_path: Path, tokenizer_json: Path) -> None:
    import pyarrow as pa
    from pyarrow import parquet

    rows = read_rows(rollout_file(tmp_path, tokenizer_json))
    rows[0]["logprobs"] = [-0.1 * index if sampled else None for index, sampled in enumerate(rows[0]["sampled_mask"])]
    source = write_rows(tmp_path, "rollouts.jsonl", rows)
    table_path = tmp_path / "rollouts.parquet"
    assert main(["convert", str(source), "--from", "rollout", "--to", "rollout", "--out", str(table_path)]) == 0
    table = parquet.read_table(table_path)
    assert table.schema.field("token_ids").type == pa.list_(pa.int64())
    assert table.schema.field("message_indices").type == pa.list_(pa.int64())
    assert table.schema.field("sampled_mask").type == pa.list_(pa.bool_())
    assert table.schema.field("logprobs").type == pa.list_(pa.float64())
    assert table.column("token_ids").to_pylist() == [row["token_ids"] for row in rows]
    assert table.column("logprobs").to_pylist() == [rows[0]["logprobs"], None]
    assert "token_ids" not in json.loads(table.column("rollout_request")[0].as_py())
    back, _ = convert_file(tmp_path, table_path, "--from", "rollout", "--to", "rollout")
    assert read_rows(back) == rows
