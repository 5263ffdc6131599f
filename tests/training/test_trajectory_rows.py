"""Episodes as data (issue 98): ``--to rollout --train-on`` and the ``trajectory`` dialect, a
conversation with the turns its sampler saw, through JSON Lines and Parquet and back."""

from __future__ import annotations

from pathlib import Path

import pytest
import tokenizers

from chatcodec import render
from chatcodec.cli import main
from training.test_rollout_rows import WEATHER_SESSION, convert_file, read_rows, tokenizer_json, write_rows

__all__ = ["tokenizer_json"]  # the fixture, shared with the rollout rows' tests


def _decoded(tokenizer_json: Path, ids: list[int]) -> str:
    return tokenizers.Tokenizer.from_file(str(tokenizer_json)).decode(ids, skip_special_tokens=False)


def test_train_on_all_assistant_messages_marks_every_answer(tmp_path: Path, tokenizer_json: Path) -> None:
    source = write_rows(tmp_path, "sessions.anthropic.jsonl", [WEATHER_SESSION])
    rendering = ("--template", "qwen3-training", "--tokenizer", str(tokenizer_json))
    last, _ = convert_file(tmp_path, source, "--from", "anthropic", "--to", "rollout", *rendering)
    every, _ = convert_file(
        tmp_path, source, "--from", "anthropic", "--to", "rollout", *rendering, "--train-on", "all_assistant_messages"
    )
    [row_last], [row_every] = read_rows(last), read_rows(every)
    assert row_last["token_ids"] == row_every["token_ids"]
    rendered = render(
        WEATHER_SESSION,
        source="anthropic",
        template="qwen3-training",
        tokenizer=str(tokenizer_json),
        train_on="all_assistant_messages",
        on_loss="ignore",
    )
    assert row_every["sampled_mask"] == rendered.trainable
    trained = {
        index for index, flag in zip(row_every["message_indices"], row_every["sampled_mask"], strict=True) if flag
    }
    assert trained == {2, 4}  # the calling answer and the final one
    trained_last = {
        index for index, flag in zip(row_last["message_indices"], row_last["sampled_mask"], strict=True) if flag
    }
    assert trained_last == {4}
    sampled = [token for token, flag in zip(row_every["token_ids"], row_every["sampled_mask"], strict=True) if flag]
    assert '<tool_call>\n{"name": "get_weather"' in _decoded(tokenizer_json, sampled)


def test_train_on_is_for_rollout_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_rows(tmp_path, "session.jsonl", [WEATHER_SESSION])
    with pytest.raises(SystemExit) as exited:
        main(["convert", str(source), "--from", "anthropic", "--to", "hf-chat", "--train-on", "all_assistant_messages"])
    assert exited.value.code == 64
    assert "--train-on chooses the answers a rollout row's sampled_mask marks" in capsys.readouterr().err
