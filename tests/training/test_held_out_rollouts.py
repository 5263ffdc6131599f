"""Rollouts Codex wrote in real sessions (``codemie-ai/codemie-code``'s and ``madshn/localpush``'s
test data, ``tests/fixtures/harness_sessions/SOURCES.md``), never seen by the reader's author:
each read as the conversation Codex showed its model (every item it recorded, in order, the
items a compaction replaced left out), every line it does not read a named loss, converted to
OpenAI Chat, Anthropic and ATIF, and rendered turn by turn (issue 110's done-when)."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from chatcodec import decode_request, render_turns
from chatcodec._row_dialects.sessions import read_session
from chatcodec.batch._convert import convert_payload
from chatcodec.batch._convert_records import ConvertOptions
from chatcodec.batch._row_formats import row_options
from training.qwen3_tokenizer import qwen3_encoding
from training.test_rollout_rows import tokenizer_json

__all__ = ["tokenizer_json"]  # the fixture, shared with the rollout rows' tests

HELD_OUT = Path(__file__).parents[1] / "fixtures" / "harness_sessions" / "held_out"
TERMINAL = "codemie-code-rollout-2026-05-11T11-26-55-019e1625.jsonl.gz"
EVENTS_ONLY = "codemie-code-rollout-2026-05-11T13-28-45-019e1695.jsonl.gz"
COMPACTED = "localpush-rollout-2026-02-23T12-54-34-019c8a59.jsonl.gz"
REDACTED = "localpush-rollout-2026-02-23T20-34-25-019c8bfe.jsonl"
PUBLISHED = {  # the SHA-256 of each file as its project published it (SOURCES.md)
    TERMINAL: "8cb269b4fbbdda6eb74a2c0a14b58fbb43f8f1a67d648d63bec00e974969fe18",
    EVENTS_ONLY: "fc0475d630a4ccb9fc706444ef09f2fc77b3b1219e527ca07b734efea49243b7",
    COMPACTED: "ab30a4bb68e5a30c26c1ff5e298da523f5c77b067ea6af261d51a7f0d3628855",
    REDACTED: "0ebca88fa2362da7ae1b4f69e24655a99ce1c56a7b985ea97f672d6838cae668",
}
ROLLOUTS = list(PUBLISHED)
_CALLS = {"function_call": "call", "custom_tool_call": "call", "function_call_output": "result"}
_CALLS["custom_tool_call_output"] = "result"


def _bytes(name: str) -> bytes:
    data = (HELD_OUT / name).read_bytes()
    return gzip.decompress(data) if name.endswith(".gz") else data


def _events(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in _bytes(name).decode("utf-8").splitlines() if line.strip()]


def _token(item: dict[str, Any]) -> tuple[str, ...]:
    """What one recorded item showed the model, as the test compares it."""
    kind = item.get("type")
    if kind == "message":
        return ("message", item["role"])
    if kind in _CALLS:
        return (_CALLS[kind], item["call_id"])
    return (str(kind),)


def _recorded(events: list[dict[str, Any]], prompts_in_events: bool) -> list[tuple[str, ...]]:
    """The items the rollout recorded, in order, as the model's later prompts held them: a
    compaction's replacement_history in place of the items before it. A file that holds its
    prompts only as the UI's events (``prompts_in_events``) has each there as the user's."""
    shown: list[tuple[str, ...]] = []
    for event in events:
        payload = event["payload"]
        if event["type"] == "response_item" and payload["type"] != "ghost_snapshot":
            shown.append(_token(payload))
        elif event["type"] == "compacted" and "replacement_history" in payload:
            shown = [_token(item) for item in payload["replacement_history"]]
        elif prompts_in_events and event["type"] == "event_msg" and payload["type"] == "user_message":
            shown.append(("message", "user"))
    return _merged(shown)


def _merged(tokens: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Consecutive texts of one speaker as one (a message of two text items is one message)."""
    merged: list[tuple[str, ...]] = []
    for token in tokens:
        if not (token[0] == "message" and merged and merged[-1] == token):
            merged.append(token)
    return merged


