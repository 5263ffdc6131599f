"""RenderConverter: a column of conversations to token columns, for datasets, Ray and Spark;
and BatchConverter's rollout rows, rendered or refused at construction."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import datasets
import pyarrow
import pytest
import tokenizers

from chatcodec import BatchConverter, PayloadError, RenderConverter, TemplateError, render
from chatcodec._training import families
from chatcodec._training.rollouts import rollout_row
from training.qwen3_tokenizer import SPECIAL_TOKENS
from training.test_rollout_rows import _byte_level_alphabet

TOOL_LOOP = [
    {"role": "user", "content": "Weather in Paris?"},
    {
        "role": "assistant",
        "content": "",
        "reasoning_content": "Look it up.",
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": '{"city": "Paris"}'}}
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "18 C, sunny"},
    {"role": "assistant", "content": "Sunny, 18 C.", "reasoning_content": "Say it."},
]
QUESTION = [{"role": "user", "content": "Hi?"}, {"role": "assistant", "content": "Hello."}]
NO_ANSWER = [{"role": "user", "content": "Hi?"}]


@pytest.fixture(scope="module")
def tokenizer_json(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A byte-level tokenizer.json (one id a byte, Qwen3's special tokens after them)."""
    vocab = {character: byte for byte, character in _byte_level_alphabet().items()}
    tokenizer = tokenizers.Tokenizer(tokenizers.models.BPE(vocab, []))
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tokenizer.add_special_tokens([tokenizers.AddedToken(token, special=True) for token in SPECIAL_TOKENS])
    path = tmp_path_factory.mktemp("tokenizer") / "tokenizer.json"
    tokenizer.save(str(path))
    return str(path)


def rendered(conversation: Any, tokenizer: str) -> tuple[Any, ...]:
    rendering = render(conversation, template="qwen3-training", tokenizer=tokenizer, on_loss="ignore")
    return rendering.token_ids, rendering.trainable, rendering.message_indices


def test_each_row_gets_what_render_gives_and_a_bad_row_its_error(tokenizer_json: str) -> None:
    converter = RenderConverter(template="qwen3-training", tokenizer=tokenizer_json)
    batch = {"messages": [TOOL_LOOP, NO_ANSWER, json.dumps(QUESTION)], "id": [1, 2, 3]}
    out = converter(batch)
    assert out["id"] == [1, 2, 3]  # the batch's own columns pass through
    for row, conversation in ((0, TOOL_LOOP), (2, QUESTION)):
        assert (out["token_ids"][row], out["sampled_mask"][row], out["message_indices"][row]) == rendered(
            conversation, tokenizer_json
        )
        assert out["chatcodec_error"][row] is None
    assert out["token_ids"][1] is None
    assert out["sampled_mask"][1] is None
    assert "no assistant message" in out["chatcodec_error"][1]
    assert all(isinstance(losses, list) for losses in out["chatcodec_losses"])


def test_a_family_named_reads_its_template_file_once_not_per_row(tokenizer_json: str) -> None:
    families.template_text.cache_clear()
    converter = RenderConverter(template="qwen3-training", tokenizer=tokenizer_json)
    out = converter({"messages": [TOOL_LOOP, QUESTION, TOOL_LOOP]})
    assert out["chatcodec_error"] == [None, None, None]
    assert families.template_text.cache_info().misses == 1  # the file read at construction, every row a hit
    assert families.template_text.cache_info().hits >= 3


def test_a_wire_source_and_a_json_error_name_their_place(tokenizer_json: str) -> None:
    converter = RenderConverter(
        template="qwen3-training", tokenizer=tokenizer_json, column="request", source="openai-chat"
    )
    out = converter({"request": [{"model": "m", "messages": QUESTION}, "{not json"]})
    assert out["token_ids"][0] == rendered(QUESTION, tokenizer_json)[0]
    assert out["chatcodec_error"][1].startswith("$: not JSON")


