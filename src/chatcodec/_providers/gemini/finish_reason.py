"""``finishReason`` (and a blocked prompt's ``blockReason``) <-> canonical finish reason.

Gemini ends a turn that calls functions with ``STOP``, like a plain answer, so ``STOP``
is ``tool_calls`` when the candidate holds a function call (the caller says so) and
``stop`` otherwise; the raw word is kept either way. The safety family (``SAFETY``,
``RECITATION``, ``BLOCKLIST``, ``PROHIBITED_CONTENT``, ``SPII``, the ``IMAGE_*`` ones,
``MODEL_ARMOR``, and every ``blockReason``) is ``content_filter``; the tool-call failures
(``MALFORMED_FUNCTION_CALL``, ``UNEXPECTED_TOOL_CALL``, ``TOO_MANY_TOOL_CALLS``,
``MISSING_THOUGHT_SIGNATURE``, ``MALFORMED_RESPONSE``) are ``error``; ``CONTINUATION``
(google-genai 3.4: the turn paused, ``Candidate.continuationToken`` resumes it) is
``pause``, like Anthropic's ``pause_turn``. Libraries that map
all of these to ``stop`` hide a blocked or broken answer. A word added later decodes to
``other`` with the raw word kept and recorded in the candidate's bag (``_finish_reason``),
and encodes back as that word only with that record: a raw word is written back only by
the provider that read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec.contract import EncodeContext, Steps

if TYPE_CHECKING:
    from chatcodec import UnifiedFinishReason

FINISH_REASONS: dict[str, UnifiedFinishReason] = {
    "STOP": "stop",
    "MAX_TOKENS": "length",
    "SAFETY": "content_filter",
    "RECITATION": "content_filter",
    "BLOCKLIST": "content_filter",
    "PROHIBITED_CONTENT": "content_filter",
    "SPII": "content_filter",
    "IMAGE_SAFETY": "content_filter",
    "IMAGE_PROHIBITED_CONTENT": "content_filter",
    "IMAGE_RECITATION": "content_filter",
    "MODEL_ARMOR": "content_filter",
    "MALFORMED_FUNCTION_CALL": "error",
    "UNEXPECTED_TOOL_CALL": "error",
    "TOO_MANY_TOOL_CALLS": "error",
    "MISSING_THOUGHT_SIGNATURE": "error",
    "MALFORMED_RESPONSE": "error",
    "CONTINUATION": "pause",
    "LANGUAGE": "other",
    "OTHER": "other",
    "IMAGE_OTHER": "other",
    "NO_IMAGE": "other",
    "FINISH_REASON_UNSPECIFIED": "other",
}
"""Every ``FinishReason`` the google-genai SDK knows (the rest are ``other``)."""

BLOCK_REASONS = frozenset(
    {
        "BLOCKED_REASON_UNSPECIFIED",
        "SAFETY",
        "OTHER",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "IMAGE_SAFETY",
        "MODEL_ARMOR",
        "JAILBREAK",
    }
)
"""``promptFeedback.blockReason`` values: each means the prompt was refused (content_filter)."""

MARKER = "_finish_reason"
"""Candidate-bag key holding a ``finishReason`` this codec read and does not know, so it
is written back (and only then: the word alone does not say which provider sent it)."""

_RAW: dict[UnifiedFinishReason, str] = {
    "stop": "STOP",
    "tool_calls": "STOP",
    "length": "MAX_TOKENS",
    "content_filter": "SAFETY",
    "refusal": "SAFETY",
    "error": "MALFORMED_FUNCTION_CALL",
    "pause": "CONTINUATION",
    "other": "OTHER",
}


def decode_finish_reason(
    raw: str | None, bag: dict[str, Any], *, has_tool_calls: bool = False
) -> dict[str, Any] | None:
    """The canonical reason for a wire ``finishReason`` (None while a stream is running)."""
    if raw is None:
        return None
    if raw not in FINISH_REASONS:
        bag[MARKER] = raw
    unified = FINISH_REASONS.get(raw, "other")
    if raw == "STOP" and has_tool_calls:
        unified = "tool_calls"
    return {"unified": unified, "raw": raw}


def decode_block_reason(raw: str) -> dict[str, Any]:
    """The finish reason of a response whose prompt was blocked."""
    return {"unified": "content_filter", "raw": raw}


def encode_finish_reason(
    finish_reason: Mapping[str, Any] | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str | None:
    """The wire ``finishReason``: the raw word when it is Gemini's and agrees with the
    unified value, else the closest word (a loss when that changes the unified value)."""
    losses = context.losses
    if finish_reason is None:
        return None
    raw: str | None = finish_reason.get("raw")
    unified: UnifiedFinishReason = finish_reason["unified"]
    if raw is not None and (FINISH_REASONS.get(raw) == unified or (raw == "STOP" and unified == "tool_calls")):
        return raw
    if raw is not None and unified == "other" and raw not in FINISH_REASONS and raw == bag.get(MARKER):
        return raw  # most likely a reason added after this was written: kept as sent
    chosen = _RAW[unified]
    if FINISH_REASONS[chosen] != unified and unified != "tool_calls":
        losses.add(at, f"finish reason {unified!r}", f"Gemini has no such finishReason; sent as {chosen!r}", "metadata")
    return chosen
