"""``stop_reason`` <-> canonical finish reason (unified value plus the raw word).

``max_tokens`` and ``model_context_window_exceeded`` both mean the answer was cut by a
token limit, so both are ``length``; ``pause_turn`` (a long server-tool turn paused, send
it back to continue) is ``pause``. A value the API adds later decodes to ``other`` with
the raw word kept and recorded in the response's bag (``_finish_reason``), and encodes
back as that word only with that record: a raw word is written back only by the provider
that read it. Another provider's word (a Responses ``queued`` or ``cancelled`` status,
spelled as Anthropic spells its words) is mapped from the unified value instead, and any
``other`` becomes ``end_turn``, reported (issue 24 item 15).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.losses import LossRecorder, Steps
from chatcodec.response import FinishReason, UnifiedFinishReason

_UNIFIED: dict[str, UnifiedFinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool_calls",
    "pause_turn": "pause",
    "refusal": "refusal",
}

MARKER = "_finish_reason"
"""Response-bag key holding a ``stop_reason`` this codec read and does not know, so it is
written back (and only then: the word alone does not say which provider sent it)."""

# Best Anthropic word for a unified reason that came from another provider.
_RAW: dict[UnifiedFinishReason, str] = {
    "stop": "end_turn",
    "length": "max_tokens",
    "tool_calls": "tool_use",
    "pause": "pause_turn",
    "refusal": "refusal",
    "content_filter": "refusal",
    "error": "end_turn",
    "other": "end_turn",
}


def decode_finish_reason(raw: str | None, bag: dict[str, Any]) -> dict[str, Any] | None:
    """The canonical reason for a wire ``stop_reason`` (None while a stream is running);
    a word this codec does not know is also recorded in ``bag`` so it is written back."""
    if raw is None:
        return None
    if raw not in _UNIFIED:
        bag[MARKER] = raw
    return {"unified": _UNIFIED.get(raw, "other"), "raw": raw}


def encode_finish_reason(
    finish_reason: FinishReason | None, bag: Mapping[str, Any], losses: LossRecorder, at: Steps
) -> str | None:
    """The wire ``stop_reason``: the raw word when it is Anthropic's and agrees with the
    unified value (a word it does not know only when ``bag``, the response's own, records
    it), else the closest word for the unified value (a loss when that changes the unified
    value, e.g. ``content_filter`` -> ``refusal``)."""
    if finish_reason is None:
        return None
    raw, unified = finish_reason.raw, finish_reason.unified
    if raw is not None and _UNIFIED.get(raw) == unified:
        return raw
    if raw is not None and unified == "other" and raw == bag.get(MARKER):
        return raw  # most likely a stop_reason added after this was written: kept as sent
    chosen = _RAW[unified]
    if _UNIFIED[chosen] != unified:
        losses.add(
            at, f"finish reason {unified!r}", f"Anthropic has no such stop_reason; sent as {chosen!r}", "metadata"
        )
    return chosen