def test_the_converter_pickles_and_an_arrow_table_comes_back_as_one(tokenizer_json: str) -> None:
    converter = pickle.loads(pickle.dumps(RenderConverter(template="qwen3-training", tokenizer=tokenizer_json)))
    table = pyarrow.Table.from_pydict({"messages": [json.dumps(TOOL_LOOP), json.dumps(QUESTION)]})
    out = converter(table)
    assert isinstance(out, pyarrow.Table)
    assert out.column("token_ids").to_pylist()[0] == rendered(TOOL_LOOP, tokenizer_json)[0]
    batches = list(converter.record_batches(table.to_batches()))
    assert batches[0].column("sampled_mask").to_pylist()[1] == rendered(QUESTION, tokenizer_json)[1]


def test_hugging_face_datasets_map_renders_every_row(tokenizer_json: str) -> None:
    dataset = datasets.Dataset.from_dict({"messages": [json.dumps(TOOL_LOOP), json.dumps(QUESTION)] * 3})
    converter = RenderConverter(template="qwen3-training", tokenizer=tokenizer_json, train_on="all_assistant_messages")
    out = dataset.map(converter, batched=True, batch_size=4)
    assert out["chatcodec_error"] == [None] * 6
    expected = render(
        TOOL_LOOP,
        template="qwen3-training",
        tokenizer=tokenizer_json,
        train_on="all_assistant_messages",
        on_loss="ignore",
    )
    assert out[2]["token_ids"] == expected.token_ids
    assert out[2]["sampled_mask"] == expected.trainable


def test_a_misspelt_family_and_clashing_columns_fail_at_construction(tokenizer_json: str) -> None:
    with pytest.raises(TemplateError, match="unknown chat template family"):
        RenderConverter(template="qwen-3", tokenizer=tokenizer_json)
    with pytest.raises(ValueError, match="must differ"):
        RenderConverter(template="qwen3", tokenizer=tokenizer_json, mask_column="token_ids")


def test_batch_converter_rollout_rows_refused_at_construction_without_a_template_or_tokenizer() -> None:
    with pytest.raises(ValueError, match=r"template=.*tokenizer=.*RenderConverter"):
        BatchConverter(source="openai-chat", target="rollout", column="request")
    with pytest.raises(ValueError, match="tokenizer= renders rollout rows"):
        BatchConverter(source="openai-chat", target="hf-chat", column="request", tokenizer="tokenizer.json")
    with pytest.raises(ValueError, match="template= writes"):
        BatchConverter(source="openai-chat", target="anthropic", column="request", template="qwen3")
    with pytest.raises(TemplateError, match="unknown chat template family"):
        BatchConverter(source="openai-chat", target="hf-chat", column="request", template="qwen-3")


def test_batch_converter_renders_rollout_rows_as_the_command_line_does(tokenizer_json: str) -> None:
    converter = BatchConverter(
        source="openai-chat", target="rollout", column="request", template="qwen3-training", tokenizer=tokenizer_json
    )
    body = {"model": "m", "messages": TOOL_LOOP}
    out = converter({"request": [body]})
    assert out["chatcodec_error"] == [None]
    expected, _ = rollout_row(body, "openai-chat", "qwen3-training", tokenizer_json)
    assert out["rollout_request"][0]["token_ids"] == expected["token_ids"]
    assert out["rollout_request"][0]["sampled_mask"] == expected["sampled_mask"]


def test_the_spark_schema_names_the_default_columns() -> None:
    from chatcodec.batch._render_converter import RENDER_SPARK_SCHEMA

    converter = RenderConverter.__init__.__kwdefaults__ or {}
    for column in ("ids_column", "mask_column", "indices_column", "error_column"):
        assert f"{converter[column]} " in RENDER_SPARK_SCHEMA


def test_a_tokenizer_path_that_is_no_file_fails_at_construction_and_a_bad_file_on_its_rows(tmp_path: Path) -> None:
    with pytest.raises(PayloadError, match="no such file") as raised:
        RenderConverter(template="qwen3", tokenizer=str(tmp_path / "missing.json"))
    assert raised.value.path == "$.tokenizer"
    bad = tmp_path / "tokenizer.json"
    bad.write_text("{}", encoding="utf-8")
    out = RenderConverter(template="qwen3", tokenizer=str(bad))({"messages": [QUESTION]})
    assert out["chatcodec_error"][0].startswith("at $.tokenizer: ")
    assert out["token_ids"] == [None]
