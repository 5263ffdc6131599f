"""Token ids back to the text a parser reads, through the model's tokenizer.

A tokenizer is a ``tokenizers.Tokenizer``, a Hugging Face tokenizer object (both decode ids
with ``decode(ids, skip_special_tokens=...)``), a tiktoken ``Encoding`` (gpt-oss's and Qwen's
ranks ship that way) or a ``tokenizer.json`` path, read with the ``tokenizers`` package: the
kinds ``chatcodec.render`` takes (:mod:`chatcodec._training.tokens` encodes with them).
Special tokens are kept: they are the markup (``<tool_call>``, ``<|channel|>``) the parsers read.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import index
from os import PathLike
from typing import Any, Protocol, cast

from chatcodec._errors import PayloadError
from chatcodec._training.tokens import ids_fault, loaded, vocabulary_size


class Decodes(Protocol):
    """What a tokenizer object needs here: ids to text."""

    def decode(self, ids: Any, /, *args: Any, **kwargs: Any) -> str: ...


def decoded_text(ids: Sequence[int], tokenizer: Decodes | str | PathLike[str] | None) -> str:
    """The text of ``ids`` with their special tokens, or a :class:`~chatcodec.PayloadError` at
    ``$.tokenizer`` naming what is missing, or at the id the tokenizer does not know
    (``$.completion[3]``: negative, past 2**63-1 or past its vocabulary)."""
    if tokenizer is None:
        raise PayloadError(
            "token ids need a tokenizer (a tokenizers.Tokenizer, a Hugging Face tokenizer or a tokenizer.json path)",
            "$.tokenizer",
        )
    try:
        numbers = [index(token) for token in ids]  # NumPy's and torch's integers too
    except TypeError:
        raise PayloadError("a completion given as a sequence is token ids: integers", "$.completion") from None
    if isinstance(tokenizer, (str, PathLike)):
        tokenizer = cast("Decodes", loaded(tokenizer))
    fault = ids_fault(numbers, vocabulary_size(tokenizer))  # a tokenizer may skip an unknown id without a word
    if fault is not None:
        raise PayloadError(fault[1], f"$.completion{fault[0]}")
    try:
        if hasattr(tokenizer, "special_tokens_set"):  # a tiktoken Encoding: its decode keeps special tokens
            return tokenizer.decode(numbers)
        return tokenizer.decode(numbers, skip_special_tokens=False)
    except (KeyError, OverflowError, ValueError, IndexError) as error:  # an id in a hole of the ranks
        raise PayloadError(
            f"the tokenizer cannot decode the ids: {type(error).__name__} {error}", "$.completion"
        ) from None
