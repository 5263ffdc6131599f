"""``chatcodec convert`` on datasets: JSONL in order, rejects, workers, progress, exit codes."""

from __future__ import annotations

import base64
import json
import os
import pty
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from chatcodec.cli import main


def _request(text: str) -> dict[str, object]:
    return {"model": "m", "max_tokens": 4096, "messages": [{"role": "user", "content": text}]}


def _exact_request(text: str) -> dict[str, object]:
    """Exact into Anthropic: an OpenAI Chat ``max_tokens`` converted to another provider
    reports its spelling."""
    return {"model": "m", "max_completion_tokens": 4096, "messages": [{"role": "user", "content": text}]}


def _lossy_request(text: str) -> dict[str, object]:
    image = {"type": "image_url", "image_url": {"url": "https://example.com/a.png", "detail": "high"}}
    return {
        "model": "m",
        "max_completion_tokens": 4096,  # max_tokens would report its OpenAI spelling too
        "messages": [{"role": "user", "content": [{"type": "text", "text": text}, image]}],
    }


def _write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _convert(*arguments: str) -> int:
    return main(["convert", *arguments, "--from", "openai-chat", "--to", "anthropic"])


def _texts(path: Path) -> list[str]:
    return [json.loads(line)["messages"][0]["content"] for line in path.read_text(encoding="utf-8").splitlines()]


