"""Tokenizers as users hold them: a ``transformers`` fast tokenizer is asked through the
``tokenizers.Tokenizer`` it wraps, only where the ids are the same; a model folder (a snapshot)
is its ``tokenizer.json`` and its chat template.

transformers is no test dependency (it would bring torch's stack), so the tokenizer here is a
stand-in shaped as transformers 5.24's ``TokenizersBackend`` is where chatcodec reads it: its
class and encoding methods live in ``transformers.tokenization_utils_tokenizers``, it holds a
real ``tokenizers.Tokenizer`` (Qwen3's ranks) as ``backend_tokenizer``, and its ``encode`` sets
the backend's truncation off and asks it, as ``_encode_plus`` does. ``bench/first_render.py``
and ``bench/render_instructions.py`` check chatcodec's ids against the real transformers.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
import tokenizers
from tokenizers import AddedToken, decoders, models, pre_tokenizers

import chatcodec
from chatcodec import PayloadError
from chatcodec._training import families, tokenizer_backends, tokens
from training.qwen3_tokenizer import SPECIAL_TOKENS

MODULE = "transformers.tokenization_utils_tokenizers"


@functools.cache
def _backend() -> tokenizers.Tokenizer:
    """A byte-level BPE over the bytes alone, with Qwen3's special tokens added."""
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    vocabulary = {character: index for index, character in enumerate(sorted(alphabet))}
    made = tokenizers.Tokenizer(models.BPE(vocab=vocabulary, merges=[]))
    made.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    made.decoder = decoders.ByteLevel()
    made.add_special_tokens([AddedToken(token, special=True) for token in SPECIAL_TOKENS])
    return made


class TokenizersBackend:
    """transformers' fast tokenizer as chatcodec reads it (see the module's docstring)."""

    split_special_tokens = False

    def __init__(self, backend: tokenizers.Tokenizer) -> None:
        self._tokenizer = backend

    @property
    def backend_tokenizer(self) -> tokenizers.Tokenizer:
        return self._tokenizer

    @property
    def all_special_tokens(self) -> list[str]:
        return ["<|im_end|>", "<|endoftext|>"]

    def encode(self, text: str, add_special_tokens: bool = True) -> list[int]:
        self._tokenizer.no_truncation()
        return self._tokenizer.encode(
            text, add_special_tokens=add_special_tokens
        ).ids  # as _encode_plus asks its backend

    def tokenize(self, text: str) -> list[str]:
        return self._tokenizer.encode(text).tokens

    def decode(self, ids: list[int], skip_special_tokens: bool = False) -> str:
        return self._tokenizer.decode(ids, skip_special_tokens=skip_special_tokens)

    def __len__(self) -> int:
        return self._tokenizer.get_vocab_size(with_added_tokens=True)


for _name in ("encode", "tokenize", "decode", "__init__", "__len__"):
    getattr(TokenizersBackend, _name).__module__ = MODULE
TokenizersBackend.__module__ = MODULE


class RespellingTokenizer(TokenizersBackend):
    """A model's own tokenizer class that changes what ``encode`` gives (a normalisation in Python)."""

    def encode(self, text: str, add_special_tokens: bool = True) -> list[int]:
        return super().encode(text.replace("\t", "    "), add_special_tokens)


RespellingTokenizer.__module__ = "transformers.models.respelling.tokenization_respelling"

MESSAGES: list[dict[str, Any]] = [
    {"role": "user", "content": "Indent\twith a tab?"},
    {"role": "assistant", "content": "Yes:\tlike this.", "reasoning_content": "A tab it is."},
]


def _render(tokenizer: object) -> tuple[list[int], list[bool]]:
    rendering = chatcodec.render(MESSAGES, template="qwen3-training", tokenizer=tokenizer, on_loss="ignore")
    return rendering.token_ids, rendering.trainable


def test_a_plain_fast_tokenizer_is_asked_through_its_backend_with_the_same_ids() -> None:
    wrapped = TokenizersBackend(_backend())
    assert tokenizer_backends.backend(wrapped) is wrapped.backend_tokenizer
    assert _render(wrapped) == _render(_backend())


