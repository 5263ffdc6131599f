"""Claude Code sessions recorded for real (``marot/spotter``'s test data, snapshotted from its
author's ``~/.claude/projects``; ``tests/fixtures/harness_sessions/SOURCES.md``), never seen by the
reader's author: each read as the conversation Claude Code sent (every answer and every call, in
the file's order, each call's result after it), every line not read a named loss, a session's
folder converted a row a file with its subagents linked, converted to OpenAI Chat, Anthropic and
ATIF, and rendered turn by turn (issue 110)."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from chatcodec import decode_request, render_turns
from chatcodec._row_dialects.sessions import read_session
from chatcodec.batch._convert import convert_payload
from chatcodec.batch._convert_records import ConvertOptions
from chatcodec.batch._row_formats import row_options
from chatcodec.cli._commands import main
from training.qwen3_tokenizer import qwen3_encoding
from training.test_rollout_rows import tokenizer_json

__all__ = ["tokenizer_json"]  # the fixture, shared with the rollout rows' tests

HELD_OUT = Path(__file__).parents[1] / "fixtures" / "harness_sessions" / "held_out"
SESSION_ID = "ae4a77f8-aedd-4bc1-888f-c94edc91af04"
SHORT = "spotter-short.jsonl"
TOOLS = "spotter-tool_heavy.jsonl"
COMPACTED = f"spotter-session/{SESSION_ID}.jsonl.gz"
AGENT = f"spotter-session/{SESSION_ID}/subagents/agent-aac57f5.jsonl.gz"
COMPACTING_AGENT = f"spotter-session/{SESSION_ID}/subagents/agent-acompact-946d2b.jsonl.gz"
PUBLISHED = {  # the SHA-256 of each file as its project published it (SOURCES.md)
    SHORT: "237dc80e7f705386591cee61b21fa209a59a11c6366d20fda227ec878848c74b",
    TOOLS: "036f9a476f513bb56bad7b9e8d15826aacc8515a57d531487799a51deb41d8cb",
    COMPACTED: "099bffa9cbfee4eb43713a56bc9e53de46435729a1c185c14ad5cd2169f8700d",
    AGENT: "7ad8cd8708b877921eadefbd3bf21323cb000157029075459da40d9bdbb493b1",
    COMPACTING_AGENT: "7a22d2e81b3f51bbd105ee19d49b2c50b8bed80003fee1c5aaef29734fb60702",
}
SESSIONS = [SHORT, TOOLS, COMPACTED, AGENT]


def _bytes(name: str) -> bytes:
    data = (HELD_OUT / name).read_bytes()
    return gzip.decompress(data) if name.endswith(".gz") else data


def _events(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in _bytes(name).decode("utf-8").splitlines() if line.strip()]


def _blocks(event: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    content = (event.get("message") or {}).get("content")
    return [block for block in content if block.get("type") == kind] if isinstance(content, list) else []


@pytest.mark.parametrize("name", list(PUBLISHED))
def test_each_file_is_the_bytes_its_project_published(name: str) -> None:
    assert hashlib.sha256(_bytes(name)).hexdigest() == PUBLISHED[name]


@pytest.mark.parametrize("name", SESSIONS)
def test_every_answer_and_call_is_read_in_order_each_call_answered(name: str) -> None:
    events = _events(name)
    session = read_session(events, "claude-code")
    messages = session.body["messages"]
    answers = [
        event["message"]["id"]
        for event in events
        if event.get("type") == "assistant" and not event.get("isApiErrorMessage")
    ]
    assert sum(message["role"] == "assistant" for message in messages) == len(dict.fromkeys(answers))
    calls = [block["id"] for event in events for block in _blocks(event, "tool_use")]
    read_calls = [
        block["id"]
        for message in messages
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_use"
    ]
    assert read_calls == calls
    results = {
        block["tool_use_id"]
        for message in messages
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    }
    assert results == set(calls)  # every call's result, the parallel calls' too
    assert "message off the active branch" not in {loss.what for loss in session.losses}


def test_a_tool_error_reaches_the_target_as_one() -> None:
    events = _events(SHORT)
    errors = [
        block["tool_use_id"] for event in events for block in _blocks(event, "tool_result") if block.get("is_error")
    ]
    assert len(errors) == 2
    outcome = convert_payload(json.dumps(events), row_options("claude-code", "anthropic"))
    assert outcome.converted is not None, outcome.error
    sent = [
        block["tool_use_id"]
        for message in outcome.converted["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result" and block.get("is_error")
    ]
    assert sent == errors


def test_the_compaction_is_followed_across_to_its_summary() -> None:
    events = _events(COMPACTED)
    (boundary,) = [index for index, event in enumerate(events) if event.get("subtype") == "compact_boundary"]
    (summary,) = [event for event in events if event.get("isCompactSummary")]
    session = read_session(events, "claude-code")
    assert [(loss.path, loss.what) for loss in session.losses if loss.kind == "content"] == [
        (f"$[{boundary}]", "compaction")
    ]
    texts = [message["content"] for message in session.body["messages"] if message["role"] == "user"]
    said = summary["message"]["content"]
    assert any(
        said == text or (isinstance(text, list) and said in [block.get("text") for block in text]) for text in texts
    )


def test_the_sessions_folder_is_a_row_a_file_each_subagent_linked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "project"
    for name in (COMPACTED, AGENT, COMPACTING_AGENT):
        target = folder / name.removeprefix("spotter-session/").removesuffix(".gz")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(_bytes(name))
    assert main(["convert", "--from", "claude-code", "--to", "hf-chat", str(folder), "--quiet"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    task = next(
        block["tool_use_id"]
        for event in _events(COMPACTED)
        if (event.get("toolUseResult") or {}).get("agentId") == "aac57f5"
        for block in _blocks(event, "tool_result")
    )
    assert [row.get("parent") for row in rows] == [
        None,
        {"session": SESSION_ID, "agent": "aac57f5", "tool_use_id": task},
        {"session": SESSION_ID, "agent": "acompact-946d2b"},  # the compaction's own agent: no Task call
    ]
    shutil.rmtree(folder)


@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "atif"])
@pytest.mark.parametrize("name", [SHORT, TOOLS, COMPACTED])
def test_each_converts(name: str, target: str) -> None:
    outcome = convert_payload(json.dumps(_events(name)), row_options("claude-code", target))
    assert outcome.converted is not None, outcome.error
    assert outcome.converted["steps" if target == "atif" else "messages"]


@pytest.mark.parametrize("name", [SHORT, TOOLS, AGENT])
def test_each_renders_a_turn_per_answer(name: str) -> None:
    events = _events(name)
    answers = sum(message["role"] == "assistant" for message in read_session(events, "claude-code").body["messages"])
    turns = render_turns(events, source="claude-code", template="qwen3", tokenizer=qwen3_encoding(), on_loss="ignore")
    assert len(turns) == answers
    assert all(turn.completion_ids for turn in turns)


@pytest.mark.parametrize("name", [SHORT, TOOLS])
def test_each_converts_to_a_trajectory_whose_messages_are_the_conversation(name: str, tokenizer_json: Path) -> None:
    options = ConvertOptions("claude-code", "trajectory", template="qwen3", tokenizer=str(tokenizer_json))
    outcome = convert_payload(json.dumps(_events(name)), options)
    assert outcome.converted is not None, outcome.error
    row = outcome.converted
    session = read_session(_events(name), "claude-code")
    shown: list[str] = []  # the conversation's roles, a chat message per tool result
    for message in decode_request(session.format, session.body).messages:
        results = len(message.content) if message.role == "tool" and isinstance(message.content, list) else 1
        shown += [{"developer": "system"}.get(message.role, message.role)] * results
    assert [message["role"] for message in row["messages"]] == shown
    answers = [index for index, message in enumerate(row["messages"]) if message["role"] == "assistant"]
    assert [turn["message_index"] for turn in row["turns"]] == answers  # a turn per answer
    assert all(turn["completion_ids"] for turn in row["turns"])
