"""Episodes as data (issue 98): ``--to rollout --train-on`` and the ``trajectory`` dialect, a
conversation with the turns its sampler saw, through JSON Lines and Parquet and back."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import tokenizers

from chatcodec import SampledTurn, render, render_turns, trainer_samples
from chatcodec.batch._convert import ConvertOptions, convert_payload
from chatcodec.cli import main
from training.test_episodes import SECOND_QUESTION
from training.test_render import ANTHROPIC_SESSION
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


def _trajectory_file(tmp_path: Path, tokenizer_json: Path, sessions: list[dict[str, Any]]) -> Path:
    source = write_rows(tmp_path, "sessions.anthropic.jsonl", sessions)
    rendering = ("--template", "qwen3", "--tokenizer", str(tokenizer_json))
    out, _ = convert_file(tmp_path, source, "--from", "anthropic", "--to", "trajectory", *rendering)
    return out


def _two_questions() -> dict[str, Any]:
    session = copy.deepcopy(ANTHROPIC_SESSION)
    session["messages"] += SECOND_QUESTION
    return session


def test_a_trajectory_row_holds_the_template_row_and_one_turn_per_answer(tmp_path: Path, tokenizer_json: Path) -> None:
    [row] = read_rows(_trajectory_file(tmp_path, tokenizer_json, [_two_questions()]))
    assert set(row) == {"messages", "tools", "turns"}
    turns = render_turns(
        _two_questions(), source="anthropic", template="qwen3", tokenizer=str(tokenizer_json), on_loss="ignore"
    )
    assert [turn["message_index"] for turn in row["turns"]] == [2, 4, 6]
    assert [row["messages"][turn["message_index"]]["role"] for turn in row["turns"]] == ["assistant"] * 3
    assert row["turns"] == [
        {
            "message_index": turn.message_index,
            "prompt_ids": turn.prompt_ids,
            "completion_ids": turn.completion_ids,
            "logprobs": None,
        }
        for turn in turns
    ]
    assert _decoded(tokenizer_json, row["turns"][2]["completion_ids"]).endswith(
        "It shows the IANA home page.<|im_end|>"
    )
    # the episode a single rollout row cannot hold: the third prompt does not extend the second turn
    samples = trainer_samples(row["turns"], on_loss="ignore")  # a row's turns merge as they are
    assert samples == trainer_samples([SampledTurn(**turn) for turn in row["turns"]], on_loss="ignore")
    assert len(samples) == 2


def test_trajectory_rows_through_a_wire_and_back_are_the_same_rows(tmp_path: Path, tokenizer_json: Path) -> None:
    rollouts = _trajectory_file(tmp_path, tokenizer_json, [WEATHER_SESSION, _two_questions()])
    rows = read_rows(rollouts)
    requests, losses = convert_file(tmp_path, rollouts, "--from", "trajectory", "--to", "openai-chat")
    assert [json.loads(line)["path"] for line in losses.splitlines()] == ["$.turns", "$.turns"]
    rendering = ("--template", "qwen3", "--tokenizer", str(tokenizer_json))
    again, _ = convert_file(tmp_path, requests, "--from", "openai-chat", "--to", "trajectory", *rendering)
    assert read_rows(again) == rows
    checked, _ = convert_file(tmp_path, rollouts, "--from", "trajectory", "--to", "trajectory", *rendering)
    assert read_rows(checked) == rows


def test_parquet_keeps_the_turns_typed_and_exact(tmp_path: Path, tokenizer_json: Path) -> None:
    import pyarrow as pa
    from pyarrow import parquet

    rows = read_rows(_trajectory_file(tmp_path, tokenizer_json, [WEATHER_SESSION, ANTHROPIC_SESSION]))
    first = rows[0]["turns"][0]
    first["logprobs"] = [-0.25] * len(first["completion_ids"])
    source = write_rows(tmp_path, "trajectories.jsonl", rows)
    table_path = tmp_path / "trajectories.parquet"
    assert main(["convert", str(source), "--from", "trajectory", "--to", "trajectory", "--out", str(table_path)]) == 0
    table = parquet.read_table(table_path)
    turn = table.schema.field("turns").type.value_type
    assert turn == pa.struct(
        [
            pa.field("message_index", pa.int64()),
            pa.field("prompt_ids", pa.list_(pa.int64())),
            pa.field("completion_ids", pa.list_(pa.int64())),
            pa.field("logprobs", pa.list_(pa.float64())),
        ]
    )
    assert table.column("turns").to_pylist() == [row["turns"] for row in rows]
    back, _ = convert_file(tmp_path, table_path, "--from", "trajectory", "--to", "trajectory")
    assert read_rows(back) == rows
    anthropic, _ = convert_file(tmp_path, table_path, "--from", "trajectory", "--to", "openai-chat")
    assert len(read_rows(anthropic)) == 2


def test_an_id_past_int64_is_refused_at_its_row_not_by_arrow_for_the_file(
    tmp_path: Path, tokenizer_json: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 108: Arrow's OverflowError stopped ``--out x.parquet`` with exit 70 ("internal error");
    the id is refused at its path, as a rollout row's are, and the other rows are written."""
    from pyarrow import parquet

    rows = read_rows(_trajectory_file(tmp_path, tokenizer_json, [WEATHER_SESSION, ANTHROPIC_SESSION]))
    rows[0]["turns"][0]["prompt_ids"][3] = 2**64
    source = write_rows(tmp_path, "trajectories.jsonl", rows)
    table_path = tmp_path / "trajectories.parquet"
    assert main(["convert", str(source), "--from", "trajectory", "--to", "trajectory", "--out", str(table_path)]) == 1
    error = capsys.readouterr().err
    assert "at $.turns[0].prompt_ids[3]: expected an integer a 64-bit column holds, not 18446744073709551616" in error
    assert "internal error" not in error
    assert parquet.read_table(table_path).column("turns").to_pylist() == [rows[1]["turns"]]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"turns": {}}, "$.turns: a trajectory row holds its turns as a list"),
        ({"message_index": 1}, "$.turns[0].message_index: messages[1] is no assistant message"),
        ({"message_index": 99}, "$.turns[0].message_index: expected the index of one of the row's 5 messages"),
        ({"prompt_ids": [1, "2"]}, "$.turns[0].prompt_ids[1]: expected an integer a 64-bit column holds, not '2'"),
        ({"completion_ids": [2**64]}, "$.turns[0].completion_ids[0]: expected an integer a 64-bit column holds"),
        ({"logprobs": [-0.5]}, "$.turns[0].logprobs: expected one logprob per completion id"),
    ],
)
def test_turns_that_do_not_line_up_are_refused_at_their_path(
    tmp_path: Path, tokenizer_json: Path, change: dict[str, Any], message: str
) -> None:
    [row] = read_rows(_trajectory_file(tmp_path, tokenizer_json, [WEATHER_SESSION]))
    if "turns" in change:
        row = {**row, **change}
    else:
        row["turns"][0] = {**row["turns"][0], **change}
    outcome = convert_payload(row, ConvertOptions("trajectory", "openai-chat"))
    assert outcome.error is not None
    assert message in outcome.error