def _rejects(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_malformed_line_is_rejected_with_its_number_and_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = '{"model": "m", "messages": [ oops'
    source = _write_lines(
        tmp_path / "in.jsonl", [json.dumps(_request("one")), "", broken, "  ", json.dumps(_request("two"))]
    )
    out = tmp_path / "out.jsonl"
    assert _convert(str(source), "--out", str(out)) == 1
    assert _texts(out) == ["one", "two"]
    assert _rejects(tmp_path / "out.rejects.jsonl") == [
        {"line": 3, "error": "at $: not valid JSON: Expecting value (line 1, column 30)", "text": broken}
    ]
    err = capsys.readouterr().err
    assert f"{source}:3: at $: not valid JSON" in err
    assert "1 of 3 payload(s) not converted; they are in" in err


def test_rejects_keep_every_line_byte_for_byte(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    wrong_role = json.dumps({"model": "m", "max_tokens": 4096, "messages": [{"role": "wizard", "content": "hi"}]})
    source.write_bytes(b"\xc3( not utf-8\r\n" + wrong_role.encode() + b"\r\n" + json.dumps(_request("ok")).encode())
    rejects = tmp_path / "bad.jsonl"
    assert _convert(str(source), "--out", str(tmp_path / "out.jsonl"), "--rejects", str(rejects)) == 2
    first, second = _rejects(rejects)
    assert first["line"] == 1
    assert "not UTF-8" in str(first["error"])
    assert base64.b64decode(str(first["text_base64"])) == b"\xc3( not utf-8"  # the raw bytes, without the CRLF
    assert second["line"] == 2
    assert second["text"] == wrong_role
    assert "at $.messages[0]" in str(second["error"])
    assert _texts(tmp_path / "out.jsonl") == ["ok"]


def test_strict_rejects_lossy_lines_with_their_losses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _write_lines(
        tmp_path / "in.jsonl", [json.dumps(_exact_request("exact")), json.dumps(_lossy_request("lossy"))]
    )
    out = tmp_path / "out.jsonl"
    assert _convert(str(source), "--out", str(out), "--strict") == 1
    (reject,) = _rejects(tmp_path / "out.rejects.jsonl")
    assert reject["line"] == 2
    assert "not converted under strict: 1 loss(es)" in str(reject["error"])
    assert reject["losses"] == [
        "$.messages[0].content[1].detail: image detail 'high' (Anthropic has no resolution hint)"
    ]
    assert reject["text"] == json.dumps(_lossy_request("lossy"))
    assert _texts(out) == ["exact"]
    capsys.readouterr()
    # without --strict the line converts and its loss is reported on stderr
    assert _convert(str(source), "--out", str(out)) == 0
    assert f"{source}:2: loss (content): $.messages[0].content[1].detail" in capsys.readouterr().err


def test_quiet_prints_counts_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [json.dumps(_lossy_request(str(index))) for index in range(3)] + ["nope"]
    source = _write_lines(tmp_path / "in.jsonl", lines)
    assert _convert(str(source), "--out", str(tmp_path / "out.jsonl"), "--quiet") == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "3 loss(es) in 3 converted payload(s): 3 content (run without --quiet to see them)",
        f"1 of 4 payload(s) not converted; they are in {tmp_path / 'out.rejects.jsonl'}",
    ]


def test_an_empty_file_converts_to_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("empty.jsonl", "empty.json", "blank.jsonl"):
        source = tmp_path / name
        source.write_text("" if name.startswith("empty") else "\n \n", encoding="utf-8")
        out = tmp_path / f"{name}.out"
        assert _convert(str(source), "--out", str(out)) == 0
        assert out.read_bytes() == b""
    assert sorted(path.name for path in tmp_path.iterdir() if "rejects" in path.name) == []


def test_to_stdout_the_rejects_go_beside_the_input_stem_in_the_current_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    source = _write_lines(tmp_path / "data.jsonl", ["[]", json.dumps(_request("fine"))])
    assert _convert(str(source)) == 1
    assert [json.loads(line)["messages"][0]["content"] for line in capsys.readouterr().out.splitlines()] == ["fine"]
    assert _rejects(tmp_path / "work" / "data.rejects.jsonl")[0]["text"] == "[]"


def test_a_stale_rejects_file_is_emptied_when_nothing_is_rejected(tmp_path: Path) -> None:
    source = _write_lines(tmp_path / "in.jsonl", [json.dumps(_request("fine"))])
    stale = tmp_path / "out.rejects.jsonl"
    stale.write_text('{"line": 1, "error": "from yesterday", "text": "x"}\n', encoding="utf-8")
    assert _convert(str(source), "--out", str(tmp_path / "out.jsonl")) == 0
    assert stale.read_bytes() == b""


def test_a_jsonl_file_without_the_suffix_streams_too(tmp_path: Path) -> None:
    source = _write_lines(tmp_path / "in.json", [json.dumps(_request("a")), "{bad", json.dumps(_request("b"))])
    out = tmp_path / "out.jsonl"
    assert _convert(str(source), "--out", str(out)) == 1
    assert _texts(out) == ["a", "b"]
    assert _rejects(tmp_path / "out.rejects.jsonl")[0]["line"] == 2


def test_a_jsonl_file_without_the_suffix_may_start_with_a_broken_line(tmp_path: Path) -> None:
    source = _write_lines(tmp_path / "in.txt", ["{bad", "", json.dumps(_request("b"))])
    out = tmp_path / "out.jsonl"
    assert _convert(str(source), "--out", str(out)) == 1
    assert _texts(out) == ["b"]
    assert _rejects(tmp_path / "out.rejects.jsonl") == [
        {
            "line": 1,
            "error": "at $: not valid JSON: Expecting property name enclosed in double quotes (line 1, column 2)",
            "text": "{bad",
        }
    ]


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ((json.dumps(_request("a")) + "\n" + json.dumps(_request("b")) + "\n").encode(), ["a", "b"]),
        (json.dumps(_request("pretty"), indent=2).encode(), ["pretty"]),
    ],
    ids=["json-lines", "one-pretty-document"],
)
def test_a_pipe_is_read_once(tmp_path: Path, given: bytes, expected: list[str]) -> None:
    code = "import sys; from chatcodec.cli import main; raise SystemExit(main(sys.argv[1:]))"
    arguments = ["convert", "/dev/stdin", "--from", "openai-chat", "--to", "anthropic", "--compact"]
    arguments += ["--rejects", str(tmp_path / "rejects.jsonl")]
    result = subprocess.run([sys.executable, "-c", code, *arguments], input=given, capture_output=True, check=False)
    assert result.returncode == 0, result.stderr
    converted = [json.loads(line) for line in result.stdout.splitlines()]
    assert [request["messages"][0]["content"] for request in converted] == expected


def test_a_huge_line_converts(tmp_path: Path) -> None:
    huge_text = "x" * (40 * 1024 * 1024)
    source = _write_lines(
        tmp_path / "in.jsonl", [json.dumps(_request("small")), json.dumps(_request(huge_text)), "{bad"]
    )
    out = tmp_path / "out.jsonl"
    assert _convert(str(source), "--out", str(out), "--workers", "2") == 1
    assert _texts(out) == ["small", huge_text]
    assert _rejects(tmp_path / "out.rejects.jsonl")[0]["line"] == 3


