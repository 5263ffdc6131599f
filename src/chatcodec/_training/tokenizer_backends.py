"""A ``transformers`` fast tokenizer asked through the ``tokenizers.Tokenizer`` it wraps.

A ``transformers`` fast tokenizer's ``encode(text, add_special_tokens=False)`` sets the
backend's truncation and padding off, then asks its Rust backend (``backend_tokenizer``): each
call crosses several Python layers, one piece at a time, where the backend encodes a
rendering's pieces in one batch call. So a render asks the backend itself, where the two give
the same ids: the tokenizer's encoding methods are ``transformers``' own (no model's subclass
that changes them), it splits no special tokens, the backend neither truncates nor pads, and a
probe text (the tokenizer's added and special tokens between plain text) encodes to the same
ids both ways. Each tokenizer is decided once, and the decision kept while the tokenizer lives
(:data:`KEPT_TOKENIZERS` at most, the oldest forgotten first).
"""

from __future__ import annotations

import contextlib
import weakref
from collections import OrderedDict
from typing import Any, cast

KEPT_TOKENIZERS = 16
"""How many ``transformers`` tokenizers' decisions are kept (a run holds one or two)."""

_ENCODING_METHODS = ("encode", "encode_plus", "batch_encode_plus", "_encode_plus", "_batch_encode_plus", "tokenize")
"""The methods a ``transformers`` fast tokenizer encodes through: a subclass overriding one may change ids."""

_DECIDED: OrderedDict[int, tuple[weakref.ref[Any], object | None]] = OrderedDict()


def backend(tokenizer: object) -> object | None:
    """The ``tokenizers.Tokenizer`` that encodes as ``tokenizer`` (a ``transformers`` fast
    tokenizer) does, or None (another tokenizer, or one whose ids may differ)."""
    if not _transformers_fast(tokenizer):
        return None
    key = id(tokenizer)
    kept = _DECIDED.get(key)
    if kept is not None and kept[0]() is tokenizer:
        found = kept[1]
    else:
        found = _proved(tokenizer)
        with contextlib.suppress(TypeError):  # a tokenizer that takes no weak reference: decided each time
            _DECIDED[key] = (weakref.ref(tokenizer), found)
            if len(_DECIDED) > KEPT_TOKENIZERS:
                _DECIDED.popitem(last=False)
    return found if found is not None and _plain_state(tokenizer, found) else None


def _transformers_fast(tokenizer: object) -> bool:
    return type(tokenizer).__module__.startswith("transformers.") and hasattr(tokenizer, "backend_tokenizer")


def _proved(tokenizer: Any) -> object | None:
    """The backend, where the encoding methods are ``transformers``' own and a probe gives the
    same ids both ways."""
    kind: type[object] = type(cast("object", tokenizer))
    for name in _ENCODING_METHODS:
        method: object = getattr(kind, name, None)
        module: object = getattr(method, "__module__", "")
        if method is not None and not (
            isinstance(module, str) and module.startswith("transformers.tokenization_utils")
        ):
            return None  # a model's own tokenizer class encodes its way
    try:
        found: Any = tokenizer.backend_tokenizer
        if not type(found).__module__.startswith("tokenizers") or not _plain_state(tokenizer, found):
            return None
        probe = _probe(tokenizer)
        same = (
            list(tokenizer.encode(probe, add_special_tokens=False)) == found.encode(probe, add_special_tokens=False).ids
        )
    except Exception:  # a foreign object's properties may raise anything: then ask it as it is
        return None
    return found if same else None


def _plain_state(tokenizer: Any, found: Any) -> bool:
    """Whether the backend now encodes as the tokenizer's ``encode`` would set it to."""
    try:
        return (
            not getattr(tokenizer, "split_special_tokens", False)
            and found.truncation is None
            and found.padding is None
            and not getattr(found, "encode_special_tokens", False)
        )
    except Exception:  # a backend without these settings: not the one this reads
        return False


def _probe(tokenizer: Any) -> str:
    """Plain text around each of the tokenizer's special and added tokens."""
    added: Any = getattr(tokenizer, "added_tokens_decoder", None) or {}
    held: list[object] = list(added.values())
    tokens = [str(getattr(token, "content", token)) for token in held]
    special: list[object] = list(getattr(tokenizer, "all_special_tokens", None) or [])
    tokens += [str(token) for token in special]
    text = " Hello, world! 12 345\n\tcode: x = f(y) + 'z'  # café 東京\n"
    return text + "".join(f"{token}{text}" for token in dict.fromkeys(tokens))