def test_the_decision_is_kept_while_the_tokenizer_lives(monkeypatch: pytest.MonkeyPatch) -> None:
    wrapped = TokenizersBackend(_backend())
    proved = tokenizer_backends._proved
    calls: list[object] = []

    def counted(tokenizer: object) -> object | None:
        calls.append(tokenizer)
        return proved(tokenizer)

    monkeypatch.setattr(tokenizer_backends, "_proved", counted)
    for _ in range(3):
        tokens.batch_encoder(wrapped)(["Hello <|im_end|>"])
    assert calls == [wrapped]


def test_a_model_s_own_encoding_method_keeps_the_tokenizer_asked_as_it_is() -> None:
    respelling = RespellingTokenizer(_backend())
    assert tokenizer_backends.backend(respelling) is None
    ids, _ = _render(respelling)
    assert ids != _render(_backend())[0]  # its own ids: the tab written as spaces
    assert ids == tokens.encoder(respelling)(chatcodec.render(MESSAGES, template="qwen3-training").text)


def test_split_special_tokens_or_a_truncating_backend_is_no_backend_s_encoding() -> None:
    splitting = TokenizersBackend(_backend())
    splitting.split_special_tokens = True
    assert tokenizer_backends.backend(splitting) is None
    backend = tokenizers.Tokenizer.from_str(_backend().to_str())
    backend.enable_truncation(max_length=4)
    assert tokenizer_backends.backend(TokenizersBackend(backend)) is None


def test_another_tokenizer_is_not_read_as_one() -> None:
    assert tokenizer_backends.backend(_backend()) is None
    assert tokenizer_backends.backend(object()) is None


def _folder(tmp_path: Path, config: dict[str, Any] | None = None, template_file: str | None = None) -> Path:
    """A model folder as a snapshot download holds it: tokenizer.json, maybe its config and template."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    _backend().save(str(tmp_path / "tokenizer.json"))
    if config is not None:
        (tmp_path / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    if template_file is not None:
        (tmp_path / "chat_template.jinja").write_text(template_file, encoding="utf-8")
    return tmp_path


def test_a_model_folder_is_its_tokenizer_json_and_its_chat_template(tmp_path: Path) -> None:
    template = families.template_text("qwen3-training")
    config = {"chat_template": template, "eos_token": {"content": "<|im_end|>", "special": True}, "bos_token": None}
    folder = _folder(tmp_path, config)
    from_folder = chatcodec.render(MESSAGES, tokenizer=folder, on_loss="ignore")
    named = chatcodec.render(MESSAGES, template="qwen3-training", tokenizer=str(folder / "tokenizer.json"))
    assert (from_folder.text, from_folder.token_ids, from_folder.trainable) == (
        named.text,
        named.token_ids,
        named.trainable,
    )
    assert from_folder.template_family == "qwen3-training"
    assert tokens.special_tokens(str(folder)) == {"eos_token": "<|im_end|>"}


def test_a_folder_s_template_file_comes_before_its_config_s_and_a_named_default_is_read(tmp_path: Path) -> None:
    stock = families.template_text("qwen3")
    named = [{"name": "tool_use", "template": "{{ 'no' }}"}, {"name": "default", "template": stock}]
    assert tokens.template_of(_folder(tmp_path / "named", {"chat_template": named})) == stock
    training = families.template_text("qwen3-training")
    both = _folder(tmp_path / "both", {"chat_template": stock}, template_file=training)
    assert tokens.template_of(both) == training
    assert tokens.template_of(_folder(tmp_path / "bare")) is None


def test_a_folder_without_a_tokenizer_json_is_refused_at_its_path(tmp_path: Path) -> None:
    (tmp_path / "tokenizer_config.json").write_text("{}", encoding="utf-8")
    with pytest.raises(PayloadError, match=r"without a tokenizer\.json") as raised:
        chatcodec.render(MESSAGES, template="qwen3", tokenizer=tmp_path)
    assert raised.value.path == "$.tokenizer"
