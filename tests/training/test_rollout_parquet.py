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
    text = json.loads(table.column("rollout_request")[0].as_py())
    assert text["token_ids"] is None  # its place in the row: the column holds the ids
    back, _ = convert_file(tmp_path, table_path, "--from", "rollout", "--to", "rollout")
    assert read_rows(back) == rows


def test_a_parquet_round_trip_keeps_the_row_s_key_order(tmp_path: Path) -> None:
    """The row comes back from Parquet as from JSONL, key for key in its order (the tokens
    first here, a field of the trainer's own between them), and a ``null`` the row held stays."""
    row = {
        "token_ids": [1, 2, 3],
        "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}],
        "sampled_mask": [False, True, True],
        "reward": 1.0,
        "message_indices": [0, 1, 1],
        "logprobs": None,
        "tools": [],
    }
    source = tmp_path / "rows.jsonl"
    source.write_text(json.dumps(row) + "\n", encoding="utf-8")
    table_path = tmp_path / "rows.parquet"
    assert main(["convert", str(source), "--from", "rollout", "--to", "rollout", "--out", str(table_path)]) == 0
    through_jsonl, _ = convert_file(tmp_path, source, "--from", "rollout", "--to", "rollout")
    through_parquet, _ = convert_file(tmp_path, table_path, "--from", "rollout", "--to", "rollout")
    assert through_parquet.read_text(encoding="utf-8") == through_jsonl.read_text(encoding="utf-8")
    assert list(read_rows(through_parquet)[0]) == list(row)
