"""``chatcodec convert`` of a bare message list (issue 77, "First touch"): the README's second
example file, a stored conversation that ``validate`` reads, is one conversation to convert,
not eight request bodies each refused as "it looks like anthropic"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import chatcodec
from chatcodec.cli import main

ROOT = Path(__file__).resolve().parents[1]
SESSION = ROOT / "examples" / "agent_session.json"


def test_the_readme_session_converts_as_one_conversation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", str(SESSION), "--from", "canonical", "--to", "anthropic", "--model", "claude-x"]) == 0
    captured = capsys.readouterr()
    written = json.loads(captured.out)
    stored = json.loads(SESSION.read_text(encoding="utf-8"))
    expected = chatcodec.convert_request(
        {"model": "claude-x", "messages": stored}, source="canonical", target="anthropic", on_loss="ignore"
    )
    assert written == expected  # what the library writes for the same conversation
    assert written["system"].startswith("You are Ledger")
    assert written["messages"][-1]["content"].startswith("EMEA dropped the most")  # the last answer too
    said = captured.err.splitlines()
    assert said[0] == (
        f"{SESSION}: a bare list of 8 messages (its first item has a 'role' and no body's keys): "
        "read as canonical messages, converted as one anthropic request"
    )
    assert "looks like" not in captured.err


def test_a_list_not_in_the_named_format_is_one_error_naming_the_way(capsys: pytest.CaptureFixture[str]) -> None:
    """The session mixes OpenAI's messages with Anthropic's blocks: not openai-chat messages."""
    assert main(["convert", str(SESSION), "--from", "openai-chat", "--to", "anthropic"]) == 1
    said = capsys.readouterr().err
    assert said.count("not openai-chat messages") == 1
    assert "--from canonical reads the stored shapes validate reads" in said
    assert "looks like anthropic" not in said


@pytest.mark.parametrize(
    ("source", "messages", "key"),
    [
        ("openai-chat", [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}], "messages"),
        (
            "gemini",
            [{"role": "user", "parts": [{"text": "hi"}]}, {"role": "model", "parts": [{"text": "yo"}]}],
            "contents",
        ),
        ("openai-responses", [{"type": "message", "role": "user", "content": "hi"}], "input"),
    ],
)
def test_a_wire_format_message_list_reads_as_its_request_would(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, messages: list[dict[str, object]], key: str
) -> None:
    path = tmp_path / "messages.json"
    path.write_text(json.dumps(messages, indent=2), encoding="utf-8")
    assert main(["convert", str(path), "--from", source, "--to", "anthropic", "--model", "m"]) == 0
    written = json.loads(capsys.readouterr().out)
    expected = chatcodec.convert_request(
        {"model": "m", key: messages}, source=source, target="anthropic", on_loss="ignore"
    )
    assert written == expected


def test_an_array_of_request_bodies_is_still_a_batch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bodies = [{"model": "m", "messages": [{"role": "user", "content": text}]} for text in ("a", "b")]
    path = tmp_path / "bodies.json"
    path.write_text(json.dumps(bodies), encoding="utf-8")
    assert main(["convert", str(path), "--from", "openai-chat", "--to", "gemini"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["contents"][0]["parts"][0]["text"] for row in rows] == ["a", "b"]
