"""The Interaction's ``status`` <-> canonical :class:`~chatcodec.FinishReason`.

An Interaction has no finish word: its ``status`` says how it ended (google-genai 3.6.1
``InteractionStatus``). ``requires_action`` is a turn that called functions (the client
runs them and sends their results), ``incomplete`` and ``budget_exceeded`` ran out of
tokens, ``failed`` is an error, ``cancelled`` was stopped; the statuses of an unfinished
interaction (``in_progress``, ``queued``, ``idle``, ``requires_continuation``) are
``other``. The status rides in ``raw``, so a same-format round trip writes it back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chatcodec._providers.gemini_interactions.markers import STATUS
from chatcodec.contract import EncodeContext, Steps

if TYPE_CHECKING:
    from chatcodec import UnifiedFinishReason

WORDS: Mapping[str, UnifiedFinishReason] = {
    "completed": "stop",
    "requires_action": "tool_calls",
    "incomplete": "length",
    "budget_exceeded": "length",
    "failed": "error",
    "cancelled": "other",
    "in_progress": "other",
    "queued": "other",
    "idle": "other",
    "requires_continuation": "other",
}
"""Every status the API documents, with its unified reason."""

_WORD: Mapping[str, str] = {
    "stop": "completed",
    "tool_calls": "requires_action",
    "length": "incomplete",
    "error": "failed",
}
"""The status written for a unified reason."""


def decode_finish_reason(raw: str | None, bag: dict[str, Any]) -> dict[str, Any] | None:
    """The canonical reason for a status (None when there is none); a status not known here
    is marked in ``bag`` (the response's), so this writer sends it back as it came."""
    if raw is None:
        return None
    if raw not in WORDS:
        bag[STATUS] = raw
    return {"unified": WORDS.get(raw, "other"), "raw": raw}


def encode_finish_reason(
    reason: Mapping[str, Any] | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps
) -> str:
    """The status: the raw one when it is this API's and agrees with the unified value, else
    the closest (``completed`` for a reason with none, reported: an Interaction always has a
    status, so one without a finish reason would otherwise be read back as having stopped)."""
    if reason is None:
        context.losses.add(at, "no finish reason", "an Interaction always has a status; sent 'completed'")
        return "completed"
    raw, unified = reason.get("raw"), reason["unified"]
    if isinstance(raw, str) and raw in WORDS and WORDS[raw] == unified:
        return raw
    if unified == "other" and raw is not None and raw == bag.get(STATUS):
        return str(raw)  # most likely a status added after this was written: kept as sent
    status = _WORD.get(unified)
    if status is None:
        context.losses.add(at, f"finish reason {unified!r}", "an Interaction has no such status; sent 'completed'")
        return "completed"
    return status
