"""ArrowConverter in Hugging Face ``datasets`` (``map(batched=True)`` over Arrow batches),
local and offline, over the recorded requests: the engine that runs in CI."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pyarrow as pa
import pytest

from chatcodec._registry import get_codec
from chatcodec.datasets import ArrowConverter, to_table, without_arrow_nulls
from columnar.rows import TO_ANTHROPIC, expected_anthropic, recorded_requests, tool_rows


@pytest.fixture(autouse=True)
def offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setattr(datasets.config, "HF_DATASETS_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf" / "datasets")


def test_json_text_rows_convert_in_two_processes_as_in_process(tmp_path: Path) -> None:
    payloads = recorded_requests()
    dataset = datasets.Dataset.from_list(
        [{"id": index, "request": json.dumps(row)} for index, row in enumerate(payloads)]
    )
    to_anthropic = ArrowConverter(source="openai-chat", target="anthropic", column="request", options=TO_ANTHROPIC)
    converted = dataset.with_format("arrow").map(
        to_anthropic, batched=True, batch_size=4, num_proc=2, cache_file_name=str(tmp_path / "converted.arrow")
    )
    rows = converted.with_format(None).to_list()
    assert [row["id"] for row in rows] == list(range(len(payloads)))
    for row, payload in zip(rows, payloads, strict=True):
        expected, losses = expected_anthropic(payload)
        assert row["chatcodec_error"] is None
        assert json.loads(row["anthropic_request"]) == expected
        assert row["chatcodec_losses"] == losses


def test_the_columnar_form_converts_to_anthropic_as_its_canonical_data_does(tmp_path: Path) -> None:
    canonical = [get_codec("openai-chat").read_request(payload) for payload in recorded_requests()]
    path = tmp_path / "canonical.parquet"
    import pyarrow.parquet as pq

    pq.write_table(to_table(canonical), path)
    dataset = datasets.Dataset.from_parquet(str(path), cache_dir=str(tmp_path / "cache"))
    converted = dataset.with_format("arrow").map(
        ArrowConverter(source="canonical", target="anthropic", options=TO_ANTHROPIC), batched=True, batch_size=5
    )
    outputs = converted.with_format(None)["anthropic_request"]
    for output, payload in zip(outputs, recorded_requests(), strict=True):
        assert json.loads(output) == expected_anthropic(payload)[0]


def test_arrow_made_nulls_in_a_tool_schema_are_reported_and_refused_under_strict() -> None:
    """The Parquet pitfall: Arrow gives each tool a null property for every property another
    tool has; read back, that schema is not the one stored."""
    table = pa.Table.from_pylist(tool_rows())
    assert table.to_pylist()[0]["tools"][0]["function"]["parameters"]["properties"]["city"] is None  # the pitfall
    converted = ArrowConverter(source="openai-chat", target="anthropic", options=TO_ANTHROPIC)(table).to_pylist()
    first = json.loads(converted[0]["anthropic_request"])
    assert first["tools"][0]["input_schema"] == {
        "type": "object",
        "properties": {"limit": {"type": "integer", "minimum": 1}},
    }
    assert first["max_tokens"] == 4096  # an integer, as stored
    assert converted[0]["chatcodec_losses"][0].startswith("$.tools[0].function.parameters.properties.city: null value")
    strict = ArrowConverter(source="openai-chat", target="anthropic", options=TO_ANTHROPIC, strict=True)(table)
    assert [row["anthropic_request"] for row in strict.to_pylist()] == [None, None]
    assert "not converted under strict" in strict.column("chatcodec_error")[1].as_py()


def test_a_null_outside_free_form_values_is_absent_with_no_report() -> None:
    payload, losses = without_arrow_nulls(
        {"model": "m", "max_tokens": None, "messages": [{"role": "user", "name": None}]}
    )
    assert payload == {"model": "m", "messages": [{"role": "user"}]}
    assert losses == []


def test_from_parquet_reads_the_file_the_command_line_wrote_with_its_typed_ids(tmp_path: Path) -> None:
    from chatcodec.cli import main

    payloads = recorded_requests()
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps({"id": index, **row}) + "\n" for index, row in enumerate(payloads)))
    out = tmp_path / "canonical.parquet"
    command = ["convert", str(source), "--from", "openai-chat", "--to", "canonical", "--out", str(out), "--quiet"]
    assert main([*command, "--keep-lines", "--id-field", "id"]) == 0
    dataset = datasets.Dataset.from_parquet(str(out), cache_dir=str(tmp_path / "cache"))
    converted = dataset.with_format("arrow").map(
        ArrowConverter(source="canonical", target="anthropic", options=TO_ANTHROPIC), batched=True, batch_size=5
    )
    rows = converted.with_format(None).select_columns(["id", "anthropic_request"]).to_list()
    assert [row["id"] for row in rows] == list(range(len(payloads)))
    for row, payload in zip(rows, payloads, strict=True):
        assert json.loads(row["anthropic_request"]) == expected_anthropic(payload)[0]


TRAINING = Path(__file__).parents[1] / "fixtures" / "training"


def _cli_output(path: Path, dialect: str, target: str) -> list[str]:
    """What ``chatcodec convert`` writes for the file, one JSON text per row."""
    import contextlib
    import io

    from chatcodec.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["convert", str(path), "--from", dialect, "--to", target, "--quiet"]) == 0
    return out.getvalue().splitlines()


@pytest.mark.parametrize(
    ("file", "dialect"), [("sharegpt.jsonl", "sharegpt"), ("alpaca_data.json", "alpaca"), ("alpaca.jsonl", "alpaca")]
)
def test_a_training_dialect_converts_inside_map_as_the_command_line_does(file: str, dialect: str) -> None:
    """Issue 63: ``ArrowConverter(source="sharegpt")`` raised UnknownProviderError; a dataset
    as ``load_dataset("json")`` reads it (the whole row, a JSON array file too) converts."""
    path = TRAINING / file
    dataset = datasets.load_dataset("json", data_files=str(path), split="train")
    to_openai = ArrowConverter(source=dialect, target="openai-chat")
    converted = dataset.with_format("arrow").map(to_openai, batched=True, batch_size=2)
    assert converted["chatcodec_error"].to_pylist() == [None] * len(dataset)
    assert converted["openai-chat_request"].to_pylist() == _cli_output(path, dialect, "openai-chat")


def test_rows_convert_into_a_training_dialect_and_an_envelope() -> None:
    path = TRAINING / "openai-fine-tuning.jsonl"
    rows = [line for line in path.read_text(encoding="utf-8").splitlines()]
    dataset = datasets.Dataset.from_dict({"text": rows})
    to_sharegpt = ArrowConverter(source="openai-chat", target="sharegpt", column="text")
    assert to_sharegpt(dataset.data.table)["sharegpt_request"].to_pylist() == _cli_output(
        path, "openai-chat", "sharegpt"
    )
    to_batch = ArrowConverter(source="openai-chat", target="openai-batch", column="text")
    written = to_batch(dataset.data.table)
    assert to_batch.options.out_envelope == "openai-batch"
    assert written["chatcodec_error"].to_pylist()[0] is not None  # no id to give the row (issue 63, item 4)