def _read(name: str) -> tuple[list[tuple[str, ...]], Any]:
    """The conversation read, as the same tokens: each message's parts in order."""
    session = read_session(_events(name), "codex")
    request = decode_request(session.format, session.body)
    shown: list[tuple[str, ...]] = []
    for message in request.messages:
        if message.role in ("system", "developer", "user"):
            if message.role != "system":  # the session's instructions, not an item
                shown.append(("message", message.role))
            continue
        for part in [message.content] if isinstance(message.content, str) else message.content:
            kind = "text" if isinstance(part, str) else part.type
            if kind == "text":
                shown.append(("message", "assistant"))
            elif kind == "thinking":
                shown.append(("reasoning",))
            elif kind == "tool_use":
                shown.append(("call", part.id))
            elif kind == "tool_result":
                shown.append(("result", part.tool_use_id))
            else:
                shown.append((kind,))
    return _merged(shown), session


@pytest.mark.parametrize("name", ROLLOUTS)
def test_each_file_is_the_bytes_its_project_published(name: str) -> None:
    assert hashlib.sha256(_bytes(name)).hexdigest() == PUBLISHED[name]


@pytest.mark.parametrize("name", ROLLOUTS)
def test_every_item_codex_recorded_is_in_the_conversation_in_order(name: str) -> None:
    events = _events(name)
    shown, _ = _read(name)
    recorded = _recorded(events, prompts_in_events=name == EVENTS_ONLY)
    opaque = {token for token in recorded if token[0] in ("web_search_call", "compaction")}
    read = [(token[0],) if token[0] == "opaque" else token for token in shown]
    assert [token if token not in opaque else ("opaque",) for token in recorded] == read
    assert len(recorded) > 20


def test_a_prompt_kept_only_as_its_event_is_the_users_message() -> None:
    events = _events(EVENTS_ONLY)
    assert not any(
        event["type"] == "response_item" and event["payload"].get("role") == "user" for event in events
    )  # the file holds its prompts only in the UI's events
    prompts = [event["payload"]["message"] for event in events if event["payload"].get("type") == "user_message"]
    _, session = _read(EVENTS_ONLY)
    users = [item["content"][0]["text"] for item in session.body["input"] if item.get("role") == "user"]
    assert users == prompts
    assert len(prompts) == 3
    read = [loss.path for loss in session.losses if loss.what == "prompt from its event"]
    assert read == [
        f"$[{index}].payload" for index, event in enumerate(events) if event["payload"].get("type") == "user_message"
    ]
    assert "event_msg user_message" not in {loss.what for loss in session.losses}  # read, not bookkeeping


def test_a_prompt_with_its_item_is_not_read_twice() -> None:
    events = _events(TERMINAL)
    _, session = _read(TERMINAL)
    items = [
        event for event in events if event["type"] == "response_item" and event["payload"]["type"] != "ghost_snapshot"
    ]
    assert len(session.body["input"]) == len(items)
    assert "prompt from its event" not in {loss.what for loss in session.losses}
    assert "event_msg user_message" in {loss.what for loss in session.losses}


@pytest.mark.parametrize("name", ROLLOUTS)
def test_every_line_not_read_is_a_named_loss(name: str) -> None:
    events = _events(name)
    _, session = _read(name)
    named = {loss.what for loss in session.losses}
    events_kinds = {event["payload"]["type"] for event in events if event["type"] == "event_msg"}
    read_as_prompts = {"user_message"} if name == EVENTS_ONLY else set()
    assert {f"event_msg {kind}" for kind in events_kinds - read_as_prompts} <= named
    for event in events:
        if event["type"] in ("session_meta", "turn_context"):
            fields = {key for key, value in event["payload"].items() if value not in (None, "", [], {})}
            prefix = f"{event['type']}."
            assert {prefix + key for key in fields - {"base_instructions"}} <= named
    content = [(loss.path, loss.what) for loss in session.losses if loss.kind == "content"]
    compactions = [index for index, event in enumerate(events) if event["type"] == "compacted"]
    assert content == [(f"$[{index}].payload", "compaction") for index in compactions]


