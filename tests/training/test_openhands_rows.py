"""``--from openhands``: OpenHands' evaluation output rows read as the conversation its model
was shown (issue 110); the fixture's sources in ``tests/fixtures/training/README.md``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chatcodec import Loss
from chatcodec._row_dialects.layout import TrainingRowError
from chatcodec._row_dialects.openhands import read_openhands
from chatcodec.batch._convert import convert_payload
from chatcodec.batch._row_formats import row_options

ROWS = Path(__file__).parents[1] / "fixtures" / "training" / "openhands.jsonl"


def _rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in ROWS.read_text(encoding="utf-8").splitlines()]


def test_a_history_reads_as_the_model_calls_and_their_observations() -> None:
    notes: list[Loss] = []
    body = read_openhands(_rows()[0], notes)
    messages = body["messages"]
    assert [message["role"] for message in messages] == [
        "system", "user", "assistant", "tool", "assistant", "tool", "tool", "assistant",
    ]  # fmt: skip
    assert [tool["function"]["name"] for tool in body["tools"]] == ["execute_bash", "str_replace_editor", "finish"]
    both = messages[4]  # one response, two calls: one message, not one per action
    assert [call["id"] for call in both["tool_calls"]] == ["toolu_02", "toolu_03"]
    assert both["content"] == "add() subtracts: I'll fix it and run the test."
    assert "function_call" not in both
    assert [(message["tool_call_id"], message["content"]) for message in messages if message["role"] == "tool"] == [
        ("toolu_01", "def add(a, b):\n    return a - b"),
        ("toolu_02", "The file /workspace/calc/calc.py has been edited."),
        ("toolu_03", "1 passed in 0.01s"),
    ]
    assert messages[-1]["tool_calls"][0]["function"]["name"] == "finish"
    said = {(loss.path, loss.what, loss.kind) for loss in notes}
    assert ("$.history[2]", "recall action", "content") in said
    assert ("$.history[4]", "recall observation", "content") in said
    assert ("$.history", "observation text", "content") in said
    assert ("$.history[3]", "observation agent_state_changed", "metadata") in said


def test_raw_completions_are_the_prompt_as_sent() -> None:
    row = _rows()[1]
    notes: list[Loss] = []
    body = read_openhands(row, notes)
    sent = row["raw_completions"]["messages"]
    assert body["messages"][:-1] == sent[:-1]
    assert body["messages"][-1] == {"role": "assistant", "content": sent[-1]["content"]}
    assert "[Command finished with exit code 0]" in body["messages"][3]["content"][0]["text"]
    assert {(loss.path, loss.kind) for loss in notes} == {
        ("$.history", "metadata"),
        ("$.raw_completions.messages[4].tool_calls", "spelling"),
        ("$.raw_completions.messages[4].function_call", "spelling"),
    }


@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "hf-chat"])
def test_an_output_row_converts_its_columns_each_a_loss(target: str) -> None:
    outcome = convert_payload(json.dumps(_rows()[0]), row_options("openhands", target))
    assert outcome.error is None
    assert outcome.converted is not None
    paths = {loss.path for loss in outcome.losses if loss.kind == "metadata"}
    assert {"$.instance_id", "$.test_result", "$.metadata", "$.metrics"} <= paths


def test_a_history_of_pairs_or_of_nothing_is_refused_at_its_path() -> None:
    with pytest.raises(TrainingRowError) as pairs:
        read_openhands({"history": [[{"action": "run"}, {"observation": "run"}]]}, [])
    assert pairs.value.path == "$.history[0]"
    with pytest.raises(TrainingRowError) as missing:
        read_openhands({"instance_id": "x"}, [])
    assert missing.value.path == "$.history"
    with pytest.raises(ValueError, match="a harness writes its own records"):
        row_options("openai-chat", "openhands")