def test_two_workers_keep_the_order(tmp_path: Path) -> None:
    lines = [
        json.dumps(_lossy_request(f"row {index}") if index % 7 == 0 else _request(f"row {index}"))
        for index in range(600)
    ]
    lines[123] = "{not json"
    lines[456] = ""
    source = _write_lines(tmp_path / "in.jsonl", lines)
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert _convert(str(source), "--out", str(one), "--quiet") == 1
    assert _convert(str(source), "--out", str(two), "--quiet", "--workers", "2") == 1
    expected = [_first_text(json.loads(line)) for line in lines if line and line != "{not json"]
    assert [_first_text(json.loads(line)) for line in two.read_text(encoding="utf-8").splitlines()] == expected
    assert two.read_bytes() == one.read_bytes()
    assert _rejects(tmp_path / "two.rejects.jsonl") == _rejects(tmp_path / "one.rejects.jsonl")


def _first_text(request: dict[str, Any]) -> str:
    content = request["messages"][0]["content"]
    return content if isinstance(content, str) else content[0]["text"]


def test_workers_auto_is_accepted(tmp_path: Path) -> None:
    source = _write_lines(tmp_path / "in.jsonl", [json.dumps(_request("a"))])
    assert _convert(str(source), "--out", str(tmp_path / "out.jsonl"), "--workers", "auto") == 0


