"""The wire's finish word <-> canonical :class:`~chatcodec.FinishReason` (``{unified, raw}``).

``decode_finish_reason`` keeps the provider's word as ``raw`` beside the unified value, so
a same-provider round trip writes it back; a word this table does not know (one added
after it was written) reads as ``other`` and is written back only with that record.
A real difference between providers is a named keyword with a default (Gemini's
``has_tool_calls=``), never another signature (``roles.FinishReasonFunctions``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec.contract import EncodeContext, Steps

if TYPE_CHECKING:  # the codec loads no canonical model (first use)
    from chatcodec import UnifiedFinishReason

WORDS: Mapping[str, UnifiedFinishReason] = {"end": "stop", "max_tokens": "length"}
"""Every finish word the wire documents, with its unified reason."""

_WORD: Mapping[str, str] = {"stop": "end", "length": "max_tokens"}
"""The word written for a unified reason."""


def decode_finish_reason(raw: str | None, bag: dict[str, Any]) -> dict[str, Any] | None:
    """The canonical reason for a wire word (None when the wire has none)."""
    del bag  # the word rides in ``raw``: nothing to keep beside it
    if raw is None:
        return None
    return {"unified": WORDS.get(raw, "other"), "raw": raw}


def encode_finish_reason(
    reason: Mapping[str, Any] | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str | None:
    """The wire word: the raw word when it is this wire's and agrees with the unified
    value, else the closest word (a loss when the wire has none)."""
    del bag
    if reason is None:
        return None
    raw, unified = reason.get("raw"), reason["unified"]
    if isinstance(raw, str) and WORDS.get(raw, "other") == unified:
        return raw
    word = _WORD.get(unified)
    if word is None:
        context.losses.add(at, f"finish reason {unified!r}", "Template Chat has no such word; sent 'end'", "metadata")
        return "end"
    return word
