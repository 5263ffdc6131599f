"""``finish_reason`` <-> the canonical finish reason. The API's words (``COMPLETE``,
``STOP_SEQUENCE``, ``MAX_TOKENS``, ``TOOL_CALL``, ``ERROR``, ``TIMEOUT``) are mapped; another
word (the SDK types the field open) is kept as ``raw`` (``other``) and written back as it came."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec import UnifiedFinishReason
from chatcodec.contract import EncodeContext, Steps
from chatcodec_cohere_chat.markers import DISPLAY

WORDS: Mapping[str, UnifiedFinishReason] = {
    "COMPLETE": "stop",
    "STOP_SEQUENCE": "stop",
    "MAX_TOKENS": "length",
    "TOOL_CALL": "tool_calls",
    "ERROR": "error",
    "TIMEOUT": "error",
}
"""Every ``finish_reason`` of the API reference, with its unified reason."""

_WORD: Mapping[str, str] = {"stop": "COMPLETE", "length": "MAX_TOKENS", "tool_calls": "TOOL_CALL", "error": "ERROR"}

DEFAULT = "COMPLETE"
"""What a response without a finish reason the wire has is sent (the field is required)."""


def decode_finish_reason(raw: str | None, bag: dict[str, Any]) -> dict[str, Any] | None:
    del bag
    if raw is None:
        return None
    return {"unified": WORDS.get(raw, "other"), "raw": raw}


def encode_finish_reason(
    reason: Mapping[str, Any] | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str:
    """The raw word when it is this wire's reading of the unified reason, else the API's word;
    a reason it has none for (``content_filter``, ``refusal``, ``pause``, none at all) is sent
    as :data:`DEFAULT`, reported."""
    del bag
    if reason is None:
        context.losses.add(at, "finish reason", f"{DISPLAY} responses say why they ended; sent {DEFAULT}", "default")
        return DEFAULT
    raw, unified = reason.get("raw"), reason["unified"]
    if isinstance(raw, str) and WORDS.get(raw, "other") == unified:
        return raw
    word = _WORD.get(unified)
    if word is None:
        why = f"{DISPLAY} has no such finish_reason; sent {DEFAULT}"
        context.losses.add(at, f"finish reason {unified!r}", why, "metadata")
        return DEFAULT
    return word
