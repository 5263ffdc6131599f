"""The AI SDK's finish reasons (``generateText``'s ``finishReason``) <-> the unified reason."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._frameworks.history import finish_reader
from chatcodec.contract import EncodeContext, Steps

if TYPE_CHECKING:
    from chatcodec._model.response_fields import UnifiedFinishReason

WORDS: Mapping[str, UnifiedFinishReason] = {
    "stop": "stop",
    "length": "length",
    "content-filter": "content_filter",
    "tool-calls": "tool_calls",
    "error": "error",
    "other": "other",
}
_WORD_OF: Mapping[str, str] = {unified: word for word, unified in WORDS.items()}


decode_finish_reason = finish_reader(WORDS)
"""The canonical reason for a stored word (None when the answer kept none)."""


def encode_finish_reason(
    reason: Mapping[str, Any] | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str | None:
    """The AI SDK's word: the raw word when it is one of the SDK's, else the unified one's."""
    del bag
    if reason is None:
        return None
    raw = reason.get("raw")
    if isinstance(raw, str) and raw in WORDS:
        return raw
    word: str = _WORD_OF.get(str(reason["unified"]), "other")
    if isinstance(raw, str) and raw != word:
        context.losses.add(at, f"finish reason {raw!r}", f"the AI SDK's finish reasons are its own; sent as {word!r}")
    return word
