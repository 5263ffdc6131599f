"""The README's Python examples run as written.

Every ```python block runs, in order, in one namespace (as a reader pastes them into one
session). The few names the prose supposes the reader already holds (an SDK ``client``,
an OpenAI body, a recorded stream, a tool runner, a dataset) are given here, built from
the recorded fixtures; nothing in the blocks themselves is changed.
"""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from openai.types.chat import ChatCompletion
from tests.conformance.fixtures import stream_event_dicts

import chatcodec

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL)


class _Completions:
    def create(self, **request: Any) -> ChatCompletion:
        body = json.loads((FIXTURES / "openai-chat" / "response" / "single_tool_call.json").read_text())
        return ChatCompletion.model_validate(body)


class _Client:
    """Stands in for ``openai.OpenAI()``: answers with a recorded completion, as the SDK builds it."""

    chat = SimpleNamespace(completions=_Completions())


class _Dataset:
    """Stands in for a Hugging Face or Ray dataset: one batch, mapped at once."""

    def __init__(self, batch: dict[str, list[Any]]) -> None:
        self.batch = batch

    def map(self, function: Any, batched: bool = False, num_proc: int = 1) -> _Dataset:
        assert batched
        return _Dataset(function(self.batch))

    def map_batches(self, function: Any) -> _Dataset:
        return _Dataset(function(self.batch))


class _SparkFrame:
    """Stands in for a Spark DataFrame with a ``request`` column: ``mapInArrow`` feeds its
    function Arrow record batches, as Spark does (the real Spark runs in tests/columnar/test_spark.py)."""

    def __init__(self, requests: list[str]) -> None:
        self.requests = requests

    def mapInArrow(self, function: Any, schema: str) -> list[Any]:  # Spark's spelling
        import pyarrow as pa

        batches = pa.table({"request": self.requests}).to_batches()
        return [row for batch in function(iter(batches)) for row in batch.to_pylist()]


def _dataset_files(folder: Path) -> None:
    """The files the datasets examples read: canonical requests and responses as Parquet
    (the columnar form), and the folder the analyst's view is written to."""
    import pyarrow.parquet as pq

    from chatcodec.datasets import to_table
    from chatcodec.registry import get_codec

    codec = get_codec("openai-chat")
    request = codec.read_request(
        json.loads((FIXTURES / "openai-chat" / "request" / "tools_strict_system.json").read_text())
    )
    response = codec.read_response(
        json.loads((FIXTURES / "openai-chat" / "response" / "parallel_tool_calls.json").read_text())
    )
    pq.write_table(to_table([request]), folder / "requests.parquet")
    pq.write_table(to_table([response], "response"), folder / "responses.parquet")
    (folder / "view").mkdir()


def _namespace() -> dict[str, Any]:
    openai_body = json.loads((ROOT / "examples" / "agent_session.openai-chat.json").read_text())
    shown: list[Any] = []
    return {
        "client": _Client(),
        "openai_body": openai_body,
        "sse_bytes": (FIXTURES / "anthropic" / "stream" / "tool_use_input_json_delta.sse").read_bytes(),
        "upstream_chunks": stream_event_dicts(
            (FIXTURES / "openai-chat" / "stream" / "single_tool_call_args.sse").read_text()
        ),
        "send_to_frontend": shown.append,
        "run": lambda name, arguments: f"{name} ran with {arguments}",
        "message": chatcodec.UserMessage(content="hi"),
        "dataset": _Dataset({"request": [openai_body]}),
        "ray_dataset": _Dataset({"request": [openai_body]}),
        "ids": ["row-1"],
        "frame": _SparkFrame([json.dumps(openai_body)]),
        "shown": shown,
    }


def test_the_readme_examples_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _dataset_files(tmp_path)
    monkeypatch.chdir(tmp_path)  # the datasets examples read and write files by relative path
    blocks = _blocks()
    assert len(blocks) >= 8
    namespace = _namespace()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", chatcodec.LossWarning)  # the examples convert with losses, on purpose
        for block in blocks:
            exec(compile(block, "README.md", "exec"), namespace)
    assert namespace["shown"]  # the streaming example showed events
    assert namespace["anthropic_json"]["type"] == "message"  # the SDK-object example
    assert namespace["with_tools"]["tools"][0]["name"] == "weather"  # the tools example
    assert namespace["messages"][-1].tool_call_id == "call_1"  # the Verifiers loop ran its tool
    assert [row["chatcodec_error"] for row in namespace["converted"]] == [None]  # the Spark recipe converted
    assert (tmp_path / "view" / "exchanges.parquet").is_file()  # the analyst's view was written
