"""A tokenizer that splits the template's own markers is refused, naming the marker and the
tokenizer (issue 97): the Qwen2.5 vocabulary with Qwen3's template, Llama's markers through
a Qwen tokenizer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tokenizers

from chatcodec import TemplateError, render
from chatcodec.cli import main
from training.qwen3_tokenizer import SPECIAL_TOKENS, qwen3_encoding, qwen_ranks_with_specials

CONVERSATION = [{"role": "user", "content": "Name a colour."}, {"role": "assistant", "content": "Blue."}]


def test_the_qwen2_5_vocabulary_with_qwen3s_template_is_refused_at_think() -> None:
    qwen2_5 = qwen_ranks_with_specials("qwen2.5", SPECIAL_TOKENS[:22])  # Qwen2.5 has no <think>
    with pytest.raises(TemplateError) as raised:
        render(CONVERSATION, template="qwen3", tokenizer=qwen2_5)
    assert raised.value.rule == "single_token_marker"
    assert raised.value.path == "$.tokenizer"
    assert "'</think>'" in str(raised.value)
    assert "qwen2.5" in str(raised.value)
    # the template's own vocabulary renders
    assert render(CONVERSATION, template="qwen3", tokenizer=qwen3_encoding()).token_ids


def test_llama_markers_through_a_qwen_tokenizer_are_refused() -> None:
    with pytest.raises(TemplateError, match=r"'<\|end_header_id\|>' as 7 tokens"):
        render(CONVERSATION, template="llama3.1", tokenizer=qwen3_encoding())


def test_marker_like_text_a_user_wrote_is_the_users_not_the_templates() -> None:
    conversation = [{"role": "user", "content": "What is <|my_token|>?"}, {"role": "assistant", "content": "Text."}]
    rendering = render(conversation, template="qwen3", tokenizer=qwen3_encoding())
    assert rendering.token_ids is not None


def test_convert_to_rollout_refuses_the_row_naming_the_tokenizer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alphabet = sorted(tokenizers.pre_tokenizers.ByteLevel.alphabet())
    tokenizer = tokenizers.Tokenizer(tokenizers.models.BPE({c: i for i, c in enumerate(alphabet)}, []))
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tokenizer.add_special_tokens(["<|im_start|>", "<|im_end|>"])  # no <think>: another model's vocabulary
    path = tmp_path / "tokenizer.json"
    tokenizer.save(str(path))
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"messages": CONVERSATION}) + "\n", encoding="utf-8")
    arguments = ["--from", "hf-chat", "--to", "rollout", "--template", "qwen3", "--tokenizer", str(path)]
    code = main(["convert", str(rows), *arguments, "--out", str(tmp_path / "out.jsonl")])
    assert code == 1  # the row is rejected, not rendered into split markers
    errors = capsys.readouterr().err
    assert "'</think>'" in errors
    assert str(path) in errors
    assert "single_token_marker" in errors
