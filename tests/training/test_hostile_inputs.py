"""Hostile and broken input to the training room (issue 97, W10-07 to W10-11): each is a
chatcodec error naming the path and the rule, never Python's or a library's own exception,
and a bad row stops only itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import tokenizers
from pyarrow import parquet

from chatcodec import TemplateError, render
from chatcodec.batch._convert import ConvertOptions, convert_payload
from chatcodec.cli import main
from training.qwen3_tokenizer import qwen3_encoding


def _calling(arguments: str) -> list[dict[str, Any]]:
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": arguments}}
    return [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "r"},
        {"role": "assistant", "content": "ok"},
    ]


@pytest.mark.parametrize("depth", [1_000, 2_000])
def test_arguments_nested_past_any_schema_are_refused_at_their_path(depth: int) -> None:
    nested = '{"a":' * depth + "1" + "}" * depth
    with pytest.raises(TemplateError) as raised:
        render(_calling(nested), template="qwen3.6")  # a template taking arguments as an object
    assert raised.value.path == "$.messages[1].content[0].arguments"
    assert raised.value.rule == "arguments_depth"
    # a template writing the model's text as it is renders it
    assert nested in render(_calling(nested), template="qwen3", on_loss="ignore").text


def _byte_tokenizer() -> tokenizers.Tokenizer:
    alphabet = sorted(tokenizers.pre_tokenizers.ByteLevel.alphabet())
    tokenizer = tokenizers.Tokenizer(tokenizers.models.BPE({c: i for i, c in enumerate(alphabet)}, []))
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tokenizer.add_special_tokens(["<|im_start|>", "<|im_end|>", "<think>", "</think>"])
    return tokenizer


@pytest.mark.parametrize("tokenizer", [_byte_tokenizer(), qwen3_encoding()], ids=["tokenizers", "tiktoken"])
def test_a_lone_surrogate_is_refused_before_a_tokenizer_sees_it(tokenizer: object) -> None:
    conversation = [{"role": "user", "content": "half \ud800 a pair"}, {"role": "assistant", "content": "ok"}]
    with pytest.raises(TemplateError) as raised:  # tokenizers raised TypeError; tiktoken wrote U+FFFD's ids
        render(conversation, template="qwen3", tokenizer=tokenizer)
    assert raised.value.path == "$.messages[0].content"
    assert raised.value.rule == "encodable_text"
    assert render(conversation, template="qwen3").text  # the text alone renders: Python holds it


def _rollout_row(**columns: Any) -> dict[str, Any]:
    messages = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]
    return {"messages": messages, "token_ids": [1, 2, 3], **columns}


def test_a_token_id_past_int64_is_refused_at_its_row_and_the_others_are_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = tmp_path / "rollouts.jsonl"
    good, bad = _rollout_row(), _rollout_row(token_ids=[1, 2**64, 3])
    rows.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    out = tmp_path / "rollouts.parquet"
    code = main(["convert", str(rows), "--from", "rollout", "--to", "rollout", "--out", str(out)])
    assert code == 1  # one row rejected, not the whole file
    assert "$.token_ids[1]" in capsys.readouterr().err
    assert parquet.read_table(out).column("token_ids").to_pylist() == [[1, 2, 3]]


def test_a_huge_value_is_quoted_short_in_the_error() -> None:
    huge = "x" * 5_000_000
    outcome = convert_payload(_rollout_row(token_ids=[1, huge, 3]), ConvertOptions("rollout", "openai-chat"))
    assert outcome.error is not None
    assert "$.token_ids[1]" in outcome.error
    assert len(outcome.error) < 1_000


def _step(completion_mask: list[Any]) -> dict[str, Any]:
    return {
        "prompt": [{"role": "user", "content": "q"}],
        "completion": [{"role": "assistant", "content": "a"}],
        "tokens": {
            "prompt_ids": [1, 2],
            "prompt_mask": [0, 0],
            "completion_ids": [3, 4],
            "completion_mask": completion_mask,
            "completion_logprobs": [-0.5, -0.5],
        },
    }


@pytest.mark.parametrize("value", [2, -1, 0.5, "1"])
def test_a_verifiers_mask_value_other_than_0_or_1_is_refused_at_its_place(value: object) -> None:
    outcome = convert_payload(_step([1, value]), ConvertOptions("rollout", "rollout"))
    assert outcome.error is not None
    assert "$.tokens.completion_mask[1]" in outcome.error
    assert "expected 0 or 1" in outcome.error
    kept = convert_payload(_step([1, 0]), ConvertOptions("rollout", "rollout"))
    assert kept.converted is not None
    assert kept.converted["sampled_mask"] == [False, False, True, False]
