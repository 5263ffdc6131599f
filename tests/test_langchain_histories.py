"""LangGraph checkpoints' message lists as datasets (issue 65): ``chatcodec convert --from
langchain --to openai-chat --storage`` on a file of bare histories (``messages_to_dict`` and
``dumpd`` output, one a line or as a JSON array) gives an OpenAI fine-tuning file, and the
analyst view reads the same histories. Also LangChain's own shapes a history holds: a turn
of several tool results written as one ``ToolMessage`` each, and the v0 ``source_type``
media blocks. langchain-core is the oracle (``messages_from_dict``)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from langchain_core.load import load
from langchain_core.messages import ToolMessage, messages_from_dict

import chatcodec
from chatcodec.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "langchain"
LINES = FIXTURES / "langgraph_histories.jsonl"
ARRAY = FIXTURES / "langgraph_histories.json"


def _histories(path: Path) -> list[list[dict[str, Any]]]:
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else [json.loads(line) for line in text.splitlines()]


def _loaded(history: list[dict[str, Any]]) -> list[Any]:
    """The messages LangChain itself loads from a stored history, of either serialisation."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # LangChainBetaWarning: load is in beta
        return [load(entry) if "lc" in entry else messages_from_dict([entry])[0] for entry in history]


def _fine_tuning_row_problems(row: dict[str, Any]) -> list[str]:
    """What OpenAI's supervised fine-tuning format refuses in a row (the chat format of
    https://platform.openai.com/docs/guides/supervised-fine-tuning, with tool calls as in
    its function-calling examples): beyond these, ``validate --strict --storage`` holds each
    row to the Chat Completions schema."""
    problems = [f"key {key}" for key in row if key not in ("messages", "tools", "parallel_tool_calls")]
    messages: list[dict[str, Any]] = row.get("messages") or []
    if not any(message.get("role") == "assistant" for message in messages):
        problems.append("no assistant message")
    called: set[str] = set()
    for message in messages:
        if message["role"] not in ("system", "developer", "user", "assistant", "tool"):
            problems.append(f"role {message['role']}")
        calls: list[dict[str, Any]] = message.get("tool_calls") or []
        for call in calls:
            called.add(call["id"])
            if call.get("type") != "function" or not isinstance(call["function"]["arguments"], str):
                problems.append(f"call {call}")
        if message["role"] == "tool" and message.get("tool_call_id") not in called:
            problems.append(f"result {message.get('tool_call_id')} answers no call")
    return problems


