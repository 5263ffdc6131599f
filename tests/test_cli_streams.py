"""``chatcodec convert`` of a recorded stream (server-sent events): the target's stream, byte for
byte what the library's one stream path writes (:func:`chatcodec.convert_stream`), read back by
the target's own stream reader as the answer the source's stream carries; losses on standard
error, ``--strict`` writing nothing, a cut stream an error unless ``--partial``."""

from __future__ import annotations

from pathlib import Path

import pytest

import chatcodec
from chatcodec.cli import main

FIXTURES = Path(__file__).parent / "fixtures"
STREAMS = [
    ("anthropic", "thinking_signature_delta.sse", "openai-chat"),
    ("anthropic", "tool_use_input_json_delta.sse", "openai-responses"),
    ("openai-chat", "parallel_tool_calls.sse", "anthropic"),
    ("openai-chat", "openrouter_reasoning.sse", "openai-responses"),
    ("openai-responses", "deepseek_reasoning_and_function_call.sse", "openai-chat"),
    ("gemini", "function_call_thought_signature.sse", "anthropic"),
]


def _text(answer: chatcodec.ChatResponse) -> list[tuple[str, str]]:
    """What an answer says, part by part (its kind and its text or call), ids, bags and empty
    texts aside (a stream's last chunk may hold an empty text, which another format need not send)."""
    said: list[tuple[str, str]] = []
    for choice in answer.choices:
        for part in choice.message.parts:
            if isinstance(part, chatcodec.ToolUsePart):
                said.append(("tool_use", f"{part.name} {part.parsed_arguments()}"))
            elif getattr(part, "text", None) != "":
                said.append((part.type, getattr(part, "text", "") or ""))
    return said


@pytest.mark.parametrize(("source", "name", "target"), STREAMS)
def test_a_recorded_stream_is_written_as_the_target_s_stream(
    source: str, name: str, target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded = FIXTURES / source / "stream" / name
    out = tmp_path / "converted.sse"
    assert main(["convert", str(recorded), "--from", source, "--to", target, "--out", str(out)]) == 0
    written = out.read_bytes()
    library = b"".join(chatcodec.convert_stream(recorded.read_bytes(), source=source, target=target, on_loss="ignore"))
    assert written == library
    read_back = chatcodec.accumulate_stream(target, written)
    assert _text(read_back) == _text(chatcodec.accumulate_stream(source, recorded.read_bytes()))
    assert [path.name for path in tmp_path.iterdir()] == ["converted.sse"]  # no rejects file, no partial


def test_what_the_target_cannot_carry_is_reported_and_strict_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded = FIXTURES / "anthropic" / "stream" / "thinking_signature_delta.sse"
    losses: list[chatcodec.Loss] = []
    list(
        chatcodec.convert_stream(
            recorded.read_bytes(), source="anthropic", target="gemini", on_loss="ignore", losses=losses
        )
    )
    assert losses  # the signature Gemini has no place for
    assert main(["convert", str(recorded), "--from", "anthropic", "--to", "gemini"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("data: ")
    for loss in losses:
        assert f"loss ({loss.kind}): {loss}" in captured.err
    out = tmp_path / "strict.sse"
    code = main(["convert", str(recorded), "--from", "anthropic", "--to", "gemini", "--strict-all", "--out", str(out)])
    assert code == 1
    assert "not converted under strict" in capsys.readouterr().err
    assert not out.exists()


def test_a_cut_stream_is_an_error_unless_partial(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole = (FIXTURES / "anthropic" / "stream" / "text_basic.sse").read_text()
    cut = tmp_path / "cut.sse"
    cut.write_text(whole[: whole.index("event: message_delta")])
    out = tmp_path / "out.sse"
    assert main(["convert", str(cut), "--from", "anthropic", "--to", "openai-chat", "--out", str(out)]) == 1
    assert "message_stop" in capsys.readouterr().err  # what never came, named
    assert not out.exists()
    assert (
        main(["convert", str(cut), "--from", "anthropic", "--to", "openai-chat", "--partial", "--out", str(out)]) == 0
    )
    answer = chatcodec.accumulate_stream("openai-chat", out.read_bytes(), partial=True)
    assert _text(answer) == _text(chatcodec.accumulate_stream("anthropic", cut.read_bytes(), partial=True))
