"""Nova's ``stopReason`` <-> canonical finish reasons.

The words Nova documents for InvokeModel (https://docs.aws.amazon.com/nova/latest/userguide/complete-request-schema-response.html):
``end_turn``, ``tool_use``, ``max_tokens``, ``stop_sequence``, ``content_filtered``,
``malformed_model_output``, ``malformed_tool_use``; the raw word rides beside the unified
reason, so a same-provider round trip writes it back, and a word this table does not know
reads as ``other``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._losses import Steps
from chatcodec._providers.contract.context import EncodeContext

if TYPE_CHECKING:  # the codec loads no canonical model (first use)
    from chatcodec._model.response import UnifiedFinishReason

WORDS: Mapping[str, UnifiedFinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "content_filtered": "content_filter",
    "malformed_model_output": "error",
    "malformed_tool_use": "error",
}
"""Every finish word Nova documents, with its unified reason."""

_WORD: Mapping[str, str] = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "length": "max_tokens",
    "content_filter": "content_filtered",
    "error": "malformed_model_output",
}
"""The word written for a unified reason."""


def decode_finish_reason(raw: str | None, bag: dict[str, Any]) -> dict[str, Any] | None:
    """The canonical reason for a wire word (None when the wire has none)."""
    del bag  # the word rides in ``raw``
    if raw is None:
        return None
    return {"unified": WORDS.get(raw, "other"), "raw": raw}


def encode_finish_reason(
    reason: Mapping[str, Any] | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str | None:
    """The wire word: the raw word when it is Nova's and agrees with the unified value,
    else the closest word (a loss when Nova has none)."""
    del bag
    if reason is None:
        return None
    raw, unified = reason.get("raw"), reason["unified"]
    if isinstance(raw, str) and WORDS.get(raw, "other") == unified:
        return raw
    word = _WORD.get(unified)
    if word is None:
        context.losses.add(at, f"finish reason {unified!r}", "Nova has no such word; sent 'end_turn'", "metadata")
        return "end_turn"
    return word
