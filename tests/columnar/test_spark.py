"""ArrowConverter in Spark ``mapInArrow`` (the docs' recipe, docs/datasets.md), on a local one-core Spark.

pyspark is a dev dependency (the ``spark`` extra for users); Spark also needs a Java 17+
runtime, which CI's machine has: without one on PATH this module is skipped with the reason. The recipe's
function is tested without Spark in ``test_the_recipe_maps_arrow_batches_as_spark_calls_it``.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pytest

from chatcodec.datasets import ArrowConverter
from columnar.rows import TO_ANTHROPIC, expected_anthropic, recorded_requests

SCHEMA = "request string, anthropic_request string, chatcodec_error string, chatcodec_losses array<string>"
"""The Spark schema of the recipe's output (the input column and ArrowConverter's three)."""


def convert_batches(batches: Iterator[Any]) -> Iterator[Any]:
    """The recipe: the function given to ``DataFrame.mapInArrow`` (Arrow record batches in and out)."""
    to_anthropic = ArrowConverter(source="openai-chat", target="anthropic", column="request", options=TO_ANTHROPIC)
    for batch in batches:
        yield from to_anthropic(batch).to_batches()


def test_the_recipe_maps_arrow_batches_as_spark_calls_it() -> None:
    payloads = recorded_requests()
    batches = pa.table({"request": [json.dumps(payload) for payload in payloads]}).to_batches(max_chunksize=5)
    rows = [row for batch in convert_batches(iter(batches)) for row in batch.to_pylist()]
    assert [json.loads(row["anthropic_request"]) for row in rows] == [
        expected_anthropic(payload)[0] for payload in payloads
    ]


# pyspark 4.3 warns that it does not fully support pandas 3 (which the dev extra's datasets installs);
# mapInArrow passes Arrow batches and never builds a pandas frame.
@pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")
def test_spark_map_in_arrow_converts_every_row_as_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    import pyspark

    if shutil.which("java") is None:
        pytest.skip("pyspark is installed but no Java runtime is on PATH")
    # Spark's Python workers are new processes: this interpreter, with the modules this test sees
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path for path in sys.path if path))
    spark = pyspark.sql.SparkSession.builder.master("local[1]").appName("chatcodec-test").getOrCreate()
    try:
        payloads = recorded_requests()
        frame = spark.createDataFrame([(json.dumps(payload),) for payload in payloads], "request string")
        rows = frame.mapInArrow(convert_batches, SCHEMA).collect()
    finally:
        spark.stop()
    by_request = {row["request"]: row for row in rows}
    for payload in payloads:
        row = by_request[json.dumps(payload)]
        assert row["chatcodec_error"] is None
        assert json.loads(row["anthropic_request"]) == expected_anthropic(payload)[0]


def test_the_docs_recipe_points_the_workers_at_this_python() -> None:
    """Spark's workers run the ``python`` on the PATH: without ``PYSPARK_PYTHON`` they fail with
    "No module named 'chatcodec'" unless the venv is activated (the test above sets it too)."""
    from pathlib import Path

    page = (Path(__file__).parents[2] / "docs" / "datasets.md").read_text(encoding="utf-8")
    recipe = page[page.index("Spark (`DataFrame.mapInArrow`") :]
    recipe = recipe[: recipe.index("mapInArrow(convert_batches")]
    assert "No module named 'chatcodec'" in recipe
    assert recipe.index('os.environ["PYSPARK_PYTHON"] = sys.executable') < recipe.index("SparkSession.builder")
