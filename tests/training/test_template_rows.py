"""``chatcodec convert --to hf-chat --template NAME``: rows in a template's shapes, which that
template renders without a drop, and training dialects that take the reasoning option."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chatcodec._training import families, jinja
from chatcodec.cli import main
from training.test_render import ANTHROPIC_SESSION


def _convert(tmp_path: Path, capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[dict[str, object], str]:
    source = tmp_path / "session.json"
    source.write_text(json.dumps(ANTHROPIC_SESSION), encoding="utf-8")
    assert main(["convert", str(source), "--from", "anthropic", *arguments]) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


def test_hf_chat_rows_for_qwen3_render_through_qwen3_without_a_drop(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    row, errors = _convert(tmp_path, capsys, "--to", "hf-chat", "--template", "qwen3")
    text, _ = jinja.run(families.template_text("qwen3"), row["messages"], tools=row["tools"])  # type: ignore[arg-type]
    assert "<tool_response>\nPage title: Example Domain\n</tool_response>" in text
    assert "The page shows the Example Domain placeholder.<|im_end|>" in text
    assert "<think>\nI need to look at the page first.\n</think>" in text
    # Anthropic's input is an object, not the model's text: spelled as Qwen3's tojson spells one (issue 97)
    assert '"arguments": {"url": "https://example.com"}' in text
    # each drop reported at its place in the Anthropic body
    assert "$.messages[2].content[0].content[1]: image part (the chat template renders no images)" in errors
    # the same conversation written without a template, in OpenAI's shapes, renders an empty result
    plain, _ = _convert(tmp_path, capsys, "--to", "hf-chat")
    plain_text, _ = jinja.run(families.template_text("qwen3"), plain["messages"], tools=plain["tools"])  # type: ignore[arg-type]
    assert "<tool_response>\n\n</tool_response>" in plain_text


def test_trl_prompt_completion_rows_split_after_the_last_question(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    row, _ = _convert(tmp_path, capsys, "--to", "trl-prompt-completion", "--template", "qwen3.6")
    assert [message["role"] for message in row["prompt"]] == ["system", "user"]  # type: ignore[index]
    assert [message["role"] for message in row["completion"]] == ["assistant", "tool", "assistant"]  # type: ignore[index]
    result = row["completion"][1]  # type: ignore[index]
    assert result["content"][1]["type"] == "image"  # Qwen3.6 shows images, so the result keeps its own


def test_a_template_file_is_read_as_the_template(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    template = tmp_path / "chat_template.jinja"
    template.write_text(families.template_text("gpt-oss"), encoding="utf-8")
    row, _ = _convert(tmp_path, capsys, "--to", "hf-chat", "--template", str(template))
    assert row["messages"][2]["thinking"] == "I need to look at the page first."  # type: ignore[index]


def test_the_reasoning_option_is_taken_for_a_training_dialect(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    row, errors = _convert(tmp_path, capsys, "--to", "hf-chat", "--option", "reasoning_field=reasoning_content")
    assert row["messages"][2]["reasoning_content"] == "I need to look at the page first."  # type: ignore[index]
    assert "reasoning_field can name one" not in errors


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["--to", "sharegpt", "--template", "qwen3"],
            "--template writes hf-chat, trl-prompt-completion, rollout, trajectory, atif rows",
        ),
        (["--to", "hf-chat", "--template", "qwen-3"], "unknown chat template family 'qwen-3'"),
    ],
)
def test_a_template_that_cannot_be_used_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    source = tmp_path / "session.json"
    source.write_text(json.dumps(ANTHROPIC_SESSION), encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        main(["convert", str(source), "--from", "anthropic", *arguments])
    assert exited.value.code == 64
    assert message in capsys.readouterr().err