def test_turns_the_template_does_not_render_are_refused_never_rewritten(tmp_path: Path, tokenizer_json: Path) -> None:
    [row] = read_rows(_trajectory_file(tmp_path, tokenizer_json, [WEATHER_SESSION]))
    row["turns"][1]["completion_ids"] = row["turns"][1]["completion_ids"][:-1]
    options = ConvertOptions("trajectory", "trajectory", template="qwen3", tokenizer=str(tokenizer_json))
    outcome = convert_payload(row, options)
    assert outcome.error is not None
    assert "$.turns[1].completion_ids" in outcome.error
    assert "trajectory_turns" in outcome.error
    kept = convert_payload(row, ConvertOptions("trajectory", "trajectory"))  # without --template: kept as they are
    assert kept.converted is not None
    assert kept.converted["turns"] == row["turns"]


def test_writing_trajectories_without_a_template_and_tokenizer_is_a_usage_error(
    tmp_path: Path, tokenizer_json: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_rows(tmp_path, "session.jsonl", [WEATHER_SESSION])
    for arguments in (["--template", "qwen3"], ["--tokenizer", str(tokenizer_json)], []):
        with pytest.raises(SystemExit) as exited:
            main(["convert", str(source), "--from", "anthropic", "--to", "trajectory", *arguments])
        assert exited.value.code == 64
        assert "trajectory rows hold the tokens a chat template renders" in capsys.readouterr().err
    outcome = convert_payload(WEATHER_SESSION, ConvertOptions("anthropic", "trajectory"))
    assert outcome.error is not None
    assert "--template NAME --tokenizer tokenizer.json" in outcome.error


ATIF = Path(__file__).parents[1] / "fixtures" / "training" / "atif.json"


def test_a_harbor_atif_trajectory_reads_as_a_trajectory_row_with_its_turns() -> None:
    trajectory = json.loads(ATIF.read_text(encoding="utf-8"))
    outcome = convert_payload(trajectory, ConvertOptions("trajectory", "trajectory"))
    assert outcome.converted is not None, outcome.error
    row = outcome.converted
    assert [message["role"] for message in row["messages"]] == ["system", "user", "assistant", "tool", "assistant"]
    assert row["messages"][2]["reasoning_content"] == "I should check the weather."
    assert row["messages"][2]["tool_calls"][0]["function"] == {"name": "get_weather", "arguments": {"city": "Paris"}}
    assert row["messages"][3] == {"role": "tool", "tool_call_id": "call_1", "content": "Rain, 12 C"}
    steps = trajectory["steps"]
    assert row["turns"] == [
        {
            "message_index": 2,
            "prompt_ids": steps[2]["metrics"]["prompt_token_ids"],
            "completion_ids": steps[2]["metrics"]["completion_token_ids"],
            "logprobs": steps[2]["metrics"]["logprobs"],
        },
        {
            "message_index": 4,
            "prompt_ids": steps[3]["metrics"]["prompt_token_ids"],
            "completion_ids": steps[3]["metrics"]["completion_token_ids"],
            "logprobs": None,
        },
    ]
    paths = {loss.path for loss in outcome.losses}
    assert {"$.steps", "$.session_id", "$.agent", "$.final_metrics", "$.steps[3].metrics.cost_usd"} <= paths
    assert "$.steps[0].step_id" not in paths  # a step's place, which the row's order keeps
    # the turns merge as recorded: the second prompt extends the first turn
    [sample] = trainer_samples(row["turns"])
    assert sample["response_mask"] == [1, 1, 1, 0, 0, 1, 1]
    # and the conversation goes on to any format, the turns a loss
    chat = convert_payload(trajectory, ConvertOptions("trajectory", "openai-chat"))
    assert chat.converted is not None
    assert [message["role"] for message in chat.converted["messages"]][-2:] == ["tool", "assistant"]
    assert "$.turns" in {loss.path for loss in chat.losses}


def test_atif_steps_a_row_cannot_read_are_refused_or_reported_at_their_path() -> None:
    trajectory = json.loads(ATIF.read_text(encoding="utf-8"))
    wrong = copy.deepcopy(trajectory)
    wrong["steps"][0]["source"] = "robot"
    outcome = convert_payload(wrong, ConvertOptions("trajectory", "openai-chat"))
    assert outcome.error is not None
    assert "$.steps[0].source: expected source system, user or agent, not 'robot'" in outcome.error
    older = copy.deepcopy(trajectory)
    del older["steps"][3]["metrics"]["prompt_token_ids"]  # ATIF v1.3: completion ids only
    kept = convert_payload(older, ConvertOptions("trajectory", "trajectory"))
    assert kept.converted is not None
    assert [turn["message_index"] for turn in kept.converted["turns"]] == [2]
    assert "$.steps[3].metrics.completion_token_ids" in {loss.path for loss in kept.losses}


def test_row_options_takes_a_tokenizer_for_trajectory_rows_as_the_command_line_does(
    tmp_path: Path, tokenizer_json: Path
) -> None:
    from chatcodec.batch._row_formats import row_options  # the library path: BatchConverter, datasets

    options = row_options("anthropic", "trajectory", template="qwen3", tokenizer=str(tokenizer_json))
    row = convert_payload(WEATHER_SESSION, options).converted
    assert row is not None
    source = write_rows(tmp_path, "session.jsonl", [WEATHER_SESSION])
    rendering = ("--template", "qwen3", "--tokenizer", str(tokenizer_json))
    out, _ = convert_file(tmp_path, source, "--from", "anthropic", "--to", "trajectory", *rendering)
    assert row == read_rows(out)[0]  # the turns rendered, as the command line renders them
    atif = row_options("anthropic", "atif", template="qwen3", tokenizer=str(tokenizer_json))
    assert atif.tokenizer == str(tokenizer_json)
    row_options("anthropic", "atif")  # ATIF is written without token metrics too
    for target, given in (("trajectory", {"tokenizer": str(tokenizer_json)}), ("trajectory", {})):
        with pytest.raises(ValueError, match="trajectory rows hold the tokens a chat template renders"):
            row_options("anthropic", target, **given)
    with pytest.raises(ValueError, match="not hf-chat rows"):
        row_options("anthropic", "hf-chat", tokenizer=str(tokenizer_json))