def test_the_compaction_goes_on_from_its_replacement_history() -> None:
    events = _events(COMPACTED)
    (at,) = [index for index, event in enumerate(events) if event["type"] == "compacted"]
    replacement = events[at]["payload"]["replacement_history"]
    _, session = _read(COMPACTED)
    assert session.body["input"][: len(replacement)] == replacement
    later = [event["payload"] for event in events[at:] if event["type"] == "response_item"]
    assert session.body["input"][len(replacement) :] == later


@pytest.mark.parametrize("name", ROLLOUTS)
@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "atif"])
def test_each_converts(name: str, target: str) -> None:
    outcome = convert_payload(json.dumps(_events(name)), row_options("codex", target))
    assert outcome.converted is not None, outcome.error
    shown, _ = _read(name)
    session = read_session(_events(name), "codex")
    roles = [message.role for message in decode_request(session.format, session.body).messages]
    if target == "atif":  # each message a step: the system and user steps are the messages', in order
        steps = outcome.converted["steps"]
        assert [step["source"] for step in steps if step["source"] != "agent"] == [
            "system" if role == "developer" else role for role in roles if role in ("system", "developer", "user")
        ]
        developers = roles.count("developer")
        spelled = [loss for loss in outcome.losses if loss.what == "developer role"]
        assert len(spelled) == developers  # each developer item a system step, said so
        return
    messages = outcome.converted["messages"]
    calls = [token[1] for token in shown if token[0] == "call"]
    dropped = {call for call in calls if any(f"tool call '{call}'" in loss.what for loss in outcome.losses)}
    assert _call_ids(messages, target) == [call for call in calls if call not in dropped]  # in order, by id
    custom = {
        event["payload"]["call_id"] for event in _events(name) if event["payload"].get("type") == "custom_tool_call"
    }
    assert dropped <= custom  # only a call the target has no place for, each a named loss


def _call_ids(messages: list[dict[str, Any]], target: str) -> list[str]:
    if target == "openai-chat":
        return [call["id"] for message in messages for call in message.get("tool_calls") or []]
    return [
        block["id"]
        for message in messages
        if isinstance(message["content"], list)
        for block in message["content"]
        if block["type"] == "tool_use"
    ]


@pytest.mark.parametrize("name", [EVENTS_ONLY, REDACTED, COMPACTED])
def test_each_renders_one_turn_per_answer(name: str) -> None:
    events = _events(name)
    turns = render_turns(events, source="codex", template="qwen3", tokenizer=qwen3_encoding(), on_loss="ignore")
    session = read_session(events, "codex")
    answers = [
        message for message in decode_request(session.format, session.body).messages if message.role == "assistant"
    ]
    assert len(turns) == len(answers)
    assert all(turn.completion_ids for turn in turns)
    if name == EVENTS_ONLY:  # the first turn's prompt holds the prompt read from its event
        first = qwen3_encoding().decode(list(turns[0].prompt_ids))
        assert events[1]["payload"]["message"].strip()[:40] in first


@pytest.mark.parametrize("name", [EVENTS_ONLY, REDACTED])
def test_each_converts_to_a_trajectory_whose_messages_are_the_conversation(name: str, tokenizer_json: Path) -> None:
    options = ConvertOptions("codex", "trajectory", template="qwen3", tokenizer=str(tokenizer_json))
    outcome = convert_payload(json.dumps(_events(name)), options)
    assert outcome.converted is not None, outcome.error
    row = outcome.converted
    session = read_session(_events(name), "codex")
    shown: list[str] = []  # the conversation's roles, a chat message per tool result
    for message in decode_request(session.format, session.body).messages:
        results = len(message.content) if message.role == "tool" and isinstance(message.content, list) else 1
        shown += [{"developer": "system"}.get(message.role, message.role)] * results
    assert [message["role"] for message in row["messages"]] == shown
    answers = [index for index, message in enumerate(row["messages"]) if message["role"] == "assistant"]
    assert [turn["message_index"] for turn in row["turns"]] == answers  # a turn per answer
    assert all(turn["completion_ids"] for turn in row["turns"])
