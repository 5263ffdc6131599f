"""The command line knows the wire formats: ``validate --format`` (told from the input
when omitted), ``convert`` refusing input in another format than ``--from``, ``-`` for
standard input, ``--version``; and ``chatcodec.testing`` says what to install."""

from __future__ import annotations

import importlib
import io
import json
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

import chatcodec
from chatcodec import _schema as schema
from chatcodec.cli import _commands as cli
from chatcodec.cli import main

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
EXAMPLE = ROOT / "examples" / "agent_session.openai-chat.json"


def _bodies(provider: str) -> list[Path]:
    return sorted((FIXTURES / provider).glob("re*/*.json"))  # requests and responses


def _other(provider: str) -> str:
    return "anthropic" if provider == "openai-chat" else "openai-chat"


ALL_BODIES = [(provider, path) for provider in ("openai-chat", "anthropic") for path in _bodies(provider)]
REJECTED_BY_THE_PROVIDER = ("orphan_tool_result_invalid", "error_400_orphan_tool_result")
"""Recorded bodies that are no conversation: a request the API refused, its error response."""
CONVERSATIONS = [(provider, path) for provider, path in ALL_BODIES if path.stem not in REJECTED_BY_THE_PROVIDER]


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8"))


@pytest.mark.parametrize(("provider", "path"), CONVERSATIONS, ids=lambda value: getattr(value, "stem", value))
def test_validate_tells_every_recorded_body_apart(
    provider: str, path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(path)]) == 0, capsys.readouterr().err
    assert main(["validate", "--format", provider, str(path)]) == 0


@pytest.mark.parametrize(("provider", "path"), ALL_BODIES, ids=lambda value: getattr(value, "stem", value))
def test_convert_refuses_a_body_in_another_format_and_names_it(
    provider: str, path: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    kind = "request" if path.parent.name == "request" else "response"
    wrong = _other(provider)
    code = main(["convert", str(path), "--from", wrong, "--to", "canonical", "--kind", kind])
    assert code == 1
    error = capsys.readouterr().err
    assert f"this is not {wrong} input" in error
    assert f"it looks like {provider}" in error
    assert not list(tmp_path.iterdir())  # no rejects file for one document


def test_the_repo_example_validates_with_and_without_format(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(EXAMPLE)]) == 0
    assert "ok, 7 messages" in capsys.readouterr().out
    assert main(["validate", "--format", "anthropic", str(EXAMPLE)]) == 1
    assert "it looks like openai-chat (give that as --format)" in capsys.readouterr().err


