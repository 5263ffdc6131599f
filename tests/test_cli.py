"""The command line: validate and convert conversations (JSON and JSONL) and exit codes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from chatcodec.cli import main

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "agent_session.json"


def test_validate_the_bundled_session(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "ok, 9 messages" in out
    assert "4 tool calls, 0 unanswered" in out


def test_pretty_prints_one_line_per_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(EXAMPLE), "--pretty"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("# ")
    assert len(lines) == 1 + 9
    assert lines[3].startswith("[2] assistant: <thinking:")
    assert "#call_Qm1" in lines[3]


def test_canonical_output_is_canonical_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(EXAMPLE), "--canonical"]) == 0
    dumped = json.loads(capsys.readouterr().out)
    thinking = dumped[2]["content"][0]
    assert thinking == {  # reasoning_content read as the openai-chat codec reads it
        "type": "thinking",
        "text": thinking["text"],
        "provider": "openai-chat",
        "provider_metadata": {"openai-chat": {"field": "reasoning_content"}},
    }
    assert [message["role"] for message in dumped].count("tool") == 3


def test_invalid_conversation_exits_1_with_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"role": "user", "content": [{"type": "hologram"}]}]), encoding="utf-8")
    assert main(["validate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "at $[0].content[0]" in err
    assert "union_tag_invalid" in err


def test_jsonl_reports_each_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [
        json.dumps([{"role": "user", "content": "hi"}]),
        "{not json",
        "",
        json.dumps([{"role": "wizard", "content": "hi"}]),
        json.dumps({"messages": [{"role": "user", "content": "as a request"}]}),
    ]
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    captured = capsys.readouterr()
    assert f"{path}:2: at $: not valid JSON" in captured.err
    assert f"{path}:4: " in captured.err
    assert "2 of 4 conversation(s) invalid" in captured.err
    assert f"{path}:1: ok" in captured.out
    assert f"{path}:5: ok" in captured.out


def test_missing_file_exits_66(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(tmp_path / "nope.json")]) == 66
    assert "nope.json" in capsys.readouterr().err


def test_bad_usage_exits_64_for_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["validate"], ["schema", "--kind", "nope"], ["frobnicate"], []):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 64, argv
    assert "usage: chatcodec" in capsys.readouterr().err


def test_python_dash_m_runs_the_cli() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "chatcodec", "validate", str(EXAMPLE)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert "ok, 9 messages" in result.stdout


def _request_line(text: str) -> str:
    return json.dumps({"messages": [{"role": "user", "content": text}]})


def test_convert_jsonl_keeps_order_and_reports_bad_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "requests.jsonl"
    source.write_text(
        "\n".join([_request_line("one"), "{broken", "", json.dumps([1, 2]), _request_line("two")]) + "\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)  # the rejects file goes to the current folder
    code = main(["convert", str(source), "--from", "canonical", "--to", "canonical"])
    captured = capsys.readouterr()
    assert code == 2  # two lines rejected
    rejected = [json.loads(line) for line in (tmp_path / "requests.rejects.jsonl").read_text().splitlines()]
    assert [(reject["line"], reject["text"]) for reject in rejected] == [(2, "{broken"), (4, "[1, 2]")]
    converted = [json.loads(line) for line in captured.out.splitlines()]
    assert [request["messages"][0]["content"] for request in converted] == ["one", "two"]
    assert f"{source}:2: at $: not valid JSON" in captured.err
    assert f"{source}:4: at $: the canonical request must be a JSON object, got list" in captured.err
    assert "2 of 4 payload(s) not converted" in captured.err


def test_convert_writes_to_a_file(tmp_path: Path) -> None:
    source = tmp_path / "request.json"
    source.write_text(_request_line("hi"), encoding="utf-8")
    target = tmp_path / "out.json"
    assert main(["convert", str(source), "--from", "canonical", "--to", "canonical", "--out", str(target)]) == 0
    assert json.loads(target.read_text(encoding="utf-8"))["messages"] == [{"role": "user", "content": "hi"}]


def test_convert_responses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "response.json"
    source.write_text(json.dumps({"message": {"role": "assistant", "content": "yo"}}), encoding="utf-8")
    assert main(["convert", str(source), "--kind", "response", "--from", "canonical", "--to", "canonical"]) == 0
    assert json.loads(capsys.readouterr().out)["choices"][0]["message"]["content"] == "yo"


def test_convert_refuses_unknown_formats(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["convert", str(tmp_path / "x.json"), "--from", "openai", "--to", "canonical"])
    assert exit_info.value.code == 64


def test_the_demo_conversion_openai_chat_to_anthropic(capsys: pytest.CaptureFixture[str]) -> None:
    example = EXAMPLE.with_name("agent_session.openai-chat.json")
    assert main(["convert", str(example), "--from", "openai-chat", "--to", "anthropic"]) == 0
    captured = capsys.readouterr()
    body = json.loads(captured.out)
    assert body["system"].startswith("You are Ledger")
    assert [message["role"] for message in body["messages"]] == ["user", "assistant", "user", "assistant", "user"]
    results = body["messages"][4]["content"]
    assert [block["type"] for block in results] == ["tool_result", "tool_result", "text"]
    calls = [block for block in body["messages"][3]["content"] if block["type"] == "tool_use"]
    assert all(re.fullmatch(r"[a-zA-Z0-9_-]+", call["id"]) for call in calls)
    assert [result["tool_use_id"] for result in results[:2]] == [call["id"] for call in calls]
    assert "thinking part" in captured.err
    assert "loss (content):" in captured.err


def test_strict_refuses_a_lossy_conversion(capsys: pytest.CaptureFixture[str]) -> None:
    example = EXAMPLE.with_name("agent_session.openai-chat.json")
    assert main(["convert", str(example), "--from", "openai-chat", "--to", "anthropic", "--strict"]) == 1
    assert "not converted" in capsys.readouterr().err