@pytest.mark.parametrize("source", [LINES, ARRAY], ids=["jsonl", "json-array"])
def test_langgraph_histories_convert_to_an_openai_fine_tuning_file(
    tmp_path: Path, source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "train.jsonl"
    code = main(["convert", str(source), "--from", "langchain", "--to", "openai-chat", "--storage", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    lost = [line.split(": ", 1)[1] for line in err.splitlines() if ": loss (" in line]
    # what a fine-tuning row has no field for: an AIMessage's id, a ToolMessage's tool name
    # (named where the input has it: the stored message's data or kwargs)
    assert lost
    for line in lost:
        assert "langchain data ['id']" in line or ("tool message name" in line and ".name:" in line), line
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    histories = _histories(source)
    assert len(rows) == len(histories)
    for row, history in zip(rows, histories, strict=True):
        assert _fine_tuning_row_problems(row) == []
        loaded = _loaded(history)
        assert [message["role"] for message in row["messages"]] == [
            {"system": "system", "human": "user", "ai": "assistant", "tool": "tool"}[message.type] for message in loaded
        ]
        sent: list[dict[str, Any]] = row["messages"]
        sent_calls: list[dict[str, Any]] = [call for message in sent for call in message.get("tool_calls", [])]
        calls = [call["id"] for call in sent_calls]
        assert calls == [call["id"] for message in loaded for call in getattr(message, "tool_calls", [])]
        results = [(m["tool_call_id"], m["content"]) for m in row["messages"] if m["role"] == "tool"]
        assert results == [(m.tool_call_id, m.content) for m in loaded if isinstance(m, ToolMessage)]
    assert main(["validate", "--strict", "--storage", "--format", "openai-chat", str(out)]) == 0
    assert main(["validate", "--strict", "--format", "openai-chat", str(out)]) == 1  # no model: no API request


def test_the_analyst_view_reads_the_same_histories(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")  # the analyst view's own dependency (the datasets extra)
    folder = tmp_path / "view"
    code = main(
        ["convert", str(LINES), "--from", "langchain", "--to", "canonical", "--layout", "analyst", "--out", str(folder)]
    )
    assert code == 0
    histories = _histories(LINES)
    assert pq.read_table(folder / "exchanges.parquet").num_rows == len(histories)
    messages = pq.read_table(folder / "messages.parquet").to_pylist()
    assert len(messages) == sum(len(history) for history in histories)
    parts = pq.read_table(folder / "parts.parquet").to_pylist()
    calls = [(part["exchange"], part["tool_name"]) for part in parts if part["type"] == "tool_use"]
    results = [(part["exchange"], part["tool_name"]) for part in parts if part["type"] == "tool_result"]
    expected = [
        (number, call["name"])
        for number, history in enumerate(histories)
        for message in _loaded(history)
        for call in getattr(message, "tool_calls", [])
    ]
    assert calls == expected
    assert results == expected  # each result names the tool its call ran


ANTHROPIC_TURN: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 64,
    "messages": [
        {"role": "user", "content": "Weather and time?"},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {}},
                {"type": "tool_use", "id": "toolu_2", "name": "local_time", "input": {}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"},
                {"type": "tool_result", "tool_use_id": "toolu_2", "content": "noon", "is_error": True},
            ],
        },
    ],
}


def test_a_turn_of_several_results_is_one_tool_message_each() -> None:
    """LangGraph's tool node writes one ``ToolMessage`` per call; a turn of two results
    was written as the first, the second reported lost."""
    losses: list[chatcodec.Loss] = []
    history = chatcodec.convert_request(
        ANTHROPIC_TURN, source="anthropic", target="langchain", on_loss="ignore", losses=losses
    )
    assert not [loss for loss in losses if loss.kind == "content"]
    loaded = messages_from_dict(history["messages"])
    tools = [message for message in loaded if isinstance(message, ToolMessage)]
    assert [(m.tool_call_id, m.content, m.status) for m in tools] == [
        ("toolu_1", "sunny", "success"),
        ("toolu_2", "noon", "error"),
    ]
    back = chatcodec.convert_request(history, source="langchain", target="anthropic", on_loss="ignore")
    assert back["messages"][2] == ANTHROPIC_TURN["messages"][2]


V0_IMAGE = {"type": "image", "source_type": "base64", "data": "iVBORw0KGgo=", "mime_type": "image/png"}
V0_URL = {"type": "image", "source_type": "url", "url": "https://example.com/cat.png"}


def test_v0_source_type_media_blocks_are_images_and_come_back_as_they_were() -> None:
    """LangChain's v0 multimodal blocks (``source_type``: ``base64`` with ``data`` and
    ``mime_type``, ``url`` with ``url``), as checkpoints from before the 1.0 blocks hold them."""
    entry: dict[str, Any] = {
        "type": "human",
        "data": {"content": [{"type": "text", "text": "What is it?"}, V0_IMAGE, V0_URL]},
    }
    history: dict[str, Any] = {"messages": [entry]}
    anthropic = chatcodec.convert_request(
        history, source="langchain", target="anthropic", on_loss="error", options={"max_tokens": 64, "skip_rules": "*"}
    )
    assert anthropic["messages"][0]["content"][1:] == [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
        {"type": "image", "source": {"type": "url", "url": "https://example.com/cat.png"}},
    ]
    same = chatcodec.convert_request(history, source="langchain", target="langchain", on_loss="error")
    assert same["messages"][0]["data"]["content"] == entry["data"]["content"]
    assert messages_from_dict(same["messages"])[0].content[1] == V0_IMAGE
