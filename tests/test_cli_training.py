"""Training dataset dialects in ``chatcodec convert`` and ``validate``: ShareGPT /
LLaMA-Factory (and axolotl's key mapping), TRL prompt-completion and preference, OpenAI
DPO, Verifiers rollouts and chatcodec's preference pair form, each from a documented
example file (``tests/fixtures/training/``, provenance in its README)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chatcodec._row_dialects import dialects as training
from chatcodec.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "training"


def _rows(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _convert(tmp_path: Path, source: Path, *arguments: str) -> tuple[int, Path]:
    out = tmp_path / f"out{len(list(tmp_path.glob('out*.jsonl')))}.jsonl"
    code = main(["convert", str(source), *arguments, "--out", str(out), "--rejects", str(tmp_path / "rejects.jsonl")])
    return code, out


def test_every_dialect_has_a_documented_example_file() -> None:
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    sessions = (FIXTURES.parent / "harness_sessions" / "SOURCES.md").read_text(encoding="utf-8")
    for dialect in training.TRAINING_DIALECTS:
        if dialect in training.SESSION_DIALECTS:  # a harness's session file, beside its harness's others
            assert f"`{dialect}.jsonl`" in sessions
            assert (FIXTURES.parent / "harness_sessions" / f"{dialect}.jsonl").exists()
        elif dialect in training.WRITTEN_ONLY_DIALECTS:  # ATIF: one trajectory a file, read --from trajectory
            assert f"`{dialect}.json`" in readme
        else:
            assert f"`{dialect}.jsonl`" in readme


WRITTEN = [
    dialect
    for dialect in training.TRAINING_DIALECTS
    if dialect not in (*training.READ_ONLY_DIALECTS, *training.WRITTEN_ONLY_DIALECTS)
]
KEYS_REORDERED = ("hf-chat", "rollout", "trajectory")
"""Dialects whose rows come back equal but not byte for byte: a result's ``name`` is
written before its ``role`` (OpenAI Chat's writer puts a message's own keys first)."""


@pytest.mark.parametrize("dialect", WRITTEN)
def test_a_dialect_file_round_trips_through_convert_in_one_command(tmp_path: Path, dialect: str) -> None:
    source = FIXTURES / f"{dialect}.jsonl"
    code, out = _convert(tmp_path, source, "--from", dialect, "--to", dialect, "--strict-all")
    assert code == 0
    if dialect in KEYS_REORDERED:
        assert _rows(out) == _rows(source)
    else:
        assert out.read_bytes() == source.read_bytes()


def test_axolotl_key_mapping_round_trips(tmp_path: Path) -> None:
    source = FIXTURES / "axolotl-mapped.jsonl"
    config = ("--dialect-config", str(FIXTURES / "axolotl-config.json"))
    code, out = _convert(tmp_path, source, "--from", "sharegpt", "--to", "sharegpt", *config)
    assert code == 0
    assert out.read_bytes() == source.read_bytes()
    code, out = _convert(tmp_path, source, "--from", "sharegpt", "--to", "trl-prompt-completion", *config)
    assert code == 0
    assert _rows(out) == [
        {
            "prompt": [{"role": "user", "content": "Translate 'cat' to French."}],
            "completion": [{"role": "assistant", "content": "chat"}],
        }
    ]


def test_llama_factory_tags_name_the_roles() -> None:
    layout = training.layout_from_config(
        {
            "columns": {"messages": "messages"},
            "tags": {"role_tag": "role", "content_tag": "content", "user_tag": "user", "assistant_tag": "assistant"},
        }
    )
    row = {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]}
    body = training.read_conversation(row, "sharegpt", layout).body
    assert [message["role"] for message in body["messages"]] == ["user", "assistant"]
    assert training.write_conversation(body, "sharegpt", layout, losses=[]) == row


def test_sharegpt_calls_and_tools_become_openai_shapes(tmp_path: Path) -> None:
    code, out = _convert(tmp_path, FIXTURES / "sharegpt.jsonl", "--from", "sharegpt", "--to", "openai-chat")
    assert code == 0
    body = _rows(out)[0]
    assert body["messages"][0] == {"role": "system", "content": "You are a weather assistant."}
    call = body["messages"][2]["tool_calls"][0]
    assert call["function"] == {"name": "get_weather", "arguments": '{"city": "Paris"}'}
    assert body["messages"][3] == {
        "role": "tool",
        "tool_call_id": call["id"],
        "content": '{"temperature": 21, "sky": "clear"}',
    }
    assert body["tools"][0]["function"]["name"] == "get_weather"
    code, back = _convert(tmp_path, out, "--from", "openai-chat", "--to", "sharegpt")
    assert code == 0
    assert back.read_bytes() == (FIXTURES / "sharegpt.jsonl").read_bytes()


def test_a_verifiers_rollout_keeps_its_columns_and_split(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = FIXTURES / "verifiers.jsonl"
    code, out = _convert(tmp_path, source, "--from", "verifiers", "--to", "anthropic", "--option", "max_tokens=64")
    assert code == 0
    body = _rows(out)[0]
    assert body["system"] == "Use the tools."
    assert [block["type"] for block in body["messages"][1]["content"]] == ["text", "tool_use", "tool_use"]
    assert (
        "loss (metadata): $.reward: verifiers column (anthropic rows have no place for it)" in capsys.readouterr().err
    )
    assert main(["validate", str(source), "--format", "verifiers"]) == 0
    assert "ok, 6 messages" in capsys.readouterr().out


def test_preference_pairs_move_between_pair_dialects_exactly(tmp_path: Path) -> None:
    source = FIXTURES / "trl-preference.jsonl"
    code, dpo = _convert(tmp_path, source, "--from", "trl-preference", "--to", "openai-dpo")
    assert code == 0
    assert _rows(dpo)[0]["non_preferred_output"] == [{"role": "assistant", "content": "It is green."}]
    code, pair = _convert(tmp_path, dpo, "--from", "openai-dpo", "--to", "preference")
    assert code == 0
    code, back = _convert(tmp_path, pair, "--from", "preference", "--to", "trl-preference")
    assert code == 0
    assert back.read_bytes() == source.read_bytes()


def test_a_pair_is_refused_by_a_single_conversation_format(tmp_path: Path) -> None:
    code, out = _convert(tmp_path, FIXTURES / "openai-dpo.jsonl", "--from", "openai-dpo", "--to", "openai-chat")
    assert code == 1
    assert out.read_text(encoding="utf-8") == ""
    assert "[rule: training_pair]" in _rows(tmp_path / "rejects.jsonl")[0]["error"]


def test_a_dpo_setting_trl_has_no_place_for_is_a_loss(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = _convert(tmp_path, FIXTURES / "openai-dpo.jsonl", "--from", "openai-dpo", "--to", "trl-preference")
    assert code == 0
    assert "$.prompt.parallel_tool_calls: parallel_tool_calls (trl-preference rows keep no request settings)" in (
        capsys.readouterr().err
    )


def test_a_sharegpt_row_with_an_unknown_role_names_its_path(tmp_path: Path) -> None:
    source = tmp_path / "bad.jsonl"
    source.write_text(json.dumps({"conversations": [{"from": "robot", "value": "beep"}]}) + "\n", encoding="utf-8")
    code, _ = _convert(tmp_path, source, "--from", "sharegpt", "--to", "openai-chat")
    assert code == 1
    error = _rows(tmp_path / "rejects.jsonl")[0]["error"]
    assert error.startswith("at $.conversations[0].from: 'robot' is no role this layout names")


def test_trl_implicit_prompt_is_the_shared_start_and_stays_implicit(tmp_path: Path) -> None:
    source = FIXTURES / "trl-preference-implicit.jsonl"
    code, out = _convert(tmp_path, source, "--from", "trl-preference", "--to", "trl-preference")
    assert code == 0
    assert out.read_bytes() == source.read_bytes()
    code, out = _convert(tmp_path, source, "--from", "trl-preference", "--to", "openai-dpo")
    assert code == 0
    row = _rows(out)[0]
    assert row["input"] == {"messages": [{"role": "user", "content": "What color is the sky?"}]}
    assert row["preferred_output"] == [{"role": "assistant", "content": "It is blue."}]


def test_llama_factory_preference_rows_become_openai_dpo(tmp_path: Path) -> None:
    source = FIXTURES / "sharegpt-preference.jsonl"
    code, out = _convert(tmp_path, source, "--from", "sharegpt-preference", "--to", "openai-dpo")
    assert code == 0
    row = _rows(out)[0]
    assert row["input"]["messages"][0] == {"role": "system", "content": "Answer briefly."}
    assert row["non_preferred_output"] == [{"role": "assistant", "content": "9.11 is larger."}]
    code, back = _convert(tmp_path, out, "--from", "openai-dpo", "--to", "sharegpt-preference")
    assert code == 0
    assert _rows(back) == _rows(source)


def test_a_dataset_column_of_a_training_row_is_carried_not_lost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = FIXTURES / "verifiers.jsonl"
    arguments = ("--from", "verifiers", "--to", "anthropic", "--option", "max_tokens=64", "--column", "reward")
    code, out = _convert(tmp_path, source, *arguments)
    assert code == 0
    rows = _rows(out)
    assert [row["reward"] for row in rows] == [row["reward"] for row in _rows(source)]
    assert all(next(iter(row)) == "reward" for row in rows)
    assert "$.reward" not in capsys.readouterr().err
