"""chatcodec.trainer_rows: an episode's samples in each trainer's own shape (issue 109).

The weather episode (a question, a call, its result, an answer) under ``qwen3-training`` is one
sample; under stock ``qwen3`` two (the calling turn was sampled with an empty think block the
next prompt drops). Each layout is read back against the samples it was written from; that the
trainers themselves take the rows is ``make check-consumers`` (tools/check_consumers.py).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec import PayloadError, SampledTurn, TemplateError
from training.qwen3_tokenizer import qwen3_encoding

EPISODE_FILE = Path(__file__).resolve().parent.parent / "fixtures" / "training" / "trajectory.jsonl"


def _episode() -> dict[str, Any]:
    row = json.loads(EPISODE_FILE.read_text().splitlines()[0])
    return {"messages": row["messages"], "tools": row["tools"]}


@cache
def _turns(template: str) -> tuple[SampledTurn, ...]:
    found = chatcodec.render_turns(
        _episode(), source="openai-chat", template=template, tokenizer=qwen3_encoding(), on_loss="ignore"
    )
    return tuple(
        SampledTurn(
            message_index=turn.message_index,
            prompt_ids=turn.prompt_ids,
            completion_ids=turn.completion_ids,
            logprobs=[-0.25 - number / 1000 for number in range(len(turn.completion_ids))],
            completion_text=turn.completion_text,
        )
        for turn in found
    )


def _samples(template: str) -> list[dict[str, Any]]:
    return chatcodec.trainer_samples(list(_turns(template)), on_loss="ignore")


def _verifiers_options(template: str) -> dict[str, Any]:
    return {"conversation": _episode(), "source": "openai-chat", "template": template, "tokenizer": qwen3_encoding()}


def test_the_episodes_are_one_sample_and_two() -> None:
    assert [len(_samples("qwen3-training")), len(_samples("qwen3"))] == [1, 2]


def test_skyrl_normal_rows_are_the_sample_under_skyrl_s_names() -> None:
    [sample] = _samples("qwen3-training")
    rows = chatcodec.trainer_rows([sample], layout="skyrl", reward=1.0)
    assert rows["prompt_token_ids"] == [sample["prompt_ids"]]
    assert rows["response_ids"] == [sample["response_ids"]]
    assert rows["loss_masks"] == [sample["response_mask"]]
    assert rows["rollout_logprobs"] == [sample["response_logprobs"]]
    assert rows["rewards"] == [1.0]
    assert rows["trajectory_ids"] is None
    assert rows["is_last_step"] is None
    assert rows["stop_reasons"] is None


def test_skyrl_normal_mode_refuses_a_split_episode_and_names_step_wise() -> None:
    with pytest.raises(TemplateError, match="step_wise") as raised:
        chatcodec.trainer_rows(_samples("qwen3"), layout="skyrl", reward=1.0)
    assert raised.value.rule == "trainer_one_response"


def test_skyrl_step_wise_rows_share_the_trajectory_and_end_on_its_last_step() -> None:
    samples = _samples("qwen3")
    options = {"step_wise": True, "trajectory_id": ("weather", 3)}
    rows = chatcodec.trainer_rows(samples, layout="skyrl", reward=0.5, options=options)
    assert rows["is_last_step"] == [False, True]
    assert rows["trajectory_ids"] == [{"instance_id": "weather", "repetition_id": 3}] * 2
    assert rows["rewards"] == [0.0, 0.5]
    assert rows["response_ids"] == [sample["response_ids"] for sample in samples]
    assert rows["prompt_token_ids"] == [sample["prompt_ids"] for sample in samples]


@pytest.mark.parametrize(
    ("reward", "options", "path"),
    [
        (None, {}, "$.reward"),
        (1.0, {"step_wise": True}, "$.options.trajectory_id"),
        (1.0, {"step_wise": True, "trajectory_id": ("weather", "0")}, "$.options.trajectory_id"),
        (1.0, {"step_wise": "yes"}, "$.options.step_wise"),
        (1.0, {"stop_reasons": ["stop", "stop"]}, "$.options.stop_reasons"),
        (True, {}, "$.reward"),
    ],
)
def test_skyrl_refuses_what_its_output_cannot_hold_at_its_path(reward: Any, options: dict[str, Any], path: str) -> None:
    with pytest.raises(PayloadError) as raised:
        chatcodec.trainer_rows(_samples("qwen3-training"), layout="skyrl", reward=reward, options=options)
    assert raised.value.path == path


def test_skyrl_refuses_logprobs_on_some_rows_only() -> None:
    first, second = _samples("qwen3")
    with pytest.raises(TemplateError, match="every row or for none"):
        chatcodec.trainer_rows(
            [first, {**second, "response_logprobs": None}],
            layout="skyrl",
            reward=1.0,
            options={"step_wise": True, "trajectory_id": ("weather", 0)},
        )


def test_verl_takes_one_output_per_episode() -> None:
    [sample] = _samples("qwen3-training")
    row = chatcodec.trainer_rows([sample], layout="verl", reward=2.0, options={"num_turns": 5})
    assert {key: row[key] for key in ("prompt_ids", "response_ids", "response_mask", "response_logprobs")} == sample
    assert (row["reward_score"], row["num_turns"], row["metrics"]) == (2.0, 5, {})
    with pytest.raises(TemplateError, match="one AgentLoopOutput per episode"):
        chatcodec.trainer_rows(_samples("qwen3"), layout="verl")


@pytest.mark.parametrize("template", ["qwen3-training", "qwen3"])
def test_each_verifiers_branch_is_a_sample_and_each_node_a_message(template: str) -> None:
    samples = _samples(template)
    losses: list[chatcodec.Loss] = []
    nodes = chatcodec.trainer_rows(
        list(_turns(template)),
        layout="verifiers",
        options=_verifiers_options(template),
        on_loss="ignore",
        losses=losses,
    )
    parents = {node["parent"] for node in nodes}
    leaves = [index for index in range(len(nodes)) if index not in parents]
    assert len(leaves) == len(samples)
    for leaf, sample in zip(leaves, samples, strict=True):
        path: list[dict[str, Any]] = []
        at: int | None = leaf
        while at is not None:
            path.insert(0, nodes[at])
            at = nodes[at]["parent"]
        assert [token for node in path for token in node["token_ids"]] == sample["prompt_ids"] + sample["response_ids"]
        mask = [int(flag) for node in path for flag in node["mask"]]
        assert mask == [0] * len(sample["prompt_ids"]) + sample["response_mask"]
        assert [value for node in path for value in node["logprobs"]] == [
            value for value, flag in zip(sample["response_logprobs"], sample["response_mask"], strict=True) if flag
        ]
        assert [node["message"]["role"] for node in path][:2] == ["system", "user"]
        assert path[-1]["sampled"]
        assert path[-1]["message"]["role"] == "assistant"
        assert all(len(node["mask"]) == len(node["token_ids"]) for node in path)
    roots = [node for node in nodes if node["parent"] is None]
    assert all(root["tools"][0]["name"] == "get_current_temperature" for root in roots)
    call = nodes[2]["message"]["tool_calls"][0]
    assert set(call) == {"id", "type", "name", "arguments"}
    assert call["name"] == "get_current_temperature"
    if template == "qwen3":  # the stock template shows no end of the earlier answer in the second prompt
        assert [(loss.path, loss.what) for loss in losses if loss.what == "message tokens"] == [
            ("$.messages[2]", "message tokens")
        ]


def test_a_verifiers_graph_is_written_from_the_turns_and_their_conversation() -> None:
    with pytest.raises(PayloadError, match="pass the turns"):
        chatcodec.trainer_rows(_samples("qwen3"), layout="verifiers", options=_verifiers_options("qwen3"))
    with pytest.raises(TemplateError, match="conversation"):
        chatcodec.trainer_rows(list(_turns("qwen3")), layout="verifiers", on_loss="ignore")


def test_a_verifiers_turn_whose_prompt_is_not_the_rendering_is_refused_at_it() -> None:
    first, second = _turns("qwen3-training")
    changed = SampledTurn(second.message_index, [*second.prompt_ids[:-1], 0], second.completion_ids)
    with pytest.raises(TemplateError, match="not the template's rendering") as raised:
        chatcodec.trainer_rows(
            [first, changed], layout="verifiers", options=_verifiers_options("qwen3-training"), on_loss="ignore"
        )
    assert raised.value.path == "$[1].prompt_ids"


@pytest.mark.parametrize("template", ["qwen3-training", "qwen3"])
def test_art_holds_one_completions_exchange_per_turn(template: str) -> None:
    turns = _turns(template)
    trajectory = chatcodec.trainer_rows(
        list(turns), layout="art", reward=1.0, options={"model": "qwen3"}, on_loss="ignore"
    )
    exchanges = trajectory["exchanges"]["completions"]
    assert trajectory["reward"] == 1.0
    assert len(exchanges) == len(turns)
    for exchange, turn in zip(exchanges, turns, strict=True):
        assert exchange["request"]["prompt"] == turn.prompt_ids
        [choice] = exchange["response"]["choices"]
        assert (choice["token_ids"], choice["prompt_token_ids"]) == (turn.completion_ids, turn.prompt_ids)
        assert choice["logprobs"]["token_logprobs"] == turn.logprobs
        assert choice["logprobs"]["tokens"][0] == f"token_id:{turn.completion_ids[0]}"
    assert [exchange["start_time"] for exchange in exchanges] == sorted(
        exchange["start_time"] for exchange in exchanges
    )
    with pytest.raises(PayloadError, match="by model"):
        chatcodec.trainer_rows(list(turns), layout="art", on_loss="ignore")


def test_slime_samples_of_one_rollout_share_its_rollout_id() -> None:
    samples = _samples("qwen3")
    with pytest.raises(TemplateError, match="rollout_id"):
        chatcodec.trainer_rows(samples, layout="slime", reward=1.0)
    rows = chatcodec.trainer_rows(samples, layout="slime", reward=1.0, options={"rollout_id": 7})
    for row, sample in zip(rows, samples, strict=True):
        assert row["tokens"] == sample["prompt_ids"] + sample["response_ids"]
        assert row["response_length"] == len(sample["response_ids"]) == len(row["loss_mask"])
        assert (row["rollout_id"], row["status"], row["reward"]) == (7, "completed", 1.0)
        assert row["rollout_log_probs"] == sample["response_logprobs"]


def test_trl_rows_are_the_rollout_func_s_lists_and_the_sft_rows() -> None:
    samples = _samples("qwen3")
    grpo = chatcodec.trainer_rows(samples, layout="trl")
    assert grpo["completion_ids"] == [sample["response_ids"] for sample in samples]
    assert grpo["env_mask"] == [sample["response_mask"] for sample in samples]
    assert grpo["logprobs"] == [sample["response_logprobs"] for sample in samples]
    without = [{**sample, "response_logprobs": None} for sample in samples]
    assert chatcodec.trainer_rows(without, layout="trl")["logprobs"][0] == [0.0] * len(samples[0]["response_ids"])
    sft = chatcodec.trainer_rows(samples, layout="trl-sft")
    for row, sample in zip(sft, samples, strict=True):
        assert row["input_ids"] == sample["prompt_ids"] + sample["response_ids"]
        assert row["assistant_masks"] == [0] * len(sample["prompt_ids"]) + sample["response_mask"]


def test_turns_are_merged_as_trainer_samples_merges_them() -> None:
    turns = list(_turns("qwen3"))
    losses: list[chatcodec.Loss] = []
    from_turns = chatcodec.trainer_rows(turns, layout="trl", on_loss="ignore", losses=losses)
    assert from_turns == chatcodec.trainer_rows(_samples("qwen3"), layout="trl")
    assert [loss.path for loss in losses] == ["$[1].prompt_ids"]  # the turn in the caller's list
    mappings = [
        {"message_index": t.message_index, "prompt_ids": t.prompt_ids, "completion_ids": t.completion_ids}
        for t in turns
    ]
    assert chatcodec.trainer_rows(mappings, layout="trl-sft", on_loss="ignore") == chatcodec.trainer_rows(
        _samples("qwen3"), layout="trl-sft"
    )


@pytest.mark.parametrize(
    ("changed", "path"),
    [
        ({"response_mask": [2]}, "$[0].response_mask[0]"),
        ({"response_ids": "abc"}, "$[0].response_ids"),
        ({"response_mask": []}, "$[0]"),
        ({"response_logprobs": [0.0]}, "$[0].response_logprobs"),
        ({"prompt_ids": [-1]}, "$[0].prompt_ids[0]"),
    ],
)
def test_a_sample_s_bad_value_is_refused_at_its_path(changed: dict[str, Any], path: str) -> None:
    [sample] = _samples("qwen3-training")
    with pytest.raises(PayloadError) as raised:
        chatcodec.trainer_rows([{**sample, **changed}], layout="verl")
    assert raised.value.path == path


def test_an_unknown_layout_or_option_is_refused_with_what_there_is() -> None:
    with pytest.raises(PayloadError, match="did you mean 'skyrl'") as raised:
        chatcodec.trainer_rows(_samples("qwen3"), layout="sky-rl")
    assert raised.value.path == "$.layout"
    with pytest.raises(PayloadError, match="its options: num_turns") as raised:
        chatcodec.trainer_rows(_samples("qwen3-training"), layout="verl", options={"step_wise": True})
    assert raised.value.path == "$.options.step_wise"
    with pytest.raises(PayloadError, match="at least one"):
        chatcodec.trainer_rows([], layout="verl")


def test_a_tool_message_holding_two_results_is_refused_by_the_verifiers_graph() -> None:
    """Anthropic sends parallel results in one user message (one canonical tool message); verifiers
    holds one result a tool message, and the rendering does not say which ids are whose."""
    calls = [
        {"type": "tool_use", "id": f"toolu_0{number}", "name": "get_weather", "input": {"city": city}}
        for number, city in enumerate(("Paris", "Rome"))
    ]
    results = [
        {"type": "tool_result", "tool_use_id": call["id"], "content": weather}
        for call, weather in zip(calls, ("Rain", "Sun"), strict=True)
    ]
    session = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "Paris and Rome?"},
            {"role": "assistant", "content": calls},
            {"role": "user", "content": results},
            {"role": "assistant", "content": "Rain in Paris, sun in Rome."},
        ],
    }
    turns = chatcodec.render_turns(
        session, source="anthropic", template="qwen3-training", tokenizer=qwen3_encoding(), on_loss="ignore"
    )
    options = {
        "conversation": session,
        "source": "anthropic",
        "template": "qwen3-training",
        "tokenizer": qwen3_encoding(),
    }
    with pytest.raises(TemplateError, match="holds 2 tool results") as raised:
        chatcodec.trainer_rows(turns, layout="verifiers", options=options, on_loss="ignore")
    assert (raised.value.path, raised.value.rule) == ("$.messages[2]", "trainer_tool_results")
