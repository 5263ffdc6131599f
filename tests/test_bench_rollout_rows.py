"""``bench/rollout_rows.py``: its agent rows are seeded, distinct and of the shape it says; the
command it counts and the RenderConverter it counts beside it write the same ids and mask for them."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType

import tokenizers

from training.qwen3_tokenizer import SPECIAL_TOKENS
from training.test_rollout_rows import _byte_level_alphabet

ROOT = Path(__file__).resolve().parents[1]


def _bench() -> ModuleType:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module("bench.rollout_rows")


def test_rows_are_seeded_distinct_agent_conversations() -> None:
    bench = _bench()
    first = list(bench.rows(200))
    assert first == list(bench.rows(200))
    assert len({json.dumps(row) for row in first}) == 200
    sizes = [len(row["messages"]) for row in first]
    assert min(sizes) >= 3
    assert max(sizes) >= 30
    answers = [message for row in first for message in row["messages"] if message["role"] == "assistant"]
    assert all(answer.get("reasoning_content") for answer in answers)
    assert any(len(answer.get("tool_calls", [])) == 2 for answer in answers)  # parallel calls


def test_the_command_and_the_render_converter_write_the_same_tokens(tmp_path: Path) -> None:
    bench = _bench()
    vocab = {character: byte for byte, character in _byte_level_alphabet().items()}
    tokenizer = tokenizers.Tokenizer(tokenizers.models.BPE(vocab, []))
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tokenizer.add_special_tokens([tokenizers.AddedToken(token, special=True) for token in SPECIAL_TOKENS])
    path = tmp_path / "tokenizer.json"
    tokenizer.save(str(path))
    source = bench.write_rows(tmp_path / "rows.jsonl", 8)
    written = {}
    for subject in ("chatcodec convert", "RenderConverter"):
        out = tmp_path / f"{subject.split()[-1]}.jsonl"
        assert bench.subject_work(subject, path)(source, out) == 0
        written[subject] = [json.loads(line) for line in out.read_text().splitlines()]
    command, converter = written["chatcodec convert"], written["RenderConverter"]
    assert len(command) == len(converter) == 8
    for row, (ours, theirs) in enumerate(zip(command, converter, strict=True)):
        assert ours["token_ids"] == theirs["token_ids"], row
        assert ours["sampled_mask"] == theirs["sampled_mask"], row
        assert any(ours["sampled_mask"]), row  # every answer trained
        assert len(ours["message_indices"]) == len(ours["token_ids"])
