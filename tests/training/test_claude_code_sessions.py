"""``--from claude-code``: a Claude Code session file read as the conversation the model was shown
(issue 110), converted, and rendered turn by turn.

The fixtures (``tests/fixtures/harness_sessions``, their shape's sources in its ``SOURCES.md``)
hold what a session file holds: an answer streamed as a line per block, parallel tool results a
line each, a Task subagent's sidechain, a rewind, a harness-written API error, a compaction.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec import Loss, PayloadError, render_turns, trainer_samples
from chatcodec._row_dialects.claude_code import read_claude_code
from chatcodec.batch._convert import convert_payload
from chatcodec.batch._row_formats import row_options
from training.qwen3_tokenizer import qwen3_encoding

SESSIONS = Path(__file__).parents[1] / "fixtures" / "harness_sessions"
SRC = Path(chatcodec.__file__).parents[1]


def _events(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (SESSIONS / name).read_text(encoding="utf-8").splitlines() if line]


SHOWN = [
    {"role": "user", "content": "The test for add() fails. Fix calc.py please."},
    {
        "role": "assistant",
        "content": [
            {
                "type": "thinking",
                "thinking": "I should read the file and run the test first.",
                "signature": "EpYBCkYIBxgCKkB3c2lnbmF0dXJlLWZpeHR1cmUtb25l",
            },
            {"type": "text", "text": "Let me look at the code and run the test."},
            {
                "type": "tool_use",
                "id": "toolu_01Read",
                "name": "Read",
                "input": {"file_path": "/home/dev/calc/calc.py"},
            },
            {
                "type": "tool_use",
                "id": "toolu_02Bash",
                "name": "Bash",
                "input": {"command": "pytest -q", "description": "Run the tests"},
            },
        ],
    },
    {
        "role": "user",
        "content": [
            {
                "tool_use_id": "toolu_01Read",
                "type": "tool_result",
                "content": "     1\tdef add(a, b):\n     2\t    return a - b\n",
            },
            {
                "type": "tool_result",
                "content": "F\nFAILED test_calc.py::test_add - assert -1 == 5",
                "is_error": True,
                "tool_use_id": "toolu_02Bash",
            },
        ],
    },
    {
        "role": "assistant",
        "content": [
            {
                "type": "tool_use",
                "id": "toolu_03Task",
                "name": "Task",
                "input": {
                    "description": "Find other uses of add",
                    "prompt": "List every caller of add() in the repository.",
                    "subagent_type": "Explore",
                },
            }
        ],
    },
    {
        "role": "user",
        "content": [
            {
                "tool_use_id": "toolu_03Task",
                "type": "tool_result",
                "content": [{"type": "text", "text": "Only test_calc.py calls add()."}],
            }
        ],
    },
    {
        "role": "assistant",
        "content": [
            {
                "type": "tool_use",
                "id": "toolu_04Edit",
                "name": "Edit",
                "input": {
                    "file_path": "/home/dev/calc/calc.py",
                    "old_string": "return a - b",
                    "new_string": "return a + b",
                },
            }
        ],
    },
    {
        "role": "user",
        "content": [
            {
                "tool_use_id": "toolu_04Edit",
                "type": "tool_result",
                "content": "The file /home/dev/calc/calc.py has been updated.",
            }
        ],
    },
    {"role": "assistant", "content": [{"type": "text", "text": "Fixed: add() subtracted instead of adding."}]},
    {
        "role": "user",
        "content": [
            {"type": "text", "text": "Actually, add type hints instead."},
            {"type": "text", "text": "continue"},
        ],
    },
    {"role": "assistant", "content": [{"type": "text", "text": "Done: add(a: int, b: int) -> int."}]},
]
"""What Claude Code sent the model at the session's last turn: the active branch, each answer's
lines one message, the tool results of one answer one user turn, the API error left out."""


def _content(losses: list[Loss]) -> list[tuple[str, str]]:
    return [(loss.path, loss.what) for loss in losses if loss.kind == "content"]


def test_a_session_reads_as_the_messages_claude_code_sent() -> None:
    body, losses = read_claude_code(_events("claude-code.jsonl"))
    assert body == {"messages": SHOWN}
    assert _content(losses) == [
        ("$[19].message", "harness-written answer"),
        ("$[16]", "message off the active branch"),
        ("$[17]", "message off the active branch"),
        ("$[10]", "subagent conversation"),
    ]
    subagent = next(loss for loss in losses if loss.what == "subagent conversation")
    assert "agent a1b2c3d4, answering the call toolu_03Task" in subagent.why
    bookkeeping = {loss.what: loss for loss in losses if loss.kind == "metadata"}
    assert bookkeeping["uuid"].path == "$[2].uuid"
    assert "on 16 line(s)" in bookkeeping["uuid"].why  # the main chain's message lines, each once
    assert bookkeeping["toolUseResult"].path == "$[6].toolUseResult"
    assert {"message.usage", "requestId", "summary line", "file-history-snapshot line"} <= set(bookkeeping)


def test_the_lines_of_one_answer_merge_even_with_its_tool_results_between_them() -> None:
    events = _events("claude-code.jsonl")
    # the Read result (line 6) came before the Bash call (line 7) in the file: one answer still
    assert [events[index]["type"] for index in (5, 6, 7)] == ["assistant", "user", "assistant"]
    assert events[5]["message"]["id"] == events[7]["message"]["id"]
    body, _ = read_claude_code(events)
    assert [block["type"] for block in body["messages"][1]["content"]] == ["thinking", "text", "tool_use", "tool_use"]


def test_a_compaction_is_followed_across_and_marked() -> None:
    body, losses = read_claude_code(_events("claude-code-compacted.jsonl"))
    texts = [
        [message["content"]] if isinstance(message["content"], str) else [block["text"] for block in message["content"]]
        for message in body["messages"]
    ]
    assert texts[0] == ["Rename parse() to parse_line() everywhere."]
    assert texts[1] == ["Renamed in 14 files."]
    assert texts[2][0].startswith("This session is being continued from a previous conversation")
    assert texts[2][1:] == ["Now run the tests."]
    assert texts[3] == ["All 212 tests pass."]
    compaction = [loss for loss in losses if loss.what == "compaction"]
    assert [(loss.path, loss.kind) for loss in compaction] == [("$[2]", "content")]
    assert "(auto)" in compaction[0].why


def test_a_subagents_own_file_reads_as_its_conversation() -> None:
    body, losses = read_claude_code(_events("claude-code-agent-a1b2c3d4.jsonl"))
    assert body["messages"] == [
        {"role": "user", "content": "List every caller of add() in the repository."},
        {"role": "assistant", "content": [{"type": "text", "text": "Only test_calc.py calls add()."}]},
    ]
    assert _content(losses) == []
    assert "agentId" in {loss.what for loss in losses}


def test_converted_to_openai_chat_the_session_keeps_its_calls_and_reports_what_chat_cannot_hold() -> None:
    outcome = convert_payload(json.dumps(_events("claude-code.jsonl")), row_options("claude-code", "openai-chat"))
    assert outcome.error is None
    assert outcome.converted is not None
    messages = outcome.converted["messages"]
    assert [message["role"] for message in messages] == [
        "user", "assistant", "tool", "tool", "assistant", "tool", "assistant", "tool", "assistant", "user", "assistant",
    ]  # fmt: skip
    assert [call["id"] for call in messages[1]["tool_calls"]] == ["toolu_01Read", "toolu_02Bash"]
    assert json.loads(messages[1]["tool_calls"][1]["function"]["arguments"]) == SHOWN[1]["content"][3]["input"]
    losses = {(loss.path, loss.what) for loss in outcome.losses}
    assert ("$.messages[1].content[0]", "thinking part from anthropic") in losses
    assert ("$.messages[2].content[1].is_error", "tool error flag") in losses
    assert ("$[10]", "subagent conversation") in losses


def test_converted_to_anthropic_the_session_is_the_body_claude_code_sent() -> None:
    outcome = convert_payload(json.dumps(_events("claude-code.jsonl")), row_options("claude-code", "anthropic"))
    assert outcome.converted is not None
    assert outcome.converted["messages"] == SHOWN


def test_render_turns_renders_a_claude_code_session_one_turn_per_answer() -> None:
    losses: list[Loss] = []
    events = _events("claude-code.jsonl")
    turns = render_turns(
        events, source="claude-code", template="qwen3", tokenizer=qwen3_encoding(), on_loss="ignore", losses=losses
    )
    assert [turn.message_index for turn in turns] == [1, 3, 5, 7, 9]
    encoding = qwen3_encoding()
    assert "Done: add(a: int, b: int) -> int." in encoding.decode(list(turns[-1].completion_ids))
    last_prompt = encoding.decode(list(turns[-1].prompt_ids))
    assert "Actually, add type hints instead." in last_prompt
    assert "Adding a docstring now." not in last_prompt  # the abandoned branch is in no prompt
    assert "API Error" not in last_prompt  # nor the answer Claude Code wrote itself
    assert ("$[10]", "subagent conversation") in {(loss.path, loss.what) for loss in losses}
    breaks: list[Loss] = []
    samples = trainer_samples(turns, on_loss="ignore", losses=breaks)
    # Qwen3's template drops an earlier answer's thinking once a user turn follows: a new sample there, said
    assert [loss.path for loss in breaks] == [
        "$[2].prompt_ids",
        "$[3].prompt_ids",
        "$[4].prompt_ids",
    ]  # the caller's turns
    assert len(samples) == 4


def test_the_command_line_reads_the_whole_file_as_one_conversation(tmp_path: Path) -> None:
    out = tmp_path / "chat.jsonl"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "chatcodec",
            "convert",
            str(SESSIONS / "claude-code.jsonl"),
            "--from",
            "claude-code",
            "--to",
            "hf-chat",
            "--out",
            str(out),
            "--quiet",
        ],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(SRC)},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [len(row["messages"]) for row in rows] == [11, 2]  # the session, then its subagent's
    assert "parent" not in rows[0]
    assert rows[1]["parent"] == {
        "session": "7f3c2a91-5b4e-4d2a-9c1e-2f8b6d4e1a37",
        "agent": "a1b2c3d4",
        "tool_use_id": "toolu_03Task",
    }
    agent_file = [json.loads(line) for line in (SESSIONS / "claude-code-agent-a1b2c3d4.jsonl").read_text().splitlines()]
    alone = convert_payload(agent_file, row_options("claude-code", "hf-chat")).converted
    assert alone is not None
    assert rows[1]["messages"] == alone["messages"]  # as its own agent-<id>.jsonl converts


def test_session_subagents_gives_each_subagents_lines_to_render_alone() -> None:
    events = _events("claude-code.jsonl")
    found = chatcodec.session_subagents(events, "claude-code")
    assert [subagent["parent"]["tool_use_id"] for subagent in found] == ["toolu_03Task"]
    assert found[0]["events"] == _events("claude-code-agent-a1b2c3d4.jsonl")  # what its own file holds
    turns = render_turns(
        found[0]["events"], source="claude-code", template="qwen3", tokenizer=qwen3_encoding(), on_loss="ignore"
    )
    assert [turn.message_index for turn in turns] == [1]
    assert "Only test_calc.py calls add()." in qwen3_encoding().decode(list(turns[0].completion_ids))
    assert trainer_samples(turns)
    assert chatcodec.session_subagents(found[0]["events"], "claude-code") == []  # an agent's own file: none
    assert chatcodec.session_subagents(_events("codex.jsonl"), "codex") == []  # a rollout holds one thread
    with pytest.raises(ValueError, match="session dialect"):
        chatcodec.session_subagents(events, "anthropic")


def test_a_target_whose_row_has_no_parent_column_gets_the_session_alone(tmp_path: Path) -> None:
    out = tmp_path / "chat.jsonl"
    arguments = [str(SESSIONS / "claude-code.jsonl"), "--from", "claude-code", "--to", "openai-chat"]
    result = subprocess.run(
        [sys.executable, "-m", "chatcodec", "convert", *arguments, "--out", str(out), "--quiet"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(SRC)},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert len(out.read_text(encoding="utf-8").splitlines()) == 1  # a provider's body: the loss names the subagent


def test_a_session_line_that_is_not_json_refuses_the_session_with_its_line(tmp_path: Path) -> None:
    session = tmp_path / "broken.jsonl"
    lines = (SESSIONS / "claude-code-compacted.jsonl").read_text(encoding="utf-8").splitlines()
    session.write_text("\n".join([*lines[:2], '{"type": "user", ', *lines[2:]]) + "\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "chatcodec", "convert", str(session), "--from", "claude-code", "--to", "openai-chat"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(SRC)},
        check=False,
    )
    assert result.returncode == 1
    assert "line 3 of the session is not JSON" in result.stderr


@pytest.mark.parametrize(
    ("events", "path", "said"),
    [
        ({"type": "user"}, "$", "a list of events"),
        ([{"type": "user", "message": {"role": "user", "content": "hi"}, "uuid": "u"}, 3], "$[1]", "JSON object"),
        ([{"type": "user", "message": {"role": "assistant", "content": "hi"}, "uuid": "u"}], "$[0].message", "role"),
        ([{"type": "user", "message": {"role": "user", "content": 5}, "uuid": "u"}], "$[0].message.content", "string"),
        ([{"type": "summary", "summary": "x", "leafUuid": "u"}], "$", "no user or assistant message"),
    ],
)
def test_a_line_out_of_the_format_is_refused_at_its_path(events: object, path: str, said: str) -> None:
    with pytest.raises(PayloadError) as raised:
        read_claude_code(events)
    assert raised.value.path == path
    assert said in str(raised.value)


def test_a_session_is_read_not_written() -> None:
    with pytest.raises(ValueError, match="a harness writes its own records"):
        row_options("openai-chat", "claude-code")


def test_a_line_of_an_unknown_kind_on_the_branch_is_a_content_loss_not_a_silent_skip() -> None:
    events = _events("claude-code-compacted.jsonl")[:2]
    attachment = {"type": "attachment", "uuid": "x-1", "parentUuid": events[1]["uuid"], "attachment": {"type": "x"}}
    answer = {**events[1], "uuid": "x-2", "parentUuid": "x-1", "message": {**events[1]["message"], "id": "msg_x"}}
    body, losses = read_claude_code([*events, attachment, answer])
    assert len(body["messages"]) == 3
    assert ("$[2]", "attachment line", "content") in {(loss.path, loss.what, loss.kind) for loss in losses}


def test_images_a_user_pasted_and_a_tool_returned_reach_the_target_as_images() -> None:
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
    pasted = {"type": "text", "text": "What is wrong on this screen?"}
    call = {"type": "tool_use", "id": "toolu_s", "name": "Read", "input": {"file_path": "/tmp/shot.png"}}
    result = {"type": "tool_result", "tool_use_id": "toolu_s", "content": [image]}
    lines = [
        {"type": "user", "uuid": "i1", "parentUuid": None, "message": {"role": "user", "content": [pasted, image]}},
        {
            "type": "assistant",
            "uuid": "i2",
            "parentUuid": "i1",
            "message": {"role": "assistant", "id": "m", "content": [call]},
        },
        {"type": "user", "uuid": "i3", "parentUuid": "i2", "message": {"role": "user", "content": [result]}},
    ]
    outcome = convert_payload(json.dumps(lines), row_options("claude-code", "openai-chat"))
    assert outcome.converted is not None, outcome.error
    first = outcome.converted["messages"][0]["content"]
    assert [part["type"] for part in first] == ["text", "image_url"]
    assert first[1]["image_url"]["url"] == "data:image/png;base64,iVBORw0KGgo="


def _line(uuid: str, parent: str | None, kind: str, content: object, answer: str | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": kind, "content": content}
    if answer is not None:
        message["id"] = answer
    return {"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": "s", "message": message}


def _call(call: str) -> list[dict[str, Any]]:
    return [{"type": "tool_use", "id": call, "name": "Read", "input": {"file_path": call}}]


def _result(call: str) -> list[dict[str, Any]]:
    return [{"type": "tool_result", "tool_use_id": call, "content": f"read {call}"}]


def test_an_answers_parallel_calls_and_their_results_off_the_chain_are_read_with_it() -> None:
    """Claude Code writes each call a line and each result as the child of its own call's line:
    the chain from the last message passes through the last call only (marot/spotter's real
    sessions, tests/fixtures/harness_sessions/SOURCES.md); the other call and its result were
    read as a rewind's branch, the answer's first call left without its result."""
    events = [
        _line("u1", None, "user", "Read both files."),
        _line("a1", "u1", "assistant", _call("t1"), "msg_1"),
        _line("a2", "a1", "assistant", _call("t2"), "msg_1"),
        _line("r2", "a2", "user", _result("t2")),
        _line("r1", "a1", "user", _result("t1")),  # the child of the first call's line
        _line("a3", "r1", "assistant", [{"type": "text", "text": "Both read."}], "msg_2"),
    ]
    body, losses = read_claude_code(events)
    assert body["messages"] == [
        {"role": "user", "content": "Read both files."},
        {"role": "assistant", "content": [*_call("t1"), *_call("t2")]},
        {"role": "user", "content": [*_result("t2"), *_result("t1")]},
        {"role": "assistant", "content": [{"type": "text", "text": "Both read."}]},
    ]
    assert "message off the active branch" not in {loss.what for loss in losses}


def test_a_result_off_the_chain_for_a_call_the_chain_answered_stays_a_branch() -> None:
    events = [
        _line("u1", None, "user", "Read it."),
        _line("a1", "u1", "assistant", _call("t1"), "msg_1"),
        _line("r1", "a1", "user", _result("t1")),
        _line("x1", "a1", "user", _result("t1")),  # a second result of the same call: not the answer's
        _line("a2", "r1", "assistant", [{"type": "text", "text": "Read."}], "msg_2"),
    ]
    _, losses = read_claude_code(events)
    assert ("$[3]", "message off the active branch") in {(loss.path, loss.what) for loss in losses}


def test_an_answer_still_streaming_past_a_calls_result_stays_one_answer() -> None:
    """Claude Code runs a call while the answer streams: its result line comes between the
    answer's lines. The answer's third line was read as a new assistant message, after the
    results (marot/spotter's real subagent file)."""
    events = [
        _line("u1", None, "user", "Read three files."),
        _line("a1", "u1", "assistant", _call("t1"), "msg_1"),
        _line("r1", "a1", "user", _result("t1")),
        _line("a2", "a1", "assistant", _call("t2"), "msg_1"),
        _line("a3", "a2", "assistant", _call("t3"), "msg_1"),
        _line("r3", "a3", "user", _result("t3")),
        _line("r2", "a2", "user", _result("t2")),
        _line("a4", "r2", "assistant", [{"type": "text", "text": "All three read."}], "msg_2"),
    ]
    body, losses = read_claude_code(events)
    assert body["messages"] == [
        {"role": "user", "content": "Read three files."},
        {"role": "assistant", "content": [*_call("t1"), *_call("t2"), *_call("t3")]},
        {"role": "user", "content": [*_result("t1"), *_result("t3"), *_result("t2")]},
        {"role": "assistant", "content": [{"type": "text", "text": "All three read."}]},
    ]
    assert "message off the active branch" not in {loss.what for loss in losses}
