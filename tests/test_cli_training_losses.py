"""Nothing a training dialect has no place for is dropped without a word (issue 51): each
test here is a silent drop found on main 9a310eb (exit 0, no loss line, even under
``--strict-all``), or a round trip that came back changed. Rows are built from the
formats' documentation (``tests/fixtures/training/``, provenance in its README)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chatcodec.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "training"
CORPUS = FIXTURES / "openai-chat-corpus.jsonl"


def _rows(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _one_row(tmp_path: Path, number: int) -> Path:
    path = tmp_path / f"row{number}.jsonl"
    path.write_text(json.dumps(_rows(CORPUS)[number]) + "\n", encoding="utf-8")
    return path


def _convert(tmp_path: Path, source: Path, *arguments: str) -> tuple[int, Path]:
    out = tmp_path / f"out{len(list(tmp_path.glob('out*.jsonl')))}.jsonl"
    code = main(["convert", str(source), *arguments, "--out", str(out), "--rejects", str(tmp_path / "rejects.jsonl")])
    return code, out


@pytest.mark.parametrize("target", ["sharegpt", "trl-prompt-completion", "verifiers", "hf-chat"])
def test_a_per_message_weight_is_refused_under_strict_all(tmp_path: Path, target: str) -> None:
    code, _ = _convert(tmp_path, _one_row(tmp_path, 0), "--from", "openai-chat", "--to", target, "--strict-all")
    assert code == 1
    error = _rows(tmp_path / "rejects.jsonl")[0]["error"]
    assert "$.messages[2].weight: training weight" in error
    assert "$.messages[4].weight: training weight" in error


@pytest.mark.parametrize("target", ["sharegpt", "trl-prompt-completion"])
def test_settings_and_dataset_columns_are_losses_with_their_paths(
    tmp_path: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _convert(tmp_path, _one_row(tmp_path, 2), "--from", "openai-chat", "--to", target)
    assert code == 0
    err = capsys.readouterr().err
    for setting in ("model", "temperature"):
        assert f"loss (setting): $.{setting}: {setting} ({target} rows keep no request settings)" in err
    for column in ("category", "score", "prompt_id"):
        assert f"loss (metadata): $.{column}: field ({target} rows have no place for it (--column {column}" in err
    assert "category" not in out.read_text(encoding="utf-8")
    code, _ = _convert(tmp_path, _one_row(tmp_path, 2), "--from", "openai-chat", "--to", target, "--strict-all")
    assert code == 1


def test_a_column_named_by_column_is_carried_not_lost(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arguments = ("--from", "openai-chat", "--to", "sharegpt", "--column", "category", "--column", "score")
    code, out = _convert(tmp_path, _one_row(tmp_path, 2), *arguments)
    assert code == 0
    assert _rows(out)[0]["category"] == "math"
    assert "$.category" not in capsys.readouterr().err


def test_axolotl_train_flags_ride_on_sharegpt_turns(tmp_path: Path) -> None:
    source = FIXTURES / "axolotl-training.jsonl"
    config = ("--dialect-config", str(FIXTURES / "axolotl-training-config.json"))
    code, out = _convert(tmp_path, source, "--from", "sharegpt", "--to", "sharegpt", "--strict-all", *config)
    assert code == 0
    assert _rows(out) == _rows(source)


def test_axolotl_train_flags_are_openai_weights_and_back(tmp_path: Path) -> None:
    source = FIXTURES / "axolotl-training.jsonl"
    config = ("--dialect-config", str(FIXTURES / "axolotl-training-config.json"))
    code, out = _convert(tmp_path, source, "--from", "sharegpt", "--to", "openai-chat", *config)
    assert code == 0
    messages = _rows(out)[0]["messages"]
    assert [message.get("weight") for message in messages] == [None, None, 1, None, 0]
    assert messages[1]["train"] is False  # a user turn's flag: OpenAI weighs answers only, so it rides as it is
    code, back = _convert(tmp_path, out, "--from", "openai-chat", "--to", "sharegpt", "--strict-all", *config)
    assert code == 0
    assert _rows(back) == _rows(source)


def test_axolotl_train_flags_to_trl_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = FIXTURES / "axolotl-training.jsonl"
    config = ("--dialect-config", str(FIXTURES / "axolotl-training-config.json"))
    code, _ = _convert(tmp_path, source, "--from", "sharegpt", "--to", "trl-prompt-completion", *config)
    assert code == 0
    assert "$.messages[2].weight: training weight" in capsys.readouterr().err


def test_a_verifiers_empty_content_comes_back_empty(tmp_path: Path) -> None:
    source = FIXTURES / "verifiers-empty-content.jsonl"
    code, out = _convert(tmp_path, source, "--from", "verifiers", "--to", "verifiers", "--strict-all")
    assert code == 0
    assert out.read_bytes() == source.read_bytes()


def test_verifiers_calls_come_back_in_the_shape_they_came_in(tmp_path: Path) -> None:
    """Older Verifiers rollouts hold OpenAI's nested calls: Verifiers -> Verifiers flattened them, silently."""
    source = FIXTURES / "verifiers-nested-calls.jsonl"
    code, out = _convert(tmp_path, source, "--from", "verifiers", "--to", "verifiers", "--strict-all")
    assert code == 0
    assert _rows(out) == _rows(source)
    code, out = _convert(tmp_path, FIXTURES / "verifiers.jsonl", "--from", "verifiers", "--to", "verifiers")
    assert _rows(out) == _rows(FIXTURES / "verifiers.jsonl")


def test_a_sharegpt_system_turn_stays_a_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = FIXTURES / "sharegpt-system-turn.jsonl"
    code, out = _convert(tmp_path, source, "--from", "sharegpt", "--to", "sharegpt", "--strict-all")
    assert code == 0
    assert out.read_bytes() == source.read_bytes()
    code, _ = _convert(tmp_path, source, "--from", "sharegpt", "--to", "openai-chat")
    assert "loss (spelling): $.conversations[0]: system turn" in capsys.readouterr().err


def test_dpo_through_the_pair_form_adds_no_null_content(tmp_path: Path) -> None:
    source = tmp_path / "dpo.jsonl"
    row = {
        "input": {
            "messages": [
                {"role": "user", "content": "Weather in Paris?"},
                {
                    "role": "assistant",
                    "tool_calls": [
                        {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{}"}}
                    ],
                },
                {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
            ]
        },
        "preferred_output": [{"role": "assistant", "content": "Sunny."}],
        "non_preferred_output": [{"role": "assistant", "content": "Rainy."}],
    }
    source.write_text(json.dumps(row) + "\n", encoding="utf-8")
    code, pair = _convert(tmp_path, source, "--from", "openai-dpo", "--to", "preference", "--strict-all")
    assert code == 0
    code, back = _convert(tmp_path, pair, "--from", "preference", "--to", "openai-dpo", "--strict-all")
    assert code == 0
    assert _rows(back) == [row]
    code, same = _convert(tmp_path, source, "--from", "openai-dpo", "--to", "openai-dpo", "--strict-all")
    assert _rows(same) == [row]


def test_a_dpo_setting_sharegpt_preference_has_no_place_for_is_a_loss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = FIXTURES / "openai-dpo.jsonl"
    code, _ = _convert(tmp_path, source, "--from", "openai-dpo", "--to", "sharegpt-preference")
    assert code == 0
    err = capsys.readouterr().err
    assert "loss (setting): $.prompt.parallel_tool_calls: parallel_tool_calls (sharegpt-preference rows" in err
