"""``stopReason`` <-> canonical finish reason (unified value plus the raw word).

Every value botocore's ``StopReason`` lists is mapped: ``guardrail_intervened`` and
``content_filtered`` are ``content_filter`` (a safety system stopped the answer),
``malformed_model_output`` and ``malformed_tool_use`` are ``error`` (the model produced
something Bedrock could not parse; retrying may help), ``model_context_window_exceeded``
and ``max_tokens`` are ``length``. The raw word is always kept, so none of them collapses
into another on the way back. A value AWS adds later decodes to ``other`` with the raw
word kept and recorded in the response's bag (``_finish_reason``), and encodes back as
that word only with that record: a raw word is written back only by the provider that
read it. Another provider's word (a Responses ``queued`` or ``cancelled`` status, spelled
as Bedrock spells its words) is mapped from the unified value instead, and any ``other``
becomes ``end_turn``, reported (issue 24 item 15).

An answer with no finish reason ended where nobody knows (a cut-off stream): a Converse
response requires a ``stopReason`` and has no word for "not finished", so it is written
``max_tokens`` (cut short), reported, never ``end_turn``, which says the answer is whole
(issue 24 item 12).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.losses import LossRecorder, Steps
from chatcodec.response import FinishReason, UnifiedFinishReason

UNIFIED: dict[str, UnifiedFinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool_calls",
    "guardrail_intervened": "content_filter",
    "content_filtered": "content_filter",
    "malformed_model_output": "error",
    "malformed_tool_use": "error",
}
"""Every ``StopReason`` in botocore's ``bedrock-runtime`` model, with its unified reason."""

MARKER = "_finish_reason"
"""Response-bag key holding a ``stopReason`` this codec read and does not know, so it is
written back (and only then: the word alone does not say which provider sent it)."""

_RAW: dict[UnifiedFinishReason, str] = {
    "stop": "end_turn",
    "length": "max_tokens",
    "tool_calls": "tool_use",
    "content_filter": "content_filtered",
    "error": "malformed_model_output",
    "refusal": "content_filtered",
    "pause": "end_turn",
    "other": "end_turn",
}


def decode_finish_reason(raw: str | None, bag: dict[str, Any]) -> dict[str, Any] | None:
    """The canonical reason for a wire ``stopReason``; a word this codec does not know is
    also recorded in ``bag`` (the response's) so it is written back."""
    if raw is None:
        return None
    if raw not in UNIFIED:
        bag[MARKER] = raw
    return {"unified": UNIFIED.get(raw, "other"), "raw": raw}


def encode_finish_reason(
    finish_reason: FinishReason | None, bag: Mapping[str, Any], losses: LossRecorder, at: Steps
) -> str | None:
    """The wire ``stopReason``: the raw word when it is Bedrock's and agrees with the
    unified value (a word it does not know only when ``bag``, the response's own, records
    it), else the closest word (a loss when that changes the unified value)."""
    if finish_reason is None:
        return None
    raw, unified = finish_reason.raw, finish_reason.unified
    if raw is not None and UNIFIED.get(raw) == unified:
        return raw
    if raw is not None and unified == "other" and raw not in UNIFIED and raw == bag.get(MARKER):
        return raw  # most likely a stopReason added after this was written: kept as sent
    chosen = _RAW[unified]
    if UNIFIED[chosen] != unified:
        losses.add(at, f"finish reason {unified!r}", f"Bedrock has no such stopReason; sent as {chosen!r}", "metadata")
    return chosen


UNKNOWN_END = "max_tokens"
"""The ``stopReason`` of an answer whose end is unknown: cut short, not whole."""


def encode_unknown_finish(losses: LossRecorder, at: Steps) -> str:
    """The required ``stopReason`` for an answer with no finish reason (a cut-off stream)."""
    why = f"a Converse response requires a stopReason; the answer's end is unknown (cut off), sent {UNKNOWN_END!r}"
    losses.add(at, "missing finish reason", why)
    return UNKNOWN_END
