"""``stopReason`` <-> the canonical finish reason. The schema's standard words (``endTurn``,
``stopSequence``, ``maxTokens``, ``toolUse``) are mapped; the field is an open string, so
another word is kept as ``raw`` (``other``) and written back as it came."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec import UnifiedFinishReason
from chatcodec._frameworks.mcp_sampling.markers import DISPLAY
from chatcodec.contract import EncodeContext, Steps

WORDS: Mapping[str, UnifiedFinishReason] = {
    "endTurn": "stop",
    "stopSequence": "stop",
    "maxTokens": "length",
    "toolUse": "tool_calls",
}
"""Every standard ``stopReason`` of the 2025-11-25 schema, with its unified reason."""

_WORD: Mapping[str, str] = {"stop": "endTurn", "length": "maxTokens", "tool_calls": "toolUse"}


def decode_finish_reason(raw: str | None, bag: dict[str, Any]) -> dict[str, Any] | None:
    del bag
    if raw is None:
        return None
    return {"unified": WORDS.get(raw, "other"), "raw": raw}


def encode_finish_reason(
    reason: Mapping[str, Any] | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str | None:
    """The raw word when it is this wire's reading of the unified reason, else the standard
    word; a reason with none (``content_filter``, ``error``) is left out and reported."""
    del bag
    if reason is None:
        return None
    raw, unified = reason.get("raw"), reason["unified"]
    if isinstance(raw, str) and WORDS.get(raw, "other") == unified:
        return raw
    word = _WORD.get(unified)
    if word is None:
        context.losses.add(at, f"finish reason {unified!r}", f"{DISPLAY} has no such stopReason", "metadata")
    return word
