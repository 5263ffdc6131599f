"""Loss kinds on the command line, and no loss for values that equal
the target's default (``n: 1``, ``logprobs: false``, ``presence_penalty: 0``...)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec.cli import main

_DEFAULT_VALUED = {
    "n": 1,
    "logprobs": False,
    "store": False,
    "presence_penalty": 0,
    "frequency_penalty": 0.0,
    "temperature": 1.0,
    "parallel_tool_calls": True,
    "stream": False,
}


def _ordinary_request(rng: random.Random) -> dict[str, Any]:
    turns = rng.randint(1, 4)
    messages: list[dict[str, Any]] = [{"role": "system", "content": "be brief"}] if rng.random() < 0.5 else []
    for index in range(turns):
        messages.append({"role": "user", "content": f"question {index}"})
        if index < turns - 1:
            messages.append({"role": "assistant", "content": f"answer {index}"})
    body: dict[str, Any] = {"model": "gpt-4o", "messages": messages, "max_completion_tokens": rng.randint(1, 4096)}
    body.update((key, value) for key, value in _DEFAULT_VALUED.items() if rng.random() < 0.5)
    return body


def test_2000_ordinary_openai_requests_to_anthropic_report_no_loss_for_default_values() -> None:
    rng = random.Random(21)
    for _ in range(2000):
        body = _ordinary_request(rng)
        losses: list[chatcodec.Loss] = []
        converted = chatcodec.convert_request(body, source="openai-chat", target="anthropic", losses=losses)
        assert losses == [], (body, losses)
        assert chatcodec.convert_request(body, source="openai-chat", target="openai-chat", on_loss="error") == body
        assert not _DEFAULT_VALUED.keys() - {"temperature", "stream"} & converted.keys()


def _write(path: Path, bodies: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(body) + "\n" for body in bodies), encoding="utf-8")
    return path


def _lines(tmp_path: Path) -> Path:
    no_content_lost = {
        "model": "gpt-4o",
        "max_tokens": 5,  # OpenAI's older spelling: not a loss (the limit is Anthropic's max_tokens)
        "seed": 7,
        "metadata": {"team": "a"},
        "messages": [{"role": "user", "content": "q"}],
    }
    return _write(tmp_path / "in.jsonl", [no_content_lost])


def test_strict_rejects_content_losses_only_and_strict_all_every_kind(tmp_path: Path) -> None:
    source = _lines(tmp_path)
    out = tmp_path / "out.jsonl"
    arguments = [source.as_posix(), "--from", "openai-chat", "--to", "anthropic", "--out", out.as_posix()]
    assert main(["convert", *arguments, "--strict"]) == 0  # seed is a setting: converted
    assert main(["convert", *arguments, "--strict-all"]) == 1


def test_quiet_counts_losses_by_kind(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _lines(tmp_path)
    out = tmp_path / "out.jsonl"
    main(
        ["convert", source.as_posix(), "--from", "openai-chat", "--to", "anthropic", "--out", out.as_posix(), "--quiet"]
    )
    assert "2 loss(es) in 1 converted payload(s): 1 setting, 1 metadata" in capsys.readouterr().err


def test_gemini_continuation_is_a_pause_both_ways() -> None:
    """Gemini's ``CONTINUATION`` is Anthropic's ``pause_turn``."""
    gemini = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "so far"}]}, "finishReason": "CONTINUATION"}]
    }
    anthropic = chatcodec.convert_response(gemini, source="gemini", target="anthropic", on_loss="ignore")
    assert anthropic["stop_reason"] == "pause_turn"
    back = chatcodec.convert_response(anthropic, source="anthropic", target="gemini", on_loss="ignore")
    assert back["candidates"][0]["finishReason"] == "CONTINUATION"
