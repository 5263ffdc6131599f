"""``bench/dataset_route.py``: the dataset's rows are seeded, distinct and made slice by slice; each
says through chatcodec what it says; the command the route counts converts a JSONL file of them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import chatcodec

ROOT = Path(__file__).resolve().parents[1]


def _bench(module: str) -> ModuleType:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import importlib

    return importlib.import_module(f"bench.{module}")


def test_rows_are_seeded_distinct_and_any_slice_is_made_alone() -> None:
    route = _bench("dataset_route")
    first = list(route.rows(300))
    assert first == list(route.rows(300))
    assert len({json.dumps(row) for row in first}) == 300
    assert list(route.rows(50, start=100)) == first[100:150]
    assert any("tools" in row for row in first)
    assert any(isinstance(message["content"], list) for row in first for message in row["messages"])


def test_every_row_converts_to_what_it_says() -> None:
    route = _bench("dataset_route")
    agent_sources = _bench("agent_sources")
    view = agent_sources.viewer(route.SOURCE, route.TARGET)
    for row in route.rows(100):
        written = chatcodec.convert_request(row, source=route.SOURCE, target=route.TARGET, on_loss="ignore")
        assert view(written) == agent_sources.expected(row, route.SOURCE, route.TARGET)


def test_the_counted_command_converts_the_rows_file(tmp_path: Path) -> None:
    route = _bench("dataset_route")
    data, out = tmp_path / "rows.jsonl", tmp_path / "out.jsonl"
    route._write_rows(data, 20)
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    subprocess.run([sys.executable, *route._cli_arguments(data, out)], check=True, env=environment)
    written = [json.loads(line) for line in out.read_text().splitlines()]
    expected = [
        chatcodec.convert_request(row, source=route.SOURCE, target=route.TARGET, on_loss="ignore")
        for row in route.rows(20)
    ]
    assert written == expected
