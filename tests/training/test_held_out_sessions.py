"""Session files this reader was not written with (``daaain/claude-code-log``'s own test data,
``tests/fixtures/harness_sessions/SOURCES.md``): read as the conversation the harness showed its
model, converted to OpenAI Chat and Anthropic, and rendered turn by turn (issue 110's held-out
check)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chatcodec import Loss, decode_request, render_turns
from chatcodec._row_dialects.sessions import read_session
from chatcodec.batch._convert import convert_payload
from chatcodec.batch._convert_records import ConvertOptions
from chatcodec.batch._row_formats import row_options
from training.qwen3_tokenizer import qwen3_encoding
from training.test_rollout_rows import tokenizer_json

__all__ = ["tokenizer_json"]  # the fixture, shared with the rollout rows' tests

HELD_OUT = Path(__file__).parents[1] / "fixtures" / "harness_sessions" / "held_out"
REWIND = "claude-code-log-dag_compact_after_rewind.jsonl"
UNCHAINED = "claude-code-log-representative_messages.jsonl"
ROLLOUT = "claude-code-log-codex-rollout-11111111.jsonl"


def _events(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (HELD_OUT / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def _shown(name: str, dialect: str) -> tuple[list[tuple[str, list[str]]], list[Loss]]:
    """Each canonical message's role and its parts' text (a call's name, a result's text)."""
    session = read_session(_events(name), dialect)
    request = decode_request(session.format, session.body)
    shown = []
    for message in request.messages:
        parts = [message.content] if isinstance(message.content, str) else list(message.content)
        texts = []
        for part in parts:
            if isinstance(part, str):
                texts.append(part)
            elif part.type == "tool_use":
                texts.append(f"call {part.name}")
            elif part.type == "tool_result":
                texts.append(f"result {part.tool_use_id}")
            else:
                texts.append(getattr(part, "text", part.type))
        shown.append((message.role, texts))
    return shown, list(session.losses)


def test_the_later_branch_of_a_rewind_and_a_compaction_after_it() -> None:
    shown, losses = _shown(REWIND, "claude-code")
    summary = "This session is being continued from a previous conversation that ran out of context."
    assert [(role, [text.split(" Summary:")[0] for text in texts]) for role, texts in shown] == [
        ("user", ["Start"]),
        ("assistant", ["Ready"]),
        ("user", ["Second attempt"]),
        ("assistant", ["Second answer"]),
        ("user", ["Keep going"]),
        ("assistant", ["Kept going"]),
        ("user", [summary, "After compaction"]),
        ("assistant", ["Final answer"]),
    ]
    assert [(loss.path, loss.what) for loss in losses if loss.kind == "content"] == [
        ("$[8]", "compaction"),
        ("$[2]", "message off the active branch"),
        ("$[3]", "message off the active branch"),
    ]


def test_lines_without_a_chain_are_read_in_the_files_order() -> None:
    shown, losses = _shown(UNCHAINED, "claude-code")
    assert [role for role, _ in shown] == [
        "user", "assistant", "user", "assistant", "tool", "assistant", "user", "assistant", "tool", "assistant", "user",
    ]  # fmt: skip
    assert shown[3] == ("assistant", ["call Edit"])
    assert ("$", "parentUuid", "spelling") in {(loss.path, loss.what, loss.kind) for loss in losses}
    assert "summary line" in {loss.what for loss in losses}


def test_a_rollout_with_a_line_of_a_later_kind() -> None:
    shown, losses = _shown(ROLLOUT, "codex")
    assert shown == [
        ("user", ["List the synthetic files."]),
        ("assistant", ["I will inspect the synthetic directory.", "call exec_command"]),
        ("tool", ["result call-structured-001"]),
        ("assistant", ["call apply_patch"]),
        ("tool", ["result call-custom-001"]),
        ("assistant", ["call mcp__synthetic__lookup"]),
        ("tool", ["result call-mcp-001"]),
        ("assistant", ["The synthetic files are alpha.txt and beta.txt."]),
    ]
    assert [(loss.path, loss.what) for loss in losses if loss.kind == "content"] == [
        ("$[13]", "future_synthetic_record line")
    ]


@pytest.mark.parametrize(("name", "dialect"), [(REWIND, "claude-code"), (UNCHAINED, "claude-code"), (ROLLOUT, "codex")])
@pytest.mark.parametrize("target", ["openai-chat", "anthropic"])
def test_each_converts_to_openai_chat_and_anthropic(name: str, dialect: str, target: str) -> None:
    outcome = convert_payload(json.dumps(_events(name)), row_options(dialect, target))
    assert outcome.error is None
    assert outcome.converted is not None
    assert outcome.converted["messages"]


@pytest.mark.parametrize(("name", "dialect", "answers"), [(REWIND, "claude-code", 4), (ROLLOUT, "codex", 4)])
def test_each_renders_one_turn_per_answer(name: str, dialect: str, answers: int) -> None:
    turns = render_turns(_events(name), source=dialect, template="qwen3", tokenizer=qwen3_encoding(), on_loss="ignore")
    assert len(turns) == answers
    assert all(turn.completion_ids for turn in turns)


@pytest.mark.parametrize(("name", "dialect", "answers"), [(REWIND, "claude-code", 4), (ROLLOUT, "codex", 4)])
def test_each_converts_to_a_trajectory_row_of_its_turns(
    name: str, dialect: str, answers: int, tokenizer_json: Path
) -> None:
    options = ConvertOptions(dialect, "trajectory", template="qwen3", tokenizer=str(tokenizer_json))
    outcome = convert_payload(json.dumps(_events(name)), options)
    assert outcome.converted is not None, outcome.error
    row = outcome.converted
    assert len(row["turns"]) == answers
    assert all(row["messages"][turn["message_index"]]["role"] == "assistant" for turn in row["turns"])
    shown, _ = _shown(name, dialect)
    if dialect == "codex":  # Qwen3's template writes function calls only: apply_patch's call and result are losses
        dropped = {(loss.path, loss.what) for loss in outcome.losses}
        assert {("$.input[4]", "custom tool call"), ("$.input[5]", "tool result")} <= dropped
        shown = [(role, texts) for role, texts in shown if texts != ["result call-custom-001"]]
    assert [message["role"] for message in row["messages"]] == [role for role, _ in shown]