@pytest.mark.parametrize("value", ["0", "-1", "many", "1.5"])
def test_bad_worker_counts_are_usage_errors(tmp_path: Path, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        _convert(str(tmp_path / "in.jsonl"), "--workers", value)
    assert exit_info.value.code == 64
    assert "--workers" in capsys.readouterr().err


def test_exit_code_counts_rejects_up_to_63(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _write_lines(tmp_path / "in.jsonl", ["{bad"] * 70 + [json.dumps(_request("fine"))])
    assert _convert(str(source), "--out", str(tmp_path / "out.jsonl"), "--quiet") == 63
    assert "70 of 71 payload(s) not converted" in capsys.readouterr().err
    assert len(_rejects(tmp_path / "out.rejects.jsonl")) == 70


def test_a_missing_input_exits_66(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.jsonl"
    assert _convert(str(tmp_path / "missing.jsonl"), "--out", str(out)) == 66
    assert "missing.jsonl" in capsys.readouterr().err
    # a folder is read only as a harness's session files: without --from naming one, a usage error
    assert _convert(str(tmp_path), "--out", str(out)) == 64
    assert "--from claude-code or codex" in capsys.readouterr().err
    assert not out.exists()


def test_an_unwritable_output_exits_74(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _write_lines(tmp_path / "in.jsonl", [json.dumps(_request("a")), "{bad"])
    assert _convert(str(source), "--out", str(tmp_path / "no" / "such" / "folder.jsonl")) == 74
    assert _convert(str(source), "--out", str(tmp_path / "o.jsonl"), "--rejects", str(tmp_path / "no" / "r")) == 74
    err = capsys.readouterr().err
    assert (
        f"--out {tmp_path / 'no' / 'such' / 'folder.jsonl'}: the folder {tmp_path / 'no' / 'such'} does not exist"
        in err
    )
    assert f"--rejects {tmp_path / 'no' / 'r'}: the folder {tmp_path / 'no'} does not exist" in err
    assert not (tmp_path / "o.jsonl").exists()  # refused before the input was read or an output opened


def test_the_output_and_rejects_cannot_overwrite_the_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _write_lines(tmp_path / "in.jsonl", [json.dumps(_request("a"))])
    assert _convert(str(source), "--rejects", str(source)) == 64
    assert _convert(str(source), "--out", str(tmp_path / "o.jsonl"), "--rejects", str(tmp_path / "o.jsonl")) == 64
    assert "is the input or the output" in capsys.readouterr().err
    assert _convert(str(source), "--out", str(tmp_path / "." / "in.jsonl")) == 64
    assert "is the input file" in capsys.readouterr().err
    assert source.read_text(encoding="utf-8") == json.dumps(_request("a")) + "\n"


_RUN = textwrap.dedent(
    """
    import resource, sys
    from chatcodec.cli import main
    code = main(sys.argv[1:])
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, code)
    """
)


def _peak_rss_kib(tmp_path: Path, lines: int) -> int:
    source = tmp_path / f"{lines}.jsonl"
    padding = "y" * 4000
    with source.open("w", encoding="utf-8") as target:
        for index in range(lines):
            target.write(json.dumps(_request(f"{index} {padding}")) + "\n")
    arguments = ["convert", str(source), "--from", "canonical", "--to", "canonical", "--out", str(source) + ".out"]
    result = subprocess.run([sys.executable, "-c", _RUN, *arguments], capture_output=True, text=True, check=True)
    peak, code = result.stdout.split()
    assert code == "0", result.stderr
    return int(peak)


def test_memory_does_not_grow_with_the_number_of_lines(tmp_path: Path) -> None:
    small = _peak_rss_kib(tmp_path, 1_000)  # 4 MB of input
    large = _peak_rss_kib(tmp_path, 10_000)  # 40 MB of input, 40 MB of output
    assert large - small < 16 * 1024, (small, large)


def _convert_in_subprocess(source: Path, out: Path, stderr: int) -> subprocess.Popen[bytes]:
    arguments = ["convert", str(source), "--from", "canonical", "--to", "canonical", "--out", str(out), "--quiet"]
    code = "import sys; from chatcodec.cli import main; raise SystemExit(main(sys.argv[1:]))"
    return subprocess.Popen([sys.executable, "-c", code, *arguments], stdout=subprocess.DEVNULL, stderr=stderr)


def test_a_progress_bar_is_drawn_when_stderr_is_a_terminal(tmp_path: Path) -> None:
    source = _write_lines(tmp_path / "in.jsonl", [json.dumps(_request(str(index))) for index in range(500)] + ["x"])
    controller, terminal = pty.openpty()
    process = _convert_in_subprocess(source, tmp_path / "out.jsonl", terminal)
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # the terminal closed: the process is done
            break
        if not chunk:
            break
        shown += chunk
    os.close(controller)
    assert process.wait() == 1
    screen = shown.decode()
    assert "converting: " in screen
    assert " lines/s, " in screen
    assert "% of " in screen
    assert "\r\x1b[K" in screen  # drawn over itself, then erased
    assert "1 of 501 payload(s) not converted" in screen


def test_no_progress_bar_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    source = _write_lines(tmp_path / "in.jsonl", [json.dumps(_request(str(index))) for index in range(500)] + ["x"])
    process = _convert_in_subprocess(source, tmp_path / "out.jsonl", subprocess.PIPE)
    _, err = process.communicate()
    assert process.returncode == 1
    assert err.decode().splitlines() == [
        f"1 of 501 payload(s) not converted; they are in {tmp_path / 'out.rejects.jsonl'}"
    ]


def _without_codec(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The registry without ``name``'s codec: every known format has one now, so the
    "known format, no codec" path is tested on a registry that lacks one."""
    from chatcodec import _registry as registry

    # the tables swapped whole (deleting a key and putting it back would move it last in
    # the built-in order detection prefers), and the generation bumped for what is derived
    monkeypatch.setattr(registry, "_BUILT_IN", {k: v for k, v in registry._BUILT_IN.items() if k != name})
    monkeypatch.setattr(registry, "_loaded", {k: v for k, v in registry._loaded.items() if k != name})
    monkeypatch.setattr(registry, "_generation", [registry.generation() + 1])


def test_a_format_without_a_codec_is_refused_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _without_codec(monkeypatch, "openai-responses")
    source = _write_lines(tmp_path / "in.jsonl", [json.dumps(_request("a"))] * 3)
    # 69 (EX_UNAVAILABLE): a known name whose codec is not there, as for an installed codec that
    # cannot be loaded (issue 77's exit codes); 64 is for a name no format has
    assert main(["convert", str(source), "--from", "openai-chat", "--to", "openai-responses"]) == 69
    err = capsys.readouterr().err
    assert err.count("no codec registered yet") == 1
    assert not (tmp_path / "in.rejects.jsonl").exists()


def test_a_bug_exits_70_not_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(_: Path) -> object:
        raise RuntimeError("a bug")

    monkeypatch.setattr("chatcodec.cli._convert.open_input", broken)
    assert _convert(str(tmp_path / "in.jsonl")) == 70
    err = capsys.readouterr().err
    assert "RuntimeError: a bug" in err
    assert "internal error" in err


def test_encoder_options_set_what_the_target_requires(tmp_path: Path) -> None:
    """Anthropic requires ``max_tokens``; without it each line reports a
    loss (kind ``default``, so ``--strict-all`` refuses it), and ``--option
    max_tokens=...`` sets it."""
    request = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    source = _write_lines(tmp_path / "in.jsonl", [json.dumps(request)])
    out = tmp_path / "out.jsonl"
    assert _convert(str(source), "--out", str(out), "--strict-all") == 1
    assert _convert(str(source), "--out", str(out), "--strict-all", "--option", "max_tokens=1024") == 0
    assert json.loads(out.read_text(encoding="utf-8"))["max_tokens"] == 1024
