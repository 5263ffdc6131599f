"""What a new user meets first on the command line (issue 77, "First touch"): a mistake is
answered with the one line that matters first, a "did you mean", every format there is, and
the settings file named; the exit codes agree across commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import chatcodec
from chatcodec.cli import main


def _refused(capsys: pytest.CaptureFixture[str], *arguments: str) -> list[str]:
    """The lines ``chatcodec ARGUMENTS`` prints on standard error when it exits 64."""
    with pytest.raises(SystemExit) as ended:
        main(list(arguments))
    assert ended.value.code == 64
    return capsys.readouterr().err.splitlines()


def test_an_unknown_from_is_one_line_first_with_a_suggestion_and_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = tmp_path / "body.json"
    body.write_text(json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}))
    lines = _refused(capsys, "convert", str(body), "--from", "opena-chat", "--to", "anthropic")
    assert (
        lines[0]
        == "chatcodec convert: error: argument --from: unknown format 'opena-chat'; did you mean 'openai-chat'?"
    )
    listed = "\n".join(lines[1:])
    for name in ("langchain", "pydantic-ai", "ai-sdk-ui", "ai-sdk-model", "canonical", "bedrock-nova", "openai-batch"):
        assert name in listed
    assert lines[-1] == "(usage: chatcodec convert --help)"
    assert not any(line.startswith("usage:") for line in lines)  # not the 14 lines of usage
    assert len(lines) <= 9


def test_an_unknown_to_and_an_unknown_validate_format_say_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = tmp_path / "body.json"
    body.write_text("{}")
    to = _refused(capsys, "convert", str(body), "--from", "openai-chat", "--to", "langchian")
    assert to[0].endswith("argument --to: unknown format 'langchian'; did you mean 'langchain'?")
    validate = _refused(capsys, "validate", str(body), "--format", "pydantic_ai")
    assert validate[0] == (
        "chatcodec validate: error: argument --format: unknown format 'pydantic_ai'; did you mean 'pydantic-ai'?"
    )
    assert "alpaca" in "\n".join(validate)  # validate's own dialects
    assert "trl-preference" not in "\n".join(validate)  # a pair dialect: no conversation to validate


def test_formats_lists_every_format_with_what_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["formats"]) == 0
    rows = dict(line.split(None, 1) for line in capsys.readouterr().out.splitlines())
    assert rows["openai-chat"] == "wire format"
    assert rows["langchain"] == "framework history"
    assert rows["ai-sdk-ui"] == "framework history"
    assert rows["canonical"] == "chatcodec's canonical JSON"
    assert rows["anthropic-batch"] == "batch envelope"
    assert rows["sharegpt"] == "training dialect"


def _serve(tmp_path: Path, settings: str, capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, str]:
    path = tmp_path / "gateway.toml"
    path.write_text(settings, encoding="utf-8")
    code = main(["serve", "--config", str(path), *flags])
    return code, capsys.readouterr().err.strip()


_GOOD = 'api = "anthropic"\nupstream = "openai-chat"\nupstream_url = "http://127.0.0.1:9/v1"\n'


def test_a_toml_syntax_error_names_the_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, said = _serve(tmp_path, 'api = "anthropic"\nupstream =\n', capsys)
    assert code == 64
    assert said == f"chatcodec serve: {tmp_path / 'gateway.toml'}: not valid TOML: Invalid value (at line 2, column 11)"


def test_an_unknown_setting_gets_the_nearest_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, said = _serve(tmp_path, _GOOD + "max_conections = 3\n", capsys)
    assert code == 64
    assert said == (
        f"chatcodec serve: {tmp_path / 'gateway.toml'}: unknown setting 'max_conections'; "
        "did you mean 'max_connections'?"
    )
    code, said = _serve(
        tmp_path, 'api = "anthropic"\n[[route]]\npattern = "*"\nupstram = "x"\nurl = "http://h"\n', capsys
    )
    assert code == 64
    assert said.endswith("unknown route settings ['upstram']; did you mean 'upstream'?")


def test_a_bad_value_from_the_file_names_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "gateway.toml"
    code, said = _serve(tmp_path, _GOOD + "port = 70000\n", capsys)
    assert (code, said) == (64, f"chatcodec serve: {path}: port must be 0 to 65535, not 70000")
    code, said = _serve(tmp_path, _GOOD + "port = 70000\n", capsys, "--port", "70001")  # the command line's
    assert (code, said) == (64, "chatcodec serve: port must be 0 to 65535, not 70001")
    route = 'api = "anthropic"\n[[route]]\npattern = "*"\nupstream = "openai-chatt"\nurl = "http://h/v1"\n'
    code, said = _serve(tmp_path, route, capsys)
    assert code == 64
    assert said.startswith(f"chatcodec serve: {path}: [[route]] '*': an upstream must be one of openai-chat,")
    assert said.endswith("not 'openai-chatt'; did you mean 'openai-chat'?")


def test_a_missing_settings_file_is_a_missing_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--config", str(tmp_path / "nope.toml")]) == 66  # EX_NOINPUT, as convert's input
    assert str(tmp_path / "nope.toml") in capsys.readouterr().err


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("openai", "'openai-chat' or 'openai-responses'"),
        ("claude", "'anthropic'"),
        ("google", "'gemini' or 'gemini-interactions'"),
        ("bedrock", "'bedrock-converse' or 'bedrock-nova'"),
        ("otel", "'otel-genai'"),
        ("adk", "'google-adk'"),
        ("copilotkit", "'ag-ui'"),
        ("langgraph", "'langchain'"),
        ("openai-agents", "'openai-responses'"),
        ("agent2agent", "'a2a'"),
    ],
)
def test_the_names_people_type_first_get_the_format_they_mean(
    typed: str, meant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 87: difflib's nearest name misses a vendor's or a project's name; a table says which
    format each means, in the command line's refusal and in the library's."""
    body = tmp_path / "body.json"
    body.write_text(json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}))
    lines = _refused(capsys, "convert", str(body), "--from", typed, "--to", "anthropic")
    assert lines[0].endswith(f"unknown format {typed!r}; did you mean {meant}?")
    with pytest.raises(chatcodec.UnknownProviderError) as caught:
        chatcodec.get_codec(typed)
    assert f"did you mean {meant}?" in str(caught.value)


