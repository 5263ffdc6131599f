"""``--from codex``: a Codex CLI rollout file read as the Responses request the model was sent
(issue 110), converted, and rendered turn by turn. The fixtures' shapes are named in
``tests/fixtures/harness_sessions/SOURCES.md``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chatcodec import Loss, PayloadError, decode_request, render_turns
from chatcodec._row_dialects.codex import read_codex
from chatcodec.batch._convert import convert_payload
from chatcodec.batch._row_formats import row_options
from training.qwen3_tokenizer import qwen3_encoding

SESSIONS = Path(__file__).parents[1] / "fixtures" / "harness_sessions"


def _events(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (SESSIONS / name).read_text(encoding="utf-8").splitlines() if line]


def test_a_rollouts_response_items_are_the_request_input_in_order() -> None:
    events = _events("codex.jsonl")
    body, losses = read_codex(events)
    sent = [
        event["payload"]
        for event in events
        if event["type"] == "response_item" and event["payload"]["type"] != "ghost_snapshot"
    ]
    assert body["input"] == sent
    assert body["instructions"] == events[0]["payload"]["base_instructions"]["text"]
    assert [(loss.path, loss.what) for loss in losses if loss.kind == "content"] == [("$[18].payload", "compaction")]
    settings = {loss.what: loss.path for loss in losses if loss.kind == "setting"}
    assert settings["turn_context.model"] == "$[2].payload.model"
    assert "on 2 line(s)" in next(loss.why for loss in losses if loss.what == "turn_context.model")
    named = {loss.what for loss in losses if loss.kind == "metadata"}
    assert {"ghost_snapshot item", "event_msg token_count", "event_msg agent_message", "session_meta.git"} <= named


def test_the_conversation_is_what_codex_showed_the_model() -> None:
    body, _ = read_codex(_events("codex.jsonl"))
    request = decode_request("openai-responses", body)
    shown = [
        (message.role, [part.type for part in message.content] if not isinstance(message.content, str) else "text")
        for message in request.messages
    ]
    assert shown == [
        ("system", "text"),
        ("user", ["text"]),
        ("user", ["text"]),
        ("assistant", ["thinking", "tool_use"]),
        ("tool", ["tool_result"]),
        ("assistant", ["tool_use"]),
        ("tool", ["tool_result"]),
        ("assistant", ["opaque"]),  # the local_shell_call, kept whole for the Responses API
        ("tool", ["tool_result"]),
        ("assistant", ["text"]),
        ("user", ["text"]),
        ("assistant", ["text"]),
    ]
    thinking = request.messages[3].content[0]
    assert thinking.type == "thinking"
    assert thinking.text == "**Inspecting calc.py**\n\nI'll read the file before changing it."
    patch = request.messages[5].content[0]
    assert patch.type == "tool_use"
    assert patch.name == "apply_patch"


def test_converted_back_to_the_responses_api_the_items_come_back() -> None:
    events = _events("codex.jsonl")
    outcome = convert_payload(json.dumps(events), row_options("codex", "openai-responses"))
    assert outcome.error is None
    assert outcome.converted is not None
    kinds = [item.get("type", "message") for item in outcome.converted["input"]]
    assert kinds == [
        "message", "message", "reasoning", "function_call", "function_call_output", "custom_tool_call",
        "custom_tool_call_output", "local_shell_call", "function_call_output", "message", "message", "message",
    ]  # fmt: skip
    reasoning = outcome.converted["input"][2]
    assert reasoning["encrypted_content"] == "gAAAAABpCfixture-encrypted-reasoning-one=="


def test_converted_to_openai_chat_a_call_chat_cannot_hold_is_reported() -> None:
    outcome = convert_payload(json.dumps(_events("codex.jsonl")), row_options("codex", "openai-chat"))
    assert outcome.converted is not None
    messages = outcome.converted["messages"]
    instructions = (
        "You are Codex, based on GPT-5. You are running as a coding agent in the Codex CLI on a user's computer."
    )
    assert messages[0] == {"role": "system", "content": instructions}
    assert messages[3]["tool_calls"][0]["id"] == "call_Rk2a1"
    assert any(loss.kind == "content" and "$.input" in loss.path for loss in outcome.losses)


def test_a_rollout_written_before_rollout_lines_reads_too() -> None:
    body, losses = read_codex(_events("codex-legacy.jsonl"))
    assert [item["type"] for item in body["input"]] == ["message", "function_call", "function_call_output", "message"]
    assert body["input"][2]["output"] == "README.md\nsrc\n"
    assert ("$[3].output.success", "tool success flag") in {(loss.path, loss.what) for loss in losses}
    assert "instructions" not in body


def test_a_subagents_rollout_names_the_thread_that_spawned_it() -> None:
    events = _events("codex-legacy.jsonl")[1:]
    meta = {"id": "child", "source": {"subagent": {"thread_spawn": {"parent_thread_id": "0199f0a2", "depth": 1}}}}
    _, losses = read_codex([{"timestamp": "t", "type": "session_meta", "payload": meta}, *events])
    link = next(loss for loss in losses if loss.what == "parent session")
    assert link.path == "$[0].payload.source.subagent"
    assert "0199f0a2" in link.why


def test_render_turns_renders_a_codex_rollout() -> None:
    losses: list[Loss] = []
    turns = render_turns(
        _events("codex.jsonl"),
        source="codex",
        template="qwen3",
        tokenizer=qwen3_encoding(),
        on_loss="ignore",
        losses=losses,
    )
    assert len(turns) == 5
    assert "Added a one-line docstring" in qwen3_encoding().decode(list(turns[-1].completion_ids))
    assert ("$[18].payload", "compaction") in {(loss.path, loss.what) for loss in losses}


@pytest.mark.parametrize(
    ("events", "path"),
    [
        ({"type": "session_meta"}, "$"),
        ([{"timestamp": "t", "type": "response_item", "payload": 3}], "$[0].payload"),
        ([{"timestamp": "t"}], "$[0]"),
        ([{"timestamp": "t", "type": "event_msg", "payload": {"type": "token_count"}}], "$"),
    ],
)
def test_a_line_out_of_the_format_is_refused_at_its_path(events: object, path: str) -> None:
    with pytest.raises(PayloadError) as raised:
        read_codex(events)
    assert raised.value.path == path


def test_a_rollback_is_marked_where_it_happened() -> None:
    events = _events("codex-legacy.jsonl")[1:]
    rolled = {"timestamp": "t", "type": "event_msg", "payload": {"type": "thread_rolled_back", "num_turns": 1}}
    _, losses = read_codex([*events, rolled])
    assert [(loss.path, loss.what, loss.kind) for loss in losses if loss.kind == "content"] == [
        ("$[4].payload", "rollback", "content")
    ]


def _user(text: str) -> dict[str, Any]:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def test_a_compaction_with_its_replacement_history_goes_on_from_those_items() -> None:
    """Codex resumes a rollout with ``history.replace(replacement_history)`` at a compaction
    (``codex-rs/core``): the conversation after it is those items, then the later ones."""
    events = _events("codex.jsonl")
    at = next(index for index, event in enumerate(events) if event["type"] == "compacted")
    replacement = [
        _user("The test for add() fails. Fix calc.py."),
        {"type": "ghost_snapshot", "ghost_commit": {"id": "abc"}},  # Codex's own record, never sent
        _user(events[at]["payload"]["message"]),  # the summary, as Codex hands it over
    ]
    events[at] = {**events[at], "payload": {**events[at]["payload"], "replacement_history": replacement}}
    body, losses = read_codex(events)
    later = [event["payload"] for event in events[at + 1 :] if event["type"] == "response_item"]
    assert body["input"] == [replacement[0], replacement[2], *later]
    before = sum(1 for event in events[:at] if event["type"] == "response_item") - 1  # less the ghost snapshot
    compaction = next(loss for loss in losses if loss.what == "compaction")
    assert compaction.path == f"$[{at}].payload"
    assert compaction.kind == "content"
    assert f"not the {before} item(s) before" in compaction.why
    ghost = next(loss for loss in losses if loss.what == "ghost_snapshot item")
    assert "on 2 line(s)" in ghost.why  # the file's and the replacement's: counted, never sent
    decoded = decode_request("openai-responses", body)
    assert [message.role for message in decoded.messages] == ["system", "user", "user", "user", "assistant"]


def test_a_replacement_history_entry_that_is_no_item_is_refused_at_its_path() -> None:
    events = _events("codex.jsonl")
    at = next(index for index, event in enumerate(events) if event["type"] == "compacted")
    events[at] = {**events[at], "payload": {"message": "x", "replacement_history": [_user("a"), "b"]}}
    with pytest.raises(PayloadError) as raised:
        read_codex(events)
    assert raised.value.path == f"$[{at}].payload.replacement_history[1]"


def _line(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": "2026-05-11T10:00:00.000Z", "type": kind, "payload": payload}


def _prompt_event(text: str, **fields: Any) -> dict[str, Any]:
    return _line("event_msg", {"type": "user_message", "message": text, **fields})


_ANSWER = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]}


@pytest.mark.parametrize("event_first", [False, True])
def test_a_prompt_with_its_item_beside_its_event_is_read_once(event_first: bool) -> None:
    """Codex writes the item, then the event; a viewer's file may write the event first."""
    pair = [_line("response_item", _user("Fix it.")), _prompt_event("Fix it.")]
    body, losses = read_codex([*(pair[::-1] if event_first else pair), _line("response_item", _ANSWER)])
    assert body["input"] == [_user("Fix it."), _ANSWER]
    assert "prompt from its event" not in {loss.what for loss in losses}
    assert "event_msg user_message" in {loss.what for loss in losses}


def test_a_prompt_held_only_by_its_event_is_read_there_with_its_images() -> None:
    image = "data:image/png;base64,iVBORw0KGgo="
    events = [
        _prompt_event("What is this?", images=[image], local_images=["/tmp/shot.png"]),
        _line("response_item", _ANSWER),
        _prompt_event("And now?"),  # the file's last line: read at its end
    ]
    body, losses = read_codex(events)
    asked = {"type": "input_text", "text": "What is this?"}
    assert body["input"] == [
        {"type": "message", "role": "user", "content": [asked, {"type": "input_image", "image_url": image}]},
        _ANSWER,
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "And now?"}]},
    ]
    read = [(loss.path, loss.kind) for loss in losses if loss.what == "prompt from its event"]
    assert read == [("$[0].payload", "spelling"), ("$[2].payload", "spelling")]
    assert ("$[0].payload.local_images[0]", "content") in {(loss.path, loss.kind) for loss in losses}
