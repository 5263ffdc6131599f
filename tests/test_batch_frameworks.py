"""BatchConverter used as-is by Hugging Face ``datasets`` (``map(batched=True, num_proc=2)``)
and Ray Data (``map_batches``), both local and offline."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import datasets
import pytest
import ray

from chatcodec import BatchConverter
from local_ray import local_ray as local_ray_node

_LOSS = "$.messages[0].content[1].detail: image detail 'low' (Anthropic has no resolution hint)"


def _request(index: int) -> dict[str, Any]:
    """``max_completion_tokens``: an OpenAI Chat ``max_tokens`` converted to another provider
    reports its spelling, and these rows are exact or have one loss."""
    return {"model": "m", "max_completion_tokens": 4096, "messages": [{"role": "user", "content": f"row {index}"}]}


def _lossy_request(index: int) -> dict[str, Any]:
    image = {"type": "image_url", "image_url": {"url": "https://example.com/a.png", "detail": "low"}}
    content = [{"type": "text", "text": f"row {index}"}, image]
    return {"model": "m", "max_completion_tokens": 4096, "messages": [{"role": "user", "content": content}]}


def _rows(count: int) -> list[dict[str, Any]]:
    """Rows with the payload as JSON text; row 7 is broken and every fifth one is lossy."""
    rows: list[dict[str, Any]] = []
    for index in range(count):
        payload = json.dumps(_lossy_request(index) if index % 5 == 0 else _request(index))
        rows.append({"id": index, "request": "{broken" if index == 7 else payload})
    return rows


def _check_converted(rows: list[dict[str, Any]], count: int) -> None:
    assert sorted(row["id"] for row in rows) == list(range(count))  # no row dropped
    for row in rows:
        index = row["id"]
        if index == 7:
            assert row["anthropic_request"] is None
            assert row["chatcodec_error"].startswith("at $: not valid JSON")
            continue
        assert row["chatcodec_error"] is None
        converted = json.loads(row["anthropic_request"])
        assert converted["model"] == "m"
        assert converted["max_tokens"] == 4096
        first = converted["messages"][0]["content"]
        assert (first if isinstance(first, str) else first[0]["text"]) == f"row {index}"
        assert list(row["chatcodec_losses"]) == ([_LOSS] if index % 5 == 0 else [])


def test_hugging_face_datasets_map_with_two_processes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setattr(datasets.config, "HF_DATASETS_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf" / "datasets")
    count = 40
    dataset = datasets.Dataset.from_list(_rows(count))
    converter = BatchConverter(source="openai-chat", target="anthropic", column="request")
    converted = dataset.map(
        converter, batched=True, batch_size=8, num_proc=2, cache_file_name=str(tmp_path / "converted.arrow")
    )
    assert converted.column_names == ["id", "request", "anthropic_request", "chatcodec_error", "chatcodec_losses"]
    rows = converted.to_list()
    assert [row["id"] for row in rows] == list(range(count))  # datasets keeps the order
    _check_converted(rows, count)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One small local Ray with two CPUs (``tests/local_ray.py``: started with the time it needs, always stopped)."""
    with local_ray_node(num_cpus=2):
        yield


# Ray Data's DataContext sets options Ray itself has deprecated (ray 2.60); nothing of ours.
@pytest.mark.filterwarnings("ignore:`use_push_based_shuffle` is deprecated:DeprecationWarning")
@pytest.mark.filterwarnings("ignore:`use_polars` is deprecated:DeprecationWarning")
@pytest.mark.filterwarnings("ignore:`use_arrow_tensor_v2` is deprecated:DeprecationWarning")
@pytest.mark.usefixtures("local_ray")
class TestRayData:
    def test_map_batches_with_json_text(self) -> None:
        count = 40
        to_anthropic = BatchConverter(source="openai-chat", target="anthropic", column="request")
        dataset = ray.data.from_items(_rows(count), override_num_blocks=4)
        _check_converted(dataset.map_batches(to_anthropic, batch_size=8).take_all(), count)

    def test_map_batches_with_dicts_in_numpy_batches(self) -> None:
        rows = [{"id": index, "request": _request(index)} for index in range(20)]
        to_anthropic = BatchConverter(source="openai-chat", target="anthropic", column="request", losses_column=None)
        result = ray.data.from_items(rows, override_num_blocks=2).map_batches(to_anthropic, batch_size=8).take_all()
        assert sorted(row["id"] for row in result) == list(range(20))
        for row in result:
            assert row["chatcodec_error"] is None
            expected = {"model": "m", "max_tokens": 4096, "messages": _request(row["id"])["messages"]}
            assert row["anthropic_request"] == expected
