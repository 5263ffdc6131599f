"""ArrowConverter in Ray Data (``map_batches(batch_format="pyarrow")``) on a local one-CPU
Ray, over the recorded requests: the two Ray pitfalls, each with its way round.

The module takes about 20 s (measured), most of it Ray starting; the 1M-row run on a local cluster
is a documented command (docs/datasets.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pytest
import ray

from chatcodec.datasets import ArrowConverter
from columnar.rows import TO_ANTHROPIC, expected_anthropic, recorded_requests, tool_rows
from local_ray import local_ray as local_ray_node


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One local Ray with one CPU (``tests/local_ray.py``: started with the time it needs, always stopped)."""
    with local_ray_node(num_cpus=1):
        yield


# Ray Data's DataContext sets options Ray itself has deprecated (ray 2.60); nothing of ours.
pytestmark = [
    pytest.mark.usefixtures("local_ray"),
    pytest.mark.filterwarnings("ignore:`use_push_based_shuffle` is deprecated:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore:`use_polars` is deprecated:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore:`use_arrow_tensor_v2` is deprecated:DeprecationWarning"),
    # Ray Data's own per-dataset log file, left open by its logger when the machine is loaded
    # (seen once under make test); a file of Ray's, not one chatcodec opens
    pytest.mark.filterwarnings("ignore:unclosed file <_io.TextIOWrapper name='/tmp/ray/:ResourceWarning"),
]


def test_json_lines_read_as_text_convert_where_read_json_would_fail(tmp_path: Path) -> None:
    """``ray.data.read_json`` types each key from the rows it sees, and OpenAI ``content``
    is a string in one message and a list in the next; read as text, every line converts."""
    payloads = recorded_requests()
    path = tmp_path / "requests.jsonl"
    path.write_text("".join(json.dumps(payload) + "\n" for payload in payloads), encoding="utf-8")
    to_anthropic = ArrowConverter(source="openai-chat", target="anthropic", column="text", options=TO_ANTHROPIC)
    rows = ray.data.read_text(str(path)).map_batches(to_anthropic, batch_format="pyarrow", batch_size=4).take_all()
    assert len(rows) == len(payloads)
    by_text = {row["text"]: row for row in rows}
    for payload in payloads:
        row = by_text[json.dumps(payload)]
        assert row["chatcodec_error"] is None
        assert json.loads(row["anthropic_request"]) == expected_anthropic(payload)[0]


def test_nested_integers_stay_integers_in_arrow_batches() -> None:
    """Ray's numpy and pandas batches turn an integer column with a null into floats
    (``max_tokens: 4096.0``); Arrow batches keep ``4096`` and the tool schema's ``minimum: 1``."""
    dataset = ray.data.from_arrow(pa.Table.from_pylist(tool_rows()))
    to_anthropic = ArrowConverter(source="openai-chat", target="anthropic", options=TO_ANTHROPIC)
    rows = dataset.map_batches(to_anthropic, batch_format="pyarrow").take_all()
    first = next(json.loads(row["anthropic_request"]) for row in rows if row["max_tokens"] is not None)
    assert first["max_tokens"] == 4096
    assert type(first["max_tokens"]) is int
    minimum = first["tools"][0]["input_schema"]["properties"]["limit"]["minimum"]
    assert (minimum, type(minimum)) == (1, int)
    assert all(row["chatcodec_error"] is None for row in rows)


def test_read_parquet_reads_the_columnar_file_the_command_line_wrote(tmp_path: Path) -> None:
    """The ``ray`` extra's dependencies are what ``ray.data.read_parquet`` needs (pyarrow,
    fsspec, pandas: ``ray[data]``); the file's typed ``id`` column passes through."""
    from chatcodec.cli import main

    payloads = recorded_requests()
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps({"id": index, **row}) + "\n" for index, row in enumerate(payloads)))
    out = tmp_path / "canonical.parquet"
    command = ["convert", str(source), "--from", "openai-chat", "--to", "canonical", "--out", str(out), "--quiet"]
    assert main([*command, "--keep-lines", "--id-field", "id"]) == 0
    to_anthropic = ArrowConverter(source="canonical", target="anthropic", options=TO_ANTHROPIC)
    rows = ray.data.read_parquet(str(out)).map_batches(to_anthropic, batch_format="pyarrow").take_all()
    by_id = {row["id"]: row for row in rows}
    assert sorted(by_id) == list(range(len(payloads)))
    for index, payload in enumerate(payloads):
        assert json.loads(by_id[index]["anthropic_request"]) == expected_anthropic(payload)[0]


def test_ray_reads_a_hugging_face_dataset_and_converts_it() -> None:
    """``ray.data.from_huggingface`` imports ``aiohttp``, which ``ray[data]`` leaves out: the
    ``ray`` extra installs it (a fresh venv per extra runs this recipe: ``tools/check_extras.py``)."""
    import datasets

    payloads = recorded_requests()
    dataset = datasets.Dataset.from_dict({"request": [json.dumps(payload) for payload in payloads]})
    to_anthropic = ArrowConverter(source="openai-chat", target="anthropic", column="request", options=TO_ANTHROPIC)
    rows = ray.data.from_huggingface(dataset).map_batches(to_anthropic, batch_format="pyarrow").take_all()
    converted = {row["request"]: row["anthropic_request"] for row in rows}
    for payload in payloads:
        assert json.loads(converted[json.dumps(payload)]) == expected_anthropic(payload)[0]


TRAINING = Path(__file__).parents[1] / "fixtures" / "training"


def _cli_output(path: Path, dialect: str) -> list[str]:
    import contextlib
    import io

    from chatcodec.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["convert", str(path), "--from", dialect, "--to", "openai-chat", "--quiet"]) == 0
    return out.getvalue().splitlines()


def test_sharegpt_and_alpaca_datasets_convert_in_ray_as_the_command_line_does() -> None:
    """Issue 63: training dialects inside the engines. ShareGPT JSON lines as ``read_json``
    types them; alpaca's JSON array file through Hugging Face ``load_dataset`` (pyarrow's
    JSON reader, under ``read_json``, takes JSON lines only)."""
    import datasets

    sharegpt = TRAINING / "sharegpt.jsonl"
    to_openai = ArrowConverter(source="sharegpt", target="openai-chat")
    rows = ray.data.read_json(str(sharegpt)).map_batches(to_openai, batch_format="pyarrow").take_all()
    assert [row["chatcodec_error"] for row in rows] == [None] * len(rows)
    assert [row["openai-chat_request"] for row in rows] == _cli_output(sharegpt, "sharegpt")
    alpaca = TRAINING / "alpaca_data.json"
    loaded = datasets.load_dataset("json", data_files=str(alpaca), split="train")
    to_openai = ArrowConverter(source="alpaca", target="openai-chat")
    rows = ray.data.from_huggingface(loaded).map_batches(to_openai, batch_format="pyarrow").take_all()
    assert [row["openai-chat_request"] for row in rows] == _cli_output(alpaca, "alpaca")