def test_validate_says_when_the_input_is_no_known_format(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "odd.json"
    path.write_text('{"question": "hi", "answer": 3}')  # keys no format describes (a Responses body may hold "prompt")
    assert main(["validate", str(path)]) == 1
    known = ", ".join([*chatcodec.registered_providers(), "canonical"])  # the session's own codec too
    assert f"not in any format chatcodec knows ({known}; --format names one)" in capsys.readouterr().err


@pytest.mark.parametrize("provider", ["openai-chat", "anthropic", "openai-responses", "gemini", "bedrock-converse"])
def test_validate_tells_all_five_formats_apart(provider: str, tmp_path: Path) -> None:
    """A recorded request of each format is read as that format."""
    from chatcodec import _detect as detect

    for recorded in sorted((FIXTURES / provider / "request").iterdir()):
        assert detect.detect(json.loads(recorded.read_text())) == provider, recorded.name
        assert main(["validate", "--strict", str(recorded)]) == (1 if "invalid" in recorded.stem else 0)


def test_validate_strict_says_what_the_input_looks_like_and_where_it_is_wrong(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The error says "looks like X, invalid at $.path", not "not in any format"."""
    path = tmp_path / "typo.json"
    body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "generationConfig": {"temprature": 0.2}}
    path.write_text(json.dumps(body))
    assert main(["validate", str(path)]) == 0
    assert main(["validate", "--strict", str(path)]) == 1
    error = capsys.readouterr().err
    assert "looks like gemini, invalid at $.generationConfig.temprature" in error
    assert "did you mean `temperature`?" in error


def test_a_jsonl_line_in_the_wrong_format_is_rejected_with_the_reason(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    good = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    anthropic = json.loads((FIXTURES / "anthropic" / "request" / "text_with_system_string.json").read_text())
    source = tmp_path / "mixed.jsonl"
    source.write_text(json.dumps(good) + "\n" + json.dumps(anthropic) + "\n")
    rejects = tmp_path / "rejects.jsonl"
    code = main(["convert", str(source), "--from", "openai-chat", "--to", "anthropic", "--rejects", str(rejects)])
    assert code == 1
    record = json.loads(rejects.read_text())
    assert record["line"] == 2
    assert "it looks like anthropic" in record["error"]
    assert json.loads(capsys.readouterr().out)["messages"] == [{"role": "user", "content": "hi"}]


def test_dash_is_standard_input_for_validate_and_convert(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, EXAMPLE.read_text())
    assert main(["validate", "-"]) == 0
    assert capsys.readouterr().out.startswith("-: ok, 7 messages")
    _stdin(monkeypatch, EXAMPLE.read_text())
    assert main(["convert", "-", "--from", "openai-chat", "--to", "anthropic"]) == 0
    assert json.loads(capsys.readouterr().out)["model"] == json.loads(EXAMPLE.read_text())["model"]
    lines = "".join(json.dumps({"messages": [{"role": "user", "content": str(n)}]}) + "\n" for n in range(3))
    _stdin(monkeypatch, lines)
    assert main(["validate", "-"]) == 0
    assert capsys.readouterr().out.count("ok, 1 messages") == 3


def test_schema_kinds_of_the_command_line_are_the_schema_modules() -> None:
    """``cli.SCHEMA_KINDS`` spells out the schema kinds so the parser is built without
    the models; a kind added to ``chatcodec._schema`` must be added there too."""
    assert cli.SCHEMA_KINDS == schema.SCHEMA_KINDS


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--version"])
    assert caught.value.code == 0
    assert capsys.readouterr().out.strip() == f"chatcodec {version('chatcodec')}"
    assert chatcodec.__version__ == version("chatcodec")


def test_testing_without_hypothesis_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in sys.modules if name.startswith("chatcodec.testing")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "hypothesis", None)  # what an environment without it gives
    with pytest.raises(
        ModuleNotFoundError,
        match=r"^chatcodec.testing needs the testing extra \(hypothesis is not installed\): pip install",
    ):
        importlib.import_module("chatcodec.testing")


NOT_JSON = {
    "request.yaml": ("model: gpt-4o\nmessages:\n  - role: user\n    content: hi\n", "this is YAML"),
}


@pytest.mark.parametrize("name", sorted(NOT_JSON))
def test_convert_says_what_a_non_json_file_is_and_leaves_no_rejects(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text, said = NOT_JSON[name]
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(text)
    assert main(["convert", name, "--from", "anthropic", "--to", "openai-chat"]) == 1
    assert said in capsys.readouterr().err
    assert [path.name for path in tmp_path.iterdir()] == [name]


def test_convert_takes_a_codec_registered_at_run_time(capsys: pytest.CaptureFixture[str]) -> None:
    """A program that registers a codec and calls ``main`` converts with it by name, as the
    library does (the session's streamless codec reads Ollama's wire)."""
    from session_codecs import STREAMLESS_TWIN, STREAMLESS_TWIN_OF

    recorded = sorted((FIXTURES / STREAMLESS_TWIN_OF / "request").glob("*.json"))[0]
    outputs = []
    for source in (STREAMLESS_TWIN_OF, STREAMLESS_TWIN):
        assert main(["convert", str(recorded), "--from", source, "--to", "openai-chat"]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1]
    with pytest.raises(SystemExit) as refused:
        main(["convert", str(recorded), "--from", "no-such-codec", "--to", "openai-chat"])
    assert refused.value.code == 64  # EX_USAGE
    assert "unknown format 'no-such-codec'" in capsys.readouterr().err
