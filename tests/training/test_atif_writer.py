"""``--to atif``: a conversation written as Harbor's ATIF trajectory, read back equal by the
ATIF reader (``--from trajectory``), its turns as the steps' token metrics (issue 110)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chatcodec import Loss
from chatcodec._row_dialects.atif_writer import to_atif
from chatcodec.batch._convert import convert_payload
from chatcodec.batch._convert_records import ConvertOptions
from chatcodec.batch._row_formats import row_options
from chatcodec.cli import main
from training.test_rollout_rows import tokenizer_json

__all__ = ["tokenizer_json"]  # the fixture, shared with the rollout rows' tests

FIXTURES = Path(__file__).parents[1] / "fixtures"
ATIF = FIXTURES / "training" / "atif.json"
TRAJECTORY = FIXTURES / "training" / "trajectory.jsonl"
SESSION = FIXTURES / "harness_sessions" / "claude-code.jsonl"


def _read_back(trajectory: object) -> dict[str, Any]:
    outcome = convert_payload(trajectory, ConvertOptions("trajectory", "trajectory"))
    assert outcome.converted is not None, outcome.error
    return outcome.converted


def _written(payload: object, source: str) -> tuple[dict[str, Any], list[Loss]]:
    outcome = convert_payload(payload, row_options(source, "atif"))
    assert outcome.converted is not None, outcome.error
    return outcome.converted, list(outcome.losses)


def test_an_atif_trajectory_written_again_reads_back_as_the_same_row() -> None:
    given = json.loads(ATIF.read_text(encoding="utf-8"))
    written, losses = _written(given, "trajectory")
    assert written["schema_version"] == "ATIF-v1.5"
    assert [step["step_id"] for step in written["steps"]] == [1, 2, 3, 4]
    assert written["steps"][2]["metrics"] == {
        key: given["steps"][2]["metrics"][key] for key in ("prompt_token_ids", "completion_token_ids", "logprobs")
    }
    assert "logprobs" not in written["steps"][3]["metrics"]  # the turn had none, as the input's step
    assert _read_back(written) == _read_back(given)
    assert ("$.session_id", "default") in {(loss.path, loss.kind) for loss in losses}
    assert "$.turns" not in {loss.path for loss in losses}  # ATIF keeps the turns


def test_a_trajectory_row_written_as_atif_reads_back_equal() -> None:
    row = json.loads(TRAJECTORY.read_text(encoding="utf-8").splitlines()[0])
    written, losses = _written(row, "trajectory")
    assert ("$.messages[3].name", "spelling") in {(loss.path, loss.kind) for loss in losses}  # the call names it
    back = _read_back(written)
    assert back["turns"] == row["turns"]
    assert [message["role"] for message in back["messages"]] == [message["role"] for message in row["messages"]]
    call = back["messages"][2]["tool_calls"][0]
    assert call["id"] == "call_1"
    assert call["function"]["arguments"] == json.loads(row["messages"][2]["tool_calls"][0]["function"]["arguments"])


def test_a_claude_code_session_written_as_atif_reads_back_as_its_conversation() -> None:
    events = [json.loads(line) for line in SESSION.read_text(encoding="utf-8").splitlines()]
    written, losses = _written(json.dumps(events), "claude-code")
    sources = [step["source"] for step in written["steps"]]
    assert sources == ["user", "agent", "agent", "agent", "agent", "user", "agent"]
    first = written["steps"][1]
    assert first["reasoning_content"] == "I should read the file and run the test first."
    assert [call["tool_call_id"] for call in first["tool_calls"]] == ["toolu_01Read", "toolu_02Bash"]
    assert [result["source_call_id"] for result in first["observation"]["results"]] == ["toolu_01Read", "toolu_02Bash"]
    hf_chat = convert_payload(json.dumps(events), row_options("claude-code", "hf-chat")).converted
    assert hf_chat is not None
    back = _read_back(written)
    assert [message["role"] for message in back["messages"]] == [message["role"] for message in hf_chat["messages"]]
    assert ("$[10]", "subagent conversation") in {(loss.path, loss.what) for loss in losses}


def test_what_atif_has_no_place_for_is_a_loss() -> None:
    losses: list[Loss] = []
    row = {
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "image_url", "image_url": {}}]},
            {"role": "tool", "tool_call_id": "call_9", "content": "late"},
            {"role": "assistant", "content": [{"type": "text", "text": "b"}, {"type": "text", "text": "c"}]},
        ],
        "tools": [{"type": "function", "function": {"name": "f"}}],
    }
    written = to_atif(row, [], losses)
    assert [step["message"] for step in written["steps"]] == ["a", "b\n\nc"]
    assert {(loss.path, loss.kind) for loss in losses} >= {
        ("$.messages[0].content[1]", "content"),
        ("$.messages[1]", "content"),
        ("$.messages[2].content", "spelling"),
        ("$.tools", "content"),
    }


def test_atif_is_read_as_a_trajectory_not_under_its_own_name() -> None:
    with pytest.raises(ValueError, match="read an ATIF trajectory --from trajectory"):
        row_options("atif", "openai-chat")


def test_with_a_template_and_a_tokenizer_the_steps_hold_the_rendered_turns(
    tmp_path: Path, tokenizer_json: Path
) -> None:
    rendered = ("--template", "qwen3", "--tokenizer", str(tokenizer_json), "--quiet")
    atif, trajectory = tmp_path / "session.atif.json", tmp_path / "session.trajectory.jsonl"
    for target, out in (("atif", atif), ("trajectory", trajectory)):
        code = main(["convert", str(SESSION), "--from", "claude-code", "--to", target, *rendered, "--out", str(out)])
        assert code == 0
    written = json.loads(atif.read_text(encoding="utf-8"))
    row, subagent = map(json.loads, trajectory.read_text(encoding="utf-8").splitlines())  # the session, its subagent
    assert subagent["parent"]["agent"] == "a1b2c3d4"
    assert len(subagent["turns"]) == 1  # its own answer, rendered as its own conversation
    agent_steps = [step for step in written["steps"] if step["source"] == "agent"]
    assert len(agent_steps) == len(row["turns"]) == 5
    assert [step["metrics"]["completion_token_ids"] for step in agent_steps] == [
        turn["completion_ids"] for turn in row["turns"]
    ]
    assert _read_back(written)["turns"] == row["turns"]  # read back, the turns --to trajectory renders


def test_atif_takes_a_tokenizer_only_with_its_template(tmp_path: Path, tokenizer_json: Path) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["convert", str(SESSION), "--from", "claude-code", "--to", "atif", "--tokenizer", str(tokenizer_json)])
    assert exited.value.code == 64


def test_a_codex_rollout_written_as_atif_keeps_a_custom_tools_text_under_input() -> None:
    rollout = FIXTURES / "harness_sessions" / "codex.jsonl"
    events = [json.loads(line) for line in rollout.read_text(encoding="utf-8").splitlines()]
    written, losses = _written(json.dumps(events), "codex")
    calls = [call for step in written["steps"] for call in step.get("tool_calls", [])]
    patch = next(call for call in calls if call["function_name"] == "apply_patch")
    assert patch["arguments"]["input"].startswith("*** Begin Patch")
    assert "arguments text" in {loss.what for loss in losses if loss.kind == "spelling"}
    reasoning = next(step for step in written["steps"] if step.get("reasoning_content"))
    assert reasoning["reasoning_content"].startswith("**Inspecting calc.py**")


def test_a_developer_message_is_a_system_step_and_said_so() -> None:
    """A Responses API conversation's developer items (Codex's permissions and instructions)."""
    losses: list[Loss] = []
    row = {"messages": [{"role": "developer", "content": "Sandbox: read-only."}, {"role": "user", "content": "Hi"}]}
    written = to_atif(row, [], losses)
    assert [(step["source"], step["message"]) for step in written["steps"]] == [
        ("system", "Sandbox: read-only."),
        ("user", "Hi"),
    ]
    assert ("$.messages[0].role", "developer role", "spelling") in {
        (loss.path, loss.what, loss.kind) for loss in losses
    }
