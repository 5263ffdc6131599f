"""Text to token ids with whatever tokenizer a user holds, piece by piece.

Users hold a Hugging Face tokenizer (``transformers``' ``PreTrainedTokenizerFast`` or a
``tokenizers.Tokenizer``), a ``tokenizer.json`` file, or a tiktoken ``Encoding`` (Qwen's and
gpt-oss's ranks ship that way). Each is asked the way its own chat-template path asks it:
without added special tokens (the template writes them) and with special-token text read as
the special tokens (``<|im_start|>`` is one id, not nine).

A rendering is tokenized piece by piece, cut where a message ends and where sampled text
starts and ends, so each token belongs to one message and is sampled or not: the ids are the
prompt's tokens followed by the sampled tokens, as a model saw them at inference.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import math
import os
from collections.abc import Callable, Sequence
from typing import Any, cast

from chatcodec._errors import PayloadError
from chatcodec._extras import missing_extra
from chatcodec._training import tokenizer_backends, tokenizer_folders
from chatcodec._training.errors import TemplateError

Encode = Callable[[str], list[int]]
EncodeBatch = Callable[[list[str]], list[list[int]]]

LARGEST_ID = 2**63 - 1
"""The largest token id anything here takes: a trainer holds ids as signed 64-bit integers
(``torch.long``, NumPy's ``int64``), and an id past it cannot be one of a model's."""


def ids_fault(ids: object, vocabulary: int | None = None) -> tuple[str, str] | None:
    """Why ``ids`` are not token ids, as ``(where, rule)`` (``where`` the offending item,
    ``[3]``, or empty for the value itself), or None: a list of integers (a bool or a float
    is none) from 0 to :data:`LARGEST_ID`, each below ``vocabulary`` where the tokenizer is
    known (:func:`vocabulary_size`). The one rule for a sampled id: the gateway checks an
    inference server's ids with it before it parses or records them, and
    :func:`chatcodec.read_records` checks a record's ids with it."""
    if not isinstance(ids, list):
        return "", f"token ids are a list of integers, not {_shown(ids)}"
    items = cast("list[object]", ids)
    limit = LARGEST_ID if vocabulary is None else min(vocabulary - 1, LARGEST_ID)
    if not set(map(type, items)) - {int} and (
        not items or (min(cast("list[int]", items)) >= 0 and max(cast("list[int]", items)) <= limit)
    ):
        return None
    for position, item in enumerate(items):
        if type(item) is not int:  # a bool or a float is no id
            return f"[{position}]", f"a token id is an integer, not {_shown(item)}"
        if not 0 <= item <= LARGEST_ID:
            return f"[{position}]", f"a token id is from 0 to 2**63-1 (a trainer's int64), not {item}"
        if item > limit:
            return f"[{position}]", f"{item} is past the tokenizer's vocabulary of {vocabulary:,} ids"
    return None  # pragma: no cover - the quick check above passes exactly when no item fails


def is_logprob(value: object) -> bool:
    """A sampled id's logprob: a finite number (a bool is none; JSON holds no infinity). The one
    rule a record's writer and reader and a caller's turn values (``trainer_samples``) ask."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _shown(value: object) -> str:
    try:
        return json.dumps(value)[:40]
    except (TypeError, ValueError):
        return type(value).__name__


def vocabulary_size(tokenizer: object) -> int | None:
    """How many ids ``tokenizer`` knows, its added tokens counted (a ``transformers``
    tokenizer's ``len``, a ``tokenizers.Tokenizer``'s ``get_vocab_size()``, a tiktoken
    ``Encoding``'s ``n_vocab``), or None where it does not say. (A ``transformers``
    tokenizer's ``vocab_size`` leaves its added tokens out: Qwen3's ``<|im_end|>`` is past it.)"""
    for name in ("__len__", "get_vocab_size", "n_vocab", "vocab_size"):
        size = getattr(tokenizer, name, None)
        with contextlib.suppress(Exception):  # a foreign object's property may raise anything
            size = size() if callable(size) else size
        if isinstance(size, int) and not isinstance(size, bool):
            return size
    return None


def loaded(tokenizer: object) -> object:
    """``tokenizer`` itself, or the ``tokenizers.Tokenizer`` a ``tokenizer.json`` path holds, or
    a model folder's (:mod:`.tokenizer_folders`; a :class:`~chatcodec.PayloadError` at
    ``$.tokenizer`` for a file that is none).

    A path is read once per process and kept (the last :data:`KEPT_FILES` files, each by its
    path, size and modification time, so a file written again is read again): a closure
    handed to ``datasets.map`` or Ray passes the path with every row, and reading a model's
    ``tokenizer.json`` costs far more than a render (docs/performance.md, Memories)."""
    if not isinstance(tokenizer, str | os.PathLike):
        return tokenizer
    path: str = os.fspath(cast("str | os.PathLike[str]", tokenizer))
    model_folder = tokenizer_folders.folder(path)
    if model_folder is not None:  # a snapshot: its tokenizer.json
        path = tokenizer_folders.tokenizer_file(model_folder)
    try:
        found = os.stat(path)
    except OSError as error:
        raise PayloadError(f"{path} is no tokenizer.json: {error.strerror}", "$.tokenizer") from None
    return _read(path, found.st_size, found.st_mtime_ns)


KEPT_FILES = 4
"""How many ``tokenizer.json`` files :func:`loaded` keeps read (a run names one)."""


@functools.lru_cache(maxsize=KEPT_FILES)
def _read(path: str, size: int, modified: int) -> object:
    """The tokenizer in the file at ``path`` as it was at ``size`` and ``modified`` (the key)."""
    del size, modified
    try:
        import tokenizers
    except ModuleNotFoundError as error:  # pragma: no cover - the dev install has it
        raise missing_extra("Reading a tokenizer.json", "tokenizers", "tokenizers") from error
    try:
        read: object = tokenizers.Tokenizer.from_file(path)
    except Exception as error:  # the Rust side raises its own Exception for a bad file
        raise PayloadError(f"{path} is no tokenizer.json: {error}", "$.tokenizer") from None
    return read


def encoder(tokenizer: object) -> Encode:
    """A function from text to ids for ``tokenizer`` (an object or a ``tokenizer.json`` path; a
    ``transformers`` fast tokenizer asked through its backend where the ids are the same)."""
    tokenizer = loaded(tokenizer)
    tokenizer = tokenizer_backends.backend(tokenizer) or tokenizer
    encode = getattr(tokenizer, "encode", None)
    if not callable(encode):
        raise TemplateError(
            f"tokenizer: expected a Hugging Face tokenizer, a tokenizer.json path or a tiktoken Encoding, "
            f"not {type(tokenizer).__name__}"
        )
    if hasattr(tokenizer, "special_tokens_set") or hasattr(tokenizer, "eod_id"):  # tiktoken and its wrappers

        def tiktoken_ids(text: str) -> list[int]:
            ids: Any = encode(text, allowed_special="all")
            return [int(token) for token in ids]

        return tiktoken_ids

    def hugging_face(text: str) -> list[int]:
        encoded: Any = encode(text, add_special_tokens=False)
        ids = getattr(encoded, "ids", encoded)
        return [int(token) for token in ids]

    return hugging_face


def template_of(tokenizer: object) -> str | None:
    """The chat template a Hugging Face tokenizer or a model folder carries, or None."""
    model_folder = tokenizer_folders.folder(tokenizer)
    if model_folder is not None:
        return tokenizer_folders.chat_template(model_folder)
    template = getattr(tokenizer, "chat_template", None)
    return template if isinstance(template, str) else None


def special_tokens(tokenizer: object) -> dict[str, str]:
    """The special tokens a template reads by name (``bos_token``), as
    ``apply_chat_template`` passes them from a Hugging Face tokenizer (or a model folder's config)."""
    model_folder = tokenizer_folders.folder(tokenizer)
    if model_folder is not None:
        return tokenizer_folders.special_tokens(model_folder)
    mapping: Any = getattr(tokenizer, "special_tokens_map", None)
    if not isinstance(mapping, dict):
        return {}
    return {str(key): value for key, value in cast("dict[object, object]", mapping).items() if isinstance(value, str)}


class Untokenized(list[Any]):
    """What a rendering made without a tokenizer holds for its tokens: empty, falsy, and an
    error that says to pass a tokenizer as soon as it is read (``len``, iteration, an index),
    where ``None`` gave Python's own ``TypeError`` about ``NoneType`` from the user's code."""

    __slots__ = ()

    def _unread(self) -> TemplateError:
        return TemplateError(
            "this rendering has no tokens: render(...) was given no tokenizer (pass tokenizer= a Hugging Face "
            "tokenizer, a tokenizer.json path or a tiktoken Encoding)"
        )

    def __bool__(self) -> bool:
        return False

    def __len__(self) -> int:
        raise self._unread()

    def __iter__(self) -> Any:
        raise self._unread()

    def __getitem__(self, index: Any) -> Any:
        raise self._unread()

    def __contains__(self, value: object) -> bool:
        raise self._unread()

    def __repr__(self) -> str:
        return "<no tokenizer>"

    def __copy__(self) -> Untokenized:
        return self

    def __deepcopy__(self, memo: object) -> Untokenized:
        return self

    def __reduce__(self) -> tuple[type[Untokenized], tuple[()]]:
        return (Untokenized, ())


def batch_encoder(tokenizer: object) -> EncodeBatch:
    """A function from texts to their ids for ``tokenizer``: one batch call for a Hugging Face
    ``tokenizers.Tokenizer`` (one crossing into Rust for a rendering's pieces), one call a
    text for the others (tiktoken's batch call starts a thread pool each time, dearer than
    the short pieces it would encode); a ``transformers`` fast tokenizer is asked through its
    backend where the ids are the same (:mod:`.tokenizer_backends`)."""
    tokenizer = loaded(tokenizer)
    tokenizer = tokenizer_backends.backend(tokenizer) or tokenizer
    if _is_hugging_face_tokenizers(tokenizer):
        # encode_batch_fast (tokenizers 0.20) tracks no offsets, which the pieces do not need
        encode_batch: Any = getattr(tokenizer, "encode_batch_fast", None) or cast("Any", tokenizer).encode_batch

        def batch(texts: list[str]) -> list[list[int]]:
            return [encoding.ids for encoding in encode_batch(texts, add_special_tokens=False)]

        return batch
    encode = encoder(tokenizer)

    def one_by_one(texts: list[str]) -> list[list[int]]:
        return [encode(text) for text in texts]

    return one_by_one


def _is_hugging_face_tokenizers(tokenizer: object) -> bool:
    return type(tokenizer).__module__.startswith("tokenizers") and callable(getattr(tokenizer, "encode_batch", None))


def tokenize_pieces(encode: EncodeBatch, text: str, cuts: Sequence[int]) -> tuple[list[int], list[int], list[int]]:
    """The ids of ``text`` cut at ``cuts`` (offsets in the text), each piece tokenized on its
    own: the ids, the offset each piece starts at and how many ids each piece has."""
    bounds = sorted({0, len(text), *(cut for cut in cuts if 0 < cut < len(text))})
    pieces = list(itertools.pairwise(bounds))
    encoded = encode([text[start:end] for start, end in pieces])
    ids = [token for piece_ids in encoded for token in piece_ids]
    return ids, [start for start, _ in pieces], [len(piece_ids) for piece_ids in encoded]