def test_the_librarys_unknown_format_lists_the_framework_histories_too() -> None:
    with pytest.raises(chatcodec.UnknownProviderError) as caught:
        chatcodec.convert_request({"messages": []}, source="no-such-format", target="openai-chat")
    for name in ("langchain", "pydantic-ai", "google-adk", "otel-genai", "ai-sdk-ui", "openai-chat"):
        assert name in str(caught.value)


@pytest.mark.parametrize("source", ["openai-chat", "anthropic", "gemini"])
def test_a_response_converted_as_a_request_is_told_it_is_a_response(
    source: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 87: the default kind is request, and an answer given without --kind response was
    refused for a missing 'messages' (or 'contents'), which says nothing of the mistake."""
    answer = chatcodec.convert_response(
        {
            "model": "m",
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": "Hi"}, "finish_reason": {"unified": "stop"}}
            ],
        },
        source="canonical",
        target=source,
        on_loss="ignore",
    )
    path = tmp_path / "answer.json"
    path.write_text(json.dumps(answer))
    assert main(["convert", str(path), "--from", source, "--to", "openai-responses"]) == 1
    err = capsys.readouterr().err
    assert f"this is the {source} format's response, not a request: convert it with --kind response" in err
    assert main(["convert", str(path), "--from", source, "--to", "openai-responses", "--kind", "response"]) == 0


def test_convert_without_from_reads_a_pydantic_ai_history_and_a_span_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 87: a newcomer's first command names no --from; the file's first document says
    its format (said on standard error), as validate tells it."""
    from pydantic_ai.messages import ModelMessagesTypeAdapter, ModelRequest, ModelResponse, TextPart, UserPromptPart

    history = ModelMessagesTypeAdapter.dump_json(
        [ModelRequest(parts=[UserPromptPart("Hi")]), ModelResponse(parts=[TextPart("Hello")])]
    )
    path = tmp_path / "history.json"
    path.write_bytes(b'{"messages": ' + history + b"}")
    assert main(["convert", str(path), "--to", "openai-chat", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert "read as pydantic-ai" in err
    assert [message["role"] for message in json.loads(out)["messages"]] == ["user", "assistant"]
    spans = Path(__file__).parent / "fixtures" / "otel_genai" / "pydantic_ai_spans.jsonl"
    assert main(["convert", str(spans), "--to", "anthropic", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert "read as otel-genai" in err
    assert len(out.splitlines()) == 2  # its two model calls; its agent and tool spans skipped
    assert "2 span(s) skipped" in err


def test_convert_without_from_of_standard_input_asks_for_it(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _refused(capsys, "convert", "-", "--to", "anthropic")
    assert "--from FORMAT is needed" in lines[0]


def test_rendering_rows_without_the_templates_extra_names_the_extra_not_an_internal_error(tmp_path: Path) -> None:
    """Issue 108: ``convert --to rollout`` without jinja2 reported each row as "internal error,
    please report it" (exit 1); a missing extra is no row's fault: one line naming it, exit 69."""
    import os
    import subprocess
    import sys

    import tokenizers

    from training.qwen3_tokenizer import SPECIAL_TOKENS

    shadow = tmp_path / "no-jinja"
    shadow.mkdir()
    (shadow / "jinja2.py").write_text('raise ModuleNotFoundError("No module named \'jinja2\'", name="jinja2")\n')
    tokenizer = tokenizers.Tokenizer(tokenizers.models.WordLevel({"[UNK]": 0, "a": 1}, unk_token="[UNK]"))
    tokenizer.add_special_tokens([tokenizers.AddedToken(token, special=True) for token in SPECIAL_TOKENS])
    tokenizer.save(str(tmp_path / "tokenizer.json"))
    source = Path(__file__).parent / "fixtures" / "training" / "hf-chat.jsonl"
    command = [sys.executable, "-m", "chatcodec", "convert", str(source), "--from", "hf-chat", "--to", "rollout"]
    command += [
        "--template",
        "qwen3",
        "--tokenizer",
        str(tmp_path / "tokenizer.json"),
        "--out",
        str(tmp_path / "o.jsonl"),
    ]
    src = Path(chatcodec.__file__).parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(shadow), str(src)])}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 69
    assert "internal error" not in done.stderr
    assert "Rendering a chat template needs the templates extra (jinja2 is not installed)" in done.stderr
